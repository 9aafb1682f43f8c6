//! An installed setup is never switched off silently: a dispatch that meets hookmux's own entry
//! follows it instead of spawning itself, one entry serves every installed scope, and a hooks file
//! that a command names but that cannot be read is an error every time.

use crate::common::{self, Hookmux};
use serde_json::{json, Value};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A user's home and a project, with hookmux on `PATH` as an installed entry expects it.
struct Machine {
    _root: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

/// A guard and a hook that records each run in `runs.txt`, so that a test can count runs.
fn guarded(tag: &str) -> Value {
    json!({"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
        {"type": "command", "command": "hookmux run protect-paths"},
        {"type": "command", "command": format!("echo {tag} >> \"$CLAUDE_PROJECT_DIR/runs.txt\"")}
    ]}]}})
}

impl Machine {
    fn new() -> Machine {
        let root = tempfile::tempdir().expect("a temporary folder");
        let home = root.path().join("home");
        let project = root.path().join("project");
        std::fs::create_dir_all(home.join(".claude")).expect("mkdir");
        std::fs::create_dir_all(project.join(".claude")).expect("mkdir");
        Machine { _root: root, home, project }
    }

    fn settings(&self, scope: &str) -> PathBuf {
        match scope {
            "user" => self.home.join(".claude/settings.json"),
            "project" => self.project.join(".claude/settings.json"),
            _ => self.project.join(".claude/settings.local.json"),
        }
    }

    fn write(&self, path: &Path, value: &Value) {
        std::fs::write(path, serde_json::to_string_pretty(value).expect("json")).expect("write");
    }

    fn hookmux<'a>(&self, args: impl IntoIterator<Item = &'a str>) -> Hookmux {
        Hookmux::new(args).env("HOME", &self.home).env("PATH", path_with_hookmux()).cwd(&self.project)
    }

    fn install(&self, scope: &str) {
        let out = self.hookmux(["install", "claude", "--scope", scope]).env("CLAUDE_PROJECT_DIR", &self.project).run();
        assert_eq!(out.code, Some(0), "install --scope {scope}: {}", out.stderr);
    }

    fn write_event(&self, file: &str) -> String {
        json!({
            "session_id": "s-1", "transcript_path": self.home.join("t.jsonl"), "cwd": self.project,
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": self.project.join(file), "content": "x"}, "tool_use_id": "toolu_1"
        })
        .to_string()
    }

    fn runs(&self) -> Vec<String> {
        std::fs::read_to_string(self.project.join("runs.txt")).unwrap_or_default().lines().map(str::to_string).collect()
    }

    /// The command the host would run for PreToolUse, as the installed settings say.
    fn entry(&self, scope: &str) -> String {
        let text = std::fs::read_to_string(self.settings(scope)).expect("installed settings");
        let settings: Value = serde_json::from_str(&text).expect("json");
        let groups = settings["hooks"]["PreToolUse"].as_array().expect("PreToolUse groups");
        groups
            .iter()
            .flat_map(|g| g["hooks"].as_array().into_iter().flatten())
            .filter_map(|h| h["command"].as_str())
            .find(|c| c.contains(" dispatch"))
            .expect("a dispatch entry")
            .to_string()
    }
}

fn path_with_hookmux() -> OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_hookmux")).parent().expect("the binary's folder").to_path_buf();
    let mut paths = vec![bin];
    paths.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    std::env::join_paths(paths).expect("a PATH")
}

fn permission(out: &common::Output) -> Option<String> {
    let answer: Value = serde_json::from_str(out.stdout.trim()).ok()?;
    answer["hookSpecificOutput"]["permissionDecision"].as_str().map(str::to_string)
}

/// Runs the installed entry the way the host does: through `sh -c`, in the project.
fn run_entry(m: &Machine, entry: &str, stdin: String) -> common::Output {
    m.hookmux(["-c", entry]).env("CLAUDE_PROJECT_DIR", &m.project).stdin(stdin).run_program("/bin/sh")
}

