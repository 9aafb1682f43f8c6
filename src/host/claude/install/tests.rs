use super::*;

fn layout() -> Layout {
    Layout::new(Scope::Project, Path::new("/home/u/.claude"), Path::new("/work/p"))
}

const SETTINGS: &str = r#"{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "./hooks/guard.sh", "timeout": 10},
          {"type": "prompt", "prompt": "Is this safe?"},
          {"type": "command", "command": "./hooks/log.sh", "async": true}
        ]
      },
      {"matcher": "Edit|Write", "hooks": [{"type": "http", "url": "http://127.0.0.1:9/h"}]}
    ],
    "SessionEnd": [{"hooks": [{"type": "command", "command": "a", "timeout": 3}, {"type": "command", "command": "b", "timeout": 20}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "c"}]}],
    "Stop": [{"hooks": [{"type": "agent", "prompt": "done?"}]}]
  },
  "allowedHttpHookUrls": ["http://127.0.0.1:*"]
}
"#;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn moves_what_dispatch_runs_and_routes_each_event_through_it() {
    let installed = install(SETTINGS, &layout()).unwrap();
    assert_eq!((installed.moved, installed.kept_native), (5, 3));
    assert_eq!(installed.events, ["PreToolUse", "SessionEnd", "UserPromptSubmit"]);
    let settings = json(&installed.settings_text);
    let command = "hookmux dispatch --installed";
    assert_eq!(
        settings["hooks"]["PreToolUse"],
        serde_json::json!([
            {"matcher": "Bash", "hooks": [
                {"type": "prompt", "prompt": "Is this safe?"},
                {"type": "command", "command": "./hooks/log.sh", "async": true}
            ]},
            {"hooks": [{"type": "command", "command": command, "timeout": 605}]}
        ])
    );
    // SessionEnd's budget follows the largest moved timeout; UserPromptSubmit's default is 30 s.
    assert_eq!(settings["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 20);
    assert_eq!(settings["hooks"]["UserPromptSubmit"][0]["hooks"][0]["timeout"], 35);
    // Events with nothing dispatch can run are untouched.
    assert_eq!(settings["hooks"]["Stop"], json(SETTINGS)["hooks"]["Stop"]);
    assert_eq!(settings["model"], "opus");
    // Only the `hooks` value changes: every other byte of the file is kept.
    let after_hooks = |text: &str| text[text.find("\"allowedHttpHookUrls\"").unwrap()..].to_string();
    assert!(installed.settings_text.starts_with("{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUse\": ["));
    assert_eq!(after_hooks(&installed.settings_text), after_hooks(SETTINGS));

    let hooks = json(&installed.hooks_text);
    assert_eq!(
        hooks["hooks"]["PreToolUse"][0]["hooks"],
        serde_json::json!([{"type": "command", "command": "./hooks/guard.sh", "timeout": 10}])
    );
    assert_eq!(hooks["hooks"]["PreToolUse"][0]["matcher"], "Bash");
    assert_eq!(hooks["hooks"]["PreToolUse"][1]["hooks"][0]["type"], "http");
    assert_eq!(hooks["allowedHttpHookUrls"], serde_json::json!(["http://127.0.0.1:*"]));
    assert!(hooks[RECORD_KEY]["settingsSha256"].is_string());
}

/// Install moves only what dispatch runs: the model-switch events and a PascalCase event
/// hookmux does not know (it runs with the generic rules), never a wrong-case name, which stays
/// where the host reads it.
#[test]
fn moves_every_event_dispatch_runs_and_no_other() {
    let settings = r#"{"hooks": {
        "PreModelSwitch": [{"matcher": "claude-opus-4-6", "hooks": [{"type": "command", "command": "a"}]}],
        "PostModelSwitch": [{"hooks": [{"type": "command", "command": "b"}]}],
        "PreFutureThing": [{"hooks": [{"type": "command", "command": "c"}]}],
        "preToolUse": [{"hooks": [{"type": "command", "command": "d"}]}],
        "pre-tool": [{"hooks": [{"type": "command", "command": "e"}]}]
    }}"#;
    let installed = install(settings, &layout()).unwrap();
    assert_eq!(installed.events, ["PreModelSwitch", "PostModelSwitch", "PreFutureThing"]);
    assert_eq!(installed.moved, 3);
    let after = json(&installed.settings_text);
    for kept in ["preToolUse", "pre-tool"] {
        assert_eq!(after["hooks"][kept], json(settings)["hooks"][kept], "{kept}");
    }
    let hooks = json(&installed.hooks_text);
    assert_eq!(hooks["hooks"]["PreModelSwitch"][0]["matcher"], "claude-opus-4-6");
    assert!(hooks["hooks"].get("preToolUse").is_none());
}

