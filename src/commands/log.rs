//! `hookmux log`: the dispatch trace for people. The latest session as a timeline (one line per
//! handler run), `log why` for one event (every group, whether it matched and why not, every
//! hook and what it decided), `log stats` for which hook slows a session down.

use super::render::*;
use crate::engine::trace::{Record, Store};
use anstyle::Style;
use hookmux_platform::dirs::{variable, Folder};
use hookmux_sdk::Env;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

/// Which dispatches to show.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// A session id, or the start of one.
    pub session: Option<String>,
    /// Only dispatches this recent.
    pub since: Option<Duration>,
    /// Only this event (`PreToolUse`).
    pub event: Option<String>,
    /// Only dispatches that ran a hook whose name holds this text, and only that hook's lines.
    pub hook: Option<String>,
}

/// A line of the trace and what it reads as.
struct Entry {
    line: String,
    record: Record,
}

/// The trace to read: one dispatch would write to. A folder dispatch would not write to (a link,
/// another user's, one others can write into) is not read either: what is in it may not be what
/// dispatch wrote.
fn store(env: &Env) -> anyhow::Result<Store> {
    let store = Store::locate(env).ok_or_else(|| {
        anyhow::anyhow!(
            "no state folder: set {}, {} or HOOKMUX_TRACE_DIR to where the trace is",
            variable(Folder::Home),
            variable(Folder::State)
        )
    })?;
    if std::fs::symlink_metadata(&store.dir).is_ok() {
        hookmux_handlers::safe_fs::check_private_dir(&store.dir)?;
    }
    Ok(store)
}

fn entries(store: &Store) -> Vec<Entry> {
    store.lines().into_iter().filter_map(|line| read(&line).map(|record| Entry { line, record })).collect()
}

/// A line as a record, with every control character in its text written out (`\u{1b}`): tool
/// names come from the model and commands from a cloned repository's settings, and neither may
/// drive the terminal `log` prints to. Line breaks are written out too, but in what hooks
/// printed and in dispatch's notices, which the text views show line by line under a gutter: no
/// text can start a line of the report.
fn read(line: &str) -> Option<Record> {
    let mut value: serde_json::Value = serde_json::from_str(line).ok()?;
    defang(&mut value, false);
    serde_json::from_value(value).ok()
}

/// The fields whose text is shown line by line.
const MULTI_LINE: [&str; 3] = ["stdout", "stderr", "notices"];