#[test]
fn every_installed_scope_runs_the_same_entry() {
    let m = Machine::new();
    for scope in ["user", "project", "local"] {
        m.write(&m.settings(scope), &guarded(scope));
        m.install(scope);
    }
    let entries: Vec<String> = ["user", "project", "local"].iter().map(|s| m.entry(s)).collect();
    assert_eq!(entries[0], entries[1], "the host runs an identical command once");
    assert_eq!(entries[1], entries[2]);
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn a_hook_in_two_installed_scopes_runs_once() {
    let m = Machine::new();
    // The same guard in user and project settings: Claude Code runs it once.
    m.write(&m.settings("user"), &guarded("same"));
    m.write(&m.settings("project"), &guarded("same"));
    m.install("user");
    m.install("project");
    // The host runs each distinct command of every scope once.
    let mut entries = vec![m.entry("user"), m.entry("project")];
    entries.dedup();
    for entry in entries {
        let out = run_entry(&m, &entry, m.write_event("notes.txt"));
        assert_eq!(out.code, Some(0), "{}", out.stderr);
    }
    assert_eq!(m.runs(), ["same"]);
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn the_installed_entry_runs_the_hooks_of_every_installed_scope() {
    let m = Machine::new();
    m.write(&m.settings("user"), &guarded("user"));
    m.write(&m.settings("local"), &guarded("local"));
    m.install("user");
    m.install("local");
    let out = run_entry(&m, &m.entry("local"), m.write_event(".env"));
    assert_eq!(permission(&out).as_deref(), Some("deny"), "{out:?}");
    let mut runs = m.runs();
    runs.sort();
    assert_eq!(runs, ["local", "user"]);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_dispatch_that_reads_an_installed_settings_file_follows_the_entry() {
    let m = Machine::new();
    m.write(&m.settings("project"), &guarded("project"));
    m.install("project");
    // Codex (and OpenCode, and dry-run --exec) read the project's settings through discovery: the
    // installed entry there must not become a nested dispatch that answers nothing.
    let event = json!({
        "session_id": "s-2", "turn_id": "t", "transcript_path": null, "cwd": m.project,
        "hook_event_name": "PreToolUse", "model": "gpt", "permission_mode": "default",
        "tool_name": "apply_patch", "tool_use_id": "call_1",
        "tool_input": {"command": "*** Begin Patch\n*** Add File: .env\n+KEY=1\n*** End Patch\n"}
    });
    let out =
        m.hookmux(["dispatch", "--host", "codex"]).env("HOOKMUX_TRUST", &m.project).stdin(event.to_string()).run();
    assert_eq!(permission(&out).as_deref(), Some("deny"), "{out:?}");
    assert_eq!(m.runs(), ["project"]);

    let fixture = m.project.join("write-env.json");
    std::fs::write(&fixture, m.write_event(".env")).expect("write");
    let out = m.hookmux(["dry-run", "--exec", "--json"]).args_push([fixture.to_str().expect("utf-8")]).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let report = out.json();
    let stdout = report[0]["answer"]["stdout"].as_str().unwrap_or_default().to_string();
    assert!(stdout.contains("\"deny\""), "{report:#}");
    // dry-run lists the hooks behind the entry, where they came from, not the entry itself.
    let handlers = report[0]["handlers"].as_array().expect("handlers");
    assert!(handlers.iter().all(|h| !h["command"].as_str().unwrap_or_default().contains("dispatch")), "{report:#}");
    assert!(handlers.iter().any(|h| h["command"] == "hookmux run protect-paths"), "{report:#}");
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn an_old_settings_entry_is_followed_too_and_install_upgrades_it() {
    let m = Machine::new();
    let hooks_file = m.project.join(".claude/hookmux-hooks.json");
    m.write(&hooks_file, &guarded("old"));
    let old_entry = "hookmux dispatch --settings \"$CLAUDE_PROJECT_DIR/.claude/hookmux-hooks.json\"";
    m.write(
        &m.settings("project"),
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": old_entry}]}]}}),
    );
    let out = m
        .hookmux(["dispatch", "--host", "codex"])
        .env("HOOKMUX_TRUST", &m.project)
        .stdin(codex_write(&m, ".env"))
        .run();
    assert_eq!(permission(&out).as_deref(), Some("deny"), "{out:?}");

    // The host's own run of the old entry keeps working.
    let out = run_entry(&m, old_entry, m.write_event(".env"));
    assert_eq!(permission(&out).as_deref(), Some("deny"), "{out:?}");

    // Installing again upgrades the entry and keeps the hooks.
    m.install("project");
    assert_eq!(m.entry("project"), "hookmux dispatch --installed");
    let out = run_entry(&m, &m.entry("project"), m.write_event(".env"));
    assert_eq!(permission(&out).as_deref(), Some("deny"), "{out:?}");
}

#[test]
fn hooks_list_shows_the_hooks_behind_an_entry_and_where_they_came_from() {
    let m = Machine::new();
    m.write(&m.settings("project"), &guarded("project"));
    m.install("project");
    let out = m.hookmux(["hooks", "list"]).env("CLAUDE_PROJECT_DIR", &m.project).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("hookmux run protect-paths"), "{}", out.stdout);
    assert!(out.stdout.contains("hookmux-hooks.json (via "), "{}", out.stdout);
    assert!(!out.stdout.contains("dispatch --installed"), "the entry itself is not a hook to run: {}", out.stdout);
    let out = m.hookmux(["hooks", "validate"]).env("CLAUDE_PROJECT_DIR", &m.project).run();
    assert_eq!(out.code, Some(0), "{}", out.stdout);
}

fn codex_write(m: &Machine, file: &str) -> String {
    json!({
        "session_id": "s-3", "turn_id": "t", "transcript_path": null, "cwd": m.project,
        "hook_event_name": "PreToolUse", "model": "gpt", "permission_mode": "default",
        "tool_name": "apply_patch", "tool_use_id": "call_1",
        "tool_input": {"command": format!("*** Begin Patch\n*** Add File: {file}\n+x\n*** End Patch\n")}
    })
    .to_string()
}

#[test]
fn a_missing_settings_file_named_on_the_command_line_is_an_error_every_time() {
    let m = Machine::new();
    let missing = m.project.join("missing.json");
    for _ in 0..2 {
        let out =
            m.hookmux(["dispatch", "--settings", missing.to_str().expect("utf-8")]).stdin(m.write_event("a")).run();
        assert_eq!(out.code, Some(0), "a missing file does not block: {}", out.stderr);
        assert!(out.stderr.contains("missing.json"), "{}", out.stderr);
        let answer: Value = serde_json::from_str(out.stdout.trim()).expect("an answer with a systemMessage");
        assert!(answer["systemMessage"].as_str().is_some_and(|m| m.contains("missing.json")), "{answer}");
    }
    let out = m.hookmux(["hooks", "validate", "--settings", missing.to_str().expect("utf-8")]).run();
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(out.stdout.contains("missing.json"), "{}", out.stdout);
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn a_deleted_hooks_file_behind_an_installed_entry_is_an_error() {
    let m = Machine::new();
    m.write(&m.settings("project"), &guarded("project"));
    m.install("project");
    std::fs::remove_file(m.project.join(".claude/hookmux-hooks.json")).expect("rm");
    let out = run_entry(&m, &m.entry("project"), m.write_event(".env"));
    assert!(out.stderr.contains("hookmux-hooks.json"), "{out:?}");
    let answer: Value = serde_json::from_str(out.stdout.trim()).expect("an answer with a systemMessage");
    assert!(answer["systemMessage"].as_str().is_some_and(|s| s.contains("hookmux-hooks.json")), "{answer}");
    let out = m.hookmux(["hooks", "validate"]).env("CLAUDE_PROJECT_DIR", &m.project).run();
    assert_eq!(out.code, Some(1), "{}", out.stdout);
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn the_installed_entry_works_without_claude_project_dir() {
    let m = Machine::new();
    m.write(&m.settings("project"), &guarded("project"));
    m.install("project");
    let out = Hookmux::new(["-c", &m.entry("project")])
        .env("HOME", &m.home)
        .env("PATH", path_with_hookmux())
        .cwd(&m.project)
        .stdin(m.write_event(".env"))
        .run_program("/bin/sh");
    assert_eq!(permission(&out).as_deref(), Some("deny"), "{out:?}");
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn a_loop_of_hooks_files_is_reported_not_run_forever() {
    let m = Machine::new();
    let a = m.project.join("a.json");
    let b = m.project.join("b.json");
    let entry = |path: &Path| {
        json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": format!("hookmux dispatch --settings {}", path.display())}
        ]}]}})
    };
    m.write(&a, &entry(&b));
    m.write(&b, &entry(&a));
    let out = m.hookmux(["dispatch", "--settings", a.to_str().expect("utf-8")]).stdin(m.write_event("x")).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains("loop") || out.stderr.contains("again"), "{}", out.stderr);
    let answer: Value = serde_json::from_str(out.stdout.trim()).expect("an answer with a systemMessage");
    assert!(answer["systemMessage"].is_string(), "{answer}");
}
