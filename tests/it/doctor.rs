//! `hookmux doctor`: a healthy install passes, and each broken case exits 1 naming the file and
//! the fix. Every test has its own folder and home, and a PATH whose `hookmux` it chooses.

use crate::common::{self, Hookmux};
use serde_json::Value;
use std::path::{Path, PathBuf};

const SETTINGS: &str =
    r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}"#;

struct Machine {
    _root: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    /// A folder holding `hookmux`, a link to the binary under test.
    bin: PathBuf,
}

impl Machine {
    fn new() -> Machine {
        let root = tempfile::tempdir().expect("a temporary folder");
        // doctor names files by their real paths; macOS's temporary folders are under a link.
        let real = std::fs::canonicalize(root.path()).expect("the temporary folder's real path");
        let home = real.join("home");
        let project = real.join("project");
        let bin = real.join("bin");
        for dir in [&home, &project.join(".claude"), &project.join(".git"), &bin] {
            std::fs::create_dir_all(dir).expect("create a folder");
        }
        hookmux_platform::fs::symlink_file(Path::new(env!("CARGO_BIN_EXE_hookmux")), &bin.join("hookmux"))
            .expect("link hookmux");
        std::fs::write(project.join(".claude/settings.json"), SETTINGS).expect("write settings");
        Machine { _root: root, home, project, bin }
    }

    /// The PATH with this test's `hookmux` first.
    fn path_with_hookmux(&self) -> String {
        format!("{}:/usr/bin:/bin", self.bin.display())
    }

    fn hookmux(&self, args: &[&str], path: &str) -> common::Output {
        Hookmux::new(args.iter().copied())
            .env("HOME", &self.home)
            .env("PATH", path)
            .env("CLAUDE_PROJECT_DIR", &self.project)
            .cwd(&self.project)
            .run()
    }

    fn installed() -> Machine {
        let m = Machine::new();
        let out = m.hookmux(&["install", "claude"], &m.path_with_hookmux());
        assert_eq!(out.code, Some(0), "install: {}", out.stderr);
        m
    }

    fn doctor(&self) -> common::Output {
        self.hookmux(&["doctor"], &self.path_with_hookmux())
    }

    fn hooks_file(&self) -> PathBuf {
        self.project.join(".claude/hookmux-hooks.json")
    }
}

fn problem_lines(out: &common::Output) -> Vec<&str> {
    out.stdout.lines().filter(|l| l.starts_with("PROBLEM")).collect()
}

fn assert_problem(out: &common::Output, file: &Path, fix: &str) {
    assert_eq!(out.code, Some(1), "doctor should fail:\n{}{}", out.stdout, out.stderr);
    let problems = problem_lines(out);
    let file = file.display().to_string();
    assert!(
        problems.iter().any(|l| l.contains(&file) && l.contains("fix:") && l.contains(fix)),
        "no problem naming {file} with a fix containing {fix:?}:\n{}",
        out.stdout
    );
}

#[test]
fn a_healthy_install_passes() {
    let m = Machine::installed();
    let out = m.doctor();
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    assert!(problem_lines(&out).is_empty(), "{}", out.stdout);
    assert!(out.stdout.contains("(this hookmux)"), "the entry runs this hookmux:\n{}", out.stdout);
    assert!(out.stdout.contains(&format!("{} is there and parses", m.hooks_file().display())), "{}", out.stdout);
    assert!(out.stdout.trim_end().ends_with("no problems found"), "{}", out.stdout);
}

#[test]
fn a_missing_hooks_file_is_a_problem_with_the_backup_as_the_fix() {
    let m = Machine::installed();
    std::fs::remove_file(m.hooks_file()).expect("remove the hooks file");
    let out = m.doctor();
    assert_problem(&out, &m.hooks_file(), "settings.json.hookmux-backup");
    assert!(out.stdout.contains("is missing"), "{}", out.stdout);
}

#[test]
fn an_unparsable_hooks_file_is_a_problem() {
    let m = Machine::installed();
    std::fs::write(m.hooks_file(), "{\"hooks\": ").expect("break the hooks file");
    let out = m.doctor();
    assert_problem(&out, &m.hooks_file(), "hookmux hooks validate");
}

