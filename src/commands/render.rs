//! The rendering the inspection commands share (`dry-run`, `hooks list`, `hooks validate`):
//! styles, aligned tables, short paths and one-line readings of sources, origins and outcomes.
//! Text is aligned for a terminal and coloured only when stdout is one and `NO_COLOR` is unset
//! (anstream strips the styles otherwise); JSON is the stable, documented form for tools.

use crate::engine::config::settings::{FileState, Plugin, SettingsFile};
use crate::engine::config::sources::Sources;
use crate::engine::select::plan::{Gate, Origin, Planned, Runner};
use crate::engine::verdict::combine::Permission;
use crate::engine::verdict::outcome::Outcome;
use crate::engine::verdict::seconds;
use crate::protocol::HookJson;
use anstyle::{AnsiColor, Style};
use hookmux_sdk::HookEvent;
use serde_json::{json, Value};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub(crate) const BOLD: Style = Style::new().bold();
pub(crate) const DIM: Style = Style::new().dimmed();
pub(crate) const GREEN: Style = AnsiColor::Green.on_default();
pub(crate) const RED: Style = AnsiColor::Red.on_default();
pub(crate) const YELLOW: Style = AnsiColor::Yellow.on_default();

/// Shortens paths under the home folder to `~/…` for reading (`~\…` on Windows, whose paths
/// are spelled with `\`).
pub struct Paths {
    home: Option<PathBuf>,
}

impl Paths {
    pub fn new(home: Option<PathBuf>) -> Paths {
        Paths { home }
    }

    pub fn show(&self, path: &Path) -> String {
        if let Some(rest) = self.home.as_ref().and_then(|home| path.strip_prefix(home).ok()) {
            return format!("~{}{}", std::path::MAIN_SEPARATOR, rest.display());
        }
        path.display().to_string()
    }
}

/// Rows of cells, padded to the widest cell of each column (measured without styles), and notes
/// under a row that start at one of its columns without widening any.
pub(crate) struct Table {
    rows: Vec<Line>,
}

pub(crate) enum Line {
    Cells(Vec<(String, Style)>),
    Note { column: usize, text: String, style: Style },
}

impl Table {
    pub(crate) fn new() -> Table {
        Table { rows: Vec::new() }
    }

    pub(crate) fn row(&mut self, cells: Vec<(String, Style)>) {
        self.rows.push(Line::Cells(cells));
    }

    pub(crate) fn note(&mut self, column: usize, text: String, style: Style) {
        self.rows.push(Line::Note { column, text, style });
    }

    pub(crate) fn write(&self, out: &mut impl Write, indent: &str) -> io::Result<()> {
        let cells =
            || self.rows.iter().filter_map(|line| if let Line::Cells(cells) = line { Some(cells) } else { None });
        let columns = cells().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| cells().filter_map(|r| r.get(c)).map(|(t, _)| t.chars().count()).max().unwrap_or(0))
            .collect();
        for line in &self.rows {
            match line {
                Line::Cells(row) => {
                    let used = row.iter().rposition(|(text, _)| !text.is_empty()).map_or(0, |last| last + 1);
                    let mut text_line = String::from(indent);
                    for (c, (text, style)) in row[..used].iter().enumerate() {
                        let pad = if c + 1 == used { 0 } else { widths[c] - text.chars().count() + 2 };
                        text_line.push_str(&format!("{style}{text}{style:#}{}", " ".repeat(pad)));
                    }
                    writeln!(out, "{text_line}")?;
                }
                Line::Note { column, text, style } => {
                    let offset: usize = widths.iter().take(*column).map(|w| w + 2).sum();
                    writeln!(out, "{indent}{}{style}{text}{style:#}", " ".repeat(offset))?;
                }
            }
        }
        Ok(())
    }
}

pub(crate) fn plain(text: impl Into<String>) -> (String, Style) {
    (text.into(), Style::new())
}

pub(crate) fn styled(text: impl Into<String>, style: Style) -> (String, Style) {
    (text.into(), style)
}

pub(crate) fn state_text(file: &SettingsFile) -> (String, Style) {
    match &file.state {
        FileState::Missing => styled("not found", DIM),
        FileState::Loaded if file.skipped > 0 => styled(
            format!("{} kept, {} skipped (`hookmux hooks validate` says why)", handlers(file.kept), file.skipped),
            YELLOW,
        ),
        FileState::Loaded => plain(format!("{} kept", handlers(file.kept))),
        FileState::Unreadable(why) => styled(format!("unreadable: {why}"), RED),
        FileState::Invalid(why) => styled(format!("invalid: {why}"), RED),
        FileState::Untrusted => styled("not read: the project is not trusted (`hookmux trust`)", YELLOW),
    }
}

