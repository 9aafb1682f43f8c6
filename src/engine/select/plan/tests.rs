use super::*;
use serde_json::json;
use std::path::Path;

fn file(scope: Scope, name: &str, text: &str) -> SettingsFile {
    SettingsFile::parse(Path::new(name), scope, text)
}

fn event(value: serde_json::Value) -> Event {
    Event::from_fields(value.as_object().unwrap().clone())
}

fn bash(command: &str) -> Event {
    event(
        json!({"hook_event_name": "PreToolUse", "cwd": "/p", "tool_name": "Bash", "tool_input": {"command": command}}),
    )
}

fn options() -> PlanOptions {
    PlanOptions { project_root: "/p".into(), home: Some("/home/u".into()), session_end_budget: None }
}

fn labels(plan: &Plan<'_>) -> Vec<String> {
    plan.handlers.iter().map(|h| h.origin.spec.kind.label()).collect()
}

fn pre(groups: &str) -> String {
    format!(r#"{{"hooks": {{"PreToolUse": {groups}}}}}"#)
}

#[test]
fn groups_concatenate_user_project_local_managed() {
    let sources = Sources::from_files(vec![
        file(Scope::User, "u", &pre(r#"[{"hooks": [{"type": "command", "command": "user"}]}]"#)),
        file(
            Scope::Project,
            "p",
            &pre(r#"[{"matcher": "Bash", "hooks": [{"type": "command", "command": "project"}]}]"#),
        ),
        file(Scope::Local, "l", &pre(r#"[{"matcher": "Write", "hooks": [{"type": "command", "command": "local"}]}]"#)),
        file(Scope::Managed, "m", &pre(r#"[{"matcher": "*", "hooks": [{"type": "command", "command": "managed"}]}]"#)),
    ]);
    let plan = plan(&bash("ls"), &sources, &options());
    assert_eq!(labels(&plan), ["user", "project", "managed"]);
    assert_eq!(plan.groups.len(), 4);
    assert!(matches!(&plan.groups[2].verdict, Verdict::NotMatched(why) if why.contains("`Write`")));
    assert_eq!(plan.hook_name(), "PreToolUse:Bash");
    assert!(plan.handlers.iter().all(|h| h.timeout == Duration::from_secs(600) && h.runner == Runner::Spawn));
}

#[test]
fn dedup_keeps_first_place_and_last_settings() {
    // Conformance `dedup-same-command`: one command in two groups runs once.
    let sources = Sources::from_files(vec![
        file(
            Scope::User,
            "u",
            &pre(
                r#"[{"matcher": "Bash", "hooks": [{"type": "command", "command": "a", "timeout": 1}, {"type": "command", "command": "b"}]}]"#,
            ),
        ),
        file(
            Scope::Project,
            "p",
            &pre(r#"[{"matcher": "*", "hooks": [{"type": "command", "command": "a", "timeout": 9}]}]"#),
        ),
    ]);
    let plan = plan(&bash("ls"), &sources, &options());
    assert_eq!(labels(&plan), ["a", "b"]);
    let a = &plan.handlers[0];
    assert_eq!(a.timeout, Duration::from_secs(9));
    assert_eq!(a.origin.file.path, Path::new("p"));
    assert_eq!(a.duplicates.len(), 1);
    assert_eq!(a.duplicates[0].describe(), "u at hooks.PreToolUse[0].hooks[0]");
}

#[test]
fn dedup_key_is_shell_command_args_and_if() {
    let sources = Sources::from_files(vec![file(
        Scope::Project,
        "p",
        &pre(r#"[{"hooks": [
            {"type": "command", "command": "a"},
            {"type": "command", "command": "a", "shell": "powershell"},
            {"type": "command", "command": "a", "if": "Bash(l*)"},
            {"type": "command", "command": "a", "args": ["x"]},
            {"type": "command", "command": "a", "shell": "bash", "statusMessage": "same as the first"}
        ]}]"#),
    )]);
    let plan = plan(&bash("ls"), &sources, &options());
    assert_eq!(plan.handlers.len(), 4);
    assert_eq!(plan.handlers[0].duplicates.len(), 1);
}

#[test]
fn if_rules_filter_tool_events_and_drop_handlers_elsewhere() {
    // Conformance `pre-if-field`.
    let sources = Sources::from_files(vec![file(
        Scope::Project,
        "p",
        r#"{"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "h1", "if": "Bash(git *)"},
                {"type": "command", "command": "h2", "if": "Bash(echo *)"}
            ]}],
            "Stop": [{"hooks": [{"type": "command", "command": "s", "if": "Bash"}, {"type": "command", "command": "t"}]}]
        }}"#,
    )]);
    let plan_pre = plan(&bash("echo original-command"), &sources, &options());
    assert_eq!(labels(&plan_pre), ["h2"]);
    assert!(plan_pre.dropped[0].why.contains("Bash(git *)"));
    let plan_stop = plan(&event(json!({"hook_event_name": "Stop"})), &sources, &options());
    assert_eq!(labels(&plan_stop), ["t"]);
    assert!(plan_stop.dropped[0].why.contains("only evaluated on tool events"));
}

#[test]
fn events_without_matchers_run_every_group() {
    let sources = Sources::from_files(vec![file(
        Scope::Project,
        "p",
        r#"{"hooks": {"UserPromptSubmit": [{"matcher": "nonsense", "hooks": [{"type": "command", "command": "u"}]}]}}"#,
    )]);
    let plan = plan(&event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "x"})), &sources, &options());
    assert_eq!(labels(&plan), ["u"]);
    assert_eq!(plan.hook_name(), "UserPromptSubmit");
    assert_eq!(plan.handlers[0].timeout, Duration::from_secs(30));
}

