//! Every event the host can send reaches the hooks, whatever its size or depth: the model
//! controls the tool input, and a deny hook skipped because of the input's shape is a guard
//! the model can get past.

use crate::common;

use common::Hookmux;
use serde_json::{json, Value};
use std::path::Path;

/// A project whose PreToolUse hooks are protect-paths and a command hook that keeps its stdin.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Write|Bash", "hooks": [
        {"type": "command", "command": "hookmux run protect-paths"},
        {"type": "command", "command": "cat > \"$DUMP/stdin\""}
    ]}]}});
    std::fs::write(dir.path().join(".claude/settings.json"), settings.to_string()).unwrap();
    dir
}

fn dispatch(dir: &Path, host: &str, stdin: Vec<u8>) -> common::Output {
    Hookmux::new(["dispatch", "--host", host])
        .env("HOME", dir)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("TMPDIR", dir)
        .env("DUMP", dir)
        .env("CLAUDE_PROJECT_DIR", dir)
        .cwd(dir)
        .stdin(stdin)
        .run()
}

/// A Write of the project's `.env` as Claude Code sends it, with `extra` inside the tool input
/// (an MCP call carries any JSON there).
fn write_env(dir: &Path, content: &str, extra: &str) -> Vec<u8> {
    let head = json!({
        "session_id": "s1",
        "transcript_path": "",
        "cwd": dir,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
    })
    .to_string();
    let path = Value::from(dir.join(".env").to_str().unwrap()).to_string();
    let content = Value::from(content).to_string();
    let mut event = Vec::with_capacity(head.len() + content.len() + extra.len() + 100);
    event.extend_from_slice(&head.as_bytes()[..head.len() - 1]);
    event.extend_from_slice(br#","tool_input":{"file_path":"#);
    event.extend_from_slice(path.as_bytes());
    event.extend_from_slice(br#","content":"#);
    event.extend_from_slice(content.as_bytes());
    event.extend_from_slice(br#","extra":"#);
    event.extend_from_slice(extra.as_bytes());
    event.extend_from_slice(br#"},"tool_use_id":"t1"}"#);
    event
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

fn assert_denied(output: &common::Output) {
    assert_eq!(output.code, Some(0), "{}", output.stderr);
    let answer = output.json();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{answer} {}", output.stderr);
    assert!(answer["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap().contains("`.env`"));
}

/// What the command hook got on stdin.
fn seen(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("stdin")).unwrap_or_default()
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn an_event_over_64_mib_reaches_every_hook() {
    let dir = project();
    let event = write_env(dir.path(), &"x".repeat(65 << 20), "null");
    let output = dispatch(dir.path(), "claude", event.clone());
    assert_denied(&output);
    assert!(seen(dir.path()) == event, "the command hook gets the host's bytes unchanged");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_tool_input_nested_past_serde_jsons_limit_reaches_every_hook() {
    for depth in [126, 100_000] {
        let dir = project();
        let event = write_env(dir.path(), "SECRET=1", &nested(depth));
        let output = dispatch(dir.path(), "claude", event.clone());
        assert_denied(&output);
        assert!(seen(dir.path()) == event, "depth {depth}: the command hook gets the host's bytes unchanged");
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn bytes_that_are_not_utf8_reach_command_hooks_unchanged() {
    let dir = project();
    let mut event = write_env(dir.path(), "SECRET=", "null");
    let at = event.windows(7).position(|w| w == b"SECRET=").unwrap() + 7;
    event.splice(at..at, [0xff, 0xfe]);
    let output = dispatch(dir.path(), "claude", event.clone());
    assert_denied(&output);
    assert!(seen(dir.path()) == event);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn under_codex_a_deep_tool_input_reaches_the_hooks_translated() {
    let dir = project();
    let mut event: Value =
        serde_json::from_str(&common::event_text("events/codex/PreToolUse-Bash.json", dir.path())).unwrap();
    event["tool_input"]["extra"] = json!("DEEP");
    let text = event.to_string().replace("\"DEEP\"", &nested(100_000));
    let output = dispatch(dir.path(), "codex", text.clone().into_bytes());
    assert_eq!(output.code, Some(0), "{}", output.stderr);
    let seen = String::from_utf8(seen(dir.path())).unwrap();
    assert!(seen.contains(&format!("\"extra\":{}", nested(100_000))), "{}", &seen[..seen.len().min(500)]);
}

#[test]
fn an_event_that_cannot_be_read_is_denied_by_the_guards_and_runs_nothing_else() {
    let dir = project();
    let event = write_env(dir.path(), "SECRET=1", "null");
    // Cut off: no hook can know which tool this is, or which file.
    let truncated = event[..event.len() / 2].to_vec();
    let output = dispatch(dir.path(), "claude", truncated);
    assert_eq!(output.code, Some(2), "a block whatever the event: {output:?}");
    assert!(
        output.stderr.contains("could not be read") && output.stderr.contains("protect-paths"),
        "{}",
        output.stderr
    );
    assert!(!dir.path().join("stdin").exists(), "the command hook did not run");
    assert!(output.stderr.contains("1 hook was skipped"), "the skipped hook is told: {}", output.stderr);
}

#[test]
fn an_event_that_cannot_be_read_without_guards_blocks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    let settings = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "cat > \"$DUMP/stdin\""}
    ]}]}});
    std::fs::write(dir.path().join(".claude/settings.json"), settings.to_string()).unwrap();
    let output = dispatch(dir.path(), "claude", b"{\"hook_event_name\":\"PreTo".to_vec());
    assert_eq!(output.code, Some(0), "{output:?}");
    assert!(output.stderr.contains("could not be read") && output.stderr.contains("1 hook"), "{}", output.stderr);
    assert!(!dir.path().join("stdin").exists());
}

#[test]
fn under_opencode_an_event_that_cannot_be_read_is_blocked_by_the_guards() {
    let dir = project();
    let output = dispatch(dir.path(), "opencode", br#"{"hook":"tool.execute.before","input":{"tool":"wri"#.to_vec());
    assert_eq!(output.code, Some(0), "the plugin reads JSON: {output:?}");
    let answer = output.json();
    let block = answer["block"].as_str().unwrap_or_default();
    assert!(block.contains("could not be read") && block.contains("`protect-paths` denies"), "{answer}");
    assert!(answer["systemMessage"].as_str().unwrap_or_default().contains("its 1 hook was skipped"), "{answer}");
    assert!(!dir.path().join("stdin").exists());
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn under_opencode_a_deep_tool_input_reaches_the_hooks_translated() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    let settings = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "cat > \"$DUMP/stdin\"; echo 'no' >&2; exit 2"}
    ]}]}});
    std::fs::write(dir.path().join(".claude/settings.json"), settings.to_string()).unwrap();
    let event = json!({"hook": "tool.execute.before", "directory": dir.path(), "mcp_servers": ["db"],
        "input": {"tool": "db_query", "sessionID": "s1", "callID": "c1"},
        "output": {"args": {"sql": "drop table users", "filter": "DEEP"}}});
    let text = event.to_string().replace("\"DEEP\"", &nested(100_000));
    let output = dispatch(dir.path(), "opencode", text.into_bytes());
    assert_eq!(output.code, Some(0), "{output:?}");
    let answer = output.json();
    assert!(answer["block"].as_str().unwrap_or_default().contains("no"), "the hook's block holds: {answer}");
    let seen = String::from_utf8(seen(dir.path())).unwrap();
    assert!(seen.contains(&format!("\"filter\":{}", nested(100_000))), "{}", &seen[..seen.len().min(500)]);
    assert!(seen.contains("\"tool_name\":\"mcp__db__query\""), "{}", &seen[..seen.len().min(500)]);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_lone_surrogate_escape_reaches_every_hook() {
    // JSON.stringify writes a string holding half a surrogate pair as a `\ud800` escape: valid
    // JSON, which serde_json refuses to read into a string.
    let dir = project();
    let event = write_env(dir.path(), "SECRET=", "null");
    let at = event.windows(7).position(|w| w == b"SECRET=").unwrap() + 7;
    let mut event = event;
    event.splice(at..at, *br"\ud800 and \udc00 but not \\ud800, \ud83d\ude00");
    let output = dispatch(dir.path(), "claude", event.clone());
    assert_denied(&output);
    assert!(seen(dir.path()) == event, "the command hook gets the host's bytes unchanged");
}

#[test]
fn an_event_that_cannot_be_read_meets_the_guards_of_a_project_the_host_trusts() {
    // Claude Code runs the hooks of a project it trusts: its guards deny an unreadable event as
    // they would a readable one, with no trust of hookmux's own in the way.
    let dir = project();
    let home = tempfile::tempdir().unwrap();
    let output = Hookmux::new(["dispatch"])
        .env("HOME", home.path())
        .env("CLAUDE_PROJECT_DIR", dir.path())
        .env("DUMP", dir.path())
        .cwd(dir.path())
        .stdin(b"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Wri".to_vec())
        .run();
    assert_eq!(output.code, Some(2), "{output:?}");
    assert!(output.stderr.contains("`protect-paths` denies"), "{}", output.stderr);
}
