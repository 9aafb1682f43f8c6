//! `hookmux install claude` and `uninstall claude` on real files, every scope.

use crate::common;

use common::Hookmux;
use serde_json::Value;
use std::path::{Path, PathBuf};

const SETTINGS: &str = r#"{
  "permissions": {"allow": ["Bash(ls *)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo ran >> \"$CLAUDE_PROJECT_DIR/ran.txt\"; echo 'no rm' >&2; exit 2"},
        {"type": "prompt", "prompt": "Is this command safe?"}
      ]}
    ],
    "SessionEnd": [{"hooks": [{"type": "command", "command": "true", "timeout": 12}]}]
  }
}
"#;

struct Machine {
    _root: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

impl Machine {
    fn new() -> Machine {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        let project = root.path().join("project");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        Machine { _root: root, home, project }
    }

    fn hookmux(&self, args: &[&str]) -> common::Output {
        Hookmux::new(args.iter().copied())
            .env("HOME", &self.home)
            .env("CLAUDE_PROJECT_DIR", &self.project)
            .cwd(&self.project)
            .run()
    }

    fn write(&self, path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
    }

    fn read(path: &Path) -> Option<String> {
        std::fs::read_to_string(path).ok()
    }
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn project_scope_round_trip_is_byte_for_byte() {
    let m = Machine::new();
    let settings = m.project.join(".claude/settings.json");
    m.write(&settings, SETTINGS);

    let out = m.hookmux(&["install", "claude"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("moved 2 hooks"), "{}", out.stdout);
    let installed = json(&Machine::read(&settings).unwrap());
    let entry = &installed["hooks"]["PreToolUse"][1]["hooks"][0];
    assert_eq!(entry["command"], "hookmux dispatch --installed");
    assert_eq!(installed["hooks"]["PreToolUse"][0]["hooks"][0]["type"], "prompt", "prompt hooks stay native");
    assert_eq!(installed["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 12);
    assert_eq!(installed["permissions"], json(SETTINGS)["permissions"]);
    let hooks = json(&Machine::read(&m.project.join(".claude/hookmux-hooks.json")).unwrap());
    assert_eq!(hooks["hooks"]["PreToolUse"][0]["hooks"].as_array().unwrap().len(), 1);
    assert_eq!(Machine::read(&m.project.join(".claude/settings.json.hookmux-backup")).as_deref(), Some(SETTINGS));

    // The moved hooks still run, through dispatch reading the hooks file.
    let event = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": m.project,
        "tool_name": "Bash", "tool_input": {"command": "rm -rf x"}});
    let out = Hookmux::new(["dispatch", "--settings", m.project.join(".claude/hookmux-hooks.json").to_str().unwrap()])
        .env("CLAUDE_PROJECT_DIR", &m.project)
        .stdin(event.to_string())
        .run();
    assert_eq!(out.json()["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(Machine::read(&m.project.join("ran.txt")).as_deref(), Some("ran\n"));

    // Installing again changes nothing.
    let before = Machine::read(&settings);
    assert_eq!(m.hookmux(&["install", "claude"]).code, Some(0));
    assert_eq!(Machine::read(&settings), before);

    let out = m.hookmux(&["uninstall", "claude"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(Machine::read(&settings).as_deref(), Some(SETTINGS));
    assert!(!m.project.join(".claude/hookmux-hooks.json").exists());
}

#[test]
fn user_and_local_scopes_use_their_own_files() {
    let m = Machine::new();
    let user = m.home.join(".claude/settings.json");
    let local = m.project.join(".claude/settings.local.json");
    m.write(&user, SETTINGS);
    m.write(&local, SETTINGS);

    let out = Hookmux::new(["install", "claude", "--scope", "user"])
        .env("HOME", &m.home)
        .env("CLAUDE_PROJECT_DIR", &m.project)
        .env("PATH", m.project.join("no-bin"))
        .cwd(&m.project)
        .run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(m.home.join(".claude/hookmux-hooks.json").exists());
    let entry = &json(&Machine::read(&user).unwrap())["hooks"]["PreToolUse"][1]["hooks"][0]["command"];
    assert_eq!(entry, "hookmux dispatch --installed");
    // The entry starts `hookmux` from PATH; this PATH has none, and install says so.
    assert!(out.stdout.contains("warning: no `hookmux` on PATH"), "{}", out.stdout);

    assert_eq!(m.hookmux(&["install", "claude", "--scope", "local"]).code, Some(0));
    assert!(m.project.join(".claude/hookmux-hooks.local.json").exists());
    let local_entry = &json(&Machine::read(&local).unwrap())["hooks"]["PreToolUse"][1]["hooks"][0]["command"];
    assert_eq!(local_entry, entry, "one entry for every scope");

    for scope in ["user", "local"] {
        assert_eq!(m.hookmux(&["uninstall", "claude", "--scope", scope]).code, Some(0));
    }
    assert_eq!(Machine::read(&user).as_deref(), Some(SETTINGS));
    assert_eq!(Machine::read(&local).as_deref(), Some(SETTINGS));
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let m = Machine::new();
    let settings = m.project.join(".claude/settings.json");
    m.write(&settings, SETTINGS);
    let out = m.hookmux(&["install", "claude", "--dry-run"]);
    assert_eq!(out.code, Some(0));
    assert!(out.stdout.contains(&format!("--- {}", settings.display())), "{}", out.stdout);
    assert!(out.stdout.contains("+            \"command\": \"hookmux dispatch --installed\""), "{}", out.stdout);
    assert!(out.stdout.contains("--- /dev/null"), "the hooks file is new: {}", out.stdout);
    assert_eq!(Machine::read(&settings).as_deref(), Some(SETTINGS));
    assert!(!m.project.join(".claude/hookmux-hooks.json").exists());
    assert!(!m.project.join(".claude/settings.json.hookmux-backup").exists());
}

#[test]
fn uninstall_after_edits_puts_every_hook_back_and_keeps_the_edits() {
    let m = Machine::new();
    let settings = m.project.join(".claude/settings.json");
    m.write(&settings, SETTINGS);
    m.hookmux(&["install", "claude"]);
    let edited = Machine::read(&settings).unwrap().replace("Bash(ls *)", "Bash(git status)");
    m.write(&settings, &edited);
    assert_eq!(m.hookmux(&["uninstall", "claude"]).code, Some(0));
    let restored = json(&Machine::read(&settings).unwrap());
    assert_eq!(restored["permissions"]["allow"][0], "Bash(git status)");
    let text = restored.to_string();
    assert!(!text.contains("hookmux dispatch"));
    assert!(text.contains("no rm") && text.contains("Is this command safe?") && text.contains("\"timeout\":12"));
}

#[test]
fn refusals_write_nothing_and_say_why() {
    let m = Machine::new();
    let settings = m.project.join(".claude/settings.json");
    let out = m.hookmux(&["install", "claude"]);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("does not exist"), "{}", out.stderr);

    m.write(&settings, "{ \"hooks\": ");
    let out = m.hookmux(&["install", "claude"]);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("is not valid JSON") && out.stderr.contains("left untouched"), "{}", out.stderr);
    assert_eq!(Machine::read(&settings).as_deref(), Some("{ \"hooks\": "));
    assert!(!m.project.join(".claude/settings.json.hookmux-backup").exists());

    let out = m.hookmux(&["uninstall", "claude"]);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("not installed"), "{}", out.stderr);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_backup_planted_as_a_link_is_replaced_not_written_through() {
    let m = Machine::new();
    let settings = m.project.join(".claude/settings.json");
    m.write(&settings, SETTINGS);
    let victim = m.home.join(".bashrc");
    m.write(&victim, "export PATH=/usr/bin\n");
    let backup = m.project.join(".claude/settings.json.hookmux-backup");
    hookmux_platform::fs::symlink_file(&victim, &backup).unwrap();

    let out = m.hookmux(&["install", "claude"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(Machine::read(&victim).as_deref(), Some("export PATH=/usr/bin\n"));
    assert!(!backup.is_symlink(), "the link is replaced by the backup");
    assert_eq!(Machine::read(&backup).as_deref(), Some(SETTINGS));
    let left: Vec<_> = std::fs::read_dir(m.project.join(".claude")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(left.len(), 3, "settings, hooks file and backup, no temporary file: {left:?}");
}
