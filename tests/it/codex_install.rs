//! `hookmux install codex` and `uninstall codex` on real files, through the executable.

use crate::common;

use common::Hookmux;
use std::path::{Path, PathBuf};

struct Machine {
    _root: tempfile::TempDir,
    home: PathBuf,
    codex_home: PathBuf,
    project: PathBuf,
}

impl Machine {
    fn new() -> Machine {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        let codex_home = root.path().join("codex");
        let project = root.path().join("project");
        std::fs::create_dir_all(home.join(".codex")).unwrap();
        std::fs::create_dir_all(project.join(".git")).unwrap();
        Machine { _root: root, home, codex_home, project }
    }

    fn hookmux(&self, args: &[&str]) -> common::Output {
        let out = Hookmux::new(args.iter().copied())
            .env("HOME", &self.home)
            .env("CODEX_HOME", &self.codex_home)
            .cwd(&self.project)
            .run();
        assert_eq!(out.code, Some(0), "hookmux {args:?}: {out:?}");
        out
    }

    /// Every file under the machine's folders with its text: what the user would find.
    fn files(&self) -> Vec<(PathBuf, String)> {
        let mut found = Vec::new();
        for dir in [&self.home, &self.codex_home, &self.project] {
            collect(dir, &mut found);
        }
        found.sort();
        found
    }
}

fn collect(dir: &Path, found: &mut Vec<(PathBuf, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, found);
        } else {
            found.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
        }
    }
}

const HOOKS: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "my-guard"
          }
        ]
      }
    ]
  }
}
"#;

#[test]
fn install_then_uninstall_leaves_every_file_as_it_was() {
    let machine = Machine::new();
    std::fs::create_dir_all(&machine.codex_home).unwrap();
    std::fs::write(machine.codex_home.join("hooks.json"), HOOKS).unwrap();
    std::fs::write(machine.codex_home.join("config.toml"), "model = \"gpt-5.5\" # mine\n").unwrap();
    let before = machine.files();

    machine.hookmux(&["install", "codex", "--trust"]);
    let installed = machine.files();
    assert_ne!(installed, before);

    let dry = machine.hookmux(&["uninstall", "codex", "--dry-run"]);
    assert!(dry.stdout.contains("hookmux would write") && dry.stdout.contains("my-guard"), "{dry:?}");
    assert_eq!(machine.files(), installed, "--dry-run writes nothing");

    let out = machine.hookmux(&["uninstall", "codex"]);
    assert!(out.stdout.contains("removed hookmux's 11 entries"), "{out:?}");
    assert!(out.stdout.contains("removed 11 trust record(s)"), "{out:?}");
    assert_eq!(machine.files(), before);

    let again = machine.hookmux(&["uninstall", "codex"]);
    assert!(again.stdout.contains("no hookmux entries"), "{again:?}");
    assert_eq!(machine.files(), before);
}

#[test]
fn project_scope_round_trips_from_nothing_to_nothing() {
    let machine = Machine::new();
    let before = machine.files();
    machine.hookmux(&["install", "codex", "--scope", "project", "--trust"]);
    assert!(machine.project.join(".codex/hooks.json").is_file());
    assert!(machine.codex_home.join("config.toml").is_file());
    let out = machine.hookmux(&["uninstall", "codex", "--scope", "project"]);
    assert!(out.stdout.contains("removed, as it held only hookmux's 11 entries"), "{out:?}");
    // The emptied `.codex` folder stays; only files count.
    assert_eq!(machine.files(), before);
}