#[test]
fn uninstall_restores_byte_for_byte_when_nothing_changed() {
    let installed = install(SETTINGS, &layout()).unwrap();
    let restored = uninstall(&installed.settings_text, &installed.hooks_text, Some(SETTINGS), &layout()).unwrap();
    assert_eq!(restored, SETTINGS);
}

#[test]
fn uninstall_after_edits_keeps_them_and_loses_no_hook() {
    let installed = install(SETTINGS, &layout()).unwrap();
    // The user changed another setting and added a hook to the hooks file since.
    let mut settings = json(&installed.settings_text);
    settings["model"] = "sonnet".into();
    let edited_settings = format!("{}\n", serde_json::to_string_pretty(&settings).unwrap());
    let mut hooks = json(&installed.hooks_text);
    hooks["hooks"]["Stop"] = serde_json::json!([{"hooks": [{"type": "command", "command": "added-later"}]}]);
    let edited_hooks = serde_json::to_string_pretty(&hooks).unwrap();

    let restored = json(&uninstall(&edited_settings, &edited_hooks, Some(SETTINGS), &layout()).unwrap());
    assert_eq!(restored["model"], "sonnet");
    let original = json(SETTINGS);
    assert!(!restored.to_string().contains("hookmux dispatch"));
    // Every original handler is back in its event (native ones first, moved ones after).
    for (event, groups) in original["hooks"].as_object().unwrap() {
        for group in groups.as_array().unwrap() {
            for handler in group["hooks"].as_array().unwrap() {
                let back = restored["hooks"][event]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|g| g["hooks"].as_array().unwrap().contains(handler));
                assert!(back, "{event}: {handler} was lost");
            }
        }
    }
    assert_eq!(restored["hooks"]["Stop"][1]["hooks"][0]["command"], "added-later");
}

#[test]
fn edits_touch_only_the_hooks_value() {
    let text = "{\n\t\"a\": [1,2],   \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]}]},\n\t\"z\": {\"k\": 1}\n}";
    let installed = install(text, &layout()).unwrap();
    assert!(installed.settings_text.starts_with("{\n\t\"a\": [1,2],   \"hooks\": {"));
    assert!(installed.settings_text.ends_with(",\n\t\"z\": {\"k\": 1}\n}"));
    // Uninstalling after an edit elsewhere keeps that edit's formatting too.
    let edited = installed.settings_text.replace("[1,2]", "[1,2,3]");
    let restored = uninstall(&edited, &installed.hooks_text, Some(text), &layout()).unwrap();
    assert!(restored.starts_with("{\n\t\"a\": [1,2,3],   \"hooks\": {"), "{restored}");
    assert!(restored.ends_with(",\n\t\"z\": {\"k\": 1}\n}"));
    assert_eq!(json(&restored)["hooks"], json(text)["hooks"]);
}

#[test]
fn removing_and_adding_the_hooks_property() {
    assert_eq!(replace_hooks("{\n  \"a\": 1,\n  \"hooks\": {}\n}\n", None), "{\n  \"a\": 1\n}\n");
    assert_eq!(replace_hooks("{\n  \"hooks\": {},\n  \"a\": 1\n}\n", None), "{\n  \"a\": 1\n}\n");
    assert_eq!(replace_hooks("{}", Some(&serde_json::json!({}))), "{\n  \"hooks\": {}\n}");
    assert_eq!(
        replace_hooks("{\n  \"a\": 1\n}\n", Some(&serde_json::json!({"Stop": []}))),
        "{\n  \"a\": 1,\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n"
    );
}

