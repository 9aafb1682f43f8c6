//! `hookmux hooks validate`: every problem in the settings, with file, line:column, JSON path,
//! rule id and a hint, as text for people, JSON for tools or SARIF 2.1.0 for code scanning;
//! exit 1 when there is an error, whatever the format.

use super::render::*;
use crate::engine::config::check::Check;
use crate::engine::config::diagnostic::{self, Diagnostic, Severity};
use crate::engine::config::settings::FileState;
use crate::engine::config::sources::Sources;
use crate::engine::validate::{self, counts, Report};
use crate::host::qwen::lint as qwen;
use hookmux_sdk::{Env, Registry};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The version of the JSON shape `--format json` prints; it changes only when a field is removed
/// or changes meaning.
pub const JSON_VERSION: u32 = 1;

/// Where the SARIF log points for the tool.
const INFORMATION_URI: &str = "https://github.com/hookmux/hookmux";

/// The SARIF base id relative file URIs resolve against: the project root.
const ROOT_BASE_ID: &str = "%SRCROOT%";

/// How `hooks validate` prints what it finds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people: one finding per block, then a summary line.
    #[default]
    Text,
    /// For tools: one JSON object (`version`, `findings`, `silenced`, `summary`).
    Json,
    /// SARIF 2.1.0, for code scanning (GitHub, editors' SARIF viewers).
    Sarif,
}

/// `hookmux hooks validate [--settings PATH]… [--format text|json|sarif] [--no-ignore]`.
/// `no_ignore` reports what the files' `$hookmux.ignore` silence as findings: a repository's
/// own settings can silence their own findings, and a reviewer of that repository should not
/// have to trust it.
pub fn run(settings: Vec<PathBuf>, format: Format, no_ignore: bool) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let only_these = !settings.is_empty();
    let (sources, root) = super::inspected_sources(&env, settings);
    let home = hookmux_platform::dirs::home(&env);
    let cx = validate::Context { project_root: &root, home: home.as_deref(), registry: Registry::global().ok() };
    let mut report = validate::report(&sources, &cx);
    if !only_these {
        // The hosts' own hook files and settings, whose hooks run beside the ones hookmux runs
        // for them.
        report.findings.extend(cline_hook_files(&env, &root));
        report.findings.extend(qwen::lint(&qwen::settings_files(&env, &root), &sources));
    }
    if no_ignore {
        let silenced = std::mem::take(&mut report.silenced);
        report.findings.extend(silenced);
    }
    let mut out = anstream::stdout();
    match format {
        Format::Text => text(&mut out, &sources, &report, &Paths::new(home.clone()))?,
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&to_json(&sources, &report))?)?,
        Format::Sarif => {
            let root = std::path::absolute(&root).unwrap_or(root);
            writeln!(out, "{}", serde_json::to_string_pretty(&to_sarif(&sources, &report, &root))?)?
        }
    }
    let (errors, _) = counts(&report.findings);
    Ok(if errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The hook files in Cline's folders (the user's, and the project's) that Cline never runs.
fn cline_hook_files(env: &Env, project: &Path) -> Vec<Diagnostic> {
    crate::host::cline::install::Paths::of(env, project)
        .map(|paths| crate::host::cline::install::never_run(&paths))
        .unwrap_or_default()
}

/// The diagnostics, as text: every diagnostic with file:line:column, JSON path, rule id and hint.
fn text(out: &mut impl Write, sources: &Sources, report: &Report, paths: &Paths) -> io::Result<()> {
    let diagnostics = &report.findings;
    for (_, position, diagnostic) in ordered(sources, diagnostics) {
        let (label, style) = match diagnostic.severity {
            Severity::Error => ("error", RED.bold()),
            Severity::Warning => ("warning", YELLOW.bold()),
        };
        let position = position.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default();
        let at = if diagnostic.path.is_root() { String::new() } else { format!(" {}", diagnostic.path) };
        writeln!(
            out,
            "{style}{label}{style:#}: {BOLD}{}{position}{BOLD:#}{DIM}{at} [{}]{DIM:#}",
            paths.show(&diagnostic.file),
            diagnostic.check.id()
        )?;
        writeln!(out, "  {}", diagnostic.message)?;
        if let Some(hint) = &diagnostic.hint {
            writeln!(out, "  {DIM}hint:{DIM:#} {hint}")?;
        }
    }
    let (errors, warnings) = counts(diagnostics);
    let (settings, plugins): (Vec<_>, Vec<_>) = sources.files.iter().partition(|f| f.plugin.is_none());
    let read = settings.iter().filter(|f| f.state != FileState::Missing).count();
    let missing = settings.len() - read;
    let plural = |n: usize, word: &str| if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") };
    let plugins = match plugins.len() {
        0 => String::new(),
        n => format!(" and {}", plural(n, "plugin hooks file")),
    };
    let silenced = match report.silenced.len() {
        0 => String::new(),
        n => format!(", {n} silenced by `$hookmux.ignore`"),
    };
    let summary = format!(
        "{}{plugins} read ({} not found): {}, {}{silenced}",
        plural(read, "settings file"),
        missing,
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    let style = if errors > 0 {
        RED
    } else if warnings > 0 {
        YELLOW
    } else {
        GREEN
    };
    if !diagnostics.is_empty() {
        writeln!(out)?;
    }
    writeln!(out, "{style}{summary}{style:#}")
}

/// A diagnostic with its file's place among the sources and its line and column.
type Located<'d> = (usize, Option<(usize, usize)>, &'d Diagnostic);

/// The diagnostics located, in file order, then by position in the file (the order found for
/// equal positions).
fn ordered<'d>(sources: &Sources, diagnostics: &'d [Diagnostic]) -> Vec<Located<'d>> {
    let mut ordered = located(sources, diagnostics);
    ordered.sort_by_key(|(index, position, _)| (*index, *position));
    ordered
}

