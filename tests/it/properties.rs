//! Properties of the engine and the built-in handlers under hostile input.
//!
//! hookmux sits between parties that do not trust each other: the model writes tool inputs and
//! prompts, a cloned repository writes project settings, hook authors write what their commands
//! print. Whatever they write, hookmux must not panic (a crashed dispatch is a guard that did not
//! run), must not hang, and must never hand the host a decision that no hook made. Each test
//! below generates such input and checks one of these promises.
//!
//! The runs are deterministic (a fixed seed, no failure files) so that a failure here is a failure
//! everywhere; `PROPTEST_CASES` raises the case count for a longer local run. Run them alone with
//! `cargo test --test it properties`.

use hookmux::engine::config::settings::{Scope, SettingsFile};
use hookmux::engine::config::sources::Sources;
use hookmux::engine::dispatch::{Verdict, World};
use hookmux::engine::execute::builtin::{self, Invocation};
use hookmux::engine::execute::RawOutput;
use hookmux::engine::select::listing;
use hookmux::engine::select::matcher::{self, Matcher};
use hookmux::engine::select::plan::{self, PlanOptions};
use hookmux::engine::select::rule::{self, IfVerdict, Rule};
use hookmux::engine::validate::{self, Context};
use hookmux::engine::verdict::combine::{self, Labelled};
use hookmux::engine::verdict::outcome::{self, Outcome};
use hookmux::host::{claude, codex, gemini, opencode};
use hookmux::protocol::HookJson;
use hookmux_sdk::{Env, Event, HookEvent, Registry};
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestRunner};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The seed every property starts from; changing it is a new suite, not a flaky one.
const SEED: u64 = 0x0068_6f6f_6b6d_7578;

/// `cases` generated inputs per property, unless `PROPTEST_CASES` asks for more. Shrinking is
/// bounded so that a failure is reported in seconds, not minutes.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(SEED),
        failure_persistence: None,
        max_shrink_iters: 2_000,
        max_shrink_time: 30_000,
        ..ProptestConfig::default()
    }
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(config(cases))
}

/// Runs a property on a thread with room to spare: unoptimised, the generators of nested JSON
/// take more stack than a test thread has.
fn with_stack(property: impl FnOnce() + Send + 'static) {
    let thread = std::thread::Builder::new().stack_size(256 << 20).spawn(property).expect("a thread for the property");
    if let Err(panic) = thread.join() {
        std::panic::resume_unwind(panic);
    }
}

/// A folder that stands for the project and for HOME, the same for every case of the run: the
/// properties must not depend on what the machine running them has in its real home.
fn sandbox() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temporary folder")).path()
}

fn sandbox_env() -> Env {
    let mut env = Env::empty();
    env.set("HOME", sandbox());
    env.set("XDG_STATE_HOME", sandbox().join("state"));
    env.set("CLAUDE_PROJECT_DIR", sandbox());
    env.set("HOOKMUX_MANAGED_DIR", sandbox().join("managed"));
    env
}

// ─── Generators ────────────────────────────────────────────────────────────────────────────────

/// Words the engine gives meaning to, so that generated input reaches past the first check.
const WORDS: &[&str] = &[
    "Bash",
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "Read",
    "Glob",
    "Grep",
    "WebFetch",
    "Agent",
    "Task",
    "Skill",
    "apply_patch",
    "spawn_agent",
    "mcp__github__create_issue",
    "hookmux run protect-paths",
    "hookmux run protect-paths --deny '*.txt' --allow .env.example",
    "hookmux run wakeup",
    "hookmux run nonexistent",
    "hookmux dispatch",
    "$CLAUDE_PROJECT_DIR/hooks/a.sh",
    "Bash(git *)",
    "Edit(.env)",
    "Edit(//etc/**)",
    "Read(~/.ssh/**)",
    "WebFetch(domain:example.com)",
    "mcp__github__*",
    ".env",
    "../.env",
    "/etc/passwd",
    "startup",
    "deny",
    "allow",
    "ask",
    "defer",
    "block",
    "approve",
    "",
    " ",
    "*",
    "é",
    "日本語",
    "\u{0}",
    "\u{202e}",
    "😀",
];

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(WORDS).prop_map(str::to_string)
}

/// Short text: a meaningful word, or any printable run (unicode included).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![3 => word(), 2 => "\\PC{0,24}", 1 => ".{0,12}"]
}

fn event_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(HookEvent::ALL).prop_map(|e| e.as_str().to_string()),
        1 => prop::sample::select(&["preToolUse", "PRETOOLUSE", "Pre Tool Use", "PreToolUse ", "tool.execute.before"][..])
            .prop_map(str::to_string),
        1 => text(),
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::sample::select(
            &[0.0, -0.0, 0.001, 1.5, 1e18, 1e19, 1e300, -1e300, f64::MAX, f64::MIN_POSITIVE, -5.0][..]
        )
        .prop_map(|f| json!(f)),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
    ]
}

/// A `timeout` as settings may write it: sensible, in milliseconds by mistake, or absurd.
fn timeout() -> impl Strategy<Value = Value> {
    prop_oneof![
        2 => prop::sample::select(&[0.5, 30.0, 600.0, 30_000.0, 1e12, 1.8e19, 1e19, 1e300, f64::MAX, 0.0, -1.0][..])
            .prop_map(|f| json!(f)),
        1 => number(),
        1 => leaf(),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![Just(Value::Null), any::<bool>().prop_map(Value::Bool), number(), text().prop_map(Value::String),]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(&[
            "hooks", "matcher", "type", "command", "args", "timeout", "if", "async", "asyncRewake",
            "once", "shell", "url", "headers", "prompt", "model", "server", "tool", "input",
            "statusMessage", "hook_event_name", "tool_name", "tool_input", "file_path", "command",
            "cwd", "session_id", "transcript_path", "source", "prompt", "decision", "reason",
            "continue", "hookSpecificOutput", "hookEventName", "permissionDecision", "updatedInput",
            "additionalContext", "disableAllHooks", "allowManagedHooksOnly", "__proto__", "",
        ][..])
        .prop_map(str::to_string),
        1 => text(),
    ]
}

/// Any JSON value, nested a few levels deep.
fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..5).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// An object from optional fields: a field that is `None` is left out.
fn object(fields: Vec<(&str, Option<Value>)>, extra: Vec<(String, Value)>) -> Value {
    let mut map: Map<String, Value> = fields.into_iter().filter_map(|(k, v)| v.map(|v| (k.to_string(), v))).collect();
    map.extend(extra);
    Value::Object(map)
}

fn maybe<T: Strategy>(strategy: T) -> impl Strategy<Value = Option<T::Value>> {
    prop::option::weighted(0.6, strategy)
}

