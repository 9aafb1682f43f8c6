//! `hookmux dry-run`: what a fixture event would do under the current settings, before it
//! happens: the sources read, every group's verdict, the handlers in order, and with `--exec`
//! what each did and the answer dispatch would give.

use super::render::*;
use crate::engine::config::settings::suggest_event;
use crate::engine::config::sources::{Discovery, Sources};
use crate::engine::dispatch::{self, HandlerRun, Setup, World};
use crate::engine::select::matcher::Verdict;
use crate::engine::select::plan::{self, Plan, PlanOptions, Runner};
use crate::engine::verdict::outcome::Outcome;
use crate::engine::verdict::seconds;
use crate::protocol::Encoded;
use anstyle::Style;
use hookmux_sdk::{Env, Event, HookEvent};
use serde_json::{json, Map, Value};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `--exec` did: each planned handler's run, and the answer Claude Code would get.
pub struct Executed {
    pub encoded: Encoded,
    /// One per planned handler, in plan order.
    pub runs: Vec<HandlerRun>,
}

/// `hookmux dry-run [--settings PATH]… [--exec] [--json] FIXTURE…`: exit 1 when a fixture
/// cannot be read (the others are still shown).
pub fn run(settings: Vec<PathBuf>, exec: bool, as_json: bool, fixtures: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let cwd = super::process_cwd();
    let paths = Paths::new(hookmux_platform::dirs::home(&env));
    let mut out = anstream::stdout();
    let mut reports = Vec::new();
    let mut failed = false;
    for (i, path) in fixtures.iter().enumerate() {
        let fixture = match load(path, &cwd) {
            Ok(fixture) => fixture,
            Err(message) => {
                eprintln!("hookmux dry-run: {message}");
                failed = true;
                continue;
            }
        };
        let discovery = Discovery::new(&env, &fixture.event, settings.clone()).with_plugins(true);
        let sources = Sources::load(&discovery);
        let project_root = dispatch::project_root_for(&env, &fixture.event, &cwd);
        let plan_options = PlanOptions {
            project_root: project_root.clone(),
            home: hookmux_platform::dirs::home(&env),
            session_end_budget: None,
        };
        let mut setup = Setup::new(sources, project_root, plan_options, &env, fixture.event.session_id());
        setup.project_trust = discovery.project_trust;
        let plan = plan::plan(&fixture.event, &setup.sources, &setup.plan_options);
        let world = World::new(env.clone(), cwd.clone());
        let executed = exec.then(|| execute(&fixture.event, &plan, &setup, &world));
        if as_json {
            reports.push(json_report(&fixture, &setup.sources, &plan, executed.as_ref()));
        } else {
            if i > 0 {
                writeln!(out)?;
            }
            text_report(&mut out, &fixture, &setup.sources, &plan, executed.as_ref(), &paths)?;
        }
    }
    if as_json {
        writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&Value::Array(reports))?)?;
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Runs the plan as dispatch would, writing no state, and encodes the answer for Claude Code.
fn execute(event: &Event, plan: &Plan<'_>, setup: &Setup, world: &World) -> Executed {
    let result = dispatch::run_plans(&[(event, plan)], setup, world, true);
    let runs = result.as_ref().map(|verdict| verdict.runs.clone()).unwrap_or_default();
    Executed { encoded: crate::host::claude::answer(result), runs }
}

/// Placeholders for common fields a short fixture leaves out. They are plainly not real.
pub const FAKE_SESSION_ID: &str = "hookmux-dry-run-session";
pub const FAKE_TRANSCRIPT_PATH: &str = "/nonexistent/hookmux-dry-run/transcript.jsonl";
pub const FAKE_TOOL_USE_ID: &str = "toolu_hookmux_dry_run";

/// A fixture ready to plan.
#[derive(Debug)]
pub struct Fixture {
    pub path: PathBuf,
    pub event: Event,
    /// The fields hookmux filled in, in order.
    pub filled: Vec<&'static str>,
}

/// Reads a fixture: a real payload, or a short one such as
/// `{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}`.
/// Missing common fields are filled: `session_id`, `transcript_path` and `tool_use_id` with the
/// fake values above, `cwd` with `cwd` (the folder dry-run runs in, so that the project's
/// settings are the ones read), `permission_mode` with `default` where the host sends one.
pub fn load(path: &Path, cwd: &Path) -> Result<Fixture, String> {
    let text =
        std::fs::read_to_string(path).map_err(|err| format!("{}: cannot read the fixture: {err}", path.display()))?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|err| format!("{}: not JSON (line {} column {}): {err}", path.display(), err.line(), err.column()))?;
    let Value::Object(given) = value else {
        return Err(format!("{}: a fixture is one JSON object (an event payload)", path.display()));
    };
    let Some(name) = given.get("hook_event_name").and_then(Value::as_str) else {
        return Err(format!(
            "{}: the fixture has no `hook_event_name`; add one, e.g. \"hook_event_name\": \"PreToolUse\"",
            path.display()
        ));
    };
    let Some(kind) = HookEvent::named(name) else {
        let hint = suggest_event(name).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
        return Err(format!("{}: `{name}` is not a hook event{hint}", path.display()));
    };
    let (fields, filled) = complete(given, kind, cwd);
    Ok(Fixture { path: path.to_path_buf(), event: Event::from_fields(fields), filled })
}

