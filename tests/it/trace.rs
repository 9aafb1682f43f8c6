//! The dispatch trace and `hookmux log`: real dispatches leave one private line each, and `log`,
//! `log why` and `log stats` render them; the trace stays private by default, bounded, whole
//! under concurrent writers, and never changes an answer when it cannot be written.

use crate::common::{self, Hookmux};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const SESSION: &str = "5be1f0a4-7d7e-4c1a-9f0e-1d2c3b4a5f60";

/// A home with user settings, a project, and the trace where hookmux puts it by default.
struct Session {
    dir: tempfile::TempDir,
}

impl Session {
    fn new(settings: Value) -> Session {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home/.claude")).unwrap();
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        std::fs::create_dir_all(dir.path().join("tmp")).unwrap();
        std::fs::write(dir.path().join("home/.claude/settings.json"), settings.to_string()).unwrap();
        Session { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn project(&self) -> PathBuf {
        self.root().join("project")
    }

    /// In the state folder below the test's home, where the platform layer puts it
    /// (`~/.local/state` on Unix, `~\AppData\Local` on Windows).
    fn trace_dir(&self) -> PathBuf {
        use hookmux_platform::dirs;
        let home = self.root().join("home");
        let env: hookmux_sdk::Env = [(dirs::variable(dirs::Folder::Home), home.as_os_str())].into_iter().collect();
        dirs::state(&env).expect("a state folder below the home").join("hookmux").join("trace")
    }

    fn hookmux<I: IntoIterator<Item = S>, S: Into<String>>(&self, args: I) -> Hookmux {
        Hookmux::new(args)
            .env("HOME", self.root().join("home"))
            .env("TMPDIR", self.root().join("tmp"))
            .env("CLAUDE_PROJECT_DIR", self.project())
            .env("HOOKMUX_MANAGED_DIR", self.root().join("managed"))
            .cwd(self.project())
    }

    fn dispatch(&self, event: &Value) -> crate::common::Output {
        self.hookmux(["dispatch"]).stdin(event.to_string()).run()
    }

    /// Every file of the trace folder, with its text.
    fn trace_files(&self) -> Vec<(PathBuf, String)> {
        let Ok(entries) = std::fs::read_dir(self.trace_dir()) else { return Vec::new() };
        let mut files: Vec<(PathBuf, String)> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                (p, text)
            })
            .collect();
        files.sort();
        files
    }

    fn records(&self) -> Vec<Value> {
        self.trace_files()
            .iter()
            .flat_map(|(path, text)| {
                text.lines()
                    .map(|line| {
                        serde_json::from_str(line).unwrap_or_else(|e| panic!("{}: {e}: {line}", path.display()))
                    })
                    .collect::<Vec<Value>>()
            })
            .collect()
    }

    /// `hookmux ARGS`' text, the temporary folder as `[ROOT]`.
    fn show(&self, args: &[&str]) -> String {
        let out = self.hookmux(args.iter().copied()).run();
        assert_eq!(out.code, Some(0), "{args:?}: {}{}", out.stdout, out.stderr);
        out.stdout.replace(&self.root().to_string_lossy().into_owned(), "[ROOT]")
    }
}

/// A user's settings: protect-paths on writes, a context hook on prompts, a Bash hook and one
/// limited by an `if` rule, a group for other tools.
fn settings() -> Value {
    json!({
        "hooks": {
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo SECRET-HOOK-$((40+2))"}]}],
            "PreToolUse": [
                {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "hookmux run protect-paths"}]},
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "cat >/dev/null; echo bash-audit >&2"},
                    {"type": "command", "command": "echo git-guard", "if": "Bash(git *)"}
                ]},
                {"matcher": "^mcp__", "hooks": [{"type": "command", "command": "true"}]}
            ]
        }
    })
}

fn event(session: &Session, name: &str, extra: Value) -> Value {
    let mut event = json!({
        "session_id": SESSION,
        "transcript_path": session.root().join("t.jsonl"),
        "cwd": session.project(),
        "permission_mode": "default",
        "hook_event_name": name,
    });
    for (key, value) in extra.as_object().unwrap() {
        event[key] = value.clone();
    }
    event
}

