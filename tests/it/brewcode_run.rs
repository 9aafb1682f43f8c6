//! The brewcode handlers as Claude Code runs them: `hookmux run NAME` with a real Claude Code
//! 2.1.328 payload on stdin, in a real project; the JSON on stdout checked field by field.

use crate::common;
use common::Hookmux;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const TASK: &str = ".claude/tasks/20260201-120000_auth_refactor_task";
const SESSION: &str = "7b6b5f32-8486-4727-aaf9-dffe030c4e74";

/// A project with a brewcode task in progress, locked by the fixtures' session an hour ago.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let project = Project { dir };
        let an_hour_ago = iso_hours_ago(1);
        project.write(".claude/TASK.md", &format!("{TASK}/PLAN.md\n"));
        project.write(
            &format!("{TASK}/PLAN.md"),
            "status: in progress\n\n<!-- ALL -->\n- Keep the API\n<!-- /ALL -->\n<!-- DEV -->\n- Use JOOQ\n<!-- /DEV -->\n\n\
             ## Phase 1: A\n- [x] done\n\n## Phase 2: B\n- [ ] open\n",
        );
        project.write(&format!("{TASK}/KNOWLEDGE.jsonl"), "{\"t\":\"❌\",\"txt\":\"Avoid SELECT *\"}\n");
        let lock = json!({"task_path": format!("{TASK}/PLAN.md"), "started_at": an_hour_ago, "session_id": SESSION, "bound_at": an_hour_ago});
        project.write(&format!("{TASK}/.lock"), &lock.to_string());
        project
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path().join(relative)).unwrap()
    }

    /// A captured payload moved into this project (its `cwd`) and the fixtures' session.
    fn event(&self, fixture: &str, changes: Value) -> String {
        let mut event = common::event(fixture, self.path());
        event["session_id"] = Value::from(SESSION);
        for (key, value) in changes.as_object().cloned().unwrap_or_default() {
            event[key] = value;
        }
        event.to_string()
    }

    fn run(&self, handler: &str, stdin: String) -> common::Output {
        Hookmux::new(["run", handler]).stdin(stdin).cwd(self.path()).env("HOME", self.path().join("home")).run()
    }
}

fn iso_hours_ago(hours: u64) -> String {
    let at = std::time::SystemTime::now() - std::time::Duration::from_secs(hours * 3600);
    hookmux_handlers::brewcode::to_iso_string(at)
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn stop_guard_blocks_an_unfinished_task() {
    let project = Project::new();
    let out = project.run("stop-guard", project.event("events/Stop.json", json!({})));
    assert_eq!(out.code, Some(0), "{out:?}");
    let answer = out.json();
    assert_eq!(keys(&answer), ["decision", "reason", "hookSpecificOutput"]);
    assert_eq!(answer["decision"], "block");
    assert_eq!(
        answer["reason"],
        "brewcode: task incomplete (in progress, phase 2/2)\nEmergency exit: rm .claude/tasks/*_task/.lock"
    );
    assert_eq!(keys(&answer["hookSpecificOutput"]), ["hookEventName", "additionalContext"]);
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "Stop");
    assert_eq!(
        answer["hookSpecificOutput"]["additionalContext"],
        format!("brewcode: stop blocked. Continue execution. Re-read PLAN.md and proceed with phase 2. Task: {TASK}/PLAN.md")
    );
    assert_eq!(out.stderr, "[stop] Stop blocked - task incomplete (phase 2/2)\n");
    assert!(project
        .read(".claude/tasks/logs/brewcode.log")
        .ends_with(" WARN  [7b6b5f32] [stop] Stop blocked - task incomplete (phase 2/2)\n"));
}

#[test]
fn stop_guard_lets_a_continuing_stop_through_silently() {
    let project = Project::new();
    let out = project.run("stop-guard", project.event("events/Stop.json", json!({"stop_hook_active": true})));
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (Some(0), "", ""));
}

