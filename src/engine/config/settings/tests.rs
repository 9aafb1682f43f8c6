use super::*;
use crate::engine::config::diagnostic::Severity;

fn parse(text: &str) -> SettingsFile {
    SettingsFile::parse(Path::new("/p/.claude/settings.json"), Scope::Project, text)
}

fn messages(file: &SettingsFile) -> Vec<String> {
    file.diagnostics.iter().map(|d| format!("{} {}", d.path, d.message)).collect()
}

#[test]
fn reads_groups_and_handlers_in_order() {
    let file = parse(
        r#"{"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "a", "timeout": 5, "if": "Bash(git *)"},
                    {"type": "command", "command": "b", "args": ["x", "y"]}
                ]},
                {"hooks": [{"type": "http", "url": "http://127.0.0.1:9/h", "headers": {"A": "$T"}}]}
            ],
            "Stop": [{"hooks": [{"type": "prompt", "prompt": "done?"}]}]
        }}"#,
    );
    assert_eq!(file.state, FileState::Loaded);
    assert!(file.diagnostics.is_empty(), "{:?}", messages(&file));
    let groups = file.groups(HookEvent::PreToolUse);
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0].matcher.as_deref(), Some("Bash"));
    assert_eq!(groups[0].hooks[0].timeout, Some(5.0));
    assert_eq!(groups[0].hooks[0].if_rule.as_deref(), Some("Bash(git *)"));
    assert_eq!(groups[0].hooks[1].path.to_string(), "hooks.PreToolUse[0].hooks[1]");
    assert!(matches!(&groups[0].hooks[1].kind, HookKind::Command { args: Some(a), .. } if a == &["x", "y"]));
    assert_eq!(groups[1].matcher, None);
    assert_eq!(file.groups(HookEvent::Stop)[0].hooks[0].kind.type_name(), "prompt");
    assert_eq!((file.kept, file.skipped), (4, 0));
}

#[test]
fn a_malformed_entry_is_skipped_and_the_rest_kept() {
    let file = parse(
        r#"{"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command"},
                    {"type": "command", "command": "ok"},
                    {"type": "command", "command": "t", "timeout": "5"},
                    {"type": "shell", "command": "x"},
                    "echo hi"
                ]},
                {"matcher": ["Bash"], "hooks": [{"type": "command", "command": "m"}]},
                {"matcher": "Write", "hooks": {"type": "command", "command": "o"}},
                7
            ],
            "Stop": {"hooks": []}
        }}"#,
    );
    assert_eq!(file.state, FileState::Loaded);
    let groups = file.groups(HookEvent::PreToolUse);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].hooks.len(), 1);
    assert_eq!(groups[0].hooks[0].kind.label(), "ok");
    assert_eq!(
        messages(&file),
        [
            "hooks.PreToolUse[0].hooks[0] the handler has no `command`; this handler is skipped",
            "hooks.PreToolUse[0].hooks[2].timeout `timeout` must be a positive number of seconds, not the string \"5\"; this handler is skipped",
            "hooks.PreToolUse[0].hooks[3].type unknown handler type `shell`; this handler is skipped",
            "hooks.PreToolUse[0].hooks[4] a handler must be an object, not the string \"echo hi\"; this handler is skipped",
            "hooks.PreToolUse[1].matcher `matcher` must be a string, not an array; this group is skipped",
            "hooks.PreToolUse[2].hooks `hooks` must be an array of handlers, not an object; this group is skipped",
            "hooks.PreToolUse[3] a matcher group must be an object, not the number 7; skipped",
            "hooks.Stop `Stop` must be an array of matcher groups, not an object; skipped",
        ]
    );
    assert!(file.diagnostics.iter().all(|d| d.severity == Severity::Error));
}

#[test]
fn wrong_case_and_misnamed_events_are_reported_with_a_suggestion() {
    let file = parse(
        r#"{"hooks": {"preToolUse": [{"hooks": [{"type": "command", "command": "a"}]}], "PretoolUse": [], "pre-tool": []}}"#,
    );
    assert!(file.hooks.is_empty());
    assert_eq!(file.skipped, 1);
    let hints: Vec<_> = file.diagnostics.iter().map(|d| d.hint.clone().unwrap_or_default()).collect();
    assert_eq!(hints[0], "did you mean `PreToolUse`? Event names are case-sensitive");
    assert_eq!(hints[1], "did you mean `PreToolUse`? Event names are case-sensitive");
    assert!(hints[2].contains("PascalCase") && hints[2].contains("hooks validate"));
    assert_eq!(suggest_event("PostTooluse"), Some("PostToolUse"));
    assert_eq!(suggest_event("SesionStart"), Some("SessionStart"));
    assert_eq!(suggest_event("Banana"), None);
}

/// A PascalCase name hookmux does not know is an event of a newer host: its groups are kept
/// (`hooks validate` warns), under `HookEvent::Other`.
#[test]
fn an_unknown_pascal_case_event_is_kept() {
    let file =
        parse(r#"{"hooks": {"PreFutureThing": [{"matcher": "x", "hooks": [{"type": "command", "command": "a"}]}]}}"#);
    assert!(file.diagnostics.is_empty(), "{:?}", messages(&file));
    let event = HookEvent::Other("PreFutureThing");
    assert_eq!(file.groups(event).len(), 1);
    assert_eq!(file.groups(event)[0].hooks.len(), 1);
}

#[test]
fn switches_are_read_and_mistyped_ones_reported() {
    let file =
        parse(r#"{"disableAllHooks": true, "allowManagedHooksOnly": "yes", "allowedHttpHookUrls": ["http://x/*"]}"#);
    assert_eq!(file.disable_all_hooks, Some(true));
    assert_eq!(file.allow_managed_hooks_only, None);
    assert_eq!(file.allowed_http_hook_urls.as_deref(), Some(&["http://x/*".to_string()][..]));
    assert_eq!(
        messages(&file),
        ["allowManagedHooksOnly `allowManagedHooksOnly` must be true or false, not a string; ignored"]
    );
}

#[test]
fn whole_file_failures_are_states_not_errors() {
    let broken = parse(r#"{"hooks": {"Stop": [}"#);
    assert!(matches!(&broken.state, FileState::Invalid(reason) if reason.contains("line 1 column")));
    assert_eq!(broken.diagnostics.len(), 1);
    assert_eq!(broken.diagnostics[0].position, Some((1, 21)));
    let array = parse("[]");
    assert!(matches!(&array.state, FileState::Invalid(reason) if reason.contains("array")));
    let empty = parse("  \n");
    assert_eq!(empty.state, FileState::Loaded);
    assert_eq!(empty.diagnostics[0].severity, Severity::Warning);
    let hooks_array = parse(r#"{"hooks": []}"#);
    assert_eq!(hooks_array.diagnostics.len(), 1);
}

#[test]
fn missing_unreadable_and_non_utf8_files() {
    let dir = tempfile::tempdir().unwrap();
    let missing = SettingsFile::load(&dir.path().join("nope.json"), Scope::User);
    assert_eq!(missing.state, FileState::Missing);
    assert!(missing.diagnostics.is_empty());
    let folder = SettingsFile::load(dir.path(), Scope::User);
    assert!(matches!(folder.state, FileState::Unreadable(_)));
    let latin1 = dir.path().join("latin1.json");
    std::fs::write(&latin1, b"{\"x\": \"\xe9\"}").unwrap();
    let file = SettingsFile::load(&latin1, Scope::User);
    assert!(matches!(&file.state, FileState::Unreadable(r) if r.contains("UTF-8")));
}
