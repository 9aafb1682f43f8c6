//! GitHub Copilot CLI runs the entry `hookmux install copilot` (= `install claude`) leaves in
//! Claude Code's settings file: the same installed state answers each host in its own form, and
//! runs every hook once.

use crate::common::{self, Hookmux};
use serde_json::{json, Value};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

struct Project {
    _root: tempfile::TempDir,
    home: PathBuf,
    dir: PathBuf,
}

fn path_with_hookmux() -> OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_hookmux")).parent().expect("the binary's folder").to_path_buf();
    let mut paths = vec![bin];
    paths.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    std::env::join_paths(paths).expect("a PATH")
}

impl Project {
    /// A project whose settings deny a Write with exit 2 and count the hook's runs.
    fn new() -> Project {
        let root = tempfile::tempdir().expect("a temporary folder");
        let home = root.path().join("home");
        let dir = root.path().join("proj");
        std::fs::create_dir_all(home.join(".claude")).expect("mkdir");
        std::fs::create_dir_all(dir.join(".claude")).expect("mkdir");
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": "Write", "hooks": [{"type": "command",
                "command": "echo run >> \"$CLAUDE_PROJECT_DIR/runs.txt\"; echo 'no writes here' >&2; exit 2"}]},
            {"matcher": "Write", "hooks": [{"type": "command",
                "command": "echo run >> \"$CLAUDE_PROJECT_DIR/runs.txt\"; echo 'no writes here' >&2; exit 2"}]}
        ]}});
        std::fs::write(dir.join(".claude/settings.json"), serde_json::to_string_pretty(&settings).expect("json"))
            .expect("write");
        Project { _root: root, home, dir }
    }

    fn hookmux<'a>(&self, args: impl IntoIterator<Item = &'a str>) -> Hookmux {
        Hookmux::new(args).env("HOME", &self.home).env("PATH", path_with_hookmux()).cwd(&self.dir)
    }

    fn runs(&self) -> usize {
        std::fs::read_to_string(self.dir.join("runs.txt")).map(|t| t.lines().count()).unwrap_or(0)
    }

    /// The recorded Copilot payload, in this project.
    fn copilot_event(&self, name: &str) -> String {
        common::fixture_text(&format!("events/copilot/{name}.json"))
            .replace("/home/dev/proj", &self.dir.to_string_lossy())
            .replace("/home/dev", &self.home.to_string_lossy())
    }

    /// Runs the entry install left in the settings file, as a host does: `sh -c`, in the project.
    fn run_entry(&self, stdin: String, copilot: bool) -> common::Output {
        let settings: Value =
            serde_json::from_str(&std::fs::read_to_string(self.dir.join(".claude/settings.json")).expect("settings"))
                .expect("settings JSON");
        let command =
            settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"].as_str().expect("the entry").to_string();
        let mut run = self.hookmux(["-c", command.as_str()]).env("CLAUDE_PROJECT_DIR", &self.dir).stdin(stdin);
        if copilot {
            run = run.env("COPILOT_CLI", "1").env("COPILOT_PROJECT_DIR", &self.dir);
        }
        run.run_program("/bin/sh")
    }
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn install_copilot_leaves_one_entry_both_hosts_run_with_claude_s_rules() {
    let project = Project::new();
    let before = std::fs::read_to_string(project.dir.join(".claude/settings.json")).expect("settings");
    let out = project.hookmux(["install", "copilot"]).env("CLAUDE_PROJECT_DIR", &project.dir).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("Copilot CLI runs the same entry"), "{}", out.stdout);
    assert!(project.dir.join(".claude/hookmux-hooks.json").is_file());

    // Copilot: its payload and its variable, answered with Copilot's own field; the hook that
    // Copilot would have run twice runs once.
    let out = project.run_entry(project.copilot_event("PreToolUse-Write"), true);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let answer: Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(answer["permissionDecision"], "deny", "{}", out.stdout);
    assert!(answer["permissionDecisionReason"].as_str().is_some_and(|r| r.contains("no writes here")));
    assert_eq!(project.runs(), 1);

    // Claude Code: its own payload (even with Copilot's variable inherited), Claude's answer.
    let claude = common::event_text("events/PreToolUse-Write.json", &project.dir);
    let out = project.run_entry(claude, true);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let answer: Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{}", out.stdout);
    assert_eq!(project.runs(), 2);

    let out = project.hookmux(["uninstall", "copilot"]).env("CLAUDE_PROJECT_DIR", &project.dir).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(project.dir.join(".claude/settings.json")).expect("settings"), before);
    assert!(!project.dir.join(".claude/hookmux-hooks.json").exists());
}

#[test]
fn an_unreadable_copilot_event_is_denied_when_a_guard_is_configured() {
    let project = Project::new();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
        {"type": "command", "command": "hookmux run protect-paths"}]}]}});
    let file = project.dir.join("guard.json");
    std::fs::write(&file, settings.to_string()).expect("write");
    let out = project
        .hookmux(["dispatch", "--host", "copilot", "--settings", file.to_str().expect("utf-8")])
        .stdin("{not json")
        .run();
    assert_eq!(out.code, Some(2), "a guard never fails open: {}", out.stderr);
    assert!(out.stderr.contains("could not be read"), "{}", out.stderr);
}