#[test]
fn knowledge_inject_rewrites_the_agent_prompt_and_allows() {
    let project = Project::new();
    let event = project.event(
        "events/PreToolUse-Agent.json",
        json!({"tool_input": {"description": "phase work", "prompt": "Implement phase 2.", "subagent_type": "developer"}}),
    );
    let out = project.run("knowledge-inject", event);
    assert_eq!(out.code, Some(0), "{out:?}");
    let specific = &out.json()["hookSpecificOutput"];
    assert_eq!(keys(specific), ["hookEventName", "permissionDecision", "updatedInput"]);
    assert_eq!(specific["hookEventName"], "PreToolUse");
    assert_eq!(specific["permissionDecision"], "allow");
    assert_eq!(
        specific["updatedInput"],
        json!({
            "description": "phase work",
            "prompt": "## Task Constraints\n- Keep the API\n- Use JOOQ\n\n## K\n❌ Avoid SELECT *\n\nImplement phase 2.",
            "subagent_type": "developer"
        })
    );
}

#[test]
fn knowledge_inject_leaves_the_captured_general_purpose_call_alone() {
    let project = Project::new();
    let out = project.run("knowledge-inject", project.event("events/PreToolUse-Agent.json", json!({})));
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
}

#[test]
fn task_bind_answers_the_captured_agent_launch() {
    let project = Project::new();
    let event = project.event(
        "events/PostToolUse-Agent.json",
        json!({"tool_input": {"description": "explore code", "prompt": "x", "subagent_type": "developer"}}),
    );
    let out = project.run("task-bind", event);
    assert_eq!(
        out.json(),
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "DEVELOPER DONE -> 1. WRITE report 2. CALL bc-coordinator NOW"}})
    );
}

#[test]
fn knowledge_compact_always_continues() {
    let project = Project::new();
    let out = project.run("knowledge-compact", project.event("events/PreCompact.json", json!({})));
    assert_eq!(out.json(), json!({"continue": true, "systemMessage": "brewcode: compact handoff, phase 2/2"}));
    assert!(project.read(&format!("{TASK}/PLAN.md")).starts_with("status: handoff\n"));
    let last = project.read(&format!("{TASK}/KNOWLEDGE.jsonl")).lines().last().unwrap().to_string();
    assert!(
        last.starts_with(
            r#"{"t":"✅","txt":"Handoff at phase 2: context auto-compact","src":"pre-compact-hook","ts":""#
        ),
        "{last}"
    );

    let other = project.event("events/PreCompact.json", json!({"session_id": "someone-else"}));
    assert_eq!(project.run("knowledge-compact", other).json(), json!({"continue": true}));
}

#[test]
fn compact_handoff_answers_with_both_messages() {
    let project = Project::new();
    let out = project.run("compact-handoff", project.event("events/SessionStart.json", json!({"source": "compact"})));
    assert_eq!(
        out.json(),
        json!({
            "systemMessage": "brewcode:  | session: 7b6b5f32",
            "hookSpecificOutput": {
                "hookEventName": "SessionStart",
                "additionalContext": "brewcode: active | session: 7b6b5f32\n\n[HANDOFF after compact] Re-read PLAN.md and KNOWLEDGE.jsonl, then continue current phase."
            }
        })
    );
}

#[test]
fn grepai_handlers_answer_in_a_project_without_grepai() {
    let project = Project::new();
    let out = project.run("grepai-status", project.event("events/SessionStart.json", json!({})));
    assert_eq!(out.json(), json!({"systemMessage": "grepai: not configured"}));
    let out = project.run("grepai-reminder", project.event("events/PreToolUse-Bash.json", json!({})));
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    project.write(".grepai/index.gob", "x");
    let out = project.run("grepai-reminder", project.event("events/PreToolUse-Bash.json", json!({})));
    assert_eq!(
        out.json(),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "grepai: USE grepai_search FIRST for code exploration"}})
    );
}