/// Adds the missing common fields, in the order the host writes them.
fn complete(given: Map<String, Value>, kind: HookEvent, cwd: &Path) -> (Map<String, Value>, Vec<&'static str>) {
    let carries_permission_mode = kind.is_tool_event()
        || matches!(
            kind,
            HookEvent::UserPromptSubmit | HookEvent::Stop | HookEvent::SubagentStop | HookEvent::PostToolBatch
        );
    let carries_tool_use_id = kind.is_tool_event() && kind != HookEvent::PermissionRequest;
    let defaults: [(&'static str, Option<Value>); 5] = [
        ("session_id", Some(FAKE_SESSION_ID.into())),
        ("transcript_path", Some(FAKE_TRANSCRIPT_PATH.into())),
        ("cwd", Some(cwd.to_string_lossy().into_owned().into())),
        ("permission_mode", carries_permission_mode.then(|| "default".into())),
        ("tool_use_id", carries_tool_use_id.then(|| FAKE_TOOL_USE_ID.into())),
    ];
    let mut fields = Map::new();
    let mut filled = Vec::new();
    for (key, default) in defaults.iter().take(4) {
        match given.get(*key) {
            Some(value) => {
                fields.insert(key.to_string(), value.clone());
            }
            None => {
                if let Some(value) = default {
                    fields.insert(key.to_string(), value.clone());
                    filled.push(*key);
                }
            }
        }
    }
    for (key, value) in given.iter() {
        if !fields.contains_key(key) {
            fields.insert(key.clone(), value.clone());
        }
    }
    if let (false, Some(value)) = (fields.contains_key("tool_use_id"), &defaults[4].1) {
        fields.insert("tool_use_id".to_string(), value.clone());
        filled.push("tool_use_id");
    }
    (fields, filled)
}

/// One fixture, as text.
fn text_report(
    out: &mut impl Write,
    fixture: &Fixture,
    sources: &Sources,
    plan: &Plan<'_>,
    exec: Option<&Executed>,
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
        (_, _) if !event.is_known() => {
            format!("hookmux does not know {event}: it runs with the generic rules, every group runs")
        }
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
            Verdict::Unchecked(why) => (styled("unchecked", YELLOW), why.clone()),
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
        let (kind, what) = runner_text(planned, paths);
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
                plain(short(&label(&dropped.origin, Some(paths)))),
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

/// One fixture, as JSON (the documented schema).
fn json_report(fixture: &Fixture, sources: &Sources, plan: &Plan<'_>, exec: Option<&Executed>) -> Value {
    let groups: Vec<Value> = plan
        .groups
        .iter()
        .map(|g| {
            let mut group = json!({
                "scope": g.file.scope.as_str(), "file": g.file.path, "json_path": g.group.path.to_string(),
                "matcher": g.group.matcher, "matched": g.verdict.is_match(),
                "why_not": match &g.verdict { Verdict::NotMatched(why) => Some(why), _ => None },
            });
            if let Verdict::Unchecked(why) = &g.verdict {
                group["unchecked"] = json!(why);
            }
            group
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

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e.json");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn short_fixtures_are_completed_with_fake_values() {
        let (_dir, path) =
            write(r#"{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}"#);
        let fixture = load(&path, Path::new("/work/p")).unwrap();
        assert_eq!(fixture.filled, ["session_id", "transcript_path", "cwd", "permission_mode", "tool_use_id"]);
        let keys: Vec<&String> = fixture.event.fields().keys().collect();
        assert_eq!(
            keys,
            [
                "session_id",
                "transcript_path",
                "cwd",
                "permission_mode",
                "hook_event_name",
                "tool_name",
                "tool_input",
                "tool_use_id"
            ]
        );
        assert_eq!(fixture.event.session_id(), Some(FAKE_SESSION_ID));
        assert_eq!(fixture.event.cwd().unwrap(), Path::new("/work/p"));
    }

    #[test]
    fn real_payloads_are_left_alone() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/events/Stop.json")).unwrap();
        let (_dir, path) = write(&text);
        let fixture = load(&path, Path::new("/x")).unwrap();
        assert!(fixture.filled.is_empty());
        assert_eq!(fixture.event.fields(), serde_json::from_str::<Value>(&text).unwrap().as_object().unwrap());
    }

    #[test]
    fn bad_fixtures_say_what_to_do() {
        let cases = [
            ("[1]", "one JSON object"),
            ("{nope", "not JSON (line 1 column 2)"),
            (r#"{"tool_name": "Bash"}"#, "has no `hook_event_name`"),
            (r#"{"hook_event_name": "preToolUse"}"#, "did you mean `PreToolUse`?"),
        ];
        for (text, expected) in cases {
            let (_dir, path) = write(text);
            let err = load(&path, Path::new("/")).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
        assert!(load(Path::new("/nonexistent/e.json"), Path::new("/")).unwrap_err().contains("cannot read"));
    }
}