/// A field that is usually there: what is under it gets read only when it is.
fn mostly<T: Strategy>(strategy: T) -> impl Strategy<Value = Option<T::Value>> {
    prop::option::weighted(0.95, strategy)
}

/// A field that is usually not there: when it is wrong, it can hide the rest.
fn rarely<T: Strategy>(strategy: T) -> impl Strategy<Value = Option<T::Value>> {
    prop::option::weighted(0.15, strategy)
}

/// A matcher as settings write them, kept short: a regex that runs past its time bound answers in
/// time, but its test keeps a thread busy until the process exits, and the other tests share it.
fn matcher_text() -> impl Strategy<Value = String> {
    prop_oneof![
        word(),
        Just("Edit|Write".to_string()),
        Just("^Bash$".to_string()),
        Just("mcp__.*".to_string()),
        "[A-Za-z0-9_|,. *+?()\\[\\]^$\\\\{}-]{0,12}",
    ]
}

fn rule_text() -> impl Strategy<Value = String> {
    let tool = prop::sample::select(
        &["Bash", "Edit", "Write", "Read", "Glob", "WebFetch", "Agent", "Task", "Skill", "mcp__x__*", "mcp__x", "B*"][..],
    );
    prop_oneof![
        3 => (tool, "[ a-z*:/.~()\\-]{0,12}").prop_map(|(tool, spec)| format!("{tool}({spec})")),
        1 => word(),
        1 => "\\PC{0,16}",
    ]
}

/// One handler entry, mostly well-formed, with odd types and values mixed in.
fn handler_entry() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        12 => Just(json!("command")),
        1 => prop::sample::select(&["http", "prompt", "agent", "mcp_tool", "Command", ""][..]).prop_map(|s| json!(s)),
        1 => leaf(),
    ];
    let command = prop_oneof![4 => word().prop_map(Value::String), 1 => text().prop_map(Value::String), 1 => value()];
    (
        mostly(kind),
        mostly(command),
        maybe(timeout()),
        maybe(prop_oneof![3 => rule_text().prop_map(Value::String), 1 => leaf()]),
        rarely(prop_oneof![prop::collection::vec(text().prop_map(Value::String), 0..3).prop_map(Value::Array), leaf()]),
        rarely(leaf()),
        prop::collection::vec((key(), value()), 0..2),
    )
        .prop_map(|(kind, command, timeout, if_rule, args, is_async, extra)| {
            object(
                vec![
                    ("type", kind),
                    ("command", command.clone()),
                    ("url", command.clone()),
                    ("prompt", command),
                    ("timeout", timeout),
                    ("if", if_rule),
                    ("args", args),
                    ("async", is_async),
                ],
                extra,
            )
        })
}

fn group() -> impl Strategy<Value = Value> {
    (
        maybe(prop_oneof![1 => Just(json!("*")), 4 => matcher_text().prop_map(Value::String), 1 => leaf()]),
        prop_oneof![12 => prop::collection::vec(handler_entry(), 0..4).prop_map(Value::Array), 1 => value()],
        prop::collection::vec((key(), value()), 0..2),
    )
        .prop_map(|(matcher, hooks, extra)| object(vec![("matcher", matcher), ("hooks", Some(hooks))], extra))
}

/// A settings object: known events with groups, unknown events, odd top-level fields.
fn settings_value() -> impl Strategy<Value = Value> {
    let groups = prop_oneof![12 => prop::collection::vec(group(), 0..3).prop_map(Value::Array), 1 => value()];
    // Mostly the events `sample_events` plans, so that what is generated gets planned.
    let name = prop_oneof![
        3 => prop::sample::select(
            &["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SessionEnd", "Stop", "FileChanged"][..]
        )
        .prop_map(str::to_string),
        1 => event_name(),
    ];
    let hooks = prop_oneof![
        12 => prop::collection::vec((name, groups), 0..4).prop_map(|e| Value::Object(e.into_iter().collect())),
        1 => value(),
    ];
    (
        mostly(hooks),
        rarely(prop_oneof![any::<bool>().prop_map(Value::Bool), leaf()]),
        rarely(prop_oneof![any::<bool>().prop_map(Value::Bool), leaf()]),
        rarely(value()),
        prop::collection::vec((key(), value()), 0..2),
    )
        .prop_map(|(hooks, disable, managed_only, urls, extra)| {
            object(
                vec![
                    ("hooks", hooks),
                    ("disableAllHooks", disable),
                    ("allowManagedHooksOnly", managed_only),
                    ("allowedHttpHookUrls", urls),
                ],
                extra,
            )
        })
}

/// Settings as text: a generated object (sometimes cut short or with a byte changed), JSON-ish
/// character soup, or nesting deeper than any parser should recurse.
fn settings_text() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => settings_value().prop_map(|v| v.to_string()),
        2 => (settings_value(), any::<prop::sample::Index>(), prop::sample::select(&["", "}", ",", "\"", "\\", "\u{0}", "ÿ"][..]))
            .prop_map(|(v, at, insert)| {
                let text = v.to_string();
                let cut = text.char_indices().map(|(i, _)| i).nth(at.index(text.chars().count().max(1))).unwrap_or(0);
                format!("{}{insert}", &text[..cut])
            }),
        2 => "[\\[\\]{}\":,0-9a-zA-Z .eE+\\-\\\\/ntruefalsnl]{0,120}",
        1 => (1usize..5000, prop::sample::select(&["[", "{\"hooks\":", "{\"a\":["][..]))
            .prop_map(|(depth, open)| open.repeat(depth)),
        1 => "\\PC{0,64}",
    ]
}

/// An event: known or odd `hook_event_name`, tool names and inputs of any shape.
fn event_value() -> impl Strategy<Value = Value> {
    let tool_input = prop_oneof![
        3 => (maybe(text()), maybe(text()), maybe(value()), prop::collection::vec((key(), value()), 0..3)).prop_map(
            |(command, path, other, extra)| {
                object(
                    vec![
                        ("command", command.map(Value::String)),
                        ("file_path", path.clone().map(Value::String)),
                        ("notebook_path", path.map(Value::String)),
                        ("content", other),
                    ],
                    extra,
                )
            }
        ),
        1 => value(),
    ];
    (
        maybe(prop_oneof![4 => event_name().prop_map(Value::String), 1 => leaf()]),
        maybe(prop_oneof![4 => word().prop_map(Value::String), 1 => leaf()]),
        maybe(tool_input),
        maybe(prop_oneof![Just(json!(sandbox())), text().prop_map(Value::String), leaf()]),
        maybe(text().prop_map(Value::String)),
        prop::collection::vec((key(), value()), 0..3),
    )
        .prop_map(|(name, tool, input, cwd, session, extra)| {
            object(
                vec![
                    ("hook_event_name", name),
                    ("tool_name", tool),
                    ("tool_input", input),
                    ("cwd", cwd),
                    ("session_id", session),
                ],
                extra,
            )
        })
}

