//! `hookmux log coverage` on real transcripts: each host's, recorded in its harness with hookmux
//! installed (`fixtures/coverage/<host>/`, from `scripts/coverage-check.sh --keep` through
//! `scripts/coverage_fixtures.py`), beside the trace the same run wrote. The counts are the ones
//! the host's own output gave in that run. Then what coverage must not do: count without a
//! trace, count from hookmux's own transcript, follow a link or wait on a FIFO in a host's
//! folder.

use crate::common::{fixture, Hookmux, Output};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A home holding one recorded run: the host's transcripts, and the trace where hookmux keeps it.
struct Run {
    dir: tempfile::TempDir,
}

impl Run {
    fn of(name: &str) -> Run {
        let run = Run { dir: tempfile::tempdir().unwrap() };
        copy_tree(&fixture(&format!("coverage/{name}/home")), &run.home());
        let trace = run.trace_dir();
        std::fs::create_dir_all(&trace).unwrap();
        for dir in [trace.parent().unwrap(), &trace] {
            hookmux_platform::fs::set_mode(dir, 0o700).unwrap();
        }
        let lines = std::fs::read_to_string(fixture(&format!("coverage/{name}/trace.jsonl"))).unwrap();
        run.write_trace("trace.jsonl", &lines);
        std::fs::create_dir_all(run.project()).unwrap();
        run
    }