/// A short session: a prompt, a write to `.env` that protect-paths denies, a Bash call, a Stop.
fn play(session: &Session) -> Vec<crate::common::Output> {
    let env_file = session.project().join(".env");
    let events = [
        event(session, "UserPromptSubmit", json!({"prompt": "SECRET-PROMPT-TEXT"})),
        event(
            session,
            "PreToolUse",
            json!({"tool_name": "Write", "tool_use_id": "toolu_write_1",
                   "tool_input": {"file_path": env_file, "content": "SECRET-TOOL-INPUT"}}),
        ),
        event(
            session,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_use_id": "toolu_bash_2",
                   "tool_input": {"command": "echo SECRET-BASH-COMMAND"}}),
        ),
        event(session, "Stop", json!({"stop_hook_active": false, "last_assistant_message": "SECRET-REPLY"})),
    ];
    events.iter().map(|e| session.dispatch(e)).collect()
}

fn insta_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    // What varies from run to run.
    settings.add_filter(r"\d{4}-\d\d-\d\d", "[DAY]");
    settings.add_filter(r"\d\d:\d\d:\d\d\.\d{3}", "[CLOCK]");
    settings.add_filter(r"\d+(\.\d+)? (ms|s)\b", "[TIME]");
    settings.add_filter(r"process \d+", "process [PID]");
    // Column padding follows the widest cell, which may hold a time: compare the words.
    settings.add_filter(r"([^ \n]) {2,}", "$1  ");
    settings
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn log_renders_what_real_dispatches_did() {
    let session = Session::new(settings());
    let outs = play(&session);
    assert!(outs[1].stdout.contains(r#""permissionDecision":"deny""#), "{:?}", outs[1]);
    assert_eq!(session.records().len(), 4);

    insta_settings().bind(|| {
        insta::assert_snapshot!("log-timeline", session.show(&["log"]));
        insta::assert_snapshot!("log-why-write", session.show(&["log", "why", "toolu_write_1"]));
        insta::assert_snapshot!("log-why-bash", session.show(&["log", "why", "toolu_bash"]));
        insta::assert_snapshot!("log-why-last", session.show(&["log", "why", "--last"]));
        // Rows come slowest first: sorted here, the times being the machine's.
        let stats = session.show(&["log", "stats"]);
        let mut lines: Vec<&str> = stats.lines().collect();
        lines[2..].sort_unstable();
        insta::assert_snapshot!("log-stats", lines.join("\n"));
    });

    // Filters: one event, one hook, a session named by the start of its id.
    let only_bash = session.show(&["log", "--event", "PreToolUse", "--hook", "bash-audit"]);
    assert!(only_bash.contains("bash-audit") && !only_bash.contains("protect-paths"), "{only_bash}");
    let by_session = session.show(&["log", "--session", &SESSION[..8], "--since", "1h"]);
    assert_eq!(by_session, session.show(&["log"]));
    assert!(session.show(&["log", "--session", "nobody"]).contains("No traced dispatch matches."));

    // --json gives the trace's own lines.
    let json = session.hookmux(["log", "--json"]).run();
    let lines: Vec<Value> = json.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[1]["hooks"][0]["name"], "protect-paths");
    assert_eq!(lines[1]["hooks"][0]["decision"], "deny");
    assert_eq!(lines[1]["answer"]["decision"], "deny");
    let stats = session.hookmux(["log", "stats", "--json"]).run().json();
    let protect = stats.as_array().unwrap().iter().find(|h| h["name"] == "protect-paths").unwrap();
    assert_eq!((protect["calls"].as_u64(), protect["blocks"].as_u64()), (Some(1), Some(1)));

    // An unknown id says so and fails; no trace at all says where it looked.
    let unknown = session.hookmux(["log", "why", "toolu_nope"]).run();
    assert_eq!(unknown.code, Some(1));
    assert!(unknown.stdout.contains("No traced dispatch has tool-use id `toolu_nope`"), "{}", unknown.stdout);
    // Two sessions within `--since`: each has its heading.
    let mut other = event(&session, "Stop", json!({}));
    other["session_id"] = "second-session".into();
    session.dispatch(&other);
    let both = session.show(&["log", "--since", "1h"]);
    assert!(both.starts_with("2 sessions") && both.contains(&format!("── session {SESSION} (claude)")), "{both}");
    assert!(both.contains("── session second-session (claude)"), "{both}");
    assert!(session.show(&["log"]).starts_with("session second-session"), "the latest session by default");

    // A trace folder others can write into is not read: its lines may not be dispatch's.
    if !common::chmod(&session.trace_dir(), 0o777) {
        return;
    }
    let refused = session.hookmux(["log"]).run();
    assert_eq!(refused.code, Some(1));
    assert!(refused.stderr.contains("others can write into it"), "{}", refused.stderr);

    let empty = Session::new(json!({}));
    let none = empty.show(&["log"]);
    assert!(none.contains("No dispatch traced yet in ~/.local/state/hookmux/trace"), "{none}");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn the_default_trace_holds_no_prompt_input_or_output_and_is_private() {
    let session = Session::new(settings());
    play(&session);
    let files = session.trace_files();
    assert!(!files.is_empty());
    for (path, text) in &files {
        for secret in
            ["SECRET-PROMPT-TEXT", "SECRET-TOOL-INPUT", "SECRET-BASH-COMMAND", "SECRET-HOOK-42", "SECRET-REPLY"]
        {
            assert!(!text.contains(secret), "{} holds {secret}:\n{text}", path.display());
        }
        assert!(!text.contains("bash-audit\n") && !text.contains("permissionDecisionReason"), "{text}");
        assert!(common::mode(path).is_none_or(|mode| mode == 0o600), "{}", path.display());
    }
    assert!(common::mode(&session.trace_dir()).is_none_or(|mode| mode == 0o700));
    // What is there: names, ids, decisions, sizes and timings.
    let records = session.records();
    let bash = &records[2];
    assert_eq!((bash["tool"].as_str(), bash["tool_use_id"].as_str()), (Some("Bash"), Some("toolu_bash_2")));
    assert_eq!(bash["hooks"][0]["stderr_bytes"], 11);
    assert!(bash["hooks"][0]["wall_ms"].as_f64().unwrap() > 0.0);
    assert_eq!(bash["skipped"][0]["if"], "Bash(git *)");
    assert_eq!(bash["groups"][0]["matched"], false);
    assert!(bash.get("input").is_none());

    // HOOKMUX_TRACE=full adds the event and the outputs, for a session being debugged.
    let full = Session::new(settings());
    full.hookmux(["dispatch"])
        .env("HOOKMUX_TRACE", "full")
        .stdin(event(&full, "UserPromptSubmit", json!({"prompt": "SECRET-PROMPT-TEXT"})).to_string())
        .run();
    let record = &full.records()[0];
    assert_eq!(record["input"]["prompt"], "SECRET-PROMPT-TEXT");
    assert_eq!(record["hooks"][0]["stdout"], "SECRET-HOOK-42\n");
    let why = full.show(&["log", "why", "--last"]);
    assert!(why.contains("\"prompt\": \"SECRET-PROMPT-TEXT\"") && why.contains("stdout: SECRET-HOOK-42"), "{why}");
}

#[test]
fn a_credential_written_into_a_hook_never_reaches_the_trace() {
    let key = "sk-ant-api03-Zq8mN4vR7tY2wX5bC9dF1gH3jK6lP0sA";
    let settings = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": format!("echo done # notify --key {key}")},
        {"type": "http", "url": "http://alice:hunter2-password@127.0.0.1:9/hook?token=t0ps3cr3t", "timeout": 1}
    ]}]}});
    let session = Session::new(settings);
    session.dispatch(&event(&session, "Stop", json!({"stop_hook_active": false})));
    let files = session.trace_files();
    assert!(!files.is_empty());
    for (path, text) in &files {
        for secret in [&key[8..], "hunter2-password", "t0ps3cr3t"] {
            assert!(!text.contains(secret), "{} holds {secret}:\n{text}", path.display());
        }
    }
    let names: Vec<String> = session.records()[0]["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"echo done # notify --key sk-a…".to_string()), "{names:?}");
    assert!(names.contains(&"POST http://127.0.0.1:9/hook".to_string()), "{names:?}");
}