fn event_of(value: &Value) -> Event {
    match value {
        Value::Object(fields) => Event::from_fields(fields.clone()),
        other => Event::parse(&other.to_string()),
    }
}

/// A few events of every kind of matching a plan does: tool names, sources, no match field,
/// SessionEnd's shared budget, file basenames.
fn sample_events() -> Vec<Event> {
    let root = sandbox().display().to_string();
    [
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git push --force"}}),
        json!({"hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": {"file_path": format!("{root}/.env")}}),
        json!({"hook_event_name": "PostToolUse", "tool_name": "mcp__github__create_issue", "tool_input": {}}),
        json!({"hook_event_name": "UserPromptSubmit", "prompt": "hello"}),
        json!({"hook_event_name": "SessionStart", "source": "startup"}),
        json!({"hook_event_name": "SessionEnd", "reason": "other"}),
        json!({"hook_event_name": "Stop"}),
        json!({"hook_event_name": "FileChanged", "file_path": "/a/b/.envrc"}),
    ]
    .iter()
    .map(|v| {
        let mut event = v.clone();
        event["cwd"] = json!(root);
        event["session_id"] = json!("s");
        event_of(&event)
    })
    .collect()
}

fn plan_options() -> PlanOptions {
    PlanOptions { project_root: sandbox().to_path_buf(), home: Some(sandbox().to_path_buf()), session_end_budget: None }
}

fn validate_context() -> Context<'static> {
    Context { project_root: sandbox(), home: Some(sandbox()), registry: Registry::global().ok() }
}

/// Plans `event` and checks what any plan must satisfy: nothing is planned for an event hookmux
/// cannot name, and every planned handler comes from a file that was read whole.
fn plan_checked(event: &Event, sources: &Sources) {
    let plan = plan::plan(event, sources, &plan_options());
    let _ = plan.hook_name();
    if plan.event.is_none() {
        assert!(plan.handlers.is_empty(), "handlers planned for an event with no known name");
    }
    for planned in &plan.handlers {
        assert!(planned.origin.file.is_usable(), "a handler planned from a file that did not load");
        assert!(Instant::now().checked_add(planned.timeout).is_some(), "a timeout no clock can wait for");
    }
}

// ─── 1. Settings ───────────────────────────────────────────────────────────────────────────────

/// A settings file is written by whoever controls its scope: a cloned repository writes the
/// project's. No text may crash reading, `hooks validate`'s checks or planning (a crash there
/// would switch off every other scope's guards too), and a file that does not read as an object
/// contributes no hooks.
#[test]
fn settings_never_crash_reading_validating_or_planning() {
    with_stack(settings_never_crash_reading_validating_or_planning_cases);
}

fn settings_never_crash_reading_validating_or_planning_cases() {
    let events = sample_events();
    runner(10_000)
        .run(
            &(settings_text(), prop::sample::select(&[Scope::User, Scope::Project, Scope::Local, Scope::Managed][..])),
            |(text, scope)| {
                let file = SettingsFile::parse(&sandbox().join(".claude/settings.json"), scope, &text);
                if !file.is_usable() {
                    prop_assert!(file.hooks.is_empty(), "an unreadable file kept hooks");
                    prop_assert!(!file.diagnostics.is_empty(), "an unreadable file was not reported");
                }
                let sources = Sources::from_files(vec![file]);
                let _ = validate::validate(&sources, &validate_context());
                let _ = listing::list(&sources);
                for event in &events {
                    plan_checked(event, &sources);
                }
                Ok(())
            },
        )
        .unwrap();
}

// ─── 2. Events ─────────────────────────────────────────────────────────────────────────────────

/// Settings that give every part of planning something to do: matchers of every form, `if`
/// rules of every tool, built-ins with options, duplicates.
fn busy_sources() -> &'static Sources {
    static SOURCES: OnceLock<Sources> = OnceLock::new();
    SOURCES.get_or_init(|| {
        let hooks = |matcher: &str, entries: Value| json!({"matcher": matcher, "hooks": entries});
        let entries = json!([
            {"type": "command", "command": "hookmux run protect-paths --include-read"},
            {"type": "command", "command": "hookmux run wakeup"},
            {"type": "command", "command": "true", "if": "Bash(git *)"},
            {"type": "command", "command": "true", "if": "Edit(src/**)"},
            {"type": "command", "command": "true", "if": "Read(~/.ssh/**)"},
            {"type": "command", "command": "true", "if": "Edit(//etc/**)"},
            {"type": "command", "command": "true", "if": "WebFetch(domain:example.com)"},
            {"type": "command", "command": "true", "if": "Agent(Explore)"},
            {"type": "command", "command": "true", "if": "mcp__github__*"},
            {"type": "command", "command": "true", "if": "Bash(npm:*)"},
            {"type": "command", "command": "true", "timeout": 0.5, "async": true},
            {"type": "http", "url": "http://127.0.0.1:9/h"},
            {"type": "prompt", "prompt": "p"},
        ]);
        let groups: Vec<Value> =
            ["", "*", "Bash", "Edit|Write", "^Bash$", "mcp__.*", "Task", "startup|resume", "(", ".envrc"]
                .iter()
                .map(|m| hooks(m, entries.clone()))
                .collect();
        let settings = Value::Object(HookEvent::ALL.iter().map(|e| (e.as_str().to_string(), json!(groups))).collect());
        let text = json!({"hooks": settings}).to_string();
        let user = SettingsFile::parse(&sandbox().join(".claude/settings.json"), Scope::User, &text);
        let project = SettingsFile::parse(&sandbox().join("p/.claude/settings.json"), Scope::Project, &text);
        assert!(user.diagnostics.is_empty(), "{:?}", user.diagnostics);
        Sources::from_files(vec![user, project])
    })
}

/// The model writes tool inputs and prompts, and a host writes the rest of the event: no event,
/// however shaped, may crash planning or the Codex and OpenCode decoders.
#[test]
fn events_never_crash_planning_or_decoding() {
    with_stack(events_never_crash_planning_or_decoding_cases);
}