#[test]
fn reinstalling_changes_nothing() {
    let first = install(SETTINGS, &layout()).unwrap();
    let restored = uninstall(&first.settings_text, &first.hooks_text, Some(SETTINGS), &layout()).unwrap();
    let second = install(&restored, &layout()).unwrap();
    assert_eq!(first, second);
    // Installing the already-installed file (no backup) moves nothing new and refuses.
    assert!(matches!(install(&first.settings_text, &layout()), Err(Refusal::NothingToMove { .. })));
}

#[test]
fn huge_timeouts_give_an_entry_timeout_of_the_longest_wait() {
    let settings = r#"{"hooks": {
        "PreToolUse": [{"hooks": [{"type": "command", "command": "a", "timeout": 1e20}]}],
        "SessionEnd": [{"hooks": [{"type": "command", "command": "b", "timeout": 1e308}]}]
    }}"#;
    let installed = json(&install(settings, &layout()).unwrap().settings_text);
    assert_eq!(installed["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 86405);
    assert_eq!(installed["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 86400);
}

#[test]
fn refusals_leave_files_alone() {
    assert!(matches!(install("{ nope", &layout()), Err(Refusal::InvalidSettings { .. })));
    assert!(matches!(install(r#"{"model": "x"}"#, &layout()), Err(Refusal::NoHooks { .. })));
    let only_native = r#"{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "p"}]}]}}"#;
    assert!(matches!(install(only_native, &layout()), Err(Refusal::NothingToMove { .. })));
    assert!(matches!(uninstall("{}", "[", None, &layout()), Err(Refusal::InvalidHooksFile { .. })));
}

#[test]
fn layouts_per_scope() {
    let user = Layout::new(Scope::User, Path::new("/home/u/.claude"), Path::new("/p"));
    assert_eq!(user.hooks_file, Path::new("/home/u/.claude/hookmux-hooks.json"));
    let local = Layout::new(Scope::Local, Path::new("/c"), Path::new("/p"));
    assert_eq!(local.settings, Path::new("/p/.claude/settings.local.json"));
    assert_eq!(local.hooks_file, Path::new("/p/.claude/hookmux-hooks.local.json"));
    assert_eq!(local.backup, Path::new("/p/.claude/settings.local.json.hookmux-backup"));
    // One command in every scope: the host runs an identical command once.
    let project = Layout::new(Scope::Project, Path::new("/c"), Path::new("/p"));
    assert_eq!([&user, &local, &project].map(|l| l.dispatch_command.as_str()), ["hookmux dispatch --installed"; 3]);
}

#[test]
fn reinstalling_replaces_the_older_entry() {
    let layout = layout();
    let old = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "hookmux dispatch --settings \"$CLAUDE_PROJECT_DIR/.claude/hookmux-hooks.json\""}]}]}}"#;
    let hooks = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}"#;
    let restored = uninstall(old, hooks, None, &layout).unwrap();
    let installed = install(&restored, &layout).unwrap();
    let settings = json(&installed.settings_text);
    assert_eq!(
        settings["hooks"]["Stop"],
        serde_json::json!([{"hooks": [{"type": "command", "command": "hookmux dispatch --installed", "timeout": 605}]}])
    );
    // Another scope's older entry is not this scope's to remove.
    let other = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "hookmux dispatch --settings /home/u/.claude/hookmux-hooks.json"}]}]}}"#;
    assert_eq!(json(&uninstall(other, r#"{"hooks": {}}"#, None, &layout).unwrap()), json(other));
}

#[test]
fn the_entry_timeout_covers_every_installed_scope() {
    let mut layout = layout();
    layout.peer_hooks =
        vec![serde_json::json!({"SessionEnd": [{"hooks": [{"type": "command", "command": "x", "timeout": 40}]}]})];
    let installed = install(SETTINGS, &layout).unwrap();
    let settings = json(&installed.settings_text);
    let session_end = &settings["hooks"]["SessionEnd"][0]["hooks"][0];
    assert_eq!(session_end["timeout"], 40, "{settings:#}");
}

#[test]
fn atomic_writes_replace_the_file_and_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.json");
    std::fs::write(&path, "old").unwrap();
    write_atomically(&path, "new").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left behind");
    let d = diff(&path, Some("a\nb\n"), Some("a\nc\n"));
    assert!(d.contains("-b") && d.contains("+c"), "{d}");
}

#[test]
fn failure_hooks_route_post_tool_use_too_for_hosts_that_report_a_failing_command_there() {
    let settings = r#"{"hooks": {"PostToolUseFailure": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "f", "timeout": 7}]}]}}
"#;
    let installed = install(settings, &layout()).unwrap();
    assert_eq!(installed.events, ["PostToolUseFailure", "PostToolUse"]);
    let written = json(&installed.settings_text);
    let entry =
        serde_json::json!([{"hooks": [{"type": "command", "command": "hookmux dispatch --installed", "timeout": 12}]}]);
    assert_eq!(written["hooks"]["PostToolUse"], entry);
    assert_eq!(written["hooks"]["PostToolUseFailure"], entry);
    // The hooks file holds only what moved; uninstalling takes the added event out again.
    assert!(json(&installed.hooks_text)["hooks"].get("PostToolUse").is_none());
    let restored = uninstall(&installed.settings_text, &installed.hooks_text, None, &layout()).unwrap();
    assert_eq!(json(&restored), json(settings));
    // A PostToolUse the settings route already is left as it is.
    let both = r#"{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "p"}]}], "PostToolUseFailure": [{"hooks": [{"type": "command", "command": "f"}]}]}}"#;
    let written = json(&install(both, &layout()).unwrap().settings_text);
    assert_eq!(written["hooks"]["PostToolUse"].as_array().map(Vec::len), Some(1));
}

/// Modes: what Unix keeps access in.
#[cfg(unix)]
mod unix {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn atomic_writes_keep_the_mode_and_give_a_new_file_0644() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomically(&path, "new").unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        let new = dir.path().join("new.json");
        write_atomically(&new, "{}").unwrap();
        assert_eq!(std::fs::metadata(&new).unwrap().permissions().mode() & 0o777, 0o644);
    }
}