#[test]
fn the_trace_is_switched_off_by_the_variable_or_the_users_settings_not_the_projects() {
    let bash = |session: &Session| {
        event(session, "PreToolUse", json!({"tool_name": "Bash", "tool_use_id": "t", "tool_input": {"command": "ls"}}))
    };
    let session = Session::new(settings());
    session.hookmux(["dispatch"]).env("HOOKMUX_TRACE", "0").stdin(bash(&session).to_string()).run();
    assert!(session.trace_files().is_empty());

    let mut off = settings();
    off["$hookmux"] = json!({"trace": false, "ignore": ["a future key"]});
    let session = Session::new(off.clone());
    let out = session.dispatch(&bash(&session));
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    assert!(session.trace_files().is_empty());

    // A project cannot hide what its hooks did.
    let session = Session::new(settings());
    std::fs::create_dir_all(session.project().join(".claude")).unwrap();
    std::fs::write(session.project().join(".claude/settings.json"), json!({"$hookmux": {"trace": false}}).to_string())
        .unwrap();
    session.dispatch(&bash(&session));
    assert_eq!(session.records().len(), 1);

    // A value that is not one is a warning, once, and the trace stays on.
    let mut wrong = settings();
    wrong["$hookmux"] = json!({"trace": "sometimes"});
    let session = Session::new(wrong);
    let out = session.dispatch(&bash(&session));
    assert!(out.stderr.contains("`trace` must be true, false or \"full\""), "{}", out.stderr);
    assert_eq!(session.records().len(), 1);
}

