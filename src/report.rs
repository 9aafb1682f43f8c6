//! Text and JSON renderings of what the inspection commands found: `dry-run`, `hooks list`,
//! `hooks validate`. Text is aligned for a terminal and coloured only when stdout is one and
//! `NO_COLOR` is unset (anstream strips the styles otherwise); JSON is the stable, documented
//! form for tools.

use crate::combine::Permission;
use crate::diagnostic::{Diagnostic, Severity};
use crate::dispatch::{Dispatched, HandlerRun};
use crate::dry_run::Fixture;
use crate::listing::Listing;
use crate::matcher::Verdict;
use crate::outcome::{HookJson, Outcome};
use crate::plan::{Gate, Origin, Plan, Planned, Runner};
use crate::settings::{FileState, SettingsFile};
use crate::sources::Sources;
use anstyle::{AnsiColor, Style};
use hookmux_sdk::HookEvent;
use serde_json::{json, Value};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();
const GREEN: Style = AnsiColor::Green.on_default();
const RED: Style = AnsiColor::Red.on_default();
const YELLOW: Style = AnsiColor::Yellow.on_default();

/// Shortens paths under the home folder to `~/…` for reading.
pub struct Paths {
    home: Option<PathBuf>,
}

impl Paths {
    pub fn new(home: Option<PathBuf>) -> Paths {
        Paths { home }
    }

    pub fn show(&self, path: &Path) -> String {
        if let Some(rest) = self.home.as_ref().and_then(|home| path.strip_prefix(home).ok()) {
            return format!("~/{}", rest.display());
        }
        path.display().to_string()
    }
}

/// Rows of cells, padded to the widest cell of each column (measured without styles), and notes
/// under a row that start at one of its columns without widening any.
struct Table {
    rows: Vec<Line>,
}

enum Line {
    Cells(Vec<(String, Style)>),
    Note { column: usize, text: String, style: Style },
}

impl Table {
    fn new() -> Table {
        Table { rows: Vec::new() }
    }

    fn row(&mut self, cells: Vec<(String, Style)>) {
        self.rows.push(Line::Cells(cells));
    }

    fn note(&mut self, column: usize, text: String, style: Style) {
        self.rows.push(Line::Note { column, text, style });
    }