/// `--format json`: `{"version", "findings", "silenced", "summary"}`, each finding with `file`,
/// `line`, `column`, `json_path`, `rule`, `severity`, `message` and `hint`.
fn to_json(sources: &Sources, report: &Report) -> Value {
    let finding = |(_, position, d): Located<'_>| {
        let (line, column) = position.map_or((None, None), |(l, c)| (Some(l), Some(c)));
        json!({
            "file": d.file.to_string_lossy(),
            "line": line,
            "column": column,
            "json_path": json_path(d),
            "rule": d.check.id(),
            "severity": d.severity.as_str(),
            "message": d.message,
            "hint": d.hint,
        })
    };
    let (errors, warnings) = counts(&report.findings);
    let (settings, plugins): (Vec<_>, Vec<_>) = sources.files.iter().partition(|f| f.plugin.is_none());
    let read = settings.iter().filter(|f| f.state != FileState::Missing).count();
    json!({
        "version": JSON_VERSION,
        "findings": ordered(sources, &report.findings).into_iter().map(finding).collect::<Vec<_>>(),
        "silenced": ordered(sources, &report.silenced).into_iter().map(finding).collect::<Vec<_>>(),
        "summary": {
            "settings_files": read,
            "not_found": settings.len() - read,
            "plugin_hooks_files": plugins.len(),
            "errors": errors,
            "warnings": warnings,
            "silenced": report.silenced.len(),
        },
    })
}