fn events_never_crash_planning_or_decoding_cases() {
    let world = World::new(sandbox_env(), sandbox().to_path_buf());
    let sources = busy_sources();
    let plugin_hooks = prop::sample::select(
        &[
            "tool.execute.before",
            "tool.execute.after",
            "chat.message",
            "session.created",
            "session.idle",
            "command.execute.before",
            "experimental.session.compacting",
            "session.compacted",
            "",
        ][..],
    );
    let plugin = (
        prop_oneof![plugin_hooks.prop_map(str::to_string), text()],
        value(),
        value(),
        maybe(text()),
        prop::collection::vec(text(), 0..2),
    );
    let gemini_events = prop::sample::select(
        &[
            "BeforeTool",
            "AfterTool",
            "BeforeAgent",
            "AfterAgent",
            "SessionStart",
            "SessionEnd",
            "PreCompress",
            "BeforeModel",
        ][..],
    );
    runner(8_000)
        .run(
            &(event_value(), "\\PC{0,80}", plugin, gemini_events),
            |(event, raw, (hook, input, output, directory, mcp_servers), gemini_name)| {
                let parsed = Event::parse(&raw);
                plan_checked(&parsed, sources);
                let event = event_of(&event);
                plan_checked(&event, sources);
                let decoded = codex::decode(&event);
                prop_assert!(!decoded.events.is_empty(), "Codex decoding lost the event");
                for event in &decoded.events {
                    plan_checked(event, sources);
                }
                let plugin =
                    opencode::PluginEvent { hook, input, output, directory, mcp_servers, ..Default::default() };
                if let Ok(event) = opencode::decode(&plugin, &world) {
                    plan_checked(&event, sources);
                }
                // The same fields as a Gemini event: decoding never panics, and gives at most one event.
                let mut fields = event.fields().clone();
                fields.insert("hook_event_name".into(), gemini_name.into());
                let decoded = gemini::decode(&Event::from_fields(fields));
                prop_assert!(decoded.events.len() <= 1, "Gemini decoding made {} events", decoded.events.len());
                for event in &decoded.events {
                    plan_checked(event, sources);
                }
                Ok(())
            },
        )
        .unwrap();
}

/// Codex hands its patches over as text the model wrote: a patch of any shape decodes without a
/// crash into edits (Edit or Write), and every file a header names (added, updated, deleted, or
/// the destination of a move, however indented or spaced) is the `file_path` of one of them, so
/// a guard of edits sees each file the patch can change.
#[test]
fn codex_patches_reach_the_edit_hooks_for_every_file() {
    with_stack(codex_patches_reach_the_edit_hooks_for_every_file_cases);
}

fn codex_patches_reach_the_edit_hooks_for_every_file_cases() {
    let line = prop_oneof![
        prop::sample::select(
            &[
                "*** Begin Patch",
                "*** End Patch",
                "*** Add File: .env",
                "*** Update File: src/main.rs",
                "*** Delete File: a",
                "*** Move to: ../.env",
                "  *** Move to:.git/config",
                "\t*** Add File:  certs/k.pem ",
                "*** Update File: /etc/hosts",
                "@@",
                "@@ fn main",
                "+added",
                "-removed",
                " context",
                "*** End of File",
                "",
            ][..]
        )
        .prop_map(str::to_string),
        "\\PC{0,20}",
    ];
    runner(4_000)
        .run(&prop::collection::vec(line, 0..12), |lines| {
            let patch = lines.join("\n");
            let event = event_of(&json!({
                "hook_event_name": "PreToolUse", "tool_name": "apply_patch", "cwd": sandbox(),
                "tool_input": {"command": patch},
            }));
            let decoded = codex::decode(&event);
            prop_assert!(!decoded.events.is_empty());
            for event in &decoded.events {
                prop_assert!(
                    matches!(event.tool_name(), Some("Edit" | "Write")),
                    "a patch decoded to {:?}",
                    event.tool_name()
                );
            }
            let seen: Vec<&str> = decoded.events.iter().filter_map(|e| e.tool_input_str("file_path")).collect();
            const HEADERS: [&str; 4] = ["*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"];
            for line in patch.lines() {
                let named = HEADERS.iter().find_map(|h| line.trim().strip_prefix(h)).map(str::trim);
                if let Some(path) = named.filter(|p| !p.is_empty()) {
                    let expected = sandbox().join(path).display().to_string();
                    prop_assert!(seen.contains(&expected.as_str()), "{:?} is named but not edited: {:?}", path, seen);
                }
            }
            Ok(())
        })
        .unwrap();
}

// ─── 3. Hook outputs ───────────────────────────────────────────────────────────────────────────

/// What a hook prints as JSON for `event`: every field the verdict reads, with valid and invalid
/// values, sometimes for the wrong event.
fn hook_json(event: HookEvent) -> impl Strategy<Value = Value> {
    let decision = prop::sample::select(&["approve", "block", "allow", "deny", "", "BLOCK"][..]).prop_map(|s| json!(s));
    let permission =
        prop::sample::select(&["allow", "deny", "ask", "defer", "Deny", "maybe"][..]).prop_map(|s| json!(s));
    let behavior = prop::sample::select(&["allow", "deny", "ask"][..]).prop_map(|s| json!(s));
    let request =
        (maybe(behavior), maybe(value()), maybe(text().prop_map(Value::String)), maybe(leaf()), maybe(value()))
            .prop_map(|(behavior, input, message, interrupt, permissions)| {
                object(
                    vec![
                        ("behavior", behavior),
                        ("updatedInput", input),
                        ("message", message),
                        ("interrupt", interrupt),
                        ("updatedPermissions", permissions),
                    ],
                    vec![],
                )
            });
    let input = prop_oneof![
        3 => text().prop_map(|c| json!({"command": c, "file_path": c})),
        1 => value(),
    ];
    let name = prop_oneof![
        6 => Just(json!(event.as_str())),
        1 => event_name().prop_map(Value::String),
        1 => leaf(),
    ];
    let specific = (
        maybe(name),
        maybe(prop_oneof![4 => permission, 1 => leaf()]),
        maybe(text().prop_map(Value::String)),
        maybe(input),
        maybe(prop_oneof![3 => text().prop_map(Value::String), 1 => leaf()]),
        maybe(prop_oneof![3 => request, 1 => leaf()]),
        maybe(prop_oneof![text().prop_map(Value::String), value()]),
        prop::collection::vec((key(), value()), 0..2),
    )
        .prop_map(|(name, permission, reason, input, context, request, output, extra)| {
            object(
                vec![
                    ("hookEventName", name),
                    ("permissionDecision", permission),
                    ("permissionDecisionReason", reason),
                    ("updatedInput", input),
                    ("additionalContext", context),
                    ("decision", request),
                    ("updatedMCPToolOutput", output.clone()),
                    ("updatedToolOutput", output.clone()),
                    ("worktreePath", output),
                ],
                extra,
            )
        });
    (
        maybe(prop_oneof![4 => any::<bool>().prop_map(Value::Bool), 1 => leaf()]),
        maybe(text().prop_map(Value::String)),
        maybe(text().prop_map(Value::String)),
        maybe(prop_oneof![4 => decision, 1 => leaf()]),
        maybe(text().prop_map(Value::String)),
        maybe(prop_oneof![6 => specific, 1 => leaf()]),
    )
        .prop_map(|(cont, stop_reason, message, decision, reason, specific)| {
            object(
                vec![
                    ("continue", cont),
                    ("stopReason", stop_reason),
                    ("systemMessage", message),
                    ("decision", decision),
                    ("reason", reason),
                    ("hookSpecificOutput", specific),
                ],
                vec![],
            )
        })
}

