//! `hookmux doctor`: a healthy install passes, and each broken case exits 1 naming the file and
//! the fix. Every test has its own folder and home, and a PATH whose `hookmux` it chooses.

use crate::common::{self, Hookmux};
use hookmux_platform::dirs;
use serde_json::Value;
use std::path::{Path, PathBuf};

const SETTINGS: &str =
    r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}"#;

struct Machine {
    _root: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    /// A folder holding `hookmux` (`hookmux.exe` on Windows): the binary under test, by a link
    /// in a folder of the test's own on Unix, in its own folder on Windows.
    bin: PathBuf,
}

impl Machine {
    fn new() -> Machine {
        let root = tempfile::tempdir().expect("a temporary folder");
        // doctor names files by their real paths; macOS's temporary folders are under a link.
        let real = hookmux_platform::fs::canonicalize(root.path()).expect("the temporary folder's real path");
        let home = real.join("home");
        let project = real.join("project");
        for dir in [&home, &project.join(".claude"), &project.join(".git")] {
            std::fs::create_dir_all(dir).expect("create a folder");
        }
        let exe = Path::new(env!("CARGO_BIN_EXE_hookmux"));
        let bin = if cfg!(windows) {
            // Windows makes a link only with a privilege or Developer Mode (Wine makes none), and
            // a copy is another hookmux: the binary's own folder goes on PATH.
            let exe = hookmux_platform::fs::canonicalize(exe).expect("the binary's real path");
            exe.parent().expect("the binary's folder").to_path_buf()
        } else {
            let bin = real.join("bin");
            std::fs::create_dir_all(&bin).expect("create a folder");
            hookmux_platform::fs::symlink_file(exe, &bin.join(EXE)).expect("link hookmux");
            bin
        };
        std::fs::write(project.join(".claude").join("settings.json"), SETTINGS).expect("write settings");
        Machine { _root: root, home, project, bin }
    }