#[test]
fn the_trace_is_bounded_by_rotation() {
    let session = Session::new(settings());
    let bash = event(
        &session,
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_use_id": "t", "tool_input": {"command": "ls"}}),
    );
    for _ in 0..40 {
        session.hookmux(["dispatch"]).env("HOOKMUX_TRACE_MAX_BYTES", "4096").stdin(bash.to_string()).run();
    }
    let files = session.trace_files();
    let names: Vec<String> = files.iter().map(|(p, _)| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["trace.1.jsonl", "trace.2.jsonl", "trace.jsonl"]);
    for (path, text) in &files {
        assert!(text.len() <= 4096, "{} has {} bytes", path.display(), text.len());
    }
    // Every kept line is whole.
    assert!(session.records().len() >= 3);
}

#[test]
fn concurrent_dispatches_write_whole_lines_and_lose_none() {
    for max in ["", "8192"] {
        let session = Session::new(settings());
        let bash = event(
            &session,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_use_id": "t", "tool_input": {"command": "ls"}}),
        );
        std::thread::scope(|scope| {
            for _ in 0..6 {
                scope.spawn(|| {
                    for _ in 0..8 {
                        let mut command = session.hookmux(["dispatch"]).stdin(bash.to_string());
                        if !max.is_empty() {
                            command = command.env("HOOKMUX_TRACE_MAX_BYTES", max);
                        }
                        assert_eq!(command.run().code, Some(0));
                    }
                });
            }
        });
        // `records` fails on any line that does not parse: torn or interleaved.
        let records = session.records();
        if max.is_empty() {
            assert_eq!(records.len(), 48, "every dispatch left its line");
        } else {
            let total: usize = session.trace_files().iter().map(|(_, text)| text.len()).sum();
            assert!(total <= 3 * 8192, "{total} bytes");
        }
    }
}