/// One hook's raw result: JSON for the event (whole, cut short, or with text around it), plain
/// text or any bytes, with any exit code, sometimes timed out or with stdio left open.
fn raw_output(event: HookEvent) -> impl Strategy<Value = RawOutput> {
    let stdout = prop_oneof![
        5 => hook_json(event).prop_map(|v| v.to_string().into_bytes()),
        1 => (hook_json(event), any::<prop::sample::Index>()).prop_map(|(v, at)| {
            let text = v.to_string().into_bytes();
            let cut = at.index(text.len().max(1));
            text[..cut].to_vec()
        }),
        1 => (hook_json(event), "[ \\n\\t]{0,3}", "\\PC{0,6}").prop_map(|(v, before, after)| format!("{before}{v}{after}").into_bytes()),
        2 => text().prop_map(String::into_bytes),
        1 => prop::collection::vec(any::<u8>(), 0..48),
    ];
    let exit_code = prop_oneof![
        4 => Just(Some(0)),
        3 => Just(Some(2)),
        1 => Just(Some(1)),
        1 => Just(None),
        1 => any::<i32>().prop_map(Some),
    ];
    (
        stdout,
        prop::collection::vec(any::<u8>(), 0..24),
        exit_code,
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.15),
    )
        .prop_map(|(stdout, stderr, exit_code, timed_out, unterminated)| RawOutput {
            stdout,
            stderr,
            exit_code: if timed_out { None } else { exit_code },
            timed_out,
            unterminated,
            ..RawOutput::default()
        })
}

/// The events whose answers decide something, and a few that only carry text.
const OUTPUT_EVENTS: &[HookEvent] = &[
    HookEvent::PreToolUse,
    HookEvent::PermissionRequest,
    HookEvent::PostToolUse,
    HookEvent::PostToolUseFailure,
    HookEvent::UserPromptSubmit,
    HookEvent::Stop,
    HookEvent::SubagentStop,
    HookEvent::SessionStart,
    HookEvent::PreCompact,
    HookEvent::TaskCompleted,
    HookEvent::WorktreeCreate,
    HookEvent::Notification,
];

/// What the hooks themselves said, read from their classified outcomes: the only grounds on
/// which an encoded answer may restrict, grant or rewrite anything.
#[derive(Debug, Default)]
struct Said {
    /// PreToolUse: some hook's own verdict is a deny (exit 2, JSON deny or legacy block, or a
    /// refused capture, which hookmux fails closed).
    denies: bool,
    asks: bool,
    defers: bool,
    allows: bool,
    /// Some hook gave `updatedInput`.
    rewrites: bool,
    /// Some hook blocked (exit 2 or `decision: "block"`).
    blocks: bool,
    /// Some hook failed (WorktreeCreate fails closed on it).
    fails: bool,
    stops: bool,
    context: bool,
    request_denies: bool,
    request_allows: bool,
    request_rewrites: bool,
    replaces_output: bool,
}

fn said(outcomes: &[Outcome]) -> Said {
    let mut said = Said::default();
    let read_json = |said: &mut Said, json: &HookJson, exit_blocked: bool| {
        let permission = json.specific_str("permissionDecision");
        said.stops |= json.continue_ == Some(false);
        said.blocks |= json.decision.as_deref() == Some("block");
        said.context |= json.specific_str("additionalContext").is_some();
        said.allows |= permission == Some("allow") || json.decision.as_deref() == Some("approve");
        said.asks |= permission == Some("ask");
        said.defers |= permission == Some("defer");
        let own_deny =
            permission == Some("deny") || (permission.is_none() && json.decision.as_deref() == Some("block"));
        said.denies |= own_deny;
        said.rewrites |= json.specific.contains_key("updatedInput") && !exit_blocked;
        said.replaces_output |=
            json.specific.contains_key("updatedMCPToolOutput") || json.specific.contains_key("updatedToolOutput");
        if let Some(Value::Object(request)) = json.specific.get("decision") {
            let behavior = request.get("behavior").and_then(Value::as_str);
            said.request_denies |= behavior == Some("deny");
            said.request_allows |= behavior == Some("allow");
            said.request_rewrites |= behavior == Some("allow") && request.contains_key("updatedInput");
        }
    };
    for outcome in outcomes {
        match outcome {
            Outcome::Answered { json, plain } => {
                said.context |= plain.is_some();
                if let Some(json) = json {
                    read_json(&mut said, json, false);
                }
            }
            Outcome::Blocked { json, .. } => {
                said.blocks = true;
                said.denies = true;
                if let Some(json) = json {
                    read_json(&mut said, json, true);
                }
            }
            Outcome::Refused { .. } => said.denies = true,
            Outcome::Failed { .. } => said.fails = true,
            Outcome::Cancelled { .. } => {}
        }
    }
    said
}

/// The answer's JSON, when it is JSON.
fn answer_json(stdout: &str) -> Value {
    let trimmed = stdout.trim_start();
    if !trimmed.starts_with('{') {
        return Value::Null;
    }
    serde_json::from_str(trimmed).unwrap_or_else(|err| panic!("an encoder printed broken JSON ({err}): {stdout}"))
}

/// The Codex event and the OpenCode plugin event a verdict for `event` answers.
fn host_events(event: HookEvent) -> (codex::Decoded, opencode::PluginEvent) {
    let claude = event_of(&json!({
        "hook_event_name": event.as_str(), "tool_name": "Bash", "tool_input": {"command": "ls"},
        "cwd": sandbox(), "session_id": "s",
    }));
    let hook = match event {
        HookEvent::PreToolUse => "tool.execute.before",
        HookEvent::PostToolUse | HookEvent::PostToolUseFailure => "tool.execute.after",
        HookEvent::UserPromptSubmit => "chat.message",
        HookEvent::Stop | HookEvent::SubagentStop => "session.idle",
        HookEvent::SessionStart => "session.created",
        HookEvent::PreCompact => "experimental.session.compacting",
        _ => "",
    };
    let plugin = opencode::PluginEvent {
        hook: hook.to_string(),
        input: json!({"tool": "bash", "sessionID": "s", "callID": "c"}),
        output: json!({"args": {"command": "ls"}}),
        ..Default::default()
    };
    (codex::decode(&claude), plugin)
}