    /// The PATH with this test's `hookmux` first.
    fn path_with_hookmux(&self) -> String {
        search_path(&[self.bin.as_path(), Path::new(SYSTEM[0]), Path::new(SYSTEM[1])])
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

    /// One of the user's folders below this machine's home, where the platform layer puts it
    /// (`dirs::data` is `~/.local/share` on Unix, `~\AppData\Local` on Windows).
    fn folder(&self, which: fn(&dyn dirs::Vars) -> Option<PathBuf>) -> PathBuf {
        let env: hookmux_sdk::Env = [(dirs::variable(dirs::Folder::Home), self.home.as_os_str())].into_iter().collect();
        which(&env).expect("a folder below the home")
    }

    fn hooks_file(&self) -> PathBuf {
        self.project.join(".claude").join("hookmux-hooks.json")
    }
}

/// hookmux's file name on this OS.
const EXE: &str = if cfg!(windows) { "hookmux.exe" } else { "hookmux" };

/// The system's folders, where no other `hookmux` is.
const SYSTEM: [&str; 2] = ["/usr/bin", "/bin"];

/// A PATH of `dirs`, joined as this OS joins them.
fn search_path<P: AsRef<Path>>(dirs: &[P]) -> String {
    let joined = std::env::join_paths(dirs.iter().map(|dir| dir.as_ref())).expect("a PATH");
    joined.into_string().expect("a UTF-8 PATH")
}

fn problem_lines(out: &common::Output) -> Vec<&str> {
    out.stdout.lines().filter(|l| l.starts_with("PROBLEM")).collect()
}

fn assert_problem(out: &common::Output, file: &Path, fix: &str) {
    assert_eq!(out.code, Some(1), "doctor should fail:\n{}{}", out.stdout, out.stderr);
    let problems = problem_lines(out);
    // As hookmux spells it: `\` between all the parts on Windows.
    let file = file.components().collect::<PathBuf>().display().to_string();
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
    let store = m.folder(dirs::data).join("hookmux").join("lore.db");
    std::fs::create_dir_all(store.parent().expect("a parent")).expect("create the data folder");
    std::fs::write(&store, "this is not SQLite, just text long enough to have a header of sorts\n".repeat(20))
        .expect("write the store");
    let out = m.doctor();
    assert_problem(&out, &store, "mv ");
}

#[test]
fn a_healthy_store_passes_its_integrity_check() {
    let m = Machine::installed();
    let store = m.folder(dirs::data).join("hookmux").join("lore.db");
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
    assert_problem(&out, &m.project.join(".claude").join("settings.json"), "to PATH");
    assert!(out.stdout.contains("no `hookmux` on PATH"), "{}", out.stdout);
}

#[test]
fn a_codex_entry_whose_hookmux_is_gone_is_a_problem() {
    let m = Machine::new();
    let hooks = m.home.join(".codex").join("hooks.json");
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
    // Spelled as `hookmux install qwen` spells it: with `/` on Windows too, which every shell reads.
    let this = m.bin.join(EXE).display().to_string().replace('\\', "/");
    let settings = m.home.join(".qwen").join("settings.json");
    std::fs::create_dir_all(settings.parent().expect("a parent")).expect("create ~/.qwen");
    let entry = serde_json::json!({"hooks": {"PreToolUse": [
        {"hooks": [{"type": "command", "command": format!("{this} dispatch --host qwen"), "timeout": 600}]},
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
    let hooks = m.home.join(".codex").join("hooks.json");
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
    let plugin = m.project.join(".opencode").join("plugins").join("hookmux.js");
    std::fs::create_dir_all(plugin.parent().expect("a parent")).expect("create the plugin folder");
    std::fs::write(&plugin, "export default {}\n").expect("write the plugin");
    let out = m.hookmux(&["doctor"], "/nonexistent-bin");
    assert_problem(&out, &plugin, "to PATH");
    assert!(out.stdout.lines().any(|l| l.contains(" node ")), "a node line when OpenCode is wired:\n{}", out.stdout);
}

/// A machine whose `hookmux` on PATH is the npm package's launcher, which starts this binary
/// from `@hookmux/cli-…`; returns the folder to put on PATH.
fn npm_layout(m: &Machine) -> PathBuf {
    let modules = m.project.parent().expect("a parent").join("prefix").join("node_modules");
    let launcher = modules.join("hookmux").join("bin").join("hookmux.js");
    let native = modules.join("@hookmux").join("cli-linux-x64").join("bin").join("hookmux");
    for file in [&launcher, &native] {
        std::fs::create_dir_all(file.parent().expect("a parent")).expect("create a package folder");
    }
    common::write_program(&launcher, "#!/usr/bin/env node\n// the launcher\n");
    hookmux_platform::fs::symlink_file(Path::new(env!("CARGO_BIN_EXE_hookmux")), &native)
        .expect("link the native binary");
    let bin = modules.join(".bin");
    std::fs::create_dir_all(&bin).expect("create .bin");
    hookmux_platform::fs::symlink_file(&launcher, &bin.join("hookmux")).expect("link the launcher");
    bin
}

#[test]
#[cfg_attr(
    windows,
    ignore = "npm links its launcher into `.bin` only on Unix: on Windows it writes `.cmd` shims, and hookmux's package puts hookmux.exe in the launcher's place"
)]
fn the_npm_launcher_of_this_hookmux_is_this_hookmux() {
    let m = Machine::installed();
    let bin = npm_layout(&m);
    // doctor only looks for a `node` on PATH; it does not run it.
    let node_dir = m.project.parent().expect("a parent").join("node-bin");
    std::fs::create_dir_all(&node_dir).expect("create a folder");
    common::write_program(&node_dir.join("node"), "");
    let out = m.hookmux(&["doctor"], &search_path(&[bin, node_dir]));
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert!(out.stdout.contains("the npm launcher of this hookmux"), "{}", out.stdout);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "npm links its launcher into `.bin` only on Unix: on Windows it writes `.cmd` shims, and hookmux's package puts hookmux.exe in the launcher's place"
)]
fn the_npm_launcher_without_node_is_a_problem() {
    let m = Machine::installed();
    let bin = npm_layout(&m);
    let out = m.hookmux(&["doctor"], &bin.display().to_string());
    assert_problem(&out, &m.project.join(".claude").join("settings.json"), "Node.js");
}

#[test]
fn a_trace_folder_others_can_write_into_is_a_problem_and_a_private_one_is_ok() {
    let m = Machine::installed();
    let ok = m.doctor();
    assert!(ok.stdout.contains("the dispatch trace is on; the first dispatch makes its folder"), "{}", ok.stdout);
    // The first dispatch makes the folder, private; doctor then says `hookmux log` reads it.
    let event = r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    Hookmux::new(["dispatch"]).env("HOME", &m.home).cwd(&m.project).stdin(event).run();
    let dir = m.folder(dirs::state).join("hookmux").join("trace");
    assert!(m.doctor().stdout.contains("the dispatch trace is on; `hookmux log` reads it"), "{}", m.doctor().stdout);
    if !common::chmod(&dir, 0o777) {
        return;
    }
    assert_problem(&m.doctor(), &dir, "chmod 700");
}

/// A project that re-declares the user's guard with `"async": true` (or `once`, or a much shorter
/// timeout) takes its settings: Claude Code runs one hook, with the last definition's settings.
/// `hooks validate` and `doctor` warn, naming both definitions.
#[test]
fn a_project_that_redefines_a_users_guard_weaker_is_warned_about() {
    let m = Machine::new();
    let guard = |extra: Value| {
        let mut hook = serde_json::json!({"type": "command", "command": "hookmux run protect-paths", "timeout": 20});
        for (key, value) in extra.as_object().expect("an object") {
            hook[key] = value.clone();
        }
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [hook]}]}}).to_string()
    };
    let user = m.home.join(".claude").join("settings.json");
    let project = m.project.join(".claude").join("settings.json");
    std::fs::create_dir_all(m.home.join(".claude")).expect("mkdir");
    std::fs::write(&user, guard(serde_json::json!({}))).expect("write");
    for (redefined, says) in [
        (serde_json::json!({"async": true}), "`async` there"),
        (serde_json::json!({"once": true}), "`once` there"),
        (serde_json::json!({"timeout": 1}), "its timeout is 1 s there, where this one's is 20 s"),
    ] {
        std::fs::write(&project, guard(redefined.clone())).expect("write");
        let out = m.hookmux(&["hooks", "validate"], &search_path(&SYSTEM));
        let warned: Vec<&str> = out.stdout.lines().filter(|l| l.contains("[weakened-redefinition]")).collect();
        assert_eq!(warned.len(), 1, "{redefined}: {}{}", out.stdout, out.stderr);
        let user_file = Path::new("~").join(".claude").join("settings.json");
        assert!(warned[0].contains(&user_file.display().to_string()), "the user's file: {}", out.stdout);
        assert!(out.stdout.contains(&project.display().to_string()) && out.stdout.contains(says), "{}", out.stdout);

        let out = m.doctor();
        let warned: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("warn") && l.contains(says)).collect();
        assert_eq!(warned.len(), 1, "{redefined}: {}", out.stdout);
        assert!(warned[0].contains(&user.display().to_string()) && warned[0].contains(&project.display().to_string()));
    }
    // The same settings, or the user's own stronger ones, are no finding.
    std::fs::write(&project, guard(serde_json::json!({"timeout": 15}))).expect("write");
    let out = m.hookmux(&["hooks", "validate"], &search_path(&SYSTEM));
    assert!(!out.stdout.contains("weakened-redefinition"), "{}", out.stdout);
}