#[test]
fn disable_all_hooks_precedence() {
    let hooks = |name: &str| pre(&format!(r#"[{{"hooks": [{{"type": "command", "command": "{name}"}}]}}]"#));
    let with = |text: &str, extra: &str| text.replacen('{', &format!("{{{extra}, "), 1);
    // A user `true` is overridden by a project `false`.
    let sources = Sources::from_files(vec![
        file(Scope::User, "u", &with(&hooks("user"), r#""disableAllHooks": true"#)),
        file(Scope::Project, "p", &with(&hooks("project"), r#""disableAllHooks": false"#)),
    ]);
    assert_eq!(plan(&bash("x"), &sources, &options()).gate, Gate::All);
    // A local `true` disables everything but managed hooks.
    let sources = Sources::from_files(vec![
        file(Scope::Project, "p", &hooks("project")),
        file(Scope::Local, "l", &with(&hooks("local"), r#""disableAllHooks": true"#)),
        file(Scope::Managed, "m", &hooks("managed")),
    ]);
    let p = plan(&bash("x"), &sources, &options());
    assert!(matches!(&p.gate, Gate::ManagedOnly { because } if because.contains("disableAllHooks is true in l")));
    assert_eq!(labels(&p), ["managed"]);
    assert!(matches!(&p.groups[0].verdict, Verdict::NotMatched(why) if why.contains("off")));
    // Managed `true` disables managed hooks too.
    let sources = Sources::from_files(vec![
        file(Scope::Project, "p", &hooks("project")),
        file(Scope::Managed, "m", &with(&hooks("managed"), r#""disableAllHooks": true"#)),
    ]);
    let p = plan(&bash("x"), &sources, &options());
    assert!(matches!(p.gate, Gate::Nothing { .. }));
    assert!(p.handlers.is_empty());
}

#[test]
fn switches_as_claude_code_applies_them_recorded() {
    // fixtures/conformance/hookmux-scopes/managed-*: what Claude Code 2.1.328 did.
    let hooks = |name: &str| pre(&format!(r#"[{{"hooks": [{{"type": "command", "command": "{name}"}}]}}]"#));
    let with = |text: &str, extra: &str| text.replacen('{', &format!("{{{extra}, "), 1);
    let every = |switches: &[(&str, &str)]| {
        let scopes = [
            (Scope::User, "user"),
            (Scope::Project, "project"),
            (Scope::Local, "local"),
            (Scope::Managed, "managed"),
            (Scope::Managed, "dropin"),
        ];
        Sources::from_files(
            scopes
                .iter()
                .map(|(scope, name)| {
                    let text = match switches.iter().find(|(n, _)| n == name) {
                        Some((_, extra)) => with(&hooks(name), extra),
                        None => hooks(name),
                    };
                    file(*scope, name, &text)
                })
                .collect(),
        )
    };
    let ran = |switches: &[(&str, &str)]| labels(&plan(&bash("x"), &every(switches), &options()));
    let all = ["user", "project", "local", "managed", "dropin"];
    assert_eq!(ran(&[]), all);
    // managed-false-beats-user-disable, managed-user-disable-project-false
    assert_eq!(ran(&[("managed", r#""disableAllHooks": false"#), ("user", r#""disableAllHooks": true"#)]), all);
    assert_eq!(ran(&[("user", r#""disableAllHooks": true"#), ("project", r#""disableAllHooks": false"#)]), all);
    // managed-user-disable, managed-project-disable, managed-local-disable
    for scope in ["user", "project", "local"] {
        assert_eq!(ran(&[(scope, r#""disableAllHooks": true"#)]), ["managed", "dropin"], "{scope}");
    }
    // managed-disable-all, managed-dropin-disable-all
    assert!(ran(&[("managed", r#""disableAllHooks": true"#)]).is_empty());
    assert!(ran(&[("dropin", r#""disableAllHooks": true"#)]).is_empty());
    // managed-allow-managed-only(-dropin), managed-allow-managed-only-in-project
    assert_eq!(ran(&[("managed", r#""allowManagedHooksOnly": true"#)]), ["managed", "dropin"]);
    assert_eq!(ran(&[("dropin", r#""allowManagedHooksOnly": true"#)]), ["managed", "dropin"]);
    assert_eq!(ran(&[("project", r#""allowManagedHooksOnly": true"#)]), all);
    // managed-dropin-overrides-file: the drop-in, read after managed-settings.json, wins.
    assert_eq!(
        ran(&[("managed", r#""allowManagedHooksOnly": true"#), ("dropin", r#""allowManagedHooksOnly": false"#)]),
        all
    );
}

#[test]
fn allow_managed_hooks_only() {
    let sources = Sources::from_files(vec![
        file(Scope::User, "u", &pre(r#"[{"hooks": [{"type": "command", "command": "user"}]}]"#)),
        file(
            Scope::Managed,
            "m",
            r#"{"allowManagedHooksOnly": true, "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "policy"}]}]}}"#,
        ),
        // Ignored outside managed settings.
        file(Scope::Project, "p", r#"{"allowManagedHooksOnly": false}"#),
    ]);
    let p = plan(&bash("x"), &sources, &options());
    assert_eq!(labels(&p), ["policy"]);
    // Managed drop-ins: the later file wins.
    let sources = Sources::from_files(vec![
        file(Scope::User, "u", &pre(r#"[{"hooks": [{"type": "command", "command": "user"}]}]"#)),
        file(Scope::Managed, "m", r#"{"allowManagedHooksOnly": true}"#),
        file(Scope::Managed, "m.d/10.json", r#"{"allowManagedHooksOnly": false}"#),
    ]);
    assert_eq!(labels(&plan(&bash("x"), &sources, &options())), ["user"]);
}

#[test]
fn unusable_files_contribute_nothing() {
    let sources = Sources::from_files(vec![
        file(Scope::User, "u", r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "a"}]}"#),
        file(Scope::Project, "p", &pre(r#"[{"hooks": [{"type": "command", "command": "b"}]}]"#)),
    ]);
    assert_eq!(labels(&plan(&bash("x"), &sources, &options())), ["b"]);
}

#[test]
fn runners_timeouts_and_dropped_http() {
    let sources = Sources::from_files(vec![file(
        Scope::Project,
        "p",
        r#"{"hooks": {
            "SessionStart": [{"hooks": [
                {"type": "command", "command": "hookmux run protect-paths"},
                {"type": "command", "command": "bg", "async": true},
                {"type": "http", "url": "http://127.0.0.1:1/"},
                {"type": "prompt", "prompt": "p"},
                {"type": "agent", "prompt": "a"},
                {"type": "mcp_tool", "server": "s", "tool": "t"}
            ]}],
            "SessionEnd": [{"hooks": [
                {"type": "command", "command": "quick"},
                {"type": "command", "command": "slow", "timeout": 5},
                {"type": "command", "command": "huge", "timeout": 500}
            ]}]
        }}"#,
    )]);
    let p = plan(&event(json!({"hook_event_name": "SessionStart", "source": "startup"})), &sources, &options());
    let runners: Vec<_> = p.handlers.iter().map(|h| h.runner.clone()).collect();
    assert_eq!(
        runners,
        [
            Runner::Builtin(BuiltinCall { name: "protect-paths".into(), args: vec![] }),
            Runner::Detached,
            Runner::NotRunnable("prompt"),
            Runner::NotRunnable("agent"),
            Runner::NotRunnable("mcp_tool"),
        ]
    );
    assert_eq!(p.dropped.len(), 1);
    assert!(p.dropped[0].why.contains("http handlers do not run on SessionStart"));
    assert_eq!(p.handlers[2].timeout, Duration::from_secs(30));
    assert_eq!(p.handlers[3].timeout, Duration::from_secs(60));

    let end = event(json!({"hook_event_name": "SessionEnd", "reason": "other"}));
    let timeouts: Vec<_> = plan(&end, &sources, &options()).handlers.iter().map(|h| h.timeout).collect();
    assert_eq!(timeouts, [Duration::from_secs(60), Duration::from_secs(5), Duration::from_secs(60)]);
    let mut budget = options();
    budget.session_end_budget = Some(Duration::from_secs(2));
    let timeouts: Vec<_> = plan(&end, &sources, &budget).handlers.iter().map(|h| h.timeout).collect();
    assert_eq!(timeouts, [Duration::from_secs(2); 3]);
}

#[test]
fn session_end_budget_defaults_to_one_and_a_half_seconds() {
    let sources = Sources::from_files(vec![file(
        Scope::Project,
        "p",
        r#"{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "q"}]}]}}"#,
    )]);
    let end = event(json!({"hook_event_name": "SessionEnd", "reason": "other"}));
    assert_eq!(plan(&end, &sources, &options()).handlers[0].timeout, Duration::from_millis(1500));
}

#[test]
fn malformed_and_unknown_events_plan_nothing_and_say_why() {
    let sources = Sources::default();
    let p = plan(&Event::parse("not json"), &sources, &options());
    assert!(p.problem.unwrap().contains("not valid JSON"));
    let p = plan(&Event::parse("{}"), &sources, &options());
    assert!(p.problem.unwrap().contains("no `hook_event_name`"));
    let p = plan(&Event::parse(r#"{"hook_event_name": "bogus"}"#), &sources, &options());
    assert!(p.problem.unwrap().contains("`bogus`"));
    let p = plan(&Event::parse(r#"{"hook_event_name": "preToolUse"}"#), &sources, &options());
    assert!(p.problem.unwrap().contains("PascalCase"));
}

/// An event hookmux does not know runs its groups with the generic rules: every group, whatever
/// its matcher, and no handler with `if`.
#[test]
fn an_unknown_event_runs_every_group() {
    let sources = Sources::from_files(vec![file(
        Scope::Project,
        "p",
        r#"{"hooks": {"PreFutureThing": [
            {"matcher": "nothing-like-it", "hooks": [{"type": "command", "command": "a"}]},
            {"hooks": [{"type": "command", "command": "b"}, {"type": "command", "command": "c", "if": "Bash"}]}
        ]}}"#,
    )]);
    let p = plan(&event(json!({"hook_event_name": "PreFutureThing", "tool_name": "Bash"})), &sources, &options());
    assert_eq!(p.problem, None);
    assert_eq!(p.event, Some(HookEvent::Other("PreFutureThing")));
    assert_eq!(p.handlers.len(), 2);
    assert_eq!(p.dropped.len(), 1);
    assert_eq!(p.hook_name(), "PreFutureThing");
}

#[test]
fn huge_timeouts_wait_at_most_a_day() {
    let day = Duration::from_secs(24 * 3600);
    let sources = Sources::from_files(vec![file(
        Scope::Project,
        "p",
        r#"{"hooks": {
            "PreToolUse": [{"hooks": [
                {"type": "command", "command": "a", "timeout": 1e20},
                {"type": "command", "command": "b", "timeout": 1e19},
                {"type": "command", "command": "c", "timeout": 9.4e18},
                {"type": "command", "command": "d", "timeout": 1e308},
                {"type": "command", "command": "hookmux run protect-paths", "timeout": 1e19},
                {"type": "command", "command": "e", "timeout": 90000},
                {"type": "command", "command": "f", "timeout": 86399.5}
            ]}],
            "SessionEnd": [{"hooks": [{"type": "command", "command": "q", "timeout": 1e20}]}]
        }}"#,
    )]);
    let timeouts: Vec<_> = plan(&bash("ls"), &sources, &options()).handlers.iter().map(|h| h.timeout).collect();
    assert_eq!(timeouts, [day, day, day, day, day, day, Duration::from_secs_f64(86399.5)]);

    let end = event(json!({"hook_event_name": "SessionEnd", "reason": "other"}));
    assert_eq!(plan(&end, &sources, &options()).handlers[0].timeout, Duration::from_secs(60));
    let mut budget = options();
    budget.session_end_budget = Some(Duration::from_millis(u64::MAX));
    assert_eq!(plan(&end, &sources, &budget).handlers[0].timeout, day);
}

#[test]
fn within_bounds_every_timeout_and_keeps_shorter_ones() {
    let sources = Sources::from_files(vec![file(
        Scope::User,
        "u",
        &pre(r#"[{"hooks": [{"type": "command", "command": "long", "timeout": 300},
                            {"type": "command", "command": "default"},
                            {"type": "command", "command": "short", "timeout": 5}]}]"#),
    )]);
    let plan = plan(&bash("ls"), &sources, &options());
    let bounded = plan.within(Duration::from_secs(100));
    let timeouts: Vec<u64> = bounded.handlers.iter().map(|h| h.timeout.as_secs()).collect();
    assert_eq!(timeouts, [100, 100, 5]);
    let original: Vec<u64> = plan.handlers.iter().map(|h| h.timeout.as_secs()).collect();
    assert_eq!(original, [300, 600, 5], "the plan itself is left as it was");
}