/// Hook authors write what their commands print, and the model can steer what a command prints.
/// Whatever the hooks print and however they exit, reading and combining their results and
/// encoding the verdict for each host never crashes, and every host gets only the decisions the
/// hooks made: no deny, block, stop, allow or rewrite that no hook gave, and a deny by any hook is
/// a deny for every host.
#[test]
fn hook_outputs_give_only_the_decisions_hooks_made() {
    with_stack(hook_outputs_give_only_the_decisions_hooks_made_cases);
}

fn hook_outputs_give_only_the_decisions_hooks_made_cases() {
    let cases = prop::sample::select(OUTPUT_EVENTS)
        .prop_flat_map(|event| (Just(event), prop::collection::vec(raw_output(event), 1..5)));
    runner(10_000)
        .run(&cases, |(event, raws)| {
            let labels: Vec<String> = (0..raws.len()).map(|i| format!("hook-{i}.sh")).collect();
            let outcomes: Vec<Outcome> =
                raws.iter().map(|raw| outcome::classify(raw, event, "hook.sh", Duration::from_secs(5))).collect();
            for (raw, outcome) in raws.iter().zip(&outcomes) {
                match outcome {
                    Outcome::Cancelled { .. } => prop_assert!(raw.timed_out),
                    Outcome::Blocked { .. } => prop_assert_eq!(raw.exit_code, Some(2)),
                    Outcome::Refused { .. } => prop_assert!(raw.unterminated),
                    Outcome::Answered { json: None, plain: _ } => {
                        prop_assert!(raw.exit_code == Some(0), "text read as an answer from exit {:?}", raw.exit_code)
                    }
                    _ => {}
                }
                prop_assert!(
                    !raw.timed_out || matches!(outcome, Outcome::Cancelled { .. }),
                    "a timed-out hook decided"
                );
            }
            let labelled: Vec<Labelled<'_>> =
                labels.iter().zip(&outcomes).map(|(label, outcome)| Labelled { label, outcome }).collect();
            let combined = combine::combine(event, &format!("{event}:Bash"), &labelled);
            let said = said(&outcomes);

            // Claude Code.
            let claude = claude::encode_combined(&combined, event);
            let answer = if event == HookEvent::WorktreeCreate { Value::Null } else { answer_json(&claude.stdout) };
            let specific = &answer["hookSpecificOutput"];
            if event == HookEvent::PreToolUse {
                let decision = specific["permissionDecision"].as_str();
                prop_assert_eq!(decision == Some("deny"), said.denies, "Claude: deny iff a hook denied: {}", answer);
                prop_assert!(decision != Some("allow") || said.allows, "Claude: an allow no hook gave: {}", answer);
                prop_assert!(decision != Some("ask") || said.asks, "Claude: an ask no hook gave: {}", answer);
                prop_assert!(specific.get("updatedInput").is_none() || said.rewrites, "Claude: a rewrite no hook gave");
            }
            if event == HookEvent::PermissionRequest {
                let behavior = specific["decision"]["behavior"].as_str();
                prop_assert!(
                    behavior != Some("deny") || said.request_denies,
                    "Claude: a deny no hook gave: {}",
                    answer
                );
                prop_assert!(
                    behavior != Some("allow") || said.request_allows,
                    "Claude: an allow no hook gave: {}",
                    answer
                );
                if said.request_denies {
                    prop_assert_eq!(behavior, Some("deny"), "Claude: a hook's deny was lost: {}", answer);
                }
            }
            prop_assert!(answer.get("decision").is_none() || said.blocks, "Claude: a block no hook gave: {}", answer);
            prop_assert!(answer.get("continue").is_none() || said.stops, "Claude: a stop no hook gave: {}", answer);
            prop_assert!(
                claude.exit_code == 0 || said.blocks || (event == HookEvent::WorktreeCreate && said.fails),
                "Claude: exit {} that no hook caused",
                claude.exit_code
            );

            let verdict = Verdict { kind: event, combined, plain: Vec::new(), runs: Vec::new() };
            let (decoded, plugin) = host_events(event);

            // Codex: it cannot ask, so an ask is a deny there.
            let codex = codex::encode(&verdict, &decoded);
            prop_assert_eq!(codex.exit_code, 0);
            let answer = answer_json(&codex.stdout);
            let specific = &answer["hookSpecificOutput"];
            if event == HookEvent::PreToolUse {
                let decision = specific["permissionDecision"].as_str();
                prop_assert_eq!(
                    decision == Some("deny"),
                    said.denies || (said.asks && !said.defers),
                    "Codex: deny iff a hook denied, or asked and none deferred: {}",
                    answer
                );
                if said.denies {
                    prop_assert_eq!(decision, Some("deny"), "Codex: a hook's deny was lost: {}", answer);
                }
                prop_assert!(
                    decision != Some("allow") || said.rewrites,
                    "Codex: an allow without a rewrite: {}",
                    answer
                );
            }
            if event == HookEvent::PermissionRequest {
                let behavior = specific["decision"]["behavior"].as_str();
                prop_assert!(behavior != Some("deny") || said.request_denies, "Codex: a deny no hook gave: {}", answer);
                prop_assert!(
                    behavior != Some("allow") || said.request_allows,
                    "Codex: an allow no hook gave: {}",
                    answer
                );
                prop_assert!(
                    behavior != Some("allow") || !said.request_rewrites || said.request_denies,
                    "Codex: allowed the original of a rewritten request: {}",
                    answer
                );
            }
            let continuation = matches!(event, HookEvent::Stop | HookEvent::SubagentStop) && said.context;
            let output_swap = event == HookEvent::PostToolUse && said.replaces_output;
            prop_assert!(
                answer.get("decision").is_none() || said.blocks || continuation || output_swap,
                "Codex: a block no hook gave: {}",
                answer
            );
            prop_assert!(
                answer.get("continue").is_none() || said.stops || (event == HookEvent::PreCompact && said.blocks),
                "Codex: a stop no hook gave: {}",
                answer
            );

            // OpenCode: a block is a thrown error that stops the call or the prompt.
            let answer = opencode::encode(&verdict, &plugin);
            match event {
                HookEvent::PreToolUse => {
                    prop_assert_eq!(
                        answer.block.is_some(),
                        said.denies || (said.asks && !said.defers),
                        "OpenCode: block iff a hook denied, or asked and none deferred: {:?}",
                        answer
                    );
                    prop_assert!(answer.args.is_none() || said.rewrites, "OpenCode: a rewrite no hook gave");
                }
                HookEvent::UserPromptSubmit => {
                    prop_assert!(answer.block.is_none() || said.blocks || said.stops, "OpenCode: a block no hook gave")
                }
                _ => prop_assert!(answer.block.is_none(), "OpenCode: a block on {}", event),
            }
            prop_assert!(answer.stop.is_none() || said.stops, "OpenCode: a stop no hook gave: {:?}", answer);
            prop_assert!(answer.replace_output.is_none() || said.replaces_output, "OpenCode: an output no hook gave");
            prop_assert!(
                answer.continue_prompt.is_none() || said.blocks || said.context,
                "OpenCode: a continuation no hook asked for"
            );
            Ok(())
        })
        .unwrap();
}

