//! The OpenCode plugin's own tests (`integrations/opencode/hookmux.test.js`, Node's test runner)
//! against this build of hookmux, and `dispatch --host opencode` as a process.

use crate::common;

use common::Hookmux;
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
        return common::skip("the OpenCode plugin's tests need Node.js 20 or later on PATH (`node`)");
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

fn project(settings: Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join(".claude/settings.json"), settings.to_string()).unwrap();
    dir
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
