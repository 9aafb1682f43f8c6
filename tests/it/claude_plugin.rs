//! hookmux as a Claude Code plugin: the marketplace at the repository's root, the plugin's hooks
//! as hookmux reads them, and its launcher with and without a hookmux binary. (Installing it into
//! the real Claude Code is `scripts/plugin-self-check.sh`.)

use crate::common;

use common::Hookmux;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn plugin_root() -> PathBuf {
    let marketplace = read_json(&repo().join(".claude-plugin/marketplace.json"));
    let entry = &marketplace["plugins"][0];
    assert_eq!(entry["name"], "hookmux");
    repo().join(entry["source"].as_str().unwrap())
}

fn launcher() -> String {
    plugin_root().join("bin/hookmux-plugin").to_string_lossy().into_owned()
}

/// A PATH without any `hookmux` on it.
fn bare_path() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path).filter(|dir| !dir.join("hookmux").exists()).collect();
    std::env::join_paths(dirs).unwrap().to_string_lossy().into_owned()
}

fn write_event(dir: &Path) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": dir, "tool_name": "Write",
           "tool_input": {"file_path": dir.join(".env"), "content": "X=1"}})
    .to_string()
}

#[test]
fn the_marketplace_names_the_plugin_at_the_crates_version() {
    let marketplace = read_json(&repo().join(".claude-plugin/marketplace.json"));
    let manifest = read_json(&plugin_root().join(".claude-plugin/plugin.json"));
    assert_eq!(manifest["name"], "hookmux");
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(marketplace["plugins"][0]["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn the_plugin_hooks_validate_and_wire_the_wake_up_and_protect_paths() {
    let hooks = plugin_root().join("hooks/hooks.json");
    let dir = tempfile::tempdir().unwrap();
    let validate = Hookmux::new(["hooks", "validate", "--settings", hooks.to_str().unwrap()]).cwd(dir.path()).run();
    assert_eq!(validate.code, Some(0), "{}", validate.stdout);
    let hooks = read_json(&hooks);
    let commands = |event: &str| -> Vec<String> {
        hooks["hooks"][event][0]["hooks"].as_array().unwrap().iter().map(|h| h["command"].to_string()).collect()
    };
    assert!(commands("UserPromptSubmit")[0].contains("run wakeup"));
    assert!(commands("PreToolUse")[0].contains("run protect-paths"));
    assert_eq!(hooks["hooks"]["PreToolUse"][0]["matcher"], "Edit|Write|MultiEdit|NotebookEdit");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "runs the plugin's POSIX launcher script, which Windows starts through Git Bash, not there under Wine"
)]
fn with_a_hookmux_binary_the_launcher_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    let output = Hookmux::new(["run", "protect-paths"])
        .env("HOOKMUX_BIN", env!("CARGO_BIN_EXE_hookmux"))
        .env("PATH", bare_path())
        .env("CLAUDE_PROJECT_DIR", dir.path())
        .stdin(write_event(dir.path()))
        .run_program(&launcher());
    assert_eq!(output.code, Some(0), "{}", output.stderr);
    assert_eq!(output.json()["hookSpecificOutput"]["permissionDecision"], "deny", "{}", output.stdout);

    let check =
        Hookmux::new(["check"]).env("HOOKMUX_BIN", env!("CARGO_BIN_EXE_hookmux")).stdin("{}").run_program(&launcher());
    assert_eq!((check.code, check.stdout.as_str()), (Some(0), ""), "nothing to say when hookmux is there");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "runs the plugin's POSIX launcher script, which Windows starts through Git Bash, not there under Wine"
)]
fn without_one_it_says_so_on_session_start_and_blocks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let check = Hookmux::new(["check"]).env("PATH", bare_path()).stdin("{}").run_program(&launcher());
    assert_eq!(check.code, Some(0));
    let message = check.json()["systemMessage"].as_str().unwrap().to_string();
    assert!(message.contains("OFF") && message.contains("cargo install"), "{message}");

    let guard = Hookmux::new(["run", "protect-paths"])
        .env("PATH", bare_path())
        .env("CLAUDE_PROJECT_DIR", dir.path())
        .stdin(write_event(dir.path()))
        .run_program(&launcher());
    assert_eq!((guard.code, guard.stdout.as_str(), guard.stderr.as_str()), (Some(0), "", ""));
}
