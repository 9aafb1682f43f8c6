//! `hookmux dispatch --host codex` and `hookmux install codex` as processes, on Codex 0.169.0's
//! own payloads.

use crate::common;

use common::{project, Hookmux};
use serde_json::{json, Value};
use std::path::Path;

/// A captured Codex payload, moved into the project.
fn payload(name: &str, dir: &Path) -> String {
    common::event_text(&format!("events/codex/{name}.json"), dir)
}

/// The project is trusted here: what Codex's hooks do, not whether they may, is under test.
fn dispatch(dir: &Path, stdin: String) -> common::Output {
    Hookmux::new(["dispatch", "--host", "codex"])
        .env("HOOKMUX_TRUST", dir)
        .env("HOME", dir)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("TMPDIR", dir)
        .env("DUMP", dir)
        .cwd(dir)
        .stdin(stdin)
        .run()
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_patch_runs_the_claude_hooks_of_every_file() {
    let dir = project(json!({"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
        {"type": "command", "command": "hookmux run protect-paths"},
        {"type": "command", "command": "cat >> \"$DUMP/seen.jsonl\""}
    ]}]}}));
    let patch =
        "*** Begin Patch\n*** Update File: src/main.rs\n@@\n-a\n+b\n*** Add File: .env\n+SECRET=1\n*** End Patch\n";
    let mut event: Value = serde_json::from_str(&payload("PreToolUse-apply_patch", dir.path())).unwrap();
    event["tool_input"]["command"] = patch.into();
    let output = dispatch(dir.path(), event.to_string());
    assert_eq!(output.code, Some(0), "Codex reads JSON only on exit 0");
    let answer = output.json();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{answer}");
    assert!(answer["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap().contains("`.env`"));
    let seen: Vec<Value> = std::fs::read_to_string(dir.path().join("seen.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let tools: Vec<(&str, &str)> = seen
        .iter()
        .map(|e| (e["tool_name"].as_str().unwrap(), e["tool_input"]["file_path"].as_str().unwrap()))
        .collect();
    let root = dir.path().to_str().unwrap();
    assert_eq!(tools, [("Edit", format!("{root}/src/main.rs").as_str()), ("Write", format!("{root}/.env").as_str())]);

    // The trace has one line for the one Codex event: both edits' hooks, the patch left out.
    let trace = std::fs::read_to_string(dir.path().join("state/hookmux/trace/trace.jsonl")).unwrap();
    assert!(!trace.contains("SECRET=1") && !trace.contains("*** Begin Patch"), "{trace}");
    let record: Value = serde_json::from_str(trace.trim_end()).unwrap();
    assert_eq!((record["host"].as_str(), record["events"].as_u64()), (Some("codex"), Some(2)), "{record}");
    let decisions: Vec<&str> =
        record["hooks"].as_array().unwrap().iter().map(|h| h["decision"].as_str().unwrap()).collect();
    assert_eq!(decisions, ["ok", "ok", "deny", "ok"]);
    assert_eq!(record["answer"]["decision"], "deny");
}

#[test]
fn protect_paths_sees_where_a_patch_moves_a_file_and_every_way_it_names_one() {
    let dir = project(json!({"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
        {"type": "command", "command": "hookmux run protect-paths"}
    ]}]}}));
    let mut event: Value = serde_json::from_str(&payload("PreToolUse-apply_patch", dir.path())).unwrap();
    for patch in [
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: .env\n@@\n-a\n+b\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: .env\n*** Move to: a.txt\n@@\n-a\n+b\n*** End Patch\n",
        "*** Begin Patch\r\n  *** Add File: src/../.env\r\n+SECRET=1\r\n*** End Patch\r\n",
        "*** Begin Patch\n*** Delete File: .env\n*** End Patch\n",
    ] {
        event["tool_input"]["command"] = patch.into();
        let answer = dispatch(dir.path(), event.to_string()).json();
        assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{patch:?}: {answer}");
        assert!(answer["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap().contains("`.env`"));
    }
    event["tool_input"]["command"] =
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a\n+b\n*** End Patch\n".into();
    let output = dispatch(dir.path(), event.to_string());
    assert_eq!((output.code, output.stdout.as_str()), (Some(0), ""), "a harmless move passes: {}", output.stderr);
}

#[test]
fn a_patch_codex_applies_from_the_shell_is_guarded_too() {
    let dir = project(json!({"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
        {"type": "command", "command": "hookmux run protect-paths"}
    ]}]}}));
    let mut event: Value = serde_json::from_str(&payload("PreToolUse-Bash", dir.path())).unwrap();
    event["tool_input"]["command"] =
        "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: c.txt\n*** Move to: .env\n@@\n-c\n+d\n*** End Patch\nEOF\n"
            .into();
    let answer = dispatch(dir.path(), event.to_string()).json();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{answer}");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn an_exit_2_without_stderr_still_blocks_under_codex() {
    let dir = project(
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}}),
    );
    let answer = dispatch(dir.path(), payload("PreToolUse-Bash", dir.path())).json();
    assert_eq!(
        answer,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "[exit 2]: No stderr output"}})
    );
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn json_on_exit_1_and_if_rules_are_claudes() {
    let deny = r#"printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R"}}'; exit 1"#;
    let dir = project(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": deny, "if": "Bash(echo *)"},
        {"type": "command", "command": "echo never >&2; exit 2", "if": "Bash(git *)"}
    ]}]}}));
    let answer = dispatch(dir.path(), payload("PreToolUse-Bash", dir.path())).json();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecisionReason"], "R");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn stop_context_continues_and_plain_text_never_reaches_stop() {
    let dir = project(json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "echo 'plain words'"},
        {"type": "command", "command": r#"printf '%s' '{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"run the linter"}}'"#}
    ]}]}}));
    let output = dispatch(dir.path(), payload("Stop", dir.path()));
    assert_eq!(output.json(), json!({"decision": "block", "reason": "run the linter"}));
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_null_transcript_path_gets_hookmuxs_transcript() {
    let dir = project(
        json!({"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat > \"$DUMP/ups.json\""}]}]}}),
    );
    let mut event: Value = serde_json::from_str(&payload("UserPromptSubmit", dir.path())).unwrap();
    event["transcript_path"] = Value::Null;
    dispatch(dir.path(), event.to_string());
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("ups.json")).unwrap()).unwrap();
    let path = seen["transcript_path"].as_str().unwrap();
    assert!(path.starts_with(dir.path().join("state/hookmux/transcripts").to_str().unwrap()), "{path}");
    assert!(std::fs::read_to_string(path).unwrap().contains("run echo hi"));
    // A path Codex gives is kept.
    let output = dispatch(dir.path(), payload("UserPromptSubmit", dir.path()));
    assert_eq!(output.code, Some(0));
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("ups.json")).unwrap()).unwrap();
    assert!(seen["transcript_path"].as_str().unwrap().contains("/.codex/sessions/"));
}