fn defang(value: &mut serde_json::Value, multi_line: bool) {
    match value {
        serde_json::Value::String(text) => {
            if let Some(clean) = written_out(text, multi_line) {
                *text = clean;
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|item| defang(item, multi_line)),
        serde_json::Value::Object(map) => {
            // The event itself (`HOOKMUX_TRACE=full`) has keys the model chose.
            if map.keys().any(|key| written_out(key, false).is_some()) {
                *map = std::mem::take(map).into_iter().map(|(k, v)| (written_out(&k, false).unwrap_or(k), v)).collect();
            }
            for (key, value) in map.iter_mut() {
                defang(value, MULTI_LINE.contains(&key.as_str()));
            }
        }
        _ => {}
    }
}

/// Whether a terminal may act on `c`: control characters (C0, DEL, C1), and the line and
/// paragraph separators and direction overrides that reorder or break what is shown.
fn acts_on_terminal(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with what a terminal acts on written out (`\u{1b}`), newlines too unless `multi_line`,
/// when it has any.
fn written_out(text: &str, multi_line: bool) -> Option<String> {
    let written = |c: char| acts_on_terminal(c) && !(multi_line && c == '\n');
    text.chars().any(written).then(|| {
        text.chars().map(|c| if written(c) { format!("\\u{{{:x}}}", u32::from(c)) } else { c.to_string() }).collect()
    })
}

/// A stored line for `--json`: what a terminal acts on, and JSON leaves as it is (DEL, C1, the
/// separators and direction overrides; C0 is escaped already), as JSON escapes (`\u009b`). Such
/// characters only occur inside strings, where the escape means the same.
fn json_line(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.chars().any(acts_on_terminal) {
        return std::borrow::Cow::Borrowed(line);
    }
    std::borrow::Cow::Owned(
        line.chars()
            .map(|c| if acts_on_terminal(c) { format!("\\u{:04x}", u32::from(c)) } else { c.to_string() })
            .collect(),
    )
}

/// `text` as notes of a table, one per line: the first after `label`, the others under a gutter.
fn noted_lines(table: &mut Table, column: usize, label: &str, text: &str, style: Style) {
    let mut lines = text.lines();
    table.note(column, format!("{label}{}", lines.next().unwrap_or_default()), style);
    let gutter = format!("{}│ ", " ".repeat(label.chars().count().saturating_sub(2)));
    for line in lines {
        table.note(column, format!("{gutter}{line}"), style);
    }
}

fn when(record: &Record) -> Option<SystemTime> {
    humantime::parse_rfc3339(&record.time).ok()
}

impl Filter {
    fn admits(&self, record: &Record, now: SystemTime) -> bool {
        if let Some(session) = &self.session {
            if !record.session.as_deref().is_some_and(|s| s.starts_with(session.as_str())) {
                return false;
            }
        }
        if let Some(since) = self.since {
            let Some(at) = when(record) else { return false };
            if now.duration_since(at).unwrap_or_default() > since {
                return false;
            }
        }
        if let Some(event) = &self.event {
            if !record.event.as_deref().is_some_and(|e| e.eq_ignore_ascii_case(event)) {
                return false;
            }
        }
        if let Some(hook) = &self.hook {
            if !record.hooks.iter().any(|h| h.name.contains(hook.as_str())) {
                return false;
            }
        }
        true
    }

    /// The dispatches to show: those the filter admits, of the named session, else (without
    /// `--since`) of the session of the latest dispatch.
    fn select<'e>(&self, entries: &'e [Entry], now: SystemTime) -> Vec<&'e Entry> {
        let latest = match (&self.session, self.since) {
            // The latest session: dispatches without one (an event that could not be read)
            // do not start one.
            (None, None) => entries
                .iter()
                .rev()
                .find(|e| e.record.session.is_some())
                .or(entries.last())
                .map(|e| e.record.session.clone()),
            _ => None,
        };
        entries
            .iter()
            .filter(|e| latest.as_ref().is_none_or(|session| e.record.session == *session))
            .filter(|e| self.admits(&e.record, now))
            .collect()
    }
}

