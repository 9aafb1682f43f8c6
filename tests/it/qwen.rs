//! `hookmux dispatch --host qwen` and `hookmux install qwen` as processes, on Qwen Code 0.24.4's
//! own payloads: what one event leaves for a later one of the session.

use crate::common;

use common::{project, Hookmux};
use serde_json::{json, Value};
use std::path::Path;

/// A recorded Qwen payload, moved into the project.
fn payload(name: &str, dir: &Path) -> String {
    common::event(&format!("events/qwen/{name}.json"), dir).to_string()
}

/// The project is trusted here: what the hooks do, not whether they may, is under test.
fn dispatch(dir: &Path, stdin: String) -> common::Output {
    Hookmux::new(["dispatch", "--host", "qwen"])
        .env("HOOKMUX_TRUST", dir)
        .env("HOME", dir)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("TMPDIR", dir)
        .env("DUMP", dir)
        .cwd(dir)
        .stdin(stdin)
        .run()
}

fn hook(command: &str) -> Value {
    json!([{"hooks": [{"type": "command", "command": command}]}])
}

fn ran(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("ran")).unwrap_or_default().lines().count()
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn hooks_see_claude_events_and_qwen_gets_its_own_deny() {
    let dir = project(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "cat > \"$DUMP/seen.json\"; exit 2"}
    ]}]}}));
    let output = dispatch(dir.path(), payload("PreToolUse-run_shell_command", dir.path()));
    assert_eq!(output.code, Some(0), "{output:?}");
    let answer = output.json();
    // Exit 2 without stderr blocks in Claude Code; Qwen would block nothing on it.
    assert_eq!(answer["decision"], "deny", "{answer}");
    assert!(!answer["reason"].as_str().unwrap().is_empty());
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("seen.json")).unwrap()).unwrap();
    assert_eq!(seen["hook_event_name"], "PreToolUse");
    assert_eq!(seen["tool_name"], "Bash");
    assert_eq!(seen["tool_input"]["command"], "echo hi");
    assert_eq!(seen["tool_use_id"], "call_mock_0");
    // hookmux's own transcript, in Claude's format, stands in for Qwen's chat log.
    let transcript = seen["transcript_path"].as_str().unwrap();
    assert!(transcript.starts_with(dir.path().join("state").to_str().unwrap()), "{transcript}");
    assert!(Path::new(transcript).is_file());
    assert!(seen["qwen_transcript_path"].as_str().unwrap().ends_with(".jsonl"));
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn pre_tool_context_reaches_the_model_with_the_tool_result_once() {
    let dir = project(json!({"hooks": {"PreToolUse": hook(
        r#"printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-PRE-123"}}'"#
    )}}));
    let before = dispatch(dir.path(), payload("PreToolUse-run_shell_command", dir.path()));
    assert_eq!(before.stdout, "", "Qwen drops PreToolUse context: it waits for the PostToolUse");
    let after = dispatch(dir.path(), payload("PostToolUse-run_shell_command", dir.path())).json();
    assert_eq!(
        after["hookSpecificOutput"]["additionalContext"], "PreToolUse:Bash hook additional context: CTX-PRE-123",
        "{after}"
    );
    assert_eq!(dispatch(dir.path(), payload("PostToolUse-run_shell_command", dir.path())).stdout, "");
    // Another call's result does not take it.
    dispatch(dir.path(), payload("PreToolUse-run_shell_command", dir.path()));
    let other = dispatch(dir.path(), payload("PostToolUseFailure-run_shell_command-exit3", dir.path()));
    assert_eq!(other.stdout, "", "{other:?}");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn continue_false_on_a_tool_lets_it_run_and_stops_the_request_that_would_send_its_result() {
    let dir = project(json!({"hooks": {
        "PreToolUse": hook(r#"printf '%s' '{"continue": false, "stopReason": "halt everything"}'"#),
        "UserPromptSubmit": hook("echo ran >> \"$DUMP/ran\""),
    }}));
    let before = dispatch(dir.path(), payload("PreToolUse-run_shell_command", dir.path()));
    assert_eq!(before.stdout, "", "the tool runs");
    let next = dispatch(dir.path(), payload("UserPromptSubmit-tool-continuation", dir.path())).json();
    assert_eq!(next, json!({"continue": false, "stopReason": "halt everything"}));
    assert_eq!(dispatch(dir.path(), payload("UserPromptSubmit-tool-continuation", dir.path())).stdout, "", "once");
    assert_eq!(ran(dir.path()), 0, "Qwen's request with tool results is no prompt of the user's");
    // Tool results that came with text of their own are stopped too.
    dispatch(dir.path(), payload("PreToolUse-run_shell_command", dir.path()));
    let mut with_text = common::event("events/qwen/UserPromptSubmit-tool-continuation.json", dir.path());
    with_text["prompt"] = "a reminder Qwen added".into();
    assert_eq!(dispatch(dir.path(), with_text.to_string()).json()["continue"], false);
    assert_eq!(ran(dir.path()), 0);

    // A stop the turn never reached is not the next turn's.
    dispatch(dir.path(), payload("PreToolUse-run_shell_command", dir.path()));
    assert_eq!(dispatch(dir.path(), payload("UserPromptSubmit", dir.path())).stdout, "");
    assert_eq!(ran(dir.path()), 1, "the user's own prompt runs its hooks");
    assert_eq!(dispatch(dir.path(), payload("UserPromptSubmit-tool-continuation", dir.path())).stdout, "");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_stop_block_continues_the_turn_and_its_feedback_is_no_prompt() {
    let dir = project(json!({"hooks": {
        "Stop": hook(r#"cat > /dev/null; printf '%s' '{"decision": "block", "reason": "keep going"}'"#),
        "UserPromptSubmit": hook("echo ran >> \"$DUMP/ran\""),
    }}));
    let stop = dispatch(dir.path(), payload("Stop", dir.path())).json();
    assert_eq!(stop, json!({"decision": "block", "reason": "Stop hook feedback:\nkeep going"}));
    // Qwen sends the reason back as a prompt of its own, and fires UserPromptSubmit for it.
    let mut feedback = common::event("events/qwen/UserPromptSubmit-stop-continuation.json", dir.path());
    feedback["prompt"] = "Stop hook feedback:\nkeep going".into();
    assert_eq!(dispatch(dir.path(), feedback.to_string()).stdout, "");
    assert_eq!(ran(dir.path()), 0);
    // The same words again, not after a Stop of hookmux's: the user's.
    dispatch(dir.path(), feedback.to_string());
    assert_eq!(ran(dir.path()), 1);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_rewritten_input_is_refused_with_the_input_to_use_and_the_user_told_once() {
    let dir = project(json!({"hooks": {"PreToolUse": hook(
        r#"printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo rewritten-command"}}}'"#
    )}}));
    let first = dispatch(dir.path(), payload("PreToolUse-run_shell_command", dir.path())).json();
    assert_eq!(first["decision"], "deny", "{first}");
    assert!(first["reason"].as_str().unwrap().contains("echo rewritten-command"), "{first}");
    assert!(first["systemMessage"].as_str().unwrap().contains("updatedInput was not applied"), "{first}");
    let second = dispatch(dir.path(), payload("PreToolUse-run_shell_command-two-lines", dir.path())).json();
    assert_eq!(second["decision"], "deny");
    assert!(second.get("systemMessage").is_none(), "once per session: {second}");
}

#[test]
fn an_unreadable_event_is_denied_by_a_guard() {
    let dir = project(json!({"hooks": {"PreToolUse": hook("hookmux run protect-paths")}}));
    let output = dispatch(dir.path(), "{\"hook_event_name\": \"PreToolUse\", \"tool_na".to_string());
    assert_eq!(output.code, Some(2), "Qwen denies on exit 2 with the reason on stderr: {output:?}");
    assert!(output.stderr.contains("cannot approve what it cannot read"), "{}", output.stderr);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn qwen_events_without_a_claude_hook_run_nothing() {
    let dir = project(json!({"hooks": {"Notification": hook("echo ran >> \"$DUMP/ran\"")}}));
    let output = dispatch(dir.path(), payload("MessageDisplay", dir.path()));
    assert_eq!((output.code, output.stdout.as_str()), (Some(0), ""));
    assert_eq!(ran(dir.path()), 0);
    dispatch(dir.path(), payload("Notification-auth_success", dir.path()));
    assert_eq!(ran(dir.path()), 1);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn only_a_folder_qwen_trusts_or_hookmux_does_runs_its_claude_hooks() {
    let dir = project(json!({"hooks": {"UserPromptSubmit": hook("echo ran >> \"$DUMP/ran\"")}}));
    let run = |rules: Option<Value>| {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".qwen")).unwrap();
        // Qwen's default: folder trust off, so Qwen itself runs every folder's hooks.
        std::fs::write(home.path().join(".qwen/settings.json"), r#"{"security": {"folderTrust": {"enabled": false}}}"#)
            .unwrap();
        if let Some(rules) = rules {
            std::fs::write(home.path().join(".qwen/trustedFolders.json"), rules.to_string()).unwrap();
        }
        Hookmux::new(["dispatch", "--host", "qwen"])
            .env("HOME", home.path())
            .env("XDG_STATE_HOME", dir.path().join("state"))
            .env("DUMP", dir.path())
            .cwd(dir.path())
            .stdin(payload("UserPromptSubmit", dir.path()))
            .run();
        ran(dir.path())
    };
    let project = dir.path().to_str().unwrap();
    assert_eq!(run(None), 0, "Qwen asks nothing: that is no trust");
    assert_eq!(run(Some(json!({project: "DO_NOT_TRUST"}))), 0);
    assert_eq!(run(Some(json!({project: "TRUST_FOLDER"}))), 1);
}

#[test]
fn install_and_uninstall_leave_the_users_settings_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(home.join(".qwen")).unwrap();
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let before = "{\n  \"security\": {\n    \"auth\": {\n      \"selectedType\": \"openai\"\n    }\n  }\n}\n";
    std::fs::write(home.join(".qwen/settings.json"), before).unwrap();
    let run = |args: &[&str]| Hookmux::new(args.to_vec()).env("HOME", &home).cwd(&project).run();

    let installed = run(&["install", "qwen"]);
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join(".qwen/settings.json")).unwrap()).unwrap();
    assert_eq!(settings["security"]["auth"]["selectedType"], "openai");
    let entry = &settings["hooks"]["PreToolUse"][0]["hooks"][0];
    let command = entry["command"].as_str().unwrap().replace("hookmux.exe ", "hookmux ");
    assert!(command.ends_with("hookmux dispatch --host qwen"), "{entry}");
    assert!(entry["timeout"].as_u64().unwrap() < 1000, "Qwen reads 1000 or more as milliseconds: {entry}");
    assert!(!project.join(".qwen").exists(), "the user scope is the default");

    let removed = run(&["uninstall", "qwen"]);
    assert_eq!(removed.code, Some(0), "{removed:?}");
    assert_eq!(std::fs::read_to_string(home.join(".qwen/settings.json")).unwrap(), before);

    let project_scope = run(&["install", "qwen", "--scope", "project"]);
    assert!(project_scope.stdout.contains("when it starts in"), "{}", project_scope.stdout);
    assert!(project.join(".qwen/settings.json").is_file());
    run(&["uninstall", "qwen", "--scope", "project"]);
    assert!(!project.join(".qwen/settings.json").exists());
}

#[test]
fn install_writes_where_qwen_home_says_and_offers_trust_for_the_projects_own_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let qwen_home = dir.path().join("qwen-home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::write(project.join(".claude/settings.json"), r#"{"hooks": {}}"#).unwrap();
    let installed = Hookmux::new(["install", "qwen"])
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("QWEN_HOME", &qwen_home)
        .cwd(&project)
        .run();
    assert_eq!(installed.code, Some(0), "{installed:?}");
    assert!(qwen_home.join("settings.json").is_file());
    assert!(installed.stdout.contains("hookmux trust"), "{}", installed.stdout);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn session_state_is_never_written_through_a_link() {
    let dir = project(json!({"hooks": {"PreToolUse": hook(
        r#"printf '%s' '{"continue": false, "stopReason": "halt"}'"#
    )}}));
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("state/hookmux")).unwrap();
    hookmux_platform::fs::symlink_dir(elsewhere.path(), &dir.path().join("state/hookmux/qwen")).unwrap();
    let before = dispatch(dir.path(), payload("PreToolUse-run_shell_command", dir.path()));
    assert_eq!(before.code, Some(0));
    assert!(before.stderr.contains("cannot keep Qwen Code session state"), "{}", before.stderr);
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0, "nothing written through the link");
}

#[test]
fn validate_finds_what_qwens_own_rules_do_to_the_hooks_in_its_files() {
    let dir = project(json!({"hooks": {"PreToolUse": hook("./guard.sh")}}));
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".qwen")).unwrap();
    let user = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "hookmux dispatch --host qwen", "timeout": 600000}]}]}});
    std::fs::write(home.path().join(".qwen/settings.json"), serde_json::to_string_pretty(&user).unwrap()).unwrap();
    std::fs::create_dir_all(dir.path().join(".qwen")).unwrap();
    let own = json!({"hooks": {"PreToolUse": hook("./guard.sh")}});
    std::fs::write(dir.path().join(".qwen/settings.json"), serde_json::to_string_pretty(&own).unwrap()).unwrap();
    let run = |args: &[&str]| Hookmux::new(args.to_vec()).env("HOME", home.path()).cwd(dir.path()).run();

    let out = run(&["hooks", "validate", "--format", "json"]);
    assert_eq!(out.code, Some(1), "the timeout is an error: {out:?}");
    let findings = out.json()["findings"].as_array().unwrap().clone();
    let rule = |id: &str| findings.iter().find(|f| f["rule"] == id).unwrap_or_else(|| panic!("no {id}: {findings:#?}"));
    let timeout = rule("host-timeout-milliseconds");
    assert!(Path::new(timeout["file"].as_str().unwrap()).ends_with(Path::new(".qwen").join("settings.json")));
    assert_eq!(
        (timeout["line"].as_u64(), timeout["json_path"].as_str()),
        (Some(9), Some("hooks.PreToolUse[0].hooks[0].timeout"))
    );
    let twice = rule("host-duplicate-hook");
    assert!(twice["file"].as_str().unwrap().starts_with(dir.path().to_str().unwrap()), "{twice}");

    // Only the files named: no host file.
    let settings = dir.path().join(".claude/settings.json");
    let named = run(&["hooks", "validate", "--format", "json", "--settings", settings.to_str().unwrap()]);
    let rules: Vec<Value> = named.json()["findings"].as_array().unwrap().iter().map(|f| f["rule"].clone()).collect();
    assert!(!rules.iter().any(|r| r.as_str().unwrap().starts_with("host-")), "{rules:?}");
}