#[test]
fn a_store_that_is_not_a_database_is_a_problem() {
    let m = Machine::installed();
    let store = m.home.join(".local/share/hookmux/lore.db");
    std::fs::create_dir_all(store.parent().expect("a parent")).expect("create the data folder");
    std::fs::write(&store, "this is not SQLite, just text long enough to have a header of sorts\n".repeat(20))
        .expect("write the store");
    let out = m.doctor();
    assert_problem(&out, &store, "mv ");
}

#[test]
fn a_healthy_store_passes_its_integrity_check() {
    let m = Machine::installed();
    let store = m.home.join(".local/share/hookmux/lore.db");
    std::fs::create_dir_all(store.parent().expect("a parent")).expect("create the data folder");
    let conn = rusqlite::Connection::open(&store).expect("create a database");
    conn.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);").expect("write a row");
    drop(conn);
    let out = m.doctor();
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert!(out.stdout.contains("passes its integrity check"), "{}", out.stdout);
}

#[test]
fn an_entry_whose_hookmux_is_not_on_path_is_a_problem() {
    let m = Machine::installed();
    let out = m.hookmux(&["doctor"], "/nonexistent-bin");
    assert_problem(&out, &m.project.join(".claude/settings.json"), "to PATH");
    assert!(out.stdout.contains("no `hookmux` on PATH"), "{}", out.stdout);
}

#[test]
fn a_codex_entry_whose_hookmux_is_gone_is_a_problem() {
    let m = Machine::new();
    let hooks = m.home.join(".codex/hooks.json");
    std::fs::create_dir_all(hooks.parent().expect("a parent")).expect("create ~/.codex");
    let entry = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "/gone/hookmux dispatch --host codex"}
    ]}]}});
    std::fs::write(&hooks, entry.to_string()).expect("write hooks.json");
    let out = m.doctor();
    assert_problem(&out, &hooks, "hookmux install codex");
}

#[test]
fn a_qwen_entry_qwen_would_cut_off_after_a_second_is_a_problem_and_a_hook_run_twice_a_warning() {
    let m = Machine::new();
    let this = m.bin.join("hookmux");
    let settings = m.home.join(".qwen/settings.json");
    std::fs::create_dir_all(settings.parent().expect("a parent")).expect("create ~/.qwen");
    let entry = serde_json::json!({"hooks": {"PreToolUse": [
        {"hooks": [{"type": "command", "command": format!("{} dispatch --host qwen", this.display()), "timeout": 600}]},
        {"hooks": [{"type": "command", "command": "true"}]}
    ]}});
    std::fs::write(&settings, entry.to_string()).expect("write settings.json");
    let out = m.doctor();
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    let qwen: Vec<&str> = out.stdout.lines().filter(|l| l.contains(" qwen ")).collect();
    assert!(qwen.iter().any(|l| l.starts_with("ok") && l.contains("Qwen Code entry")), "{}", out.stdout);
    assert!(qwen.iter().any(|l| l.starts_with("warn") && l.contains("runs it twice")), "{}", out.stdout);

    let slow = entry.to_string().replace("\"timeout\":600", "\"timeout\":600000");
    std::fs::write(&settings, slow).expect("write settings.json");
    assert_problem(&m.doctor(), &settings, "hookmux install qwen");
}

#[test]
fn an_unparsable_codex_hooks_file_is_a_problem() {
    let m = Machine::new();
    let hooks = m.home.join(".codex/hooks.json");
    std::fs::create_dir_all(hooks.parent().expect("a parent")).expect("create ~/.codex");
    std::fs::write(&hooks, "{ not json").expect("write hooks.json");
    let out = m.doctor();
    assert_problem(&out, &hooks, "fix the JSON");
}

#[test]
fn json_has_one_object_per_check() {
    let m = Machine::installed();
    std::fs::remove_file(m.hooks_file()).expect("remove the hooks file");
    let out = m.hookmux(&["doctor", "--json"], &m.path_with_hookmux());
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let report = out.json();
    assert_eq!(report["ok"], Value::Bool(false));
    assert_eq!(report["problems"], Value::from(1));
    let checks = report["checks"].as_array().expect("checks is an array");
    for name in ["hookmux", "claude", "codex", "gemini", "qwen", "opencode", "trust", "plugins", "memory"] {
        assert!(checks.iter().any(|c| c["check"] == name), "no {name} check in {report:#}");
    }
    for check in checks {
        assert!(check["message"].is_string(), "{check}");
        let status = check["status"].as_str().expect("a status");
        assert!(["ok", "info", "warn", "problem"].contains(&status), "{check}");
    }
    let problem = checks.iter().find(|c| c["status"] == "problem").expect("the problem");
    assert_eq!(problem["file"], Value::from(m.hooks_file().display().to_string()));
    assert!(problem["fix"].is_string(), "{problem}");
}

