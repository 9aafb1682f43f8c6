//! A cloned repository's own settings run hooks under hosts that do not ask the user (Codex,
//! OpenCode) only once the project is trusted; the user's own settings always run.

use crate::common::{self, Hookmux};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A user with a guard of their own, and a cloned repository with hooks.
struct Clone {
    _root: tempfile::TempDir,
    home: PathBuf,
    repo: PathBuf,
}

impl Clone {
    fn new(repo_settings: Value) -> Clone {
        let root = tempfile::tempdir().expect("a temporary folder");
        let home = root.path().join("home");
        let repo = root.path().join("repo");
        std::fs::create_dir_all(home.join(".claude")).expect("mkdir");
        std::fs::create_dir_all(repo.join(".claude")).expect("mkdir");
        let user = json!({"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
            {"type": "command", "command": "echo user >> \"$CLAUDE_PROJECT_DIR/ran.txt\"; echo 'the user says no' >&2; exit 2"}
        ]}]}});
        std::fs::write(home.join(".claude/settings.json"), user.to_string()).expect("write");
        std::fs::write(repo.join(".claude/settings.json"), repo_settings.to_string()).expect("write");
        Clone { _root: root, home, repo }
    }

    fn hookmux<'a>(&self, args: impl IntoIterator<Item = &'a str>) -> Hookmux {
        // One TMPDIR for every run: the once-per-session markers live there.
        Hookmux::new(args).env("HOME", &self.home).env("TMPDIR", &self.home).cwd(&self.repo)
    }

    fn ran(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.repo.join("ran.txt")).unwrap_or_default();
        let mut ran: Vec<String> = text.lines().map(str::to_string).collect();
        ran.sort();
        ran
    }

    fn reset(&self) {
        let _ = std::fs::remove_file(self.repo.join("ran.txt"));
    }

    fn codex(&self, file: &str) -> String {
        json!({
            "session_id": "s-1", "turn_id": "t", "transcript_path": null, "cwd": self.repo,
            "hook_event_name": "PreToolUse", "model": "gpt", "permission_mode": "default",
            "tool_name": "apply_patch", "tool_use_id": "call_1",
            "tool_input": {"command": format!("*** Begin Patch\n*** Add File: {file}\n+x\n*** End Patch\n")}
        })
        .to_string()
    }

    fn claude(&self) -> String {
        json!({"session_id": "s-1", "cwd": self.repo, "hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": self.repo.join("a.txt"), "content": "x"}, "tool_use_id": "t1"})
        .to_string()
    }
}

fn repo_hook() -> Value {
    json!({"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
        {"type": "command", "command": "echo repo >> \"$CLAUDE_PROJECT_DIR/ran.txt\""}
    ]}]}})
}

fn system_message(out: &common::Output) -> String {
    serde_json::from_str::<Value>(out.stdout.trim())
        .ok()
        .and_then(|answer| answer["systemMessage"].as_str().map(str::to_string))
        .unwrap_or_default()
}

#[test]
fn an_untrusted_repositorys_hooks_do_not_run_under_codex_and_it_says_how_to_trust() {
    let c = Clone::new(repo_hook());
    let out = c.hookmux(["dispatch", "--host", "codex"]).stdin(c.codex("a.txt")).run();
    assert_eq!(c.ran(), ["user"], "the user's hook runs, the repository's does not: {out:?}");
    let message = system_message(&out);
    assert!(message.contains("is not a trusted project") && message.contains("hookmux trust"), "{message}");
    // Told once per session.
    c.reset();
    let out = c.hookmux(["dispatch", "--host", "codex"]).stdin(c.codex("a.txt")).run();
    assert!(!system_message(&out).contains("trusted"), "{out:?}");
}

#[test]
fn an_untrusted_repository_cannot_switch_off_the_users_guard() {
    let c = Clone::new(json!({"disableAllHooks": true}));
    for host in ["codex", "opencode"] {
        c.reset();
        let stdin = match host {
            "codex" => c.codex("a.txt"),
            _ => json!({"hook": "tool.execute.before", "directory": c.repo,
                "input": {"tool": "write", "sessionID": "ses_1", "callID": "c1"},
                "output": {"args": {"filePath": "a.txt", "content": "x"}}})
            .to_string(),
        };
        let out = c.hookmux(["dispatch", "--host", host]).stdin(stdin).run();
        assert_eq!(c.ran(), ["user"], "{host}: {out:?}");
        assert!(out.stdout.contains("the user says no"), "{host}: {out:?}");
    }
}

#[test]
fn claude_code_asks_the_user_itself() {
    let c = Clone::new(repo_hook());
    let out = c.hookmux(["dispatch"]).stdin(c.claude()).run();
    assert_eq!(c.ran(), ["repo", "user"], "{out:?}");
}

#[test]
fn trust_list_override_and_codexs_own_trust_each_trust_the_project() {
    let c = Clone::new(repo_hook());
    let trusted = |c: &Clone, extra: &[(&str, &Path)]| {
        c.reset();
        let mut run = c.hookmux(["dispatch", "--host", "codex"]).stdin(c.codex("a.txt"));
        for (name, value) in extra {
            run = run.env(name, value);
        }
        run.run();
        c.ran() == ["repo", "user"]
    };
    assert!(!trusted(&c, &[]));
    assert!(trusted(&c, &[("HOOKMUX_TRUST", c.repo.parent().expect("a parent"))]), "a folder covers those below it");

    let out = c.hookmux(["trust"]).run();
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(trusted(&c, &[]));
    let out = c.hookmux(["trust", "--list"]).run();
    assert!(
        out.stdout.contains(hookmux_platform::fs::canonicalize(&c.repo).expect("real path").to_str().expect("utf-8")),
        "{out:?}"
    );
    let out = c.hookmux(["trust", "--revoke"]).run();
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!trusted(&c, &[]));
    assert_eq!(c.hookmux(["trust", "--revoke"]).run().code, Some(1), "nothing to revoke");

    let codex_home = c.home.join(".codex");
    std::fs::create_dir_all(&codex_home).expect("mkdir");
    let real = hookmux_platform::fs::canonicalize(&c.repo).expect("real path");
    std::fs::write(
        codex_home.join("config.toml"),
        format!("[projects.\"{}\"]\ntrust_level = \"trusted\"\n", real.display()),
    )
    .expect("write");
    assert!(trusted(&c, &[]), "Codex's own trust counts");
}

#[test]
fn hooks_list_shows_an_untrusted_project_as_read_by_claude_code() {
    // The inspection commands show Claude Code's view, where the host's own prompt decides.
    let c = Clone::new(repo_hook());
    let out = c.hookmux(["hooks", "list"]).run();
    assert!(out.stdout.contains("echo repo"), "{}", out.stdout);
}