#[test]
fn an_unwritable_trace_folder_changes_no_answer_and_is_told_once() {
    let session = Session::new(settings());
    let write = event(
        &session,
        "PreToolUse",
        json!({"tool_name": "Write", "tool_use_id": "w", "tool_input": {"file_path": session.project().join(".env"), "content": "x"}}),
    );
    let traced = session.dispatch(&write);

    // Others can write into this folder: hookmux does not use it.
    let open = session.root().join("open");
    std::fs::create_dir(&open).unwrap();
    if !common::chmod(&open, 0o777) {
        return;
    }
    let run = || session.hookmux(["dispatch"]).env("HOOKMUX_TRACE_DIR", &open).stdin(write.to_string()).run();
    let first = run();
    // The decision is the same; the notice comes with it, as dispatch's notices do.
    assert_eq!(
        (first.json()["hookSpecificOutput"].clone(), first.code),
        (traced.json()["hookSpecificOutput"].clone(), traced.code)
    );
    let told = format!("{}{}", first.stdout, first.stderr);
    assert_eq!(told.matches("dispatches are not traced").count(), 2, "once in each channel: {told}");
    assert!(first.json()["systemMessage"].as_str().unwrap().contains("others can write into it"), "{told}");
    let second = run();
    assert_eq!((&second.stdout, second.code), (&traced.stdout, traced.code), "told once per session");
    assert!(!second.stderr.contains("not traced"), "told once per session: {}", second.stderr);
    assert_eq!(std::fs::read_dir(&open).unwrap().count(), 0);

    // A private folder without write permission (0500) is the same.
    let read_only = session.root().join("read-only");
    std::fs::create_dir(&read_only).unwrap();
    if !common::chmod(&read_only, 0o500) {
        return;
    }
    let out = session
        .hookmux(["dispatch"])
        .env("HOOKMUX_TRACE_DIR", &read_only)
        .env("TMPDIR", session.root())
        .stdin(write.to_string())
        .unprivileged()
        .run();
    assert_eq!(out.json()["hookSpecificOutput"], traced.json()["hookSpecificOutput"]);
    assert!(out.stderr.contains(&format!("cannot write into {}", read_only.display())), "{}", out.stderr);
    common::chmod(&read_only, 0o700);
    assert_eq!(std::fs::read_dir(&read_only).unwrap().count(), 0);

    // A folder that cannot be made (a file in its way) is the same.
    let blocked = session.root().join("a-file");
    std::fs::write(&blocked, "").unwrap();
    let out = session
        .hookmux(["dispatch"])
        .env("HOOKMUX_TRACE_DIR", blocked.join("trace"))
        .stdin(event(&session, "Stop", json!({})).to_string())
        .run();
    assert_eq!(out.code, Some(0));
    assert!(out.stderr.contains("dispatches are not traced"), "{}", out.stderr);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_hook_that_times_out_or_fails_is_counted_so() {
    let session = Session::new(json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "sleep 5", "timeout": 0.3},
        {"type": "command", "command": "echo broken >&2; exit 1"}
    ]}]}}));
    session.dispatch(&event(&session, "Stop", json!({})));
    let record = &session.records()[0];
    let hooks = record["hooks"].as_array().unwrap();
    assert_eq!((hooks[0]["decision"].as_str(), hooks[0]["timed_out"].as_bool()), (Some("timeout"), Some(true)));
    assert_eq!((hooks[1]["decision"].as_str(), hooks[1]["exit"].as_i64()), (Some("error"), Some(1)));
    let stats = session.hookmux(["log", "stats", "--json"]).run().json();
    let by_name = |name: &str| stats.as_array().unwrap().iter().find(|h| h["name"] == name).unwrap().clone();
    assert_eq!(by_name("sleep 5")["timeouts"], 1);
    assert_eq!(by_name("echo broken >&2; exit 1")["errors"], 1);
    let timeline = session.show(&["log"]);
    assert!(timeline.contains("timeout") && timeline.contains("answer"), "{timeline}");
    let why = session.show(&["log", "why", "--last"]);
    assert!(why.contains("timed out") && why.contains("exit 1, 7 bytes on stderr"), "{why}");
}