#[test]
fn session_end_is_routed_whenever_the_entry_runs_an_async_hook() {
    // No SessionEnd hook anywhere, and no async hook among what dispatch runs: no SessionEnd entry.
    let plain = r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "a"}]}]}}"#;
    let installed = install(plain, &layout()).unwrap();
    assert_eq!(installed.events, ["PreToolUse"]);
    // An installed scope's hooks file holds an async hook (a user added it there): dispatch starts
    // it, and ends it when the session's SessionEnd reaches it, so SessionEnd is routed, with no
    // timeout of its own (the host keeps its SessionEnd budget).
    for key in ["async", "asyncRewake"] {
        let mut layout = layout();
        layout.peer_hooks =
            vec![serde_json::json!({"PostToolUse": [{"hooks": [{"type": "command", "command": "w", key: true}]}]})];
        let installed = install(plain, &layout).unwrap();
        assert_eq!(installed.events, ["PreToolUse", "SessionEnd"], "{key}");
        let settings = json(&installed.settings_text);
        assert_eq!(
            settings["hooks"]["SessionEnd"],
            serde_json::json!([{"hooks": [{"type": "command", "command": "hookmux dispatch --installed"}]}]),
            "{key}"
        );
        // Uninstalling takes it out again with the rest.
        let back = uninstall(&installed.settings_text, &installed.hooks_text, Some(plain), &layout).unwrap();
        assert_eq!(back, plain, "{key}");
    }
}
