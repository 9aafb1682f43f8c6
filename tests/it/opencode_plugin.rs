//! The OpenCode plugin's own tests (`integrations/opencode/hookmux.test.js`, Node's test runner)
//! against this build of hookmux, and `dispatch --host opencode` as a process.

use crate::common;

use common::{project, Hookmux};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// The major version of the `node` on PATH, if there is one.
fn node_major() -> Option<u32> {
    let output = Command::new("node").arg("--version").output().ok().filter(|o| o.status.success())?;
    String::from_utf8_lossy(&output.stdout).trim().strip_prefix('v')?.split('.').next()?.parse().ok()
}

#[test]
fn the_plugin_passes_its_tests_with_this_hookmux() {
    if node_major().is_none_or(|major| major < 20) {
        return common::skip("node", "the OpenCode plugin's tests need Node.js 20 or later on PATH (`node`)");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The plugin's hookmux keeps state under HOME and the tests' projects go to TMPDIR: both
    // inside a folder of this test's own.
    let home = tempfile::tempdir().unwrap();
    let output = Command::new("node")
        .args(["--test", "integrations/opencode/"])
        .current_dir(root)
        .env("HOOKMUX_BIN", env!("CARGO_BIN_EXE_hookmux"))
        .env("HOME", home.path())
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("TMPDIR", home.path())
        // The tests' projects sit in TMPDIR; the plugin's work, not trust, is under test.
        .env("HOOKMUX_TRUST", home.path())
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "node --test integrations/opencode/ failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("# fail 0"), "{stdout}");
}

fn dispatch(dir: &Path, event: Value) -> (Value, common::Output) {
    let output = Hookmux::new(["dispatch", "--host", "opencode"])
        .env("HOME", dir)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("TMPDIR", dir)
        .cwd(dir)
        .stdin(event.to_string())
        .run();
    assert_eq!(output.code, Some(0), "{output:?}");
    (output.json(), output)
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn the_usual_settings_sources_are_read() {
    let dir = project(
        json!({"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "echo 'no secrets' >&2; exit 2"}]}]}}),
    );
    let event = json!({"hook": "tool.execute.before", "directory": dir.path(),
        "input": {"tool": "write", "sessionID": "ses_1", "callID": "c1"}, "output": {"args": {"filePath": ".env", "content": "x"}}});
    let (answer, _) = dispatch(dir.path(), event);
    assert_eq!(answer["hookEventName"], "PreToolUse");
    assert_eq!(answer["block"], "[echo 'no secrets' >&2; exit 2]: no secrets\n");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn an_apply_patch_is_checked_file_by_file_like_edit_and_write() {
    // OpenCode gives GPT models `apply_patch` instead of edit and write.
    let dir = project(json!({"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [
        {"type": "command", "command": "hookmux run protect-paths"},
        {"type": "command", "command": "cat >> seen.jsonl"}
    ]}]}}));
    let patch = "*** Begin Patch\n*** Update File: src/a.rs\n*** Move to: .env\n@@\n-a\n+b\n*** Add File:notes.txt\n+n\n*** End Patch";
    let event = json!({"hook": "tool.execute.before", "directory": dir.path(),
        "input": {"tool": "apply_patch", "sessionID": "ses_1", "callID": "c1"}, "output": {"args": {"patchText": patch}}});
    let (answer, _) = dispatch(dir.path(), event);
    assert!(answer["block"].as_str().unwrap_or_default().contains("`.env`"), "{answer}");
    let seen: Vec<Value> = std::fs::read_to_string(dir.path().join("seen.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let root = dir.path().to_str().unwrap();
    let calls: Vec<(String, String, String)> = seen
        .iter()
        .map(|e| {
            let input = &e["tool_input"];
            let field = |k: &str| input[k].as_str().unwrap_or_default().replace(root, "");
            (e["tool_name"].as_str().unwrap_or_default().to_string(), field("file_path"), field("patch_op"))
        })
        .collect();
    let call = |tool: &str, path: &str, op: &str| (tool.to_string(), path.to_string(), op.to_string());
    assert_eq!(
        calls,
        [call("Edit", "/src/a.rs", "move_from"), call("Write", "/.env", "move_to"), call("Write", "/notes.txt", "add")]
    );
    assert!(seen.iter().all(|e| e["tool_input"]["patch_text"] == patch));
}

#[test]
fn always_one_json_object_even_when_nothing_can_run() {
    let dir = project(json!({}));
    for stdin in ["", "[1]", "{\"hook\": 3}"] {
        let output =
            Hookmux::new(["dispatch", "--host", "opencode"]).env("HOME", dir.path()).cwd(dir.path()).stdin(stdin).run();
        assert_eq!(output.code, Some(0));
        let answer = output.json();
        assert!(answer["systemMessage"].as_str().unwrap().contains("not valid JSON of the plugin's shape"), "{answer}");
    }
    let (answer, output) = dispatch(dir.path(), json!({"hook": "file.edited", "input": {"sessionID": "s"}}));
    assert_eq!(answer, json!({}));
    assert!(output.stderr.contains("`file.edited`"), "{}", output.stderr);
}