#[test]
fn log_follow_prints_each_new_dispatch_also_across_a_rotation() {
    use std::io::BufRead;
    let session = Session::new(settings());
    let bash = |id: &str| {
        event(&session, "PreToolUse", json!({"tool_name": "Bash", "tool_use_id": id, "tool_input": {"command": "ls"}}))
    };
    let dispatch = |id: &str| {
        session.hookmux(["dispatch"]).env("HOOKMUX_TRACE_MAX_BYTES", "4096").stdin(bash(id).to_string()).run()
    };
    dispatch("before");
    let mut follow = std::process::Command::new(env!("CARGO_BIN_EXE_hookmux"))
        .args(["log", "--follow", "--json"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(common::folder_var("HOME", &session.root().join("home")))
        .envs(common::folder_var("TMPDIR", &session.root().join("tmp")))
        .current_dir(session.project())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = follow.stdout.take().unwrap();
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let next = || {
        let line = received.recv_timeout(std::time::Duration::from_secs(30)).expect("log --follow printed a line");
        let record: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        record["tool_use_id"].as_str().unwrap_or_else(|| panic!("no tool_use_id: {line}")).to_string()
    };
    // What was there, then every dispatch as it comes, while the 4 KiB files rotate under it.
    assert_eq!(next(), "before");
    for id in ["after-1", "after-2", "after-3"] {
        dispatch(id);
        assert_eq!(next(), id);
    }
    follow.kill().unwrap();
    follow.wait().unwrap();
    assert!(session.trace_dir().join("trace.1.jsonl").exists(), "the files rotated");
}

#[test]
#[cfg_attr(windows, ignore = "needs a FIFO (mkfifo), which Windows does not have")]
fn what_is_planted_in_the_trace_folder_neither_holds_a_dispatch_up_nor_gets_written() {
    let session = Session::new(settings());
    let write_env = |id: &str| {
        let file = session.project().join(".env");
        event(
            &session,
            "PreToolUse",
            json!({"tool_name": "Write", "tool_use_id": id, "tool_input": {"file_path": file, "content": "x"}}),
        )
    };
    session.dispatch(&write_env("first"));
    let current = session.trace_dir().join("trace.jsonl");

    // A FIFO in the current file's place: the guard's deny still comes out, and the dispatch ends
    // (the test's own bound is only there so that a regression fails instead of hanging).
    std::fs::remove_file(&current).unwrap();
    let status = std::process::Command::new("mkfifo").arg(&current).status().unwrap();
    assert!(status.success());
    let (done, finished) = std::sync::mpsc::channel();
    let event = write_env("fifo").to_string();
    let command = session.hookmux(["dispatch"]).stdin(event);
    std::thread::spawn(move || done.send(command.run()));
    let out =
        finished.recv_timeout(std::time::Duration::from_secs(60)).expect("dispatch ended with a FIFO in the folder");
    assert!(out.stdout.contains("\"permissionDecision\":\"deny\""), "{out:?}");

    // A hard link to another file in its place: that file is not written to.
    std::fs::remove_file(&current).unwrap();
    let victim = session.root().join("victim.txt");
    std::fs::write(&victim, "untouched\n").unwrap();
    std::fs::hard_link(&victim, &current).unwrap();
    let out = session.dispatch(&write_env("hardlink"));
    assert!(out.stdout.contains("\"permissionDecision\":\"deny\""), "{out:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched\n");
}

#[test]
fn a_line_that_does_not_read_hides_none_after_it() {
    let session = Session::new(settings());
    let bash = |id: &str| {
        event(&session, "PreToolUse", json!({"tool_name": "Bash", "tool_use_id": id, "tool_input": {"command": "ls"}}))
    };
    session.dispatch(&bash("before"));
    let current = session.trace_dir().join("trace.jsonl");
    let mut bytes = std::fs::read(&current).unwrap();
    bytes.extend_from_slice(b"\xff\xfe not a line of dispatch's\n{\"torn\": \n");
    std::fs::write(&current, bytes).unwrap();
    session.dispatch(&bash("after"));
    let ids: Vec<String> = session
        .hookmux(["log", "--json"])
        .run()
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["tool_use_id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(ids, ["before", "after"]);
}

/// What a hook prints, and what the model and the host send, reach `log` as data: `log why`
/// shows a hook's lines under a gutter (a printed line cannot pose as a line of the report),
/// `log --json` writes C1 controls out, and a host field too long for a line is cut, and the line
/// says so, instead of the whole line being dropped.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn what_hooks_and_hosts_write_cannot_forge_or_hide_a_line_of_the_log() {
    let forged = "Hooks (forged)\n  forged notice: all clear";
    let settings = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": format!("printf '%s\\n' '{forged}' >&2; printf 'csi \\302\\233 31m' >&2")}
    ]}]}});
    let session = Session::new(settings);
    let full = |session: &Session, event: &Value| {
        session.hookmux(["dispatch"]).env("HOOKMUX_TRACE", "full").stdin(event.to_string()).run()
    };
    full(
        &session,
        &event(
            &session,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_use_id": "toolu_forge",
        "tool_input": {"command": "ls"}}),
        ),
    );

    let why = session.show(&["log", "why", "toolu_forge"]);
    assert!(why.contains("forged notice: all clear"), "{why}");
    for line in why.lines() {
        let trimmed = line.trim_start();
        assert!(
            !trimmed.starts_with("forged notice") && !trimmed.starts_with("Hooks (forged)"),
            "a hook's line in the report: {why}"
        );
    }
    let json = session.show(&["log", "--json"]);
    assert!(!json.contains('\u{9b}'), "a raw C1 control: {json:?}");
    assert!(json.contains("\\u009b"), "{json}");
    let why_json = session.show(&["log", "why", "--last", "--json"]);
    assert!(!why_json.contains('\u{9b}'), "{why_json:?}");

    // A tool name of 300 KB: the line is written, the name cut, and the line says so.
    let long = "T".repeat(300 * 1024);
    session.dispatch(&event(
        &session,
        "PreToolUse",
        json!({"tool_name": long, "tool_use_id": "toolu_long",
        "tool_input": {}}),
    ));
    let records = session.records();
    let last = records.last().expect("a line for the dispatch");
    assert_eq!(last["tool_use_id"], "toolu_long", "{}", last["tool_use_id"]);
    assert_eq!(last["truncated"], true);
    let tool = last["tool"].as_str().expect("the tool");
    assert!(tool.len() < 8 * 1024 && tool.starts_with("TTTT") && tool.ends_with("more bytes]"), "{}", &tool[..64]);
}