/// Claude Code's own idiom for a project file (`--settings "$CLAUDE_PROJECT_DIR/.claude/x.json"`)
/// and the `~/…`, `$HOME/…`, `${HOME}/…` and relative forms are hookmux entries, read as the host's
/// shell reads them: doctor checks the files they name (a missing one is a problem), and dispatch
/// reads those files in the entry's place instead of starting itself again.
#[test]
fn every_form_of_a_settings_entry_is_recognised_by_doctor_and_dispatch() {
    let m = Machine::new();
    let entry = |command: &str| {
        serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}}).to_string()
    };
    let missing = m.project.join(".claude").join("x.json");
    std::fs::write(
        m.project.join(".claude").join("settings.json"),
        entry("hookmux dispatch --settings \"$CLAUDE_PROJECT_DIR/.claude/x.json\""),
    )
    .expect("write");
    let out = m.doctor();
    assert_problem(&out, &missing, "");
    assert!(out.stdout.contains(&format!("{} is missing", missing.display())), "{}", out.stdout);

    let hook = |word: &str| {
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("echo {word}")}]}]}})
        .to_string()
    };
    std::fs::create_dir_all(m.home.join(".claude")).expect("mkdir");
    let mut named = Vec::new();
    for (form, file) in [
        ("~/.claude/tilde.json", m.home.join(".claude").join("tilde.json")),
        ("$HOME/.claude/home.json", m.home.join(".claude").join("home.json")),
        ("\"${HOME}/.claude/braced.json\"", m.home.join(".claude").join("braced.json")),
        (".claude/relative.json", m.project.join(".claude").join("relative.json")),
    ] {
        std::fs::write(&file, hook(file.file_stem().and_then(|s| s.to_str()).expect("a name"))).expect("write");
        named.push((form, file));
    }
    let user: Vec<String> = named.iter().map(|(form, _)| format!("hookmux dispatch --settings {form}")).collect();
    let user = serde_json::json!({"hooks": {"PreToolUse": user.iter().map(|command|
        serde_json::json!({"hooks": [{"type": "command", "command": command}]})).collect::<Vec<_>>()}});
    std::fs::write(m.home.join(".claude").join("settings.json"), user.to_string()).expect("write");
    std::fs::write(&missing, "{}").expect("write");

    let out = m.doctor();
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    for (form, file) in &named {
        assert!(out.stdout.contains(&format!("{} is there and parses", file.display())), "{form}: {}", out.stdout);
    }
    let listed = m.hookmux(&["hooks", "list", "--json"], &search_path(&SYSTEM)).json();
    let sources: Vec<&str> =
        listed["sources"].as_array().expect("sources").iter().filter_map(|s| s["path"].as_str()).collect();
    let text = listed.to_string();
    for (form, file) in &named {
        assert!(sources.contains(&file.to_str().expect("utf-8")), "{form}: {sources:?}");
        let word = file.file_stem().and_then(|s| s.to_str()).expect("a name");
        assert!(text.contains(&format!("echo {word}")), "{form}: {text}");
    }
    assert!(!text.contains("hookmux dispatch --settings"), "no entry is left to start a second dispatch: {text}");
}
