//! `hookmux hooks validate`: every problem in the settings, with file, line:column, JSON path
//! and a hint; exit 1 when there is an error.

use super::render::*;
use crate::engine::config::diagnostic::{self, Diagnostic, Severity};
use crate::engine::config::settings::FileState;
use crate::engine::config::sources::Sources;
use crate::engine::validate::{self, counts};
use hookmux_sdk::{Env, Registry};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `hookmux hooks validate [--settings PATH]…`.
pub fn run(settings: Vec<PathBuf>) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let (sources, root) = super::inspected_sources(&env, settings);
    let home = env.path("HOME");
    let cx = validate::Context { project_root: &root, home: home.as_deref(), registry: Registry::global().ok() };
    let diagnostics = validate::validate(&sources, &cx);
    text(&mut anstream::stdout(), &sources, &diagnostics, &Paths::new(home.clone()))?;
    let (errors, _) = counts(&diagnostics);
    Ok(if errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The diagnostics, as text: every diagnostic with file:line:column, JSON path and hint.
fn text(out: &mut impl Write, sources: &Sources, diagnostics: &[Diagnostic], paths: &Paths) -> io::Result<()> {
    // In file order, then by position in the file.
    let mut ordered = located(sources, diagnostics);
    ordered.sort_by_key(|(index, position, _)| (*index, *position));
    for (_, position, diagnostic) in ordered {
        let (label, style) = match diagnostic.severity {
            Severity::Error => ("error", RED.bold()),
            Severity::Warning => ("warning", YELLOW.bold()),
        };
        let position = position.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default();
        let at = if diagnostic.path.is_root() { String::new() } else { format!(" {}", diagnostic.path) };
        writeln!(
            out,
            "{style}{label}{style:#}: {BOLD}{}{position}{BOLD:#}{DIM}{at}{DIM:#}",
            paths.show(&diagnostic.file)
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
    let summary = format!(
        "{}{plugins} read ({} not found): {}, {}",
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
        text(&mut out, &sources, &diagnostics, &Paths::new(None)).unwrap();
        assert_eq!(PARSES.with(|parses| parses.get()), 1);
        let out = anstream::adapter::strip_str(std::str::from_utf8(&out).unwrap()).to_string();
        assert!(out.contains("s.json:2:1 hooks.Stop[0].hooks[0]\n"), "{out}");
        assert!(out.contains("s.json:2001:1 hooks.Stop[0].hooks[1999]\n"), "{out}");
    }
}
