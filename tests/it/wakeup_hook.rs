//! `hookmux run wakeup` as the real hook process: real payloads, the stdin/env event bridge,
//! marker privacy under any umask, fail-open on a read-only state folder (also for root), and 32
//! processes of one session racing for the marker.

use crate::common;
use common::{Hookmux, Output};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A project, a home, a store and a state folder in one temporary directory.
struct Site {
    dir: tempfile::TempDir,
}

impl Site {
    fn new() -> Site {
        let dir = tempfile::Builder::new().prefix("hookmux-wakeup-it-").tempdir().unwrap();
        for sub in ["project", "home"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        Site { dir }
    }

    fn project(&self) -> PathBuf {
        hookmux_platform::fs::canonicalize(self.dir.path().join("project")).unwrap()
    }

    fn db(&self) -> PathBuf {
        self.dir.path().join("lore.db")
    }

    fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    fn hookmux<I: IntoIterator<Item = S>, S: Into<String>>(&self, args: I) -> Hookmux {
        Hookmux::new(args)
            .cwd(self.project())
            .env("HOME", self.dir.path().join("home"))
            .env("USER", "tester")
            .env("LORE_DB", self.db())
            .env("LORE_HOOK_STATE_DIR", self.state())
    }

    fn cli(&self, args: &[&str]) -> Output {
        let out = self.hookmux(args.iter().copied()).run();
        assert_eq!(out.code, Some(0), "hookmux {args:?}: {out:?}");
        out
    }

    /// Two older memories a prompt can find, four newer ones that fill the recent section, and
    /// a fact.
    fn seed(&self) {
        self.cli(&[
            "memory",
            "add",
            "Deploys go through the staging cluster first",
            "--synopsis",
            "prod only after staging is green",
            "--created",
            "2026-01-10",
        ]);
        self.cli(&[
            "memory",
            "add",
            "Rotate the signing key every 90 days",
            "--kind",
            "policy",
            "--created",
            "2026-01-05",
        ]);
        for title in [
            "Lint runs in CI on every push",
            "The docs site builds from docs/",
            "Standup notes live in the wiki",
            "Use feature flags for risky changes",
        ] {
            self.cli(&["memory", "add", title]);
        }
        self.cli(&["fact", "add", "api", "depends_on", "postgres"]);
    }

    /// A real payload with its cwd moved into the project.
    fn event(&self, fixture: &str, overrides: Value) -> String {
        let mut event = common::event(fixture, &self.project());
        if let (Some(target), Value::Object(extra)) = (event.as_object_mut(), overrides) {
            target.extend(extra);
        }
        event.to_string()
    }

    fn wakeup(&self, stdin: String) -> Output {
        self.hookmux(["run", "wakeup"]).stdin(stdin).run()
    }

    fn markers(&self) -> Vec<PathBuf> {
        std::fs::read_dir(self.state())
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default()
    }
}

#[test]
fn a_claude_code_first_prompt_gets_the_memories_as_plain_text_once() {
    let site = Site::new();
    site.seed();
    let event = site.event("events/UserPromptSubmit.json", json!({"prompt": "how do we deploy to staging?"}));
    let first = site.wakeup(event.clone());
    assert_eq!(first.code, Some(0), "{first:?}");
    assert!(first.stdout.starts_with("# Lore Context\n"), "{first:?}");
    assert!(first
        .stdout
        .contains("## For Your Current Task\n    - **Deploys go through the staging cluster first** (manual, "));
    assert!(first.stdout.contains("## Active Facts\n    - api depends on postgres"));
    assert_eq!(first.stderr, "");
    let second = site.wakeup(event);
    assert_eq!((second.code, second.stdout.as_str(), second.stderr.as_str()), (Some(0), "", ""));
    assert_eq!(site.markers(), [site.state().join("09110fd9-e94d-4dcf-ab61-cd5b8a24d6b2.wakeup")]);
}

#[test]
fn codex_prompts_and_legacy_session_start_payloads_work() {
    let site = Site::new();
    site.seed();
    let prompt =
        site.wakeup(site.event("events/codex/UserPromptSubmit.json", json!({"prompt": "rotate the signing key"})));
    assert!(prompt.stdout.contains("## For Your Current Task\n    - **Rotate the signing key"), "{prompt:?}");
    let start = site
        .hookmux(["run", "wakeup"])
        .env("LORE_DEBUG", "1")
        .stdin(site.event("events/codex/SessionStart.json", json!({})))
        .run();
    assert!(
        start.stdout.contains("## Recent Memories\n") && !start.stdout.contains("For Your Current Task"),
        "{start:?}"
    );
    assert!(start.stderr.contains("mode=default shape=full ranked=false reason=no-ranked-search"), "{start:?}");
}

#[test]
fn with_empty_stdin_the_legacy_bridge_variable_carries_the_event() {
    let site = Site::new();
    site.seed();
    let event = json!({"hook_event_name": "UserPromptSubmit", "session_id": "legacy-1", "prompt": "staging deploys"});
    let bridged = site.hookmux(["run", "wakeup"]).env("LORE_WAKEUP_EVENT", event.to_string()).run();
    assert!(bridged.stdout.contains("## For Your Current Task"), "{bridged:?}");
    assert_eq!(site.markers(), [site.state().join("legacy-1.wakeup")]);
    // Stdin wins over the variable when both are there.
    let stdin_event = json!({"hook_event_name": "SessionStart"}).to_string();
    let both = site.hookmux(["run", "wakeup"]).env("LORE_WAKEUP_EVENT", event.to_string()).stdin(stdin_event).run();
    assert!(both.stdout.contains("# Lore Context") && !both.stdout.contains("For Your Current Task"), "{both:?}");
    // Neither: the default path, no marker, no crash.
    let neither = site.wakeup(String::new());
    assert_eq!(neither.code, Some(0));
    assert!(neither.stdout.contains("## Recent Memories"), "{neither:?}");
    assert_eq!(site.markers().len(), 1);
}

#[test]
fn malformed_events_take_the_default_path_without_crashing() {
    let site = Site::new();
    site.seed();
    for raw in ["not json", "[1,2,3]", "null", "{\"prompt\": 42, \"hook_event_name\": \"UserPromptSubmit\"}"] {
        let out = site.wakeup(raw.to_string());
        assert_eq!(out.code, Some(0), "{raw}: {out:?}");
        assert!(
            out.stdout.contains("## Recent Memories") && !out.stdout.contains("For Your Current Task"),
            "{raw}: {out:?}"
        );
    }
}

#[test]
#[cfg_attr(windows, ignore = "sets a umask through sh; Windows has neither")]
fn the_marker_is_private_even_under_umask_000() {
    let site = Site::new();
    site.seed();
    let event = json!({"hook_event_name": "UserPromptSubmit", "session_id": "umask", "prompt": "deploys"}).to_string();
    let out = site
        .hookmux(["-c", &format!("umask 000; exec '{}' run wakeup", env!("CARGO_BIN_EXE_hookmux"))])
        .stdin(event)
        .run_program("sh");
    assert!(out.stdout.contains("# Lore Context"), "{out:?}");
    assert!(common::mode(&site.state()).is_none_or(|mode| mode == 0o700));
    assert!(common::mode(&site.state().join("umask.wakeup")).is_none_or(|mode| mode == 0o600));
}

/// A 0500 folder in the site, if hookmux run `unprivileged` cannot create files in it: a user
/// never can, root only once its `noroot` secure bit is set (CI runs as root). None on Windows,
/// whose folders have no mode bits to make one read-only with.
#[cfg(not(unix))]
fn read_only_dir(_site: &Site) -> Option<PathBuf> {
    None
}

#[cfg(unix)]
fn read_only_dir(site: &Site) -> Option<PathBuf> {
    use std::os::unix::process::CommandExt;
    let dir = site.dir.path().join("read-only");
    std::fs::create_dir(&dir).unwrap();
    hookmux_platform::fs::set_mode(&dir, 0o500).unwrap();
    let mut probe = Command::new("sh");
    probe.args(["-c", ": > \"$1/probe\" 2>/dev/null", "sh"]).arg(&dir);
    // SAFETY: drop_root_privileges only calls geteuid and prctl, both async-signal-safe.
    unsafe { probe.pre_exec(common::drop_root_privileges) };
    probe.status().is_ok_and(|status| !status.success()).then_some(dir)
}

#[test]
fn a_read_only_state_dir_fails_open_and_still_injects() {
    let site = Site::new();
    site.seed();
    let Some(state) = read_only_dir(&site) else {
        return common::skip("noroot", "no read-only folder: root here cannot set its noroot secure bit");
    };
    let event =
        json!({"hook_event_name": "UserPromptSubmit", "session_id": "ro", "prompt": "staging deploys"}).to_string();
    for _ in 0..2 {
        let out = site
            .hookmux(["run", "wakeup"])
            .env("LORE_HOOK_STATE_DIR", &state)
            .unprivileged()
            .stdin(event.clone())
            .run();
        assert_eq!(out.code, Some(0), "{out:?}");
        assert!(out.stdout.contains("## For Your Current Task"), "{out:?}");
        assert!(out.stderr.starts_with("[lore] wakeup: debounce mark failed — "), "{out:?}");
    }
}

#[test]
fn thirty_two_processes_of_one_session_render_exactly_once() {
    let site = Site::new();
    site.seed();
    let event =
        json!({"hook_event_name": "UserPromptSubmit", "session_id": "race", "prompt": "staging deploys"}).to_string();
    let mut children: Vec<_> = (0..32)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_hookmux"))
                .args(["run", "wakeup"])
                .env_clear()
                .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                .envs(common::folder_var("HOME", &site.dir.path().join("home")))
                .env("LORE_DB", site.db())
                .env("LORE_HOOK_STATE_DIR", site.state())
                .current_dir(site.project())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // Every process is up and waiting on stdin before any gets its event.
    for child in &mut children {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(event.as_bytes()).unwrap();
    }
    let outputs: Vec<_> = children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
    assert!(outputs.iter().all(|o| o.status.success() && o.stderr.is_empty()), "{outputs:?}");
    let rendered = outputs.iter().filter(|o| !o.stdout.is_empty()).count();
    assert_eq!(rendered, 1);
    assert_eq!(site.markers().len(), 1);
}

#[test]
fn the_debug_line_never_carries_content() {
    let site = Site::new();
    site.seed();
    site.cli(&["digest", "save", "--title", "Sprint digest", "Shipped the staging pipeline"]);
    let secret_prompt = "staging deploys zanzibar-codeword";
    let ranked =
        json!({"hook_event_name": "UserPromptSubmit", "session_id": "dbg", "prompt": secret_prompt}).to_string();
    let debug = |stdin: String, db: Option<&Path>| {
        let mut run = site.hookmux(["run", "wakeup"]).env("LORE_DEBUG", "1").stdin(stdin);
        if let Some(db) = db {
            run = run.env("LORE_DB", db);
        }
        run.run()
    };
    let broken = site.dir.path().join("broken.db");
    std::fs::write(&broken, "x".repeat(4096)).unwrap();
    let runs = [
        debug(ranked.clone(), None),
        debug(ranked.clone(), None),
        debug(json!({"hook_event_name": "SessionStart"}).to_string(), None),
        debug(
            json!({"hook_event_name": "UserPromptSubmit", "session_id": "dbg2", "prompt": secret_prompt}).to_string(),
            Some(&broken),
        ),
    ];
    let expected =
        ["mode=ranked", "reason=already-ranked-for-session", "reason=no-ranked-search", "reason=load-failed"];
    for (out, variant) in runs.iter().zip(expected) {
        let lines: Vec<&str> = out.stderr.lines().filter(|l| l.starts_with("[lore] wakeup: mode=")).collect();
        assert_eq!(lines.len(), 1, "exactly one line per attempt: {out:?}");
        assert!(lines[0].contains(variant), "{variant}: {}", lines[0]);
        for content in
            ["zanzibar", "codeword", "staging", "Deploys", "Rotate", "signing", "postgres", "Sprint", "Shipped", "prod"]
        {
            assert!(!lines[0].contains(content), "{content} leaked: {}", lines[0]);
        }
        assert!(!out.stderr.contains("zanzibar"), "{out:?}");
    }
}