// ─── 4. Matchers and `if` rules ────────────────────────────────────────────────────────────────

/// `*` matches any run of characters, everything else itself: the plain definition, to hold the
/// fast matcher to.
fn wildcard_reference(pattern: &[char], text: &[char]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some(('*', rest)) => (0..=text.len()).any(|skip| wildcard_reference(rest, &text[skip..])),
        Some((c, rest)) => text.first() == Some(c) && wildcard_reference(rest, &text[1..]),
    }
}

/// A matcher is written by whoever writes the settings, and the name it is tested against comes
/// from the host and, for MCP tools, from a server's own tool names. Compiling and testing any
/// matcher, and reading and testing any `if` rule against any call, finishes without a crash;
/// names-only matchers match exactly their names; `*` patterns mean what they say.
#[test]
fn matchers_and_if_rules_finish() {
    with_stack(matchers_and_if_rules_finish_cases);
}

fn matchers_and_if_rules_finish_cases() {
    let query = prop_oneof![word(), "[A-Za-z0-9_ .*()|-]{0,40}"];
    let events = prop::sample::select(&[HookEvent::PreToolUse, HookEvent::SessionStart, HookEvent::FileChanged][..]);
    let command = prop_oneof![
        word(),
        "[a-z *\"'$`();&|<>\\\\\\n=-]{0,40}",
        Just("FOO=1 timeout 5 git push; echo $(rm -rf /)".to_string()),
    ];
    let path = prop_oneof![word(), "[a-z./~*-]{0,40}"];
    let tool = prop::sample::select(
        &[
            "Bash",
            "PowerShell",
            "Edit",
            "Write",
            "Read",
            "Glob",
            "WebFetch",
            "Agent",
            "Task",
            "Skill",
            "mcp__x__y",
            "Z",
        ][..],
    );
    let slowest = std::cell::RefCell::new((Duration::ZERO, String::new()));
    runner(40_000)
        .run(
            &(matcher_text(), query, events, rule_text(), tool, command, path, "[a-z*/ ]{0,12}", "[a-z/ ]{0,40}"),
            |(matcher_source, query, event, rule_source, tool, command, path, pattern, text)| {
                let started = Instant::now();
                let compiled = Matcher::compile(Some(&matcher_source), event);
                let verdict = compiled.verdict(&query, event.is_tool_event());
                if let Matcher::Names(names) = &compiled {
                    let legacy = matches!(query.as_str(), "Agent" | "TaskStop" | "TaskOutput");
                    prop_assert!(
                        !verdict.is_match() || names.contains(&query) || legacy,
                        "names {:?} matched {:?}",
                        names,
                        query
                    );
                }
                let _ = matcher::group_verdict(Some(&matcher_source), event, Some(&query));

                let call = event_of(&json!({
                    "hook_event_name": "PreToolUse", "tool_name": tool, "cwd": sandbox(),
                    "tool_input": {"command": command, "file_path": path, "url": format!("https://{path}/"),
                        "subagent_type": path, "skill": path},
                }));
                if let Ok(rule) = Rule::parse(&rule_source) {
                    let verdict = rule.verdict(&call, sandbox(), Some(sandbox()));
                    if rule.specifier.is_none() && rule.tool == tool {
                        prop_assert_eq!(verdict, IfVerdict::Run, "a bare tool rule skipped its own tool");
                    }
                }
                let chars = |s: &str| s.chars().collect::<Vec<_>>();
                prop_assert_eq!(
                    rule::wildcard_matches(&pattern, &text),
                    wildcard_reference(&chars(&pattern), &chars(&text)),
                    "wildcard {:?} against {:?}",
                    pattern,
                    text
                );
                let took = started.elapsed();
                // Far above the matcher's own bound: only a case that hangs gets here.
                prop_assert!(took < Duration::from_secs(10), "took {:?}", took);
                if took > slowest.borrow().0 {
                    *slowest.borrow_mut() =
                        (took, format!("matcher {matcher_source:?} on {query:?}, rule {rule_source:?}"));
                }
                Ok(())
            },
        )
        .unwrap();
    let (took, case) = slowest.into_inner();
    eprintln!("slowest matcher and rule case: {took:?} ({case})");
}

// ─── 5. Built-in handlers ──────────────────────────────────────────────────────────────────────

fn invocation(event: Event, cwd: PathBuf) -> Invocation {
    Invocation {
        event: Arc::new(event),
        env: Arc::new(sandbox_env()),
        cwd,
        project_root: sandbox().to_path_buf(),
        dry: true,
        project_trust: builtin::decided(hookmux_sdk::ProjectTrust::Untrusted),
    }
}

/// Options a handler declares, with values, in any order; the one that goes online is left out.
fn handler_args(info: &'static hookmux_sdk::HandlerInfo) -> impl Strategy<Value = Vec<String>> {
    let names: Vec<&'static str> = info.options.iter().map(|o| o.name).filter(|n| *n != "check-updates").collect();
    let option = if names.is_empty() {
        Just(Vec::new()).boxed()
    } else {
        (prop::sample::select(names), maybe(text()))
            .prop_map(|(name, value)| std::iter::once(format!("--{name}")).chain(value).collect::<Vec<_>>())
            .boxed()
    };
    prop::collection::vec(option, 0..3).prop_map(|args| args.concat())
}

/// Every built-in reads events the model and the host wrote. Called in-process as dispatch calls
/// it, with any event and any of its options, none panics (dispatch would turn a panic into a
/// non-blocking error: a guard that silently let the call through).
#[test]
fn builtins_never_panic() {
    with_stack(builtins_never_panic_cases);
}