pub(crate) fn handlers(n: usize) -> String {
    if n == 1 {
        "1 handler".to_string()
    } else {
        format!("{n} handlers")
    }
}

pub(crate) fn state_json(file: &SettingsFile) -> Value {
    let (state, reason) = match &file.state {
        FileState::Missing => ("missing", None),
        FileState::Loaded => ("read", None),
        FileState::Unreadable(why) => ("unreadable", Some(why.clone())),
        FileState::Invalid(why) => ("invalid", Some(why.clone())),
        FileState::Untrusted => ("untrusted", None),
    };
    let mut value = json!({
        "scope": file.scope.as_str(),
        "path": file.path,
        "state": state,
        "reason": reason,
        "kept": file.kept,
        "skipped": file.skipped,
    });
    if let Some(via) = &file.via {
        value["via"] = json!(via);
    }
    if let Some(plugin) = &file.plugin {
        value["plugin"] = plugin_json(plugin);
    }
    value
}

/// A file's path, and for a hooks file read through a hookmux entry, the file that named it.
pub(crate) fn file_text(file: &SettingsFile, paths: &Paths) -> String {
    match (&file.via, &file.plugin) {
        (_, Some(plugin)) => format!("{} ({})", paths.show(&file.path), plugin.label()),
        (Some(via), _) => format!("{} (via {})", paths.show(&file.path), paths.show(via)),
        (None, None) => paths.show(&file.path),
    }
}

pub(crate) fn sources_table(sources: &Sources, paths: &Paths) -> Table {
    let mut table = Table::new();
    for file in &sources.files {
        table.row(vec![plain(file.scope.as_str()), plain(file_text(file, paths)), state_text(file)]);
    }
    table
}

/// A command cut to a width that keeps tables readable (`--json` has it whole).
pub(crate) fn short(label: &str) -> String {
    const WIDTH: usize = 60;
    let line = label.lines().next().unwrap_or_default();
    if line.chars().count() <= WIDTH && !label.contains('\n') {
        return line.to_string();
    }
    format!("{}…", line.chars().take(WIDTH - 1).collect::<String>())
}

/// What a handler runs, as its process sees it: a plugin's `${CLAUDE_PLUGIN_ROOT}` and
/// `${CLAUDE_PLUGIN_DATA}` written out (shown with `paths`, or whole).
pub(crate) fn label(origin: &Origin<'_>, paths: Option<&Paths>) -> String {
    let label = origin.spec.kind.label();
    match (&origin.file.plugin, paths) {
        (Some(plugin), Some(paths)) => plugin.expand(&label, |path| paths.show(path)),
        (Some(plugin), None) => plugin.expand(&label, |path| path.display().to_string()),
        (None, _) => label,
    }
}

pub(crate) fn runner_text(planned: &Planned<'_>, paths: &Paths) -> (&'static str, String) {
    let label = short(&label(&planned.origin, Some(paths)));
    match &planned.runner {
        Runner::Builtin(call) => {
            let words: Vec<&str> =
                std::iter::once(call.name.as_str()).chain(call.args.iter().map(String::as_str)).collect();
            ("built-in", format!("{} (in-process)", short(&words.join(" "))))
        }
        Runner::Spawn => ("command", label),
        Runner::Detached => ("async", format!("{label} (started, not waited for)")),
        Runner::Http => ("http", label),
        Runner::NotRunnable(kind) => (kind, format!("{label} (not run by dispatch)")),
    }
}

pub(crate) fn origin_text(origin: &Origin<'_>, paths: &Paths) -> String {
    match &origin.file.plugin {
        Some(plugin) => format!("plugin {} {} {}", plugin.label(), paths.show(&origin.file.path), origin.spec.path),
        None => format!("{} {} {}", origin.file.scope.as_str(), file_text(origin.file, paths), origin.spec.path),
    }
}

pub(crate) fn origin_json(origin: &Origin<'_>) -> Value {
    let mut value = json!({
        "scope": origin.file.scope.as_str(),
        "file": origin.file.path,
        "json_path": origin.spec.path.to_string(),
    });
    if let Some(via) = &origin.file.via {
        value["via"] = json!(via);
    }
    if let Some(plugin) = &origin.file.plugin {
        value["plugin"] = plugin_json(plugin);
    }
    value
}