#[test]
fn broken_stdin_is_logged_and_answered_with_nothing() {
    let project = Project::new();
    let out = Hookmux::new(["run", "stop-guard"]).stdin("{not json").cwd(project.path()).run();
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    let log = project.read(".claude/tasks/logs/brewcode.log");
    assert!(log.contains(" ERROR [stop] Error: Invalid stdin JSON: "), "{log}");
    assert!(project.path().join(format!("{TASK}/.lock")).exists(), "the lock is kept for recovery");
    let out = Hookmux::new(["run", "knowledge-compact"]).stdin("").cwd(project.path()).run();
    assert_eq!(out.stdout.trim(), r#"{"continue":true}"#);
}

#[test]
fn hookmux_handlers_lists_the_seven_with_their_options() {
    let out = Hookmux::new(["handlers", "--json"]).run();
    let list = out.json();
    let find = |name: &str| {
        list.as_array().unwrap().iter().find(|h| h["name"] == name).unwrap_or_else(|| panic!("{name}")).clone()
    };
    for (name, events, matcher) in [
        ("compact-handoff", json!(["SessionStart"]), Value::Null),
        ("grepai-status", json!(["SessionStart"]), Value::Null),
        ("knowledge-inject", json!(["PreToolUse"]), json!("Task|Agent")),
        ("grepai-reminder", json!(["PreToolUse"]), json!("Glob|Grep")),
        ("task-bind", json!(["PostToolUse"]), json!("Task|Agent")),
        ("knowledge-compact", json!(["PreCompact"]), Value::Null),
        ("stop-guard", json!(["Stop"]), Value::Null),
    ] {
        let handler = find(name);
        assert_eq!((&handler["events"], &handler["matcher"]), (&events, &matcher), "{name}");
    }
    let options = |name: &str| -> Vec<Value> {
        find(name)["options"].as_array().unwrap().iter().map(|o| json!([o["name"], o["type"], o["default"]])).collect()
    };
    assert_eq!(options("task-bind"), [json!(["tool-response", "flag", null]), json!(["defer-async", "flag", null])]);
    assert_eq!(options("grepai-reminder"), [json!(["bash-search", "flag", null])]);
    assert_eq!(options("grepai-status"), [json!(["ollama", "string", "localhost:11434"])]);
    assert_eq!(options("compact-handoff"), [json!(["check-updates", "flag", null])]);
    let table = Hookmux::new(["handlers"]).run().stdout;
    for name in [
        "compact-handoff",
        "grepai-status",
        "knowledge-inject",
        "grepai-reminder",
        "task-bind",
        "knowledge-compact",
        "stop-guard",
    ] {
        assert!(table.contains(name), "{name} missing from:\n{table}");
    }
}

#[test]
fn settings_example_wires_brewcodes_hooks_in_seconds() {
    use hookmux::engine::config::settings::{HookKind, Scope, SettingsFile};
    use hookmux::engine::select::builtin;
    use hookmux_sdk::{HookEvent, Registry};
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("settings.example.json");
    let file = SettingsFile::load(&path, Scope::Project);
    assert!(file.is_usable() && file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    let registry = Registry::global().unwrap();
    let mut wired = Vec::new();
    for event in HookEvent::ALL {
        for group in file.groups(*event) {
            for hook in &group.hooks {
                let HookKind::Command { command, args, .. } = &hook.kind else {
                    panic!("{command:?}", command = hook.kind)
                };
                let call = builtin::recognise(command, args.as_deref(), registry).expect("a built-in");
                let handler = registry.get(&call.name).unwrap();
                hookmux_sdk::Args::parse(handler.info(), &call.args).expect("valid options");
                wired.push((event.as_str(), group.matcher.clone().unwrap_or_default(), call.name, hook.timeout));
            }
        }
    }
    let brewcode: Vec<_> =
        wired.into_iter().filter(|(_, _, name, _)| !matches!(name.as_str(), "protect-paths" | "wakeup")).collect();
    let expected = [
        ("SessionStart", "", "compact-handoff", Some(3.0)),
        ("SessionStart", "", "grepai-status", Some(5.0)),
        ("PreToolUse", "Task|Agent", "knowledge-inject", Some(5.0)),
        ("PreToolUse", "Glob|Grep", "grepai-reminder", Some(1.0)),
        ("PostToolUse", "Task|Agent", "task-bind", Some(5.0)),
        ("Stop", "", "stop-guard", Some(5.0)),
        ("PreCompact", "", "knowledge-compact", Some(60.0)),
    ];
    let mut got: Vec<_> = brewcode.iter().map(|(e, m, n, t)| (*e, m.as_str(), n.as_str(), *t)).collect();
    let mut want = expected.to_vec();
    got.sort_by(|a, b| a.2.cmp(b.2));
    want.sort_by(|a, b| a.2.cmp(b.2));
    assert_eq!(got, want);
}