    fn write(&self, out: &mut impl Write, indent: &str) -> io::Result<()> {
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

fn plain(text: impl Into<String>) -> (String, Style) {
    (text.into(), Style::new())
}

fn styled(text: impl Into<String>, style: Style) -> (String, Style) {
    (text.into(), style)
}

/// `600 s`, `1.5 s`: a duration as a timeout is written.
pub(crate) fn seconds(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

fn state_text(file: &SettingsFile) -> (String, Style) {
    match &file.state {
        FileState::Missing => styled("not found", DIM),
        FileState::Loaded if file.skipped > 0 => styled(
            format!("{} kept, {} skipped (`hookmux hooks validate` says why)", handlers(file.kept), file.skipped),
            YELLOW,
        ),
        FileState::Loaded => plain(format!("{} kept", handlers(file.kept))),
        FileState::Unreadable(why) => styled(format!("unreadable: {why}"), RED),
        FileState::Invalid(why) => styled(format!("invalid: {why}"), RED),
    }
}

fn handlers(n: usize) -> String {
    if n == 1 {
        "1 handler".to_string()
    } else {
        format!("{n} handlers")
    }
}

fn state_json(file: &SettingsFile) -> Value {
    let (state, reason) = match &file.state {
        FileState::Missing => ("missing", None),
        FileState::Loaded => ("read", None),
        FileState::Unreadable(why) => ("unreadable", Some(why.clone())),
        FileState::Invalid(why) => ("invalid", Some(why.clone())),
    };
    json!({
        "scope": file.scope.as_str(),
        "path": file.path,
        "state": state,
        "reason": reason,
        "kept": file.kept,
        "skipped": file.skipped,
    })
}

fn sources_table(sources: &Sources, paths: &Paths) -> Table {
    let mut table = Table::new();
    for file in &sources.files {
        table.row(vec![plain(file.scope.as_str()), plain(paths.show(&file.path)), state_text(file)]);
    }
    table
}

/// A command cut to a width that keeps tables readable (`--json` has it whole).
fn short(label: &str) -> String {
    const WIDTH: usize = 60;
    let line = label.lines().next().unwrap_or_default();
    if line.chars().count() <= WIDTH && !label.contains('\n') {
        return line.to_string();
    }
    format!("{}…", line.chars().take(WIDTH - 1).collect::<String>())
}

fn runner_text(planned: &Planned<'_>) -> (&'static str, String) {
    let label = short(&planned.origin.spec.kind.label());
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

fn origin_text(origin: &Origin<'_>, paths: &Paths) -> String {
    format!("{} {} {}", origin.file.scope.as_str(), paths.show(&origin.file.path), origin.spec.path)
}

fn origin_json(origin: &Origin<'_>) -> Value {
    json!({"scope": origin.file.scope.as_str(), "file": origin.file.path, "json_path": origin.spec.path.to_string()})
}

fn gate_json(gate: &Gate) -> Value {
    match gate {
        Gate::All => json!({"hooks": "all"}),
        Gate::ManagedOnly { because } => json!({"hooks": "managed-only", "because": because}),
        Gate::Nothing { because } => json!({"hooks": "none", "because": because}),
    }
}

fn gate_line(gate: &Gate) -> Option<String> {
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

fn json_summary(json: &HookJson, event: HookEvent) -> (String, Style) {
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

fn first_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let more = text.trim().lines().count() > 1;
    let cut: String = line.chars().take(100).collect();
    if more || cut.len() < line.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

fn outcome_json(outcome: &Outcome) -> Value {
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

/// `dry-run`, one fixture, as text.
pub fn dry_run_text(
    out: &mut impl Write,
    fixture: &Fixture,
    sources: &Sources,
    plan: &Plan<'_>,
    exec: Option<&Dispatched>,
    paths: &Paths,
) -> io::Result<()> {
    let Some(event) = plan.event else { return Ok(()) };
    writeln!(out, "{BOLD}{}{BOLD:#}  {DIM}{}{DIM:#}", plan.hook_name(), fixture.path.display())?;
    if !fixture.filled.is_empty() {
        writeln!(
            out,
            "  {DIM}filled in: {} (placeholders; cwd is where dry-run runs){DIM:#}",
            fixture.filled.join(", ")
        )?;
    }
    writeln!(out, "\n{BOLD}Sources{BOLD:#}")?;
    sources_table(sources, paths).write(out, "  ")?;
    if let Some(line) = gate_line(&plan.gate) {
        writeln!(out, "  {YELLOW}{line}{YELLOW:#}")?;
    }

    let against = match (&plan.query, event.match_field()) {
        (_, hookmux_sdk::MatchField::None) => format!("{event} has no matcher support: every group runs"),
        (Some(query), _) => format!("matched against `{query}`"),
        (None, _) => "no value to match: every group runs".to_string(),
    };
    writeln!(out, "\n{BOLD}Groups of {event}{BOLD:#}  {DIM}{against}{DIM:#}")?;
    if plan.groups.is_empty() {
        writeln!(out, "  {DIM}none{DIM:#}")?;
    }
    let mut table = Table::new();
    for group in &plan.groups {
        let (mark, why) = match &group.verdict {
            Verdict::Matched => (styled("match", GREEN), String::new()),
            Verdict::NotMatched(why) => (styled("no match", RED), why.clone()),
        };
        let matcher = group.group.matcher.clone().unwrap_or_else(|| "(none)".to_string());
        table.row(vec![
            mark,
            plain(group.file.scope.as_str()),
            styled(group.group.path.to_string(), DIM),
            plain(matcher),
            styled(why, DIM),
        ]);
    }
    table.write(out, "  ")?;

    writeln!(out, "\n{BOLD}Handlers{BOLD:#}  {DIM}all run at once; answers combine in this order{DIM:#}")?;
    if plan.handlers.is_empty() {
        writeln!(out, "  {DIM}none: nothing would run{DIM:#}")?;
    }
    let mut table = Table::new();
    for (i, planned) in plan.handlers.iter().enumerate() {
        let (kind, what) = runner_text(planned);
        table.row(vec![
            plain(format!("{}", i + 1)),
            plain(kind),
            plain(what),
            plain(seconds(planned.timeout)),
            styled(origin_text(&planned.origin, paths), DIM),
        ]);
        for duplicate in &planned.duplicates {
            table.note(2, format!("also defined in {}: runs once", origin_text(duplicate, paths)), DIM);
        }
    }
    table.write(out, "  ")?;
    if !plan.dropped.is_empty() {
        writeln!(out, "\n{BOLD}Matched but not run{BOLD:#}")?;
        let mut table = Table::new();
        for dropped in &plan.dropped {
            table.row(vec![
                plain(short(&dropped.origin.spec.kind.label())),
                styled(origin_text(&dropped.origin, paths), DIM),
                plain(dropped.why.clone()),
            ]);
        }
        table.write(out, "  ")?;
    }

    match exec {
        None => {
            writeln!(out, "\n{DIM}Nothing ran (add --exec to run the handlers; built-ins then write no state).{DIM:#}")?
        }
        Some(dispatched) => {
            writeln!(out, "\n{BOLD}Results{BOLD:#}")?;
            let mut table = Table::new();
            for (i, run) in dispatched.runs.iter().enumerate() {
                table.row(vec![
                    plain(format!("{}", i + 1)),
                    plain(exit_text(run)),
                    plain(format!("{:>8.1} ms", run.wall.as_secs_f64() * 1000.0)),
                    result_text(run, event),
                ]);
            }
            table.write(out, "  ")?;
            let encoded = &dispatched.encoded;
            writeln!(
                out,
                "\n{BOLD}Answer{BOLD:#}  {DIM}exactly what dispatch prints; exit {}{DIM:#}",
                encoded.exit_code
            )?;
            if encoded.stdout.is_empty() {
                writeln!(out, "  {DIM}(nothing on stdout){DIM:#}")?;
            }
            for line in encoded.stdout.lines() {
                writeln!(out, "  {line}")?;
            }
            if !encoded.stderr.is_empty() {
                writeln!(out, "  {DIM}stderr:{DIM:#}")?;
                for line in encoded.stderr.lines() {
                    writeln!(out, "  {DIM}{line}{DIM:#}")?;
                }
            }
        }
    }
    Ok(())
}

fn exit_text(run: &HandlerRun) -> String {
    match (run.exit_code, &run.outcome) {
        (_, Some(Outcome::Cancelled { .. })) => "timed out".to_string(),
        (Some(code), _) => format!("exit {code}"),
        (None, Some(_)) => "killed".to_string(),
        (None, None) => "-".to_string(),
    }
}

fn result_text(run: &HandlerRun, event: HookEvent) -> (String, Style) {
    match (&run.outcome, &run.note) {
        (Some(outcome), _) => outcome_summary(outcome, event),
        (None, Some(note)) => styled(note.clone(), DIM),
        (None, None) => plain(""),
    }
}

/// `dry-run`, one fixture, as JSON (the documented schema).
pub fn dry_run_json(fixture: &Fixture, sources: &Sources, plan: &Plan<'_>, exec: Option<&Dispatched>) -> Value {
    let groups: Vec<Value> = plan
        .groups
        .iter()
        .map(|g| {
            json!({
                "scope": g.file.scope.as_str(), "file": g.file.path, "json_path": g.group.path.to_string(),
                "matcher": g.group.matcher, "matched": g.verdict.is_match(),
                "why_not": match &g.verdict { Verdict::NotMatched(why) => Some(why), Verdict::Matched => None },
            })
        })
        .collect();
    let handlers: Vec<Value> = plan
        .handlers
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let (runner, builtin) = match &h.runner {
                Runner::Builtin(call) => ("in-process", Some(json!({"name": call.name, "args": call.args}))),
                Runner::Spawn => ("spawn", None),
                Runner::Detached => ("detached", None),
                Runner::Http => ("http", None),
                Runner::NotRunnable(_) => ("not-run", None),
            };
            let mut value = json!({
                "order": i + 1, "type": h.origin.spec.kind.type_name(), "command": h.origin.spec.kind.label(),
                "runner": runner, "builtin": builtin, "timeout_s": h.timeout.as_secs_f64(),
                "if": h.origin.spec.if_rule, "origin": origin_json(&h.origin),
                "duplicates": h.duplicates.iter().map(origin_json).collect::<Vec<_>>(),
            });
            if let Some(run) = exec.and_then(|d| d.runs.get(i)) {
                value["result"] = json!({
                    "exit_code": run.exit_code,
                    "wall_ms": (run.wall.as_secs_f64() * 1000.0 * 10.0).round() / 10.0,
                    "outcome": run.outcome.as_ref().map(outcome_json),
                    "note": run.note,
                });
            }
            value
        })
        .collect();
    let dropped: Vec<Value> = plan
        .dropped
        .iter()
        .map(|d| json!({"command": d.origin.spec.kind.label(), "origin": origin_json(&d.origin), "why": d.why}))
        .collect();
    json!({
        "fixture": fixture.path,
        "filled": fixture.filled,
        "event": plan.event_name,
        "query": plan.query,
        "hook_name": plan.hook_name(),
        "sources": sources.files.iter().map(state_json).collect::<Vec<_>>(),
        "gate": gate_json(&plan.gate),
        "groups": groups,
        "handlers": handlers,
        "dropped": dropped,
        "answer": exec.map(|d| json!({"stdout": d.encoded.stdout, "stderr": d.encoded.stderr, "exit_code": d.encoded.exit_code})),
    })
}

/// `hooks list`, as text.
pub fn list_text(out: &mut impl Write, sources: &Sources, listing: &Listing<'_>, paths: &Paths) -> io::Result<()> {
    writeln!(out, "{BOLD}Sources{BOLD:#}")?;
    sources_table(sources, paths).write(out, "  ")?;
    if let Some(line) = gate_line(&listing.gate) {
        writeln!(out, "  {YELLOW}{line}{YELLOW:#}")?;
    }
    if listing.events.is_empty() {
        writeln!(out, "\n{DIM}No hooks.{DIM:#}")?;
    }
    for (event, entries) in &listing.events {
        writeln!(out, "\n{BOLD}{event}{BOLD:#}")?;
        let mut table = Table::new();
        for entry in entries {
            let matchers: Vec<String> = entry.matchers.iter().map(|m| m.unwrap_or("*").to_string()).collect();
            let mut deduped: Vec<String> = Vec::new();
            for m in matchers {
                if !deduped.contains(&m) {
                    deduped.push(m);
                }
            }
            table.row(vec![
                plain(deduped.join(" / ")),
                plain(short(&entry.origin.spec.kind.label())),
                plain(seconds(entry.timeout)),
                styled(origin_text(&entry.origin, paths), DIM),
            ]);
            for duplicate in &entry.duplicates {
                table.note(1, format!("also defined in {}: runs once", origin_text(duplicate, paths)), DIM);
            }
            if let Some(off) = &entry.off {
                table.note(1, format!("off: {off}"), YELLOW);
            }
        }
        table.write(out, "  ")?;
    }
    Ok(())
}

/// `hooks list`, as JSON.
pub fn list_json(sources: &Sources, listing: &Listing<'_>) -> Value {
    let events: serde_json::Map<String, Value> = listing
        .events
        .iter()
        .map(|(event, entries)| {
            let list: Vec<Value> = entries
                .iter()
                .map(|e| {
                    json!({
                        "type": e.origin.spec.kind.type_name(), "command": e.origin.spec.kind.label(),
                        "matchers": e.matchers, "timeout_s": e.timeout.as_secs_f64(), "if": e.origin.spec.if_rule,
                        "origin": origin_json(&e.origin),
                        "duplicates": e.duplicates.iter().map(origin_json).collect::<Vec<_>>(),
                        "off": e.off,
                    })
                })
                .collect();
            (event.as_str().to_string(), Value::Array(list))
        })
        .collect();
    json!({"sources": sources.files.iter().map(state_json).collect::<Vec<_>>(), "gate": gate_json(&listing.gate), "events": events})
}

/// `hooks validate`, as text: every diagnostic with file:line:column, JSON path and hint.
pub fn validate_text(
    out: &mut impl Write,
    sources: &Sources,
    diagnostics: &[Diagnostic],
    paths: &Paths,
) -> io::Result<()> {
    // In file order, then by position in the file.
    let mut ordered: Vec<_> = diagnostics
        .iter()
        .map(|d| {
            let index = sources.files.iter().position(|f| f.path == d.file).unwrap_or(usize::MAX);
            let text = sources.files.get(index).and_then(|f| f.text.as_deref());
            (index, d.line_column(text), d)
        })
        .collect();
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
    let (errors, warnings) = crate::validate::counts(diagnostics);
    let read = sources.files.iter().filter(|f| f.state != FileState::Missing).count();
    let missing = sources.files.len() - read;
    let plural = |n: usize, word: &str| if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") };
    let summary = format!(
        "{} read ({} not found): {}, {}",
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
