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
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
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
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
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
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn claude_code_asks_the_user_itself() {
    let c = Clone::new(repo_hook());
    let out = c.hookmux(["dispatch"]).stdin(c.claude()).run();
    assert_eq!(c.ran(), ["repo", "user"], "{out:?}");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
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

/// A server that counts the connections made to it and hangs up on each at once.
struct Listener {
    port: u16,
    connections: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Listener {
    fn start() -> Listener {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        let port = listener.local_addr().expect("its address").port();
        let connections = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = connections.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                drop(stream);
            }
        });
        Listener { port, connections }
    }

    fn taken(&self) -> usize {
        self.connections.swap(0, std::sync::atomic::Ordering::SeqCst)
    }
}

/// A cloned repository's `.lore.yaml` that names a server of its author's choosing: the wake-up
/// (wired by the user) connects to it only for a project trusted by the rule that decides whether
/// the project's settings run, whether the host runs `hookmux run wakeup` itself or dispatch
/// calls it in-process; otherwise it uses the user's own store and says so once.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_checkouts_store_url_is_used_only_for_a_trusted_project() {
    let server = Listener::start();
    let wakeup =
        json!({"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "hookmux run wakeup"}]}]}});
    let c = Clone::new(json!({}));
    std::fs::write(c.home.join(".claude/settings.json"), wakeup.to_string()).expect("write");
    std::fs::create_dir_all(c.repo.join(".git")).expect("mkdir");
    let url = format!("postgres://lore@127.0.0.1:{}/lore", server.port);
    std::fs::write(c.repo.join(".lore.yaml"), format!("project: acme\nstore: {{path: \"{url}\"}}\n")).expect("write");
    let prompt = |session: &str| {
        json!({"session_id": session, "cwd": c.repo, "hook_event_name": "UserPromptSubmit", "prompt": "how do we deploy?"})
            .to_string()
    };
    let codex_prompt = |session: &str| {
        json!({"session_id": session, "turn_id": "t", "transcript_path": null, "cwd": c.repo,
            "hook_event_name": "UserPromptSubmit", "model": "gpt", "permission_mode": "default", "prompt": "deploy?"})
        .to_string()
    };
    let run = |args: &[&str], stdin: String, env: &[(&str, &Path)]| {
        let mut hookmux = c.hookmux(args.iter().copied()).env("USER", "tester").stdin(stdin);
        for (name, value) in env {
            hookmux = hookmux.env(name, value);
        }
        hookmux.run()
    };

    // `hookmux run wakeup` started by a host that does not say which it is.
    let out = run(&["run", "wakeup"], prompt("s-run"), &[]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(server.taken(), 0, "an untrusted project's server is not contacted: {out:?}");
    let notices: Vec<&str> = out.stderr.lines().filter(|l| l.contains("is not trusted")).collect();
    assert_eq!(notices.len(), 1, "{out:?}");
    assert!(notices[0].contains(&url) && notices[0].contains("using your own store"), "{out:?}");
    let out = run(&["run", "wakeup"], prompt("s-run"), &[]);
    assert!(!out.stderr.contains("is not trusted"), "once per session: {out:?}");

    // In-process, under a dispatch for Codex: Codex does not trust the project either.
    let out = run(&["dispatch", "--host", "codex"], codex_prompt("s-codex"), &[]);
    assert_eq!(server.taken(), 0, "{out:?}");

    // Trusted: by the user's override, by Claude Code (which asks before it runs any hook), by
    // Codex's own record; each connects.
    let out = run(&["run", "wakeup"], prompt("s-override"), &[("HOOKMUX_TRUST", &c.repo)]);
    assert_eq!(server.taken(), 1, "{out:?}");
    let out = run(&["dispatch"], prompt("s-claude"), &[]);
    assert_eq!(server.taken(), 1, "{out:?}");
    let out =
        c.hookmux(["run", "wakeup"]).env("USER", "tester").env("CLAUDECODE", "1").stdin(prompt("s-claude-run")).run();
    assert_eq!(server.taken(), 1, "{out:?}");
    let real = hookmux_platform::fs::canonicalize(&c.repo).expect("real path");
    std::fs::create_dir_all(c.home.join(".codex")).expect("mkdir");
    std::fs::write(
        c.home.join(".codex/config.toml"),
        format!("[projects.\"{}\"]\ntrust_level = \"trusted\"\n", real.display()),
    )
    .expect("write");
    let out = run(&["dispatch", "--host", "codex"], codex_prompt("s-codex-trusted"), &[]);
    assert_eq!(server.taken(), 1, "{out:?}");
    std::fs::remove_file(c.home.join(".codex/config.toml")).expect("remove");

    // The memory commands follow the same rule: an untrusted project's status is the user's store.
    let out = c.hookmux(["memory", "status"]).env("USER", "tester").run();
    assert_eq!(server.taken(), 0, "{out:?}");
    assert!(out.stderr.contains("is not trusted") && out.stdout.contains("lore.db"), "{out:?}");
}