/// A plugin's provenance: its id, version, where it is and which settings file enabled it.
pub(crate) fn plugin_json(plugin: &Plugin) -> Value {
    json!({"id": plugin.id, "version": plugin.version, "root": plugin.root, "data": plugin.data, "enabled_by": plugin.enabled_by})
}

pub(crate) fn gate_json(gate: &Gate) -> Value {
    match gate {
        Gate::All => json!({"hooks": "all"}),
        Gate::ManagedOnly { because } => json!({"hooks": "managed-only", "because": because}),
        Gate::Nothing { because } => json!({"hooks": "none", "because": because}),
    }
}

pub(crate) fn gate_line(gate: &Gate) -> Option<String> {
    match gate {
        Gate::All => None,
        Gate::ManagedOnly { because } => Some(format!("{because}: only managed hooks run")),
        Gate::Nothing { because } => Some(format!("{because}: no hooks run")),
    }
}

/// A one-line reading of a handler's outcome.
pub fn outcome_summary(outcome: &Outcome, event: HookEvent) -> (String, Style) {
    match outcome {
        Outcome::Answered { json: Some(json), .. } => json_summary(json, event),
        Outcome::Answered { plain: Some(text), .. } if event.plain_stdout_is_context() => {
            plain(format!("context (plain text): {}", first_line(text)))
        }
        Outcome::Answered { plain: Some(_), .. } => styled("plain text (the host ignores it on this event)", DIM),
        Outcome::Answered { .. } => styled("no decision", DIM),
        Outcome::Blocked { message, .. } => styled(format!("blocks: {}", first_line(message)), RED),
        Outcome::Failed { message } => styled(format!("non-blocking error: {}", first_line(message)), YELLOW),
        Outcome::Refused { message } => styled(format!("refused: {}", first_line(message)), RED),
        Outcome::Cancelled { after } => styled(format!("timed out after {}: no decision", seconds(*after)), YELLOW),
    }
}

pub(crate) fn json_summary(json: &HookJson, event: HookEvent) -> (String, Style) {
    let mut parts = Vec::new();
    let mut style = Style::new();
    if let Some(decision) = json.specific_str("permissionDecision").or(json.decision.as_deref()) {
        let reason = json.specific_str("permissionDecisionReason").or(json.reason.as_deref());
        parts.push(match reason {
            Some(reason) => format!("{decision}: {}", first_line(reason)),
            None => decision.to_string(),
        });
        if matches!(decision, "deny" | "block") {
            style = RED;
        } else if event == HookEvent::PreToolUse && Permission::parse(decision) == Some(Permission::Allow) {
            style = GREEN;
        }
    }
    if json.specific.contains_key("updatedInput") {
        parts.push("rewrites the input".to_string());
    }
    if let Some(context) = json.specific_str("additionalContext") {
        parts.push(format!("context: {}", first_line(context)));
    }
    if json.continue_ == Some(false) {
        parts.push(format!(
            "stops the turn{}",
            json.stop_reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default()
        ));
        style = RED;
    }
    if let Some(message) = &json.system_message {
        parts.push(format!("tells the user: {}", first_line(message)));
    }
    if parts.is_empty() {
        return styled("no decision (JSON)", DIM);
    }
    (parts.join("; "), style)
}

pub(crate) fn first_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let more = text.trim().lines().count() > 1;
    let cut: String = line.chars().take(100).collect();
    if more || cut.len() < line.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

pub(crate) fn outcome_json(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Answered { json: Some(j), .. } => {
            json!({"kind": "answered", "decision": j.specific_str("permissionDecision").or(j.decision.as_deref()),
            "reason": j.specific_str("permissionDecisionReason").or(j.reason.as_deref()), "additional_context": j.specific_str("additionalContext"),
            "updated_input": j.specific.get("updatedInput"), "continue": j.continue_, "stop_reason": j.stop_reason, "system_message": j.system_message})
        }
        Outcome::Answered { plain, .. } => json!({"kind": "answered", "plain": plain}),
        Outcome::Blocked { message, .. } => json!({"kind": "blocked", "message": message}),
        Outcome::Failed { message } => json!({"kind": "failed", "message": message}),
        Outcome::Refused { message } => json!({"kind": "refused", "message": message}),
        Outcome::Cancelled { after } => json!({"kind": "timed-out", "after_s": after.as_secs_f64()}),
    }
}