/// The JSON path as text, `""` for the whole file.
fn json_path(diagnostic: &Diagnostic) -> String {
    if diagnostic.path.is_root() {
        String::new()
    } else {
        diagnostic.path.to_string()
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// `--format sarif`: a SARIF 2.1.0 log of one run. Every rule is described in
/// `tool.driver.rules`; a silenced finding is a result with an in-source suppression. Files
/// under the project root are relative URIs against `%SRCROOT%` (the root, in
/// `originalUriBaseIds`), the others absolute `file://` URIs. Columns count Unicode code points.
fn to_sarif(sources: &Sources, report: &Report, root: &Path) -> Value {
    let rules: Vec<Value> = Check::ALL
        .iter()
        .map(|check| {
            let mut rule = json!({
                "id": check.id(),
                "shortDescription": {"text": check.summary()},
                "defaultConfiguration": {"level": level(check.severity())},
            });
            if check.is_safety() {
                rule["properties"] = json!({"tags": ["security"]});
            }
            rule
        })
        .collect();
    let root_url = url::Url::from_directory_path(root).ok();
    let result = |(_, position, d): Located<'_>, silenced: bool| {
        let mut physical = json!({"artifactLocation": artifact_location(&d.file, root, root_url.as_ref())});
        if let Some((line, column)) = position {
            physical["region"] = json!({"startLine": line, "startColumn": column});
        }
        let mut location = json!({"physicalLocation": physical});
        if !d.path.is_root() {
            location["logicalLocations"] = json!([{"fullyQualifiedName": d.path.to_string(), "kind": "member"}]);
        }
        let text = match &d.hint {
            Some(hint) => format!("{}\nhint: {hint}", d.message),
            None => d.message.clone(),
        };
        let mut result = json!({
            "ruleId": d.check.id(),
            "ruleIndex": Check::ALL.iter().position(|c| *c == d.check),
            "level": level(d.severity),
            "message": {"text": text},
            "locations": [location],
            "properties": {"jsonPath": json_path(d), "hint": d.hint},
        });
        if silenced {
            result["suppressions"] = json!([{
                "kind": "inSource",
                "justification": format!("`{}` is listed in this file's `$hookmux.ignore`", d.check.id()),
            }]);
        }
        result
    };
    let mut results: Vec<Value> = ordered(sources, &report.findings).into_iter().map(|l| result(l, false)).collect();
    results.extend(ordered(sources, &report.silenced).into_iter().map(|l| result(l, true)));
    let mut run = json!({
        "tool": {"driver": {
            "name": "hookmux",
            "version": env!("CARGO_PKG_VERSION"),
            "informationUri": INFORMATION_URI,
            "rules": rules,
        }},
        "columnKind": "unicodeCodePoints",
        "results": results,
    });
    if let Some(root_url) = root_url {
        run["originalUriBaseIds"] = json!({ROOT_BASE_ID: {"uri": root_url.as_str()}});
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    })
}

/// A file as a SARIF artifact location: relative to the project root when under it, else an
/// absolute `file://` URI (a relative path that is not under the root is made absolute first).
fn artifact_location(file: &Path, root: &Path, root_url: Option<&url::Url>) -> Value {
    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let file_url = url::Url::from_file_path(&absolute).ok();
    if let (Some(root_url), Some(file_url)) = (root_url, &file_url) {
        if absolute.starts_with(root) {
            if let Some(relative) = root_url.make_relative(file_url) {
                return json!({"uri": relative, "uriBaseId": ROOT_BASE_ID});
            }
        }
    }
    match file_url {
        Some(url) => json!({"uri": url.as_str()}),
        None => json!({"uri": file.to_string_lossy()}),
    }
}

/// Each diagnostic, located; each file's text is read once for all of its diagnostics.
fn located<'d>(sources: &Sources, diagnostics: &'d [Diagnostic]) -> Vec<Located<'d>> {
    let mut by_file: BTreeMap<usize, Vec<&Diagnostic>> = BTreeMap::new();
    for d in diagnostics {
        let index = sources.files.iter().position(|f| f.path == d.file).unwrap_or(usize::MAX);
        by_file.entry(index).or_default().push(d);
    }
    by_file
        .into_iter()
        .flat_map(|(index, of_file)| {
            let text = sources.files.get(index).and_then(|f| f.text.as_deref());
            let positions = diagnostic::positions(text, &of_file);
            of_file.into_iter().zip(positions).map(move |(d, position)| (index, position, d))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::diagnostic::PARSES;
    use crate::engine::config::settings::{Scope, SettingsFile};
    use std::path::Path;

    #[test]
    fn each_file_is_parsed_once_however_many_its_problems() {
        let handlers = vec!["{}"; 2000].join(",\n");
        let settings = format!("{{\"hooks\": {{\"Stop\": [{{\"hooks\": [\n{handlers}\n]}}]}}}}");
        let sources = Sources::from_files(vec![SettingsFile::parse(Path::new("s.json"), Scope::Project, &settings)]);
        let diagnostics: Vec<Diagnostic> = sources.diagnostics().cloned().collect();
        assert_eq!(diagnostics.len(), 2000);
        let mut out = Vec::new();
        PARSES.with(|parses| parses.set(0));
        let report = Report { findings: diagnostics, silenced: Vec::new() };
        text(&mut out, &sources, &report, &Paths::new(None)).unwrap();
        assert_eq!(PARSES.with(|parses| parses.get()), 1);
        let out = anstream::adapter::strip_str(std::str::from_utf8(&out).unwrap()).to_string();
        assert!(out.contains("s.json:2:1 hooks.Stop[0].hooks[0] [invalid-shape]\n"), "{out}");
        assert!(out.contains("s.json:2001:1 hooks.Stop[0].hooks[1999] [invalid-shape]\n"), "{out}");
    }
}