#[test]
fn every_codex_payload_gets_an_answer_codex_can_read() {
    let dir = project(json!({"hooks": {}}));
    for entry in std::fs::read_dir(common::fixture("events/codex")).unwrap() {
        let name = entry.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned();
        let output = dispatch(dir.path(), payload(&name, dir.path()));
        assert_eq!(output.code, Some(0), "{name}: {output:?}");
        assert!(output.stdout.is_empty() || output.stdout.trim_start().starts_with('{'), "{name}: {}", output.stdout);
    }
}

#[test]
fn install_codex_dry_run_writes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let output =
        Hookmux::new(["install", "codex", "--trust", "--dry-run"]).env("HOME", home.path()).cwd(home.path()).run();
    assert_eq!(output.code, Some(0), "{output:?}");
    assert!(
        output.stdout.contains("would write") && output.stdout.contains("dispatch --host codex"),
        "{}",
        output.stdout
    );
    assert!(!home.path().join(".codex").exists());
}

#[test]
fn install_codex_writes_hooks_and_trust_under_codex_home() {
    let home = tempfile::tempdir().unwrap();
    let codex_home = home.path().join("custom-codex");
    let output = Hookmux::new(["install", "codex", "--trust"])
        .env("HOME", home.path())
        .env("CODEX_HOME", &codex_home)
        .cwd(home.path())
        .run();
    assert_eq!(output.code, Some(0), "{output:?}");
    let hooks: Value = serde_json::from_str(&std::fs::read_to_string(codex_home.join("hooks.json")).unwrap()).unwrap();
    let command = hooks["hooks"]["Stop"][0]["hooks"][0]["command"].as_str().unwrap();
    assert!(command.replace("hookmux.exe ", "hookmux ").ends_with("hookmux dispatch --host codex"), "{command}");
    let config = std::fs::read_to_string(codex_home.join("config.toml")).unwrap();
    assert_eq!(config.matches("trusted_hash = \"sha256:").count(), 11, "{config}");
    // A broken hooks.json is reported with its path and left as it was.
    std::fs::write(codex_home.join("hooks.json"), "{oops").unwrap();
    let output = Hookmux::new(["install", "codex"])
        .env("HOME", home.path())
        .env("CODEX_HOME", &codex_home)
        .cwd(home.path())
        .run();
    assert_eq!(output.code, Some(1));
    assert!(output.stderr.contains("hooks.json: not valid JSON"), "{}", output.stderr);
    assert_eq!(std::fs::read_to_string(codex_home.join("hooks.json")).unwrap(), "{oops");
}