fn builtins_never_panic_cases() {
    let registry = Registry::global().expect("the built-in handlers register without conflicts");
    assert!(registry.len() > 3, "the built-ins are linked");
    let per_handler = (20_000 / registry.len()).max(500) as u32;
    for registration in registry.iter() {
        let handler = registration.handler;
        let info = handler.info();
        let mut events = info.events.iter().map(|e| e.as_str().to_string()).collect::<Vec<_>>();
        if events.is_empty() {
            events.push("PreToolUse".to_string());
        }
        let name = prop_oneof![
            4 => prop::sample::select(events).prop_map(Value::String),
            1 => event_name().prop_map(Value::String),
        ];
        let cases = (event_value(), name, handler_args(info));
        runner(per_handler)
            .run(&cases, |(mut event, name, args)| {
                if let Value::Object(fields) = &mut event {
                    fields.insert("hook_event_name".into(), name);
                }
                let raw = builtin::call(handler, &args, &invocation(event_of(&event), sandbox().to_path_buf()));
                let stderr = raw.stderr_text();
                prop_assert!(!stderr.contains("crashed"), "`{}` panicked: {}", info.name, stderr);
                Ok(())
            })
            .unwrap();
    }
}

/// brewcode's Bash search detection reads the command the model wrote: in one pass, whatever runs
/// of new lines, spaces and separators it holds (the regular expression brewcode writes tried each
/// of them as a start), and with the JavaScript pattern's exact meaning, so the reminder comes
/// exactly when the pattern, compiled by a JavaScript engine, finds a search tool.
#[test]
fn the_bash_search_detection_is_the_javascript_patterns() {
    let project = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(project.path().join(".grepai")).expect("mkdir");
    std::fs::write(project.path().join(".grepai/index.gob"), "").expect("write the index");
    let handler = Registry::global().ok().and_then(|r| r.get("grepai-reminder")).expect("grepai-reminder");
    let pattern = regress::Regex::new(
        r"(?:^|[|;&(\n]|&&|\|\|)\s*(?:command\s+)?(grep|egrep|fgrep|ugrep|rg|ag|ack|find|bfs|fd)\b",
    )
    .expect("brewcode's pattern");
    let piece = prop_oneof![
        prop::sample::select(
            &[
                "grep", "rg", "rgx", "find", "fd", "command", " ", "\t", "\n", "\u{a0}", "|", "&&", ";", "(", "x",
                "cd src"
            ][..]
        )
        .prop_map(str::to_string),
        // Long runs of what a start may begin with.
        (prop::sample::select(&["\n", " ", "|", ";\n"][..]), 1usize..400).prop_map(|(s, n)| s.repeat(n)),
    ];
    runner(300)
        .run(&prop::collection::vec(piece, 0..8), |pieces| {
            let command = pieces.concat();
            let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": project.path(),
                "tool_name": "Bash", "tool_input": {"command": command}});
            let raw = builtin::call(
                handler,
                &["--bash-search".to_string()],
                &invocation(event_of(&event), project.path().into()),
            );
            let reminded = raw.stdout_text().contains("grepai_search");
            prop_assert_eq!(reminded, pattern.find(&command).is_some(), "{:?}", command);
            Ok(())
        })
        .unwrap();
}

/// Files protect-paths guards by default, relative to the project root.
const PROTECTED: &[&str] =
    &[".env", ".env.local", "certs/server.pem", "a/b/deploy.key", "id_rsa", ".git/config", "x/id_rsa.pub"];

/// One way to spell the path of `target` (relative to the root) from a cwd `depth` folders below
/// the root: relative or absolute, with `./`, `x/../` and doubled slashes between its parts, and
/// a trailing slash.
fn spelling(target: &'static str) -> impl Strategy<Value = (usize, String)> {
    let noise = prop::sample::select(&["", "./", "x/../", "x/y/../../", "/", "./x/../"][..]);
    (0usize..3, any::<bool>(), prop::collection::vec(noise, 4), any::<bool>()).prop_map(
        move |(depth, absolute, noise, trailing)| {
            let root = sandbox().display().to_string();
            let parts: Vec<&str> = target.split('/').collect();
            // A leading `/` would make a relative spelling absolute, naming another file.
            let lead = if !absolute && noise[0] == "/" { "" } else { noise[0] };
            let mut path = if absolute { format!("{root}/{lead}") } else { format!("{lead}{}", "../".repeat(depth)) };
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    path.push('/');
                    path.push_str(noise[i.min(3)]);
                }
                path.push_str(part);
            }
            if trailing {
                path.push('/');
            }
            (depth, path)
        },
    )
}

/// The model chooses the paths it edits. protect-paths must deny an edit of a file it protects by
/// default however that path is spelled, and through dispatch's reading of its answer every host
/// must see that deny.
#[test]
fn protect_paths_denies_every_spelling_of_a_protected_file() {
    with_stack(protect_paths_denies_every_spelling_of_a_protected_file_cases);
}

fn protect_paths_denies_every_spelling_of_a_protected_file_cases() {
    let handler = Registry::global().unwrap().get("protect-paths").expect("protect-paths is built in");
    let tool = prop::sample::select(
        &[("Edit", "file_path"), ("Write", "file_path"), ("MultiEdit", "file_path"), ("NotebookEdit", "notebook_path")]
            [..],
    );
    let cases = (prop::sample::select(PROTECTED), tool)
        .prop_flat_map(|(target, tool)| (Just(target), Just(tool), spelling(target)));
    runner(12_000)
        .run(&cases, |(target, (tool, field), (depth, path))| {
            let cwd = (0..depth).fold(sandbox().to_path_buf(), |dir, i| dir.join(format!("d{i}")));
            let mut input = Map::new();
            input.insert(field.to_string(), json!(path));
            input.insert("content".to_string(), json!("x"));
            let event = event_of(&json!({
                "hook_event_name": "PreToolUse", "tool_name": tool, "cwd": cwd, "session_id": "s", "tool_input": input,
            }));
            let raw = builtin::call(handler, &[], &invocation(event, cwd));
            let answer = answer_json(&raw.stdout_text());
            prop_assert_eq!(
                answer["hookSpecificOutput"]["permissionDecision"].as_str(),
                Some("deny"),
                "{} of {:?} (for {}) was not denied: {}",
                tool,
                path,
                target,
                raw.stderr_text()
            );
            let outcome = outcome::classify(&raw, HookEvent::PreToolUse, "protect-paths", Duration::from_secs(5));
            let combined = combine::combine(
                HookEvent::PreToolUse,
                "PreToolUse:Edit",
                &[Labelled { label: "protect-paths", outcome: &outcome }],
            );
            prop_assert!(matches!(combined.permission, Some((combine::Permission::Deny, _))));
            Ok(())
        })
        .unwrap();
}