#[test]
fn json_of_a_healthy_install_is_ok() {
    let m = Machine::installed();
    let out = m.hookmux(&["doctor", "--json"], &m.path_with_hookmux());
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert_eq!(out.json()["ok"], Value::Bool(true));
}

#[test]
fn opencode_wired_checks_the_hookmux_the_plugin_starts() {
    let m = Machine::new();
    let plugin = m.project.join(".opencode/plugins/hookmux.js");
    std::fs::create_dir_all(plugin.parent().expect("a parent")).expect("create the plugin folder");
    std::fs::write(&plugin, "export default {}\n").expect("write the plugin");
    let out = m.hookmux(&["doctor"], "/nonexistent-bin");
    assert_problem(&out, &plugin, "to PATH");
    assert!(out.stdout.lines().any(|l| l.contains(" node ")), "a node line when OpenCode is wired:\n{}", out.stdout);
}

/// A machine whose `hookmux` on PATH is the npm package's launcher, which starts this binary
/// from `@hookmux/cli-…`; returns the folder to put on PATH.
fn npm_layout(m: &Machine) -> PathBuf {
    let modules = m.project.parent().expect("a parent").join("prefix/node_modules");
    let launcher = modules.join("hookmux/bin/hookmux.js");
    let native = modules.join("@hookmux/cli-linux-x64/bin/hookmux");
    for file in [&launcher, &native] {
        std::fs::create_dir_all(file.parent().expect("a parent")).expect("create a package folder");
    }
    std::fs::write(&launcher, "#!/usr/bin/env node\n// the launcher\n").expect("write the launcher");
    hookmux_platform::fs::symlink_file(Path::new(env!("CARGO_BIN_EXE_hookmux")), &native)
        .expect("link the native binary");
    let bin = modules.join(".bin");
    std::fs::create_dir_all(&bin).expect("create .bin");
    hookmux_platform::fs::symlink_file(&launcher, &bin.join("hookmux")).expect("link the launcher");
    bin
}

#[test]
fn the_npm_launcher_of_this_hookmux_is_this_hookmux() {
    let m = Machine::installed();
    let bin = npm_layout(&m);
    // doctor only looks for a `node` on PATH; it does not run it.
    let node_dir = m.project.parent().expect("a parent").join("node-bin");
    std::fs::create_dir_all(&node_dir).expect("create a folder");
    std::fs::write(node_dir.join("node"), "").expect("write a stand-in node");
    let out = m.hookmux(&["doctor"], &format!("{}:{}", bin.display(), node_dir.display()));
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert!(out.stdout.contains("the npm launcher of this hookmux"), "{}", out.stdout);
}

#[test]
fn the_npm_launcher_without_node_is_a_problem() {
    let m = Machine::installed();
    let bin = npm_layout(&m);
    let out = m.hookmux(&["doctor"], &bin.display().to_string());
    assert_problem(&out, &m.project.join(".claude/settings.json"), "Node.js");
}

#[test]
fn a_trace_folder_others_can_write_into_is_a_problem_and_a_private_one_is_ok() {
    use std::os::unix::fs::PermissionsExt;
    let m = Machine::installed();
    let ok = m.doctor();
    assert!(ok.stdout.contains("the dispatch trace is on; the first dispatch makes its folder"), "{}", ok.stdout);
    // The first dispatch makes the folder, private; doctor then says `hookmux log` reads it.
    let event = r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    Hookmux::new(["dispatch"]).env("HOME", &m.home).cwd(&m.project).stdin(event).run();
    let dir = m.home.join(".local/state/hookmux/trace");
    assert!(m.doctor().stdout.contains("the dispatch trace is on; `hookmux log` reads it"), "{}", m.doctor().stdout);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    assert_problem(&m.doctor(), &dir, "chmod 700");
}