/// `hookmux log [--session ID] [--since DURATION] [--event NAME] [--hook NAME] [--follow] [--json]`.
pub fn timeline(filter: &Filter, follow: bool, as_json: bool) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let store = store(&env)?;
    let entries = entries(&store);
    let chosen = filter.select(&entries, SystemTime::now());
    let mut out = anstream::stdout();
    if as_json {
        for entry in &chosen {
            writeln!(out, "{}", json_line(&entry.line))?;
        }
    } else if chosen.is_empty() && !follow {
        writeln!(out, "{}", nothing(&store, entries.is_empty(), &Paths::new(hookmux_platform::dirs::home(&env))))?;
    } else {
        write_timeline(&mut out, &chosen.iter().map(|e| &e.record).collect::<Vec<_>>(), filter)?;
    }
    out.flush()?;
    if follow {
        let later = Filter { since: None, ..filter.clone() };
        store.follow(Duration::from_millis(200), |line| {
            let Some(record) = read(line) else { return true };
            if !later.admits(&record, SystemTime::now()) {
                return true;
            }
            let written = if as_json {
                writeln!(out, "{}", json_line(line))
            } else {
                event_lines(&record, filter).write(&mut out, "")
            };
            written.and_then(|()| out.flush()).is_ok()
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `log` says when there is nothing to show.
fn nothing(store: &Store, empty: bool, paths: &Paths) -> String {
    if empty {
        format!(
            "No dispatch traced yet in {}. hookmux traces every dispatch unless HOOKMUX_TRACE=0 or \
             \"$hookmux\": {{\"trace\": false}} says otherwise.",
            paths.show(&store.dir)
        )
    } else {
        "No traced dispatch matches.".to_string()
    }
}

/// `1 hook`, `2 hooks`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A handler's name cut for a column.
fn short(name: &str, width: usize) -> String {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.chars().count() <= width {
        return name;
    }
    let kept: String = name.chars().take(width - 1).collect();
    format!("{kept}…")
}

fn ms(value: f64) -> String {
    if value >= 1000.0 {
        format!("{:.2} s", value / 1000.0)
    } else if value >= 100.0 {
        format!("{value:.0} ms")
    } else {
        format!("{value:.1} ms")
    }
}

fn decision_style(decision: &str) -> Style {
    match decision {
        "deny" | "block" | "stop" | "error" | "refused" | "timeout" => RED,
        "ask" | "defer" | "not run" => YELLOW,
        "ok" | "none" | "background" => DIM,
        _ => GREEN,
    }
}

/// `14:02:11.204` from the record's time (UTC).
fn clock(record: &Record) -> String {
    record.time.get(11..23).unwrap_or(&record.time).to_string()
}

fn write_timeline(out: &mut impl Write, records: &[&Record], filter: &Filter) -> io::Result<()> {
    let Some(first) = records.first() else { return Ok(()) };
    let sessions: Vec<&str> = {
        let mut seen: Vec<&str> = Vec::new();
        for record in records {
            let session = record.session.as_deref().unwrap_or("(none)");
            if !seen.contains(&session) {
                seen.push(session);
            }
        }
        seen
    };
    let day = first.time.get(..10).unwrap_or_default();
    let heading = match sessions.as_slice() {
        [one] => format!("session {one}"),
        many => format!("{} sessions", many.len()),
    };
    let dispatches =
        if records.len() == 1 { "1 dispatch".to_string() } else { format!("{} dispatches", records.len()) };
    writeln!(out, "{BOLD}{heading}{BOLD:#} {DIM}· {} · {dispatches} · from {day}, times UTC{DIM:#}", first.host)?;
    let mut table = Table::new();
    let mut session = None;
    for record in records {
        // Dispatches of several sessions (`--since`): a line where the session changes.
        if sessions.len() > 1 && session != Some(&record.session) {
            session = Some(&record.session);
            let name = record.session.as_deref().unwrap_or("(none)");
            table.note(0, format!("── session {name} ({})", record.host), DIM);
        }
        event_rows(&mut table, record, filter);
    }
    table.write(out, "")
}

fn event_lines(record: &Record, filter: &Filter) -> Table {
    let mut table = Table::new();
    event_rows(&mut table, record, filter);
    table
}

/// One row per hook that ran (only the `--hook` one, when given), the first with the event.
fn event_rows(table: &mut Table, record: &Record, filter: &Filter) {
    let head = [
        styled(clock(record), DIM),
        plain(record.event.clone().unwrap_or_else(|| "?".to_string())),
        plain(record.tool.clone().unwrap_or_default()),
    ];
    let hooks: Vec<_> = record
        .hooks
        .iter()
        .filter(|h| filter.hook.as_ref().is_none_or(|name| h.name.contains(name.as_str())))
        .collect();
    if hooks.is_empty() {
        let why = match (&record.problem, record.skipped.len(), record.groups.iter().any(|g| g.matched)) {
            (Some(problem), _, _) => problem.clone(),
            (None, 0, false) if record.groups.is_empty() => "no hooks for this event".to_string(),
            (None, 0, false) => "no hook matched".to_string(),
            (None, 0, true) => "no hook ran".to_string(),
            (None, n, _) => format!("no hook ran ({n} skipped by `if`: `hookmux log why` says why)"),
        };
        let mut row = head.to_vec();
        row.push(styled(why, DIM));
        table.row(row);
        return;
    }
    for (n, hook) in hooks.iter().enumerate() {
        let mut row = if n == 0 { head.to_vec() } else { vec![plain(""), plain(""), plain("")] };
        row.push(plain(short(&hook.name, 32)));
        row.push(plain("→"));
        row.push(styled(hook.decision.clone(), decision_style(&hook.decision)));
        row.push(styled(ms(hook.wall_ms), DIM));
        table.row(row);
    }
    if hooks.len() > 1 && filter.hook.is_none() {
        let decision = &record.answer.decision;
        table.row(vec![
            plain(""),
            plain(""),
            plain(""),
            styled("answer", DIM),
            plain("⇒"),
            styled(decision.clone(), decision_style(decision)),
            styled(ms(record.wall_ms), DIM),
        ]);
    }
}

/// `hookmux log why [TOOL_USE_ID | --last] [--json]`: one event explained.
pub fn why(tool_use_id: Option<&str>, last: bool, as_json: bool) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let store = store(&env)?;
    let entries = entries(&store);
    let paths = Paths::new(hookmux_platform::dirs::home(&env));
    let chosen: Vec<&Entry> = match tool_use_id {
        Some(id) => entries
            .iter()
            .filter(|e| {
                e.record.tool_use_id.as_deref().is_some_and(|t| t == id || (id.len() >= 6 && t.starts_with(id)))
            })
            .collect(),
        None if last => entries.last().into_iter().collect(),
        None => anyhow::bail!("name the tool call (`hookmux log why TOOL_USE_ID`) or ask for the latest (`--last`)"),
    };
    let mut out = anstream::stdout();
    if chosen.is_empty() {
        let text = match tool_use_id {
            Some(id) => format!("No traced dispatch has tool-use id `{id}`: `hookmux log` lists the latest session's."),
            None => nothing(&store, true, &paths),
        };
        writeln!(out, "{text}")?;
        return Ok(ExitCode::from(1));
    }
    for (n, entry) in chosen.iter().enumerate() {
        if as_json {
            writeln!(out, "{}", json_line(&entry.line))?;
            continue;
        }
        if n > 0 {
            writeln!(out)?;
        }
        explain(&mut out, &entry.record, &paths)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn explain(out: &mut impl Write, record: &Record, paths: &Paths) -> io::Result<()> {
    let show = |path: &str| paths.show(std::path::Path::new(path));
    let title = [record.event.as_deref(), record.tool.as_deref(), record.tool_use_id.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("  ");
    writeln!(out, "{BOLD}{}{BOLD:#}", if title.is_empty() { "(no event)" } else { &title })?;
    let time = record.time.replacen('T', " ", 1).replace('Z', " UTC");
    let mut facts = Table::new();
    facts.row(vec![styled("when", DIM), plain(format!("{time}, {} to answer", ms(record.wall_ms)))]);
    facts.row(vec![
        styled("from", DIM),
        plain(format!(
            "{} session {} (process {})",
            record.host,
            record.session.as_deref().unwrap_or("(none)"),
            record.pid
        )),
    ]);
    let mut answer = format!("{} (exit {}", record.answer.decision, record.answer.exit);
    if record.answer.stdout_bytes > 0 {
        answer.push_str(&format!(", {} bytes on stdout", record.answer.stdout_bytes));
    }
    if record.answer.stderr_bytes > 0 {
        answer.push_str(&format!(", {} bytes on stderr", record.answer.stderr_bytes));
    }
    answer.push(')');
    facts.row(vec![styled("answer", DIM), styled(answer, decision_style(&record.answer.decision))]);
    if let Some(problem) = &record.problem {
        facts.row(vec![styled("problem", DIM), styled(problem.clone(), RED)]);
    }
    if record.truncated {
        facts.row(vec![styled("note", DIM), styled("detail left out to keep the trace line small", YELLOW)]);
    }
    facts.write(out, "  ")?;

    writeln!(out, "\n{BOLD}Sources{BOLD:#}")?;
    let mut sources = Table::new();
    for source in &record.sources {
        let state = match source.state.as_str() {
            "loaded" if source.problems > 0 => styled(
                format!(
                    "{}, {} (`hookmux hooks validate`)",
                    count(source.hooks, "hook"),
                    count(source.problems, "problem")
                ),
                YELLOW,
            ),
            "loaded" => plain(count(source.hooks, "hook")),
            "missing" => styled("not found", DIM),
            other => styled(other.to_string(), RED),
        };
        let scope = match &source.plugin {
            Some(plugin) => format!("plugin {plugin}"),
            None => source.scope.clone(),
        };
        sources.row(vec![plain(scope), plain(show(&source.path)), state]);
    }
    sources.write(out, "  ")?;
    if let Some(gate) = &record.gate {
        writeln!(out, "  {YELLOW}hooks off: {gate}{YELLOW:#}")?;
    }

    let against = record.query.as_deref().map(|q| format!(" (matchers tested against `{q}`)")).unwrap_or_default();
    writeln!(out, "\n{BOLD}Groups{BOLD:#}{DIM}{against}{DIM:#}")?;
    if record.groups.is_empty() {
        let event = record.event.as_deref().unwrap_or("this event");
        writeln!(out, "  {DIM}no source has a group for {event}{DIM:#}")?;
    }
    let mut groups = Table::new();
    for group in &record.groups {
        let (mark, style) = if group.matched { ("✓", GREEN) } else { ("✗", RED) };
        let matcher = match &group.matcher {
            Some(m) if !m.is_empty() => format!("matcher `{m}`"),
            _ => "no matcher (all)".to_string(),
        };
        let verdict = match (&group.why, group.matched) {
            (None, true) => plain(format!("matched: {}", count(group.hooks, "hook"))),
            (Some(why), true) => styled(why.clone(), YELLOW),
            (Some(why), false) => styled(why.clone(), DIM),
            (None, false) => styled("not matched", DIM),
        };
        groups.row(vec![
            styled(mark, style),
            plain(format!("{} {}", show(&group.file), group.at)),
            plain(matcher),
            verdict,
        ]);
    }
    groups.write(out, "  ")?;

    writeln!(out, "\n{BOLD}Hooks{BOLD:#}")?;
    if record.hooks.is_empty() && record.skipped.is_empty() {
        writeln!(out, "  {DIM}none ran{DIM:#}")?;
    }
    let mut hooks = Table::new();
    for hook in &record.hooks {
        let mut how = match hook.exit {
            Some(code) => format!("exit {code}"),
            None if hook.timed_out => "timed out".to_string(),
            None => "no exit code".to_string(),
        };
        for (bytes, stream) in [(hook.stdout_bytes, "stdout"), (hook.stderr_bytes, "stderr")] {
            if bytes > 0 {
                how.push_str(&format!(", {bytes} bytes on {stream}"));
            }
        }
        if hook.lingered {
            how.push_str(", its output stayed open");
        }
        hooks.row(vec![
            plain(short(&hook.name, 48)),
            styled(hook.kind.clone(), DIM),
            plain(how),
            styled(ms(hook.wall_ms), DIM),
            plain("→"),
            styled(hook.decision.clone(), decision_style(&hook.decision)),
        ]);
        let mut origin = show(&hook.origin);
        if let Some(rule) = &hook.if_rule {
            origin.push_str(&format!(", `if: {rule}` matched"));
        }
        hooks.note(0, format!("  {origin}"), DIM);
        if let Some(note) = &hook.note {
            hooks.note(0, format!("  {note}"), YELLOW);
        }
        for (stream, text) in [("stdout", &hook.stdout), ("stderr", &hook.stderr)] {
            if let Some(text) = text.as_deref().filter(|t| !t.trim().is_empty()) {
                noted_lines(&mut hooks, 0, &format!("  {stream}: "), text.trim_end(), Style::new());
            }
        }
    }
    hooks.write(out, "  ")?;
    let mut skipped = Table::new();
    for hook in &record.skipped {
        skipped.row(vec![styled("skipped", YELLOW), plain(short(&hook.name, 48)), styled(hook.why.clone(), DIM)]);
        skipped.note(1, show(&hook.origin), DIM);
    }
    skipped.write(out, "  ")?;

    if !record.notices.is_empty() {
        writeln!(out, "\n{BOLD}Notices{BOLD:#}")?;
        let mut notices = Table::new();
        for notice in &record.notices {
            noted_lines(&mut notices, 0, "", notice, YELLOW);
        }
        notices.write(out, "  ")?;
    }
    if let Some(input) = &record.input {
        writeln!(out, "\n{BOLD}Event{BOLD:#} {DIM}(HOOKMUX_TRACE=full){DIM:#}")?;
        let text = serde_json::to_string_pretty(input).unwrap_or_default();
        for line in text.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

/// One hook's figures over the chosen dispatches.
#[derive(Debug, serde::Serialize)]
struct HookStats {
    name: String,
    calls: usize,
    blocks: usize,
    errors: usize,
    timeouts: usize,
    p50_ms: f64,
    p95_ms: f64,
    max_ms: f64,
    total_ms: f64,
}

/// `hookmux log stats`: per hook, calls, blocks, errors, timeouts and wall times, the slowest
/// in total first. Without `--session`, every traced session (or those of `--since`).
pub fn stats(filter: &Filter, as_json: bool) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let store = store(&env)?;
    let entries = entries(&store);
    let now = SystemTime::now();
    let records: Vec<&Record> = entries.iter().map(|e| &e.record).filter(|r| filter.admits(r, now)).collect();
    let table = hook_stats(&records, filter.hook.as_deref());
    let mut out = anstream::stdout();
    if as_json {
        writeln!(out, "{}", serde_json::to_string_pretty(&table)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if table.is_empty() {
        writeln!(out, "{}", nothing(&store, entries.is_empty(), &Paths::new(hookmux_platform::dirs::home(&env))))?;
        return Ok(ExitCode::SUCCESS);
    }
    write_stats(&mut out, &table, records.len())?;
    Ok(ExitCode::SUCCESS)
}

fn hook_stats(records: &[&Record], only: Option<&str>) -> Vec<HookStats> {
    let mut by_name: Vec<(String, Vec<(f64, String)>)> = Vec::new();
    for hook in records.iter().flat_map(|r| &r.hooks) {
        if only.is_some_and(|name| !hook.name.contains(name)) || hook.decision == "not run" {
            continue;
        }
        let calls = match by_name.iter_mut().find(|(name, _)| *name == hook.name) {
            Some((_, calls)) => calls,
            None => {
                by_name.push((hook.name.clone(), Vec::new()));
                &mut by_name.last_mut().expect("just pushed").1
            }
        };
        calls.push((hook.wall_ms, hook.decision.clone()));
    }
    let mut table: Vec<HookStats> = by_name
        .into_iter()
        .map(|(name, calls)| {
            let mut walls: Vec<f64> = calls.iter().map(|(wall, _)| *wall).collect();
            walls.sort_by(f64::total_cmp);
            let count = |pick: &[&str]| calls.iter().filter(|(_, d)| pick.contains(&d.as_str())).count();
            HookStats {
                name,
                calls: calls.len(),
                blocks: count(&["deny", "block", "stop"]),
                errors: count(&["error", "refused"]),
                timeouts: count(&["timeout"]),
                p50_ms: percentile(&walls, 50),
                p95_ms: percentile(&walls, 95),
                max_ms: walls.last().copied().unwrap_or_default(),
                total_ms: (walls.iter().sum::<f64>() * 1000.0).round() / 1000.0,
            }
        })
        .collect();
    table.sort_by(|a, b| b.total_ms.total_cmp(&a.total_ms));
    table
}

/// The nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], p: usize) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p * sorted.len()).div_ceil(100).max(1);
    sorted[rank - 1]
}

fn write_stats(out: &mut impl Write, table: &[HookStats], dispatches: usize) -> io::Result<()> {
    writeln!(out, "{BOLD}Hooks{BOLD:#} {DIM}· over {dispatches} dispatches, slowest in total first{DIM:#}")?;
    let mut rows = Table::new();
    rows.row(
        ["hook", "calls", "blocks", "errors", "timeouts", "p50", "p95", "max", "total"]
            .into_iter()
            .map(|h| styled(h, DIM))
            .collect(),
    );
    for hook in table {
        let warn = |n: usize| if n > 0 { styled(n.to_string(), RED) } else { plain(n.to_string()) };
        rows.row(vec![
            plain(short(&hook.name, 40)),
            plain(hook.calls.to_string()),
            warn(hook.blocks),
            warn(hook.errors),
            warn(hook.timeouts),
            plain(ms(hook.p50_ms)),
            plain(ms(hook.p95_ms)),
            plain(ms(hook.max_ms)),
            plain(ms(hook.total_ms)),
        ]);
    }
    rows.write(out, "  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let values: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&values, 50), 10.0);
        assert_eq!(percentile(&values, 95), 19.0);
        assert_eq!(percentile(&[3.0], 95), 3.0);
        assert_eq!(percentile(&[], 50), 0.0);
    }

    #[test]
    fn control_characters_are_written_out() {
        let line = r#"{"hooks":[{"name":"echo \u001b]0;owned\u0007 \u009b31m","stderr":"a\nb"}],"notices":["a\nb"],"problem":"x\ny","input":{"\u001bk":1}}"#;
        let record = read(line).unwrap();
        assert_eq!(record.input.unwrap().as_object().unwrap().keys().next().unwrap(), "\\u{1b}k");
        assert_eq!(record.hooks[0].name, "echo \\u{1b}]0;owned\\u{7} \\u{9b}31m");
        assert_eq!(record.notices, ["a\nb"]);
        assert_eq!(record.hooks[0].stderr.as_deref(), Some("a\nb"));
        assert_eq!(record.problem.as_deref(), Some("x\\u{a}y"));
        assert_eq!(json_line("{\"a\":\"\u{9b}\u{7f}\u{202e}é\"}"), "{\"a\":\"\\u009b\\u007f\\u202eé\"}");
    }

    #[test]
    fn long_names_are_cut_on_one_line() {
        assert_eq!(short("a\n  b", 10), "a b");
        assert_eq!(short("abcdefghijkl", 5), "abcd…");
    }
}
