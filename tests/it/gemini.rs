//! `hookmux dispatch --host gemini` and `hookmux install gemini` as processes, on Gemini CLI
//! 0.61.0's own payloads: what one event leaves for a later one of the session.

use crate::common;

use common::{project, Hookmux};
use serde_json::{json, Value};
use std::path::Path;

/// A recorded Gemini payload, moved into the project, in one session (the payloads come from
/// several recorded sessions; what one event leaves for a later one is kept per session).
fn payload(name: &str, dir: &Path) -> String {
    let mut event = common::event(&format!("events/gemini/{name}.json"), dir);
    event["session_id"] = "7d3c1a52-gemini-test".into();
    event.to_string()
}

/// The project is trusted here: what the hooks do, not whether they may, is under test.
fn dispatch(dir: &Path, stdin: String) -> common::Output {
    Hookmux::new(["dispatch", "--host", "gemini"])
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

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn hooks_see_claude_events_and_gemini_gets_its_own_deny() {
    let dir = project(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "cat > \"$DUMP/seen.json\"; echo 'blocked by policy X' >&2; exit 2"}
    ]}]}}));
    let output = dispatch(dir.path(), payload("BeforeTool-run_shell_command-echo", dir.path()));
    assert_eq!(output.code, Some(0), "{output:?}");
    let answer = output.json();
    assert_eq!(answer["decision"], "deny", "{answer}");
    assert!(answer["reason"].as_str().unwrap().contains("blocked by policy X"), "{answer}");
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("seen.json")).unwrap()).unwrap();
    assert_eq!(seen["hook_event_name"], "PreToolUse");
    assert_eq!(seen["tool_name"], "Bash");
    assert_eq!(seen["tool_input"]["command"], "echo hi");
    // hookmux's own transcript, in Claude's format, stands in for Gemini's chat log.
    let transcript = seen["transcript_path"].as_str().unwrap();
    assert!(transcript.starts_with(dir.path().join("state").to_str().unwrap()), "{transcript}");
    assert!(Path::new(transcript).is_file());
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn pre_tool_context_reaches_the_model_with_the_tool_result() {
    let dir = project(json!({"hooks": {"PreToolUse": hook(
        r#"printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-PRE-123"}}'"#
    )}}));
    let before = dispatch(dir.path(), payload("BeforeTool-run_shell_command-echo", dir.path()));
    assert_eq!(before.stdout, "", "Gemini drops BeforeTool context: it waits for the AfterTool");
    let after = dispatch(dir.path(), payload("AfterTool-run_shell_command-exit0", dir.path())).json();
    assert_eq!(
        after["hookSpecificOutput"]["additionalContext"], "PreToolUse:Bash hook additional context: CTX-PRE-123",
        "{after}"
    );
    // Given once.
    assert_eq!(dispatch(dir.path(), payload("AfterTool-run_shell_command-exit0", dir.path())).stdout, "");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn continue_false_on_a_tool_lets_it_run_and_stops_the_next_model_call() {
    let dir = project(json!({"hooks": {"PreToolUse": hook(
        r#"printf '%s' '{"continue": false, "stopReason": "halt everything"}'"#
    )}}));
    let before = dispatch(dir.path(), payload("BeforeTool-run_shell_command-echo", dir.path()));
    assert_eq!(before.stdout, "", "the tool runs");
    let model = dispatch(dir.path(), payload("BeforeModel", dir.path())).json();
    assert_eq!(model, json!({"continue": false, "stopReason": "halt everything"}));
    assert_eq!(dispatch(dir.path(), payload("BeforeModel", dir.path())).stdout, "", "once");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_stop_hook_that_always_blocks_continues_the_turn_eight_times() {
    let dir = project(json!({"hooks": {"Stop": hook("echo 'keep going' >&2; exit 2")}}));
    let first = payload("AfterAgent", dir.path());
    let again = payload("AfterAgent-stop_hook_active", dir.path());
    let mut decisions = Vec::new();
    for n in 0..10 {
        let answer = dispatch(dir.path(), if n == 0 { first.clone() } else { again.clone() }).json();
        decisions.push(answer["decision"] == "block");
        if n == 8 {
            assert!(answer["systemMessage"].as_str().unwrap().contains("8 times in a row"), "{answer}");
        }
    }
    assert_eq!(decisions, [true, true, true, true, true, true, true, true, false, true]);
    // A new turn starts the count again.
    assert_eq!(dispatch(dir.path(), first).json()["decision"], "block");
}

#[test]
fn an_unreadable_event_is_denied_by_a_guard() {
    let dir = project(json!({"hooks": {"PreToolUse": hook("hookmux run protect-paths")}}));
    let output = dispatch(dir.path(), "{\"hook_event_name\": \"BeforeTool\", \"tool_na".to_string());
    assert_eq!(output.code, Some(2), "Gemini blocks on exit 2 with a reason on stderr: {output:?}");
    assert!(output.stderr.contains("cannot approve what it cannot read"), "{}", output.stderr);
}

#[test]
fn gemini_events_without_a_claude_counterpart_run_nothing() {
    let dir = project(json!({"hooks": {"PreCompact": hook("echo ran > \"$DUMP/ran\"")}}));
    let output = dispatch(dir.path(), payload("PreCompress", dir.path()));
    assert_eq!((output.code, output.stdout.as_str()), (Some(0), ""));
    assert!(!dir.path().join("ran").exists(), "an auto PreCompress is not a compaction");
}

#[test]
fn install_and_uninstall_leave_the_users_settings_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(home.join(".gemini")).unwrap();
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let before = "{\n  \"security\": {\n    \"auth\": {\n      \"selectedType\": \"gemini-api-key\"\n    }\n  }\n}\n";
    std::fs::write(home.join(".gemini/settings.json"), before).unwrap();
    let run = |args: &[&str]| Hookmux::new(args.to_vec()).env("HOME", &home).cwd(&project).run();

    let installed = run(&["install", "gemini"]);
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join(".gemini/settings.json")).unwrap()).unwrap();
    assert_eq!(settings["security"]["auth"]["selectedType"], "gemini-api-key");
    let command = settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"].as_str().unwrap();
    assert!(command.replace("hookmux.exe ", "hookmux ").ends_with("hookmux dispatch --host gemini"), "{command}");
    assert!(!project.join(".gemini").exists(), "the user scope is the default");

    let removed = run(&["uninstall", "gemini"]);
    assert_eq!(removed.code, Some(0), "{removed:?}");
    assert_eq!(std::fs::read_to_string(home.join(".gemini/settings.json")).unwrap(), before);

    let project_scope = run(&["install", "gemini", "--scope", "project"]);
    assert!(project_scope.stdout.contains("only in a folder it trusts"), "{}", project_scope.stdout);
    assert!(project.join(".gemini/settings.json").is_file());
    run(&["uninstall", "gemini", "--scope", "project"]);
    assert!(!project.join(".gemini/settings.json").exists());
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
    hookmux_platform::fs::symlink_dir(elsewhere.path(), &dir.path().join("state/hookmux/gemini")).unwrap();
    let before = dispatch(dir.path(), payload("BeforeTool-run_shell_command-echo", dir.path()));
    assert_eq!(before.code, Some(0));
    assert!(before.stderr.contains("cannot keep Gemini session state"), "{}", before.stderr);
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0, "nothing written through the link");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_folder_gemini_trusts_runs_its_claude_hooks_and_no_other_does() {
    let dir = project(json!({"hooks": {"UserPromptSubmit": hook("echo ran >> \"$DUMP/ran\"")}}));
    let run = |rules: Option<Value>| {
        let home = tempfile::tempdir().unwrap();
        if let Some(rules) = rules {
            std::fs::create_dir_all(home.path().join(".gemini")).unwrap();
            std::fs::write(home.path().join(".gemini/trustedFolders.json"), rules.to_string()).unwrap();
        }
        Hookmux::new(["dispatch", "--host", "gemini"])
            .env("HOME", home.path())
            .env("XDG_STATE_HOME", dir.path().join("state"))
            .env("DUMP", dir.path())
            .cwd(dir.path())
            .stdin(payload("BeforeAgent", dir.path()))
            .run();
        std::fs::read_to_string(dir.path().join("ran")).unwrap_or_default().lines().count()
    };
    let project = dir.path().to_str().unwrap();
    assert_eq!(run(None), 0, "an untrusted project's own hooks do not run");
    assert_eq!(run(Some(json!({project: "DO_NOT_TRUST"}))), 0);
    assert_eq!(run(Some(json!({project: "TRUST_FOLDER"}))), 1);
    let beside = dir.path().join("sibling");
    assert_eq!(run(Some(json!({beside.to_str().unwrap(): "TRUST_PARENT"}))), 2, "its parent trusts the project too");
}