    /// The Claude Code run whose PreToolUse did not go through hookmux, with the project's
    /// settings that kept a native PreToolUse guard on Bash.
    fn unrouted() -> Run {
        let run = Run::of("claude-unrouted");
        std::fs::create_dir_all(run.project().join(".claude")).unwrap();
        let settings = fixture("coverage/scenarios/claude-unrouted/settings.json");
        std::fs::copy(settings, run.project().join(".claude/settings.json")).unwrap();
        run
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// The recorded project, /home/dev/acme, here.
    fn project(&self) -> PathBuf {
        self.dir.path().join("acme")
    }

    /// Where hookmux keeps the trace with the home's state folder named (`XDG_STATE_HOME`, on
    /// Windows `LOCALAPPDATA`): the recorded run's `~/.local/state`.
    fn trace_dir(&self) -> PathBuf {
        self.state().join("hookmux/trace")
    }

    fn state(&self) -> PathBuf {
        self.home().join(".local/state")
    }

    fn write_trace(&self, name: &str, text: &str) {
        let path = self.trace_dir().join(name);
        std::fs::write(&path, text).unwrap();
        hookmux_platform::fs::set_mode(&path, 0o600).unwrap();
    }

    fn hookmux<I: IntoIterator<Item = S>, S: Into<String>>(&self, args: I) -> Hookmux {
        Hookmux::new(args).env("HOME", self.home()).env("XDG_STATE_HOME", self.state()).cwd(self.project())
    }

    fn coverage(&self, args: &[&str]) -> (Output, Value) {
        let out = self.hookmux(["log", "coverage", "--json"]).args_push(args.iter().copied()).run();
        let json = out.json();
        (out, json)
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The figures of the one session reported.
fn summary(json: &Value) -> Value {
    let sessions = json["sessions"].as_array().expect("sessions");
    assert_eq!(sessions.len(), 1, "{json:#}");
    sessions[0]["summary"].clone()
}

/// What `scripts/coverage-check.sh` found the host's own output to say of the recorded run, in
/// the report's terms: `fixtures/coverage/scenarios/<name>/expect.json`, without the keys that
/// only the check reads (how to count the host's output).
fn expected(name: &str) -> Value {
    let text = crate::common::fixture_text(&format!("coverage/scenarios/{name}/expect.json"));
    let mut want: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    want.retain(|key, _| !matches!(key.as_str(), "host_output_misses_subagents" | "native_pre" | "extra_item_runs"));
    Value::Object(want)
}

/// The report's figures for the keys of `want`.
fn measured(out: &Output, json: &Value, want: &Value) -> Value {
    let summary = summary(json);
    let not_seen = ["pre_not_routed", "pre_host_sent_nothing", "pre_refused"]
        .iter()
        .map(|key| summary[key].as_u64().unwrap())
        .sum::<u64>();
    let figures = want.as_object().unwrap().keys().map(|key| {
        let value = match key.as_str() {
            "exit" => json!(out.code),
            "not_seen" => json!(not_seen),
            key => summary[key].clone(),
        };
        (key.clone(), value)
    });
    Value::Object(figures.collect())
}

/// Each recorded run: Claude Code's Bash, Glob (no group), MCP tool, a Read whose input it
/// refused before its hooks, an Agent and its subagent's Bash; Codex's exec_command, apply_patch
/// (a Write: no group), MCP tool, a tool it does not have, spawn_agent, wait_agent and the
/// subagent's exec_command; Gemini CLI's (its subagent's complete_task is not counted); Copilot
/// CLI's, paired by session, tool and order (it sends no tool-use id, and its subagent has a
/// session of its own); OpenCode's; Cline's (a run_commands of two commands, an MCP tool, a tool
/// it does not have, spawn_agent and its helper's run_commands); Qwen Code's (a tool it does not
/// have refused before its hooks; its subagent made no call).
#[test]
fn each_hosts_recorded_session_is_counted_as_the_host_reported_it() {
    for (name, host) in [
        ("claude", "claude"),
        ("codex", "codex"),
        ("gemini", "gemini"),
        ("copilot", "copilot"),
        ("opencode", "opencode"),
        ("cline", "cline"),
        ("qwen", "qwen"),
    ] {
        let run = Run::of(name);
        let (out, json) = run.coverage(&[]);
        assert_eq!(json["sessions"][0]["host"], host, "{name}");
        assert_eq!(json["sessions"][0]["status"], "covered", "{name}: {json:#}");
        let want = expected(name);
        assert_eq!(measured(&out, &json, &want), want, "{name}: {}", out.stderr);
        assert_eq!(json["sessions"][0]["skipped"], Value::Null, "{name}: every line of the transcript reads");
    }
}

#[test]
fn a_call_a_pretooluse_group_would_have_matched_that_no_hook_saw_exits_1() {
    // Claude Code with only PostToolUse routed through hookmux; the project's settings keep a
    // native PreToolUse guard on Bash.
    let run = Run::unrouted();
    let (out, json) = run.coverage(&[]);
    let want = expected("claude-unrouted");
    assert_eq!(measured(&out, &json, &want), want);
    let calls = &json["sessions"][0]["calls"];
    assert_eq!(calls[0]["tool"], "Bash");
    assert_eq!((&calls[0]["pre"], &calls[0]["would_match"]), (&json!("not-routed"), &json!(true)));
    assert_eq!((&calls[1]["pre"], &calls[1]["would_match"]), (&json!("not-routed"), &json!(false)));
    assert_eq!(json["unguarded"], 1);
    let text = run.hookmux(["log", "coverage"]).run();
    assert_eq!(text.code, Some(1));
    assert!(text.stdout.contains("0 of 2 tool calls passed a PreToolUse hook"), "{}", text.stdout);
    assert!(
        text.stdout.contains("1 tool call that a PreToolUse group would have matched no hook saw"),
        "{}",
        text.stdout
    );
}

#[test]
fn the_text_names_each_call_no_hook_saw_and_why() {
    let run = Run::of("claude");
    let out = run.hookmux(["log", "coverage"]).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("4 of 6 tool calls passed a PreToolUse hook; 1 matched no group; 1 was not seen (1 refused by the host before its hooks)"), "{}", out.stdout);
    assert!(out.stdout.contains("subagents: 1 call, 0 of them not seen"), "{}", out.stdout);
    assert!(
        out.stdout.contains("Read  toolu_mock_3  main agent  refused by the host before its hooks: it did not run"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_transcript_named_on_the_command_line_reads_as_when_found() {
    let run = Run::of("codex");
    let (_, found) = run.coverage(&[]);
    let file = found["sessions"][0]["transcripts"][0].as_str().unwrap().to_string();
    let (out, named) = run.coverage(&["--transcript", &file]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(named["sessions"][0]["session"], found["sessions"][0]["session"]);
    // The main rollout alone: the subagent's thread is a file of its own.
    assert_eq!(summary(&named)["calls"], 6);
    let (_, by_id) = run.coverage(&["--session", &found["sessions"][0]["session"].as_str().unwrap()[..8]]);
    assert_eq!(summary(&by_id), summary(&found));
    let (_, since) = run.coverage(&["--since", "1"]);
    assert_eq!(summary(&since), summary(&found));
}

#[test]
fn without_a_trace_the_coverage_is_unknown_never_a_count() {
    // The trace turned off.
    let run = Run::of("claude");
    let out = run.hookmux(["log", "coverage", "--json"]).env("HOOKMUX_TRACE", "0").run();
    assert_eq!(out.code, Some(0));
    let json = out.json();
    assert_eq!(json["sessions"][0]["status"], "unknown");
    assert!(json["sessions"][0]["why"].as_str().unwrap().contains("trace is off"), "{json:#}");
    assert_eq!(json["sessions"][0]["summary"], Value::Null);
    assert_eq!(json["sessions"][0]["transcript_calls"], 6);

    // An empty trace.
    let run = Run::of("claude");
    run.write_trace("trace.jsonl", "");
    let (out, json) = run.coverage(&[]);
    assert_eq!((out.code, &json["sessions"][0]["status"]), (Some(0), &json!("unknown")), "{json:#}");

    // A trace rotated past the session: its oldest line is newer than every call.
    let run = Run::of("claude");
    let later =
        json!({"v": 1, "time": "2099-01-01T00:00:00.000Z", "host": "claude", "event": "Stop", "session": "other"});
    run.write_trace("trace.jsonl", &format!("{later}\n"));
    run.write_trace("trace.1.jsonl", "");
    run.write_trace("trace.2.jsonl", "");
    let (out, json) = run.coverage(&["--session", "2b3ae717"]);
    assert_eq!(out.code, Some(0));
    assert_eq!(json["sessions"][0]["status"], "unknown", "{json:#}");
    assert!(json["sessions"][0]["why"].as_str().unwrap().contains("rotated"), "{json:#}");
}

#[test]
fn hookmuxs_own_transcript_cannot_tell_what_no_hook_saw() {
    let run = Run::of("opencode");
    // What hookmux recorded for the session: only the events dispatch saw.
    let own = run.home().join(".local/state/hookmux/transcripts");
    std::fs::create_dir_all(&own).unwrap();
    let line = json!({"type": "assistant", "timestamp": "2026-12-02T04:04:00.000Z", "sessionId": "ses_1",
        "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]}});
    std::fs::write(own.join("ses_1.jsonl"), format!("{line}\n")).unwrap();
    let (out, json) = run.coverage(&["--transcript", own.join("ses_1.jsonl").to_str().unwrap()]);
    assert_eq!(out.code, Some(0));
    assert_eq!(json["sessions"][0]["status"], "unknown");
    assert!(json["sessions"][0]["why"].as_str().unwrap().contains("hookmux's own transcript"), "{json:#}");
    assert_eq!(json["sessions"][0]["summary"], Value::Null);

    // A session the trace has and no host transcript holds.
    let stop =
        json!({"v": 1, "time": "2099-01-01T00:00:00.000Z", "host": "codex", "event": "Stop", "session": "ghost"});
    run.write_trace("trace.1.jsonl", &format!("{stop}\n"));
    let (out, json) = run.coverage(&[]);
    assert_eq!(out.code, Some(0));
    assert_eq!((&json["sessions"][0]["session"], &json["sessions"][0]["status"]), (&json!("ghost"), &json!("unknown")));
}

// A FIFO is POSIX's (Windows' named pipes live outside the file system).
#[cfg(unix)]
#[test]
fn a_link_or_a_fifo_in_a_hosts_folder_is_neither_followed_nor_waited_on() {
    let run = Run::of("claude");
    let projects = run.home().join(".claude/projects");
    // A session file that is a link to a transcript elsewhere, newer than the real one.
    let elsewhere = run.dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let real = std::fs::read_dir(projects.join("-home-dev-acme"))
        .unwrap()
        .flatten()
        .find(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .unwrap()
        .path();
    std::fs::copy(&real, elsewhere.join("x.jsonl")).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("x.jsonl"), projects.join("-home-dev-acme/ffffffff-link.jsonl")).unwrap();
    // A FIFO where a transcript would be: opened without waiting, then refused.
    let fifo = projects.join("-home-dev-acme/eeeeeeee-fifo.jsonl");
    let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo reads a NUL-terminated path that lives across the call.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let (out, json) = run.coverage(&["--since", "1"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let sessions: Vec<&str> =
        json["sessions"].as_array().unwrap().iter().map(|s| s["session"].as_str().unwrap()).collect();
    assert_eq!(sessions, ["2b3ae717-15e2-4e30-8392-9d992eb67d0f"]);
    let named = run.hookmux(["log", "coverage", "--transcript"]).args_push([fifo.to_str().unwrap()]).run();
    assert_eq!(named.code, Some(1));
    assert!(named.stderr.contains("is not a regular file"), "{}", named.stderr);
}

#[test]
fn lines_that_do_not_read_are_skipped_and_counted() {
    let run = Run::of("claude");
    let file = std::fs::read_dir(run.home().join(".claude/projects/-home-dev-acme"))
        .unwrap()
        .flatten()
        .find(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .unwrap()
        .path();
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.insert_str(0, "{not json\n\u{1b}]0;title\u{7}\n");
    std::fs::write(&file, text).unwrap();
    let (out, json) = run.coverage(&[]);
    assert_eq!(out.code, Some(0));
    assert_eq!(json["sessions"][0]["skipped"], 2);
    assert_eq!(summary(&json)["calls"], 6);
}

#[test]
fn doctor_shows_each_hosts_recent_coverage() {
    let run = Run::of("claude");
    let out = run.hookmux(["doctor", "--json"]).run();
    let json = out.json();
    let coverage: Vec<&Value> =
        json["checks"].as_array().unwrap().iter().filter(|c| c["check"] == "coverage").collect();
    assert_eq!(coverage.len(), 1, "{json:#}");
    assert_eq!(coverage[0]["status"], "ok");
    let message = coverage[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Claude Code, last 7 days (1 session): 4 of 6 tool calls passed a PreToolUse hook"),
        "{message}"
    );

    let run = Run::unrouted();
    let out = run.hookmux(["doctor", "--json"]).run();
    assert_eq!(out.code, Some(1));
    let json = out.json();
    let coverage = json["checks"].as_array().unwrap().iter().find(|c| c["check"] == "coverage").unwrap();
    assert_eq!(coverage["status"], "problem", "{coverage:#}");
    assert!(coverage["fix"].as_str().unwrap().contains("hookmux log coverage --since 7"));
}

#[test]
fn a_subagents_own_session_is_counted_with_its_parents() {
    // OpenCode and Copilot CLI give a subagent a session of its own: the trace has its calls
    // under that id, and they are the parent session's calls.
    for name in ["opencode", "copilot"] {
        let run = Run::of(name);
        let (out, json) = run.coverage(&["--since", "1"]);
        assert_eq!(out.code, Some(0), "{name}");
        assert_eq!(json["sessions"].as_array().unwrap().len(), 1, "{name}: {json:#}");
        assert_eq!(summary(&json)["subagent_calls"], 1, "{name}");
    }
}

/// The recorded Claude Code session with a trace that reaches back past it and holds no event of
/// it, and Claude Code's user settings as `settings` (written `age` before the session began, or
/// now), when given.
fn silent_run(settings: Option<(&Value, bool)>) -> Run {
    let run = Run::of("claude");
    let other =
        json!({"v": 1, "time": "2026-12-01T00:00:00.000Z", "host": "claude", "event": "Stop", "session": "other"});
    run.write_trace("trace.jsonl", &format!("{other}\n"));
    if let Some((settings, before)) = settings {
        let file = run.home().join(".claude/settings.json");
        std::fs::write(&file, settings.to_string()).unwrap();
        if before {
            let day_before = humantime::parse_rfc3339("2026-12-01T04:00:00Z").unwrap();
            std::fs::File::options().write(true).open(&file).unwrap().set_modified(day_before).unwrap();
        }
    }
    run
}

#[test]
fn a_session_that_ran_no_hook_though_hookmux_is_installed_for_its_host_exits_1() {
    // `hookmux install claude`'s entry, there since the day before the session: the host ran
    // none of its hooks (a host update, say), and coverage says so.
    let installed =
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookmux dispatch --installed"}]}]}});
    let run = silent_run(Some((&installed, true)));
    let (out, json) = run.coverage(&[]);
    assert_eq!(out.code, Some(1), "{json:#}");
    assert_eq!(json["sessions"][0]["status"], "silent", "{json:#}");
    let why = json["sessions"][0]["why"].as_str().unwrap();
    assert!(why.contains("hookmux is installed for claude") && why.contains("2026-12-01T04:00:00Z"), "{why}");
    assert_eq!(json["silent"], 1);
    let text = run.hookmux(["log", "coverage"]).run();
    assert_eq!(text.code, Some(1));
    assert!(
        text.stdout.contains("1 session whose host ran no hook though hookmux is installed for it"),
        "{}",
        text.stdout
    );
    let doctor = run.hookmux(["doctor", "--json"]).run().json();
    let line = doctor["checks"].as_array().unwrap().iter().find(|c| c["check"] == "coverage").unwrap().clone();
    assert_eq!(line["status"], "problem", "{line:#}");
}

#[test]
fn a_session_of_a_host_hookmux_is_not_installed_for_is_not_counted() {
    // No entry at all, an entry of the user's own, or hookmux's written after the session: the
    // host was not wired to hookmux when it ran; told, not counted.
    let own = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}});
    let installed =
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookmux dispatch --installed"}]}]}});
    for (what, run) in [
        ("nothing", silent_run(None)),
        ("the user's own hook", silent_run(Some((&own, true)))),
        ("installed after the session", silent_run(Some((&installed, false)))),
    ] {
        let (out, json) = run.coverage(&[]);
        assert_eq!(out.code, Some(0), "{what}: {json:#}");
        assert_eq!(json["sessions"][0]["status"], "not-routed", "{what}: {json:#}");
        assert_eq!(json["silent"], 0, "{what}");
    }
}

#[test]
fn a_cline_call_of_several_commands_is_one_call_and_a_tool_it_does_not_have_was_refused() {
    let run = Run::of("cline");
    let (out, json) = run.coverage(&[]);
    assert_eq!(out.code, Some(0), "{json:#}");
    let calls = json["sessions"][0]["calls"].as_array().unwrap();
    let call = |id: &str| calls.iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("{id}: {json:#}")).clone();
    let two = call("call_mock_1");
    assert_eq!((&two["tool"], &two["pre"], &two["post"]), (&json!("Bash"), &json!("hooked"), &json!("hooked")));
    let mcp = call("call_mock_3");
    assert_eq!(
        (&mcp["tool"], &mcp["host_tool"], &mcp["pre"]),
        (&json!("mcp__probe__echo"), &json!("probe__echo"), &json!("hooked"))
    );
    let missing = call("call_mock_4");
    assert_eq!((&missing["host_tool"], &missing["pre"]), (&json!("nonexistent_tool"), &json!("refused")));
    let sub = call("call_mock_6");
    assert!(sub["agent"].as_str().is_some_and(|a| a.starts_with("agent_")), "{sub:#}");
    assert_eq!(sub["pre"], "hooked");
    // The subagent's own file, named on the command line, reads as its whole session.
    let file = json["sessions"][0]["transcripts"][1].as_str().unwrap().to_string();
    let (_, named) = run.coverage(&["--transcript", &file]);
    assert_eq!(named["sessions"][0]["session"], json["sessions"][0]["session"]);
    assert_eq!(summary(&named), summary(&json));
}

#[test]
fn a_qwen_chat_named_on_the_command_line_is_told_from_a_claude_transcript() {
    // Qwen Code's lines have Claude Code's fields; its `parts` tell them apart.
    let run = Run::of("qwen");
    let (_, found) = run.coverage(&[]);
    let file = found["sessions"][0]["transcripts"][0].as_str().unwrap().to_string();
    let (out, named) = run.coverage(&["--transcript", &file]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(named["sessions"][0]["host"], "qwen", "{named:#}");
    assert_eq!(summary(&named), summary(&found));
    let nonexistent = named["sessions"][0]["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["host_tool"] == "nonexistent_tool")
        .cloned();
    assert_eq!(nonexistent.map(|c| c["pre"].clone()), Some(json!("refused")));
}
