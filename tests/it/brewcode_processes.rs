//! `grepai-status` and real grepai processes: finding a running part by its command line, as
//! brewcode's `pgrep -f` fallback does when a pid file is missing, and starting the watcher.
//! The processes are visible machine-wide, so these tests hold `common::grepai_lookalikes_running`
//! and no test that expects grepai to be stopped runs meanwhile.

use crate::common;
use common::Hookmux;
use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::time::{Duration, Instant};

/// A real HTTP server answering like ollama, on a free port.
fn ollama() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = stream.read(&mut [0u8; 1024]);
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
        }
    });
    address
}

fn indexed_project() -> tempfile::TempDir {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(project.path().join(".grepai")).unwrap();
    std::fs::File::create(project.path().join(".grepai/index.gob")).unwrap().set_len(150_000).unwrap();
    project
}

fn session_start(project: &Path) -> String {
    json!({"session_id": "s", "cwd": project, "hook_event_name": "SessionStart", "source": "startup"}).to_string()
}

#[test]
#[cfg_attr(windows, ignore = "starts its stand-in process through /bin/sh, which Windows does not have")]
fn a_process_whose_command_line_names_mcp_serve_is_running() {
    let _alone = common::grepai_lookalikes_running();
    let project = indexed_project();
    // The test process stands in for the watcher, through its pid file.
    std::fs::write(project.path().join(".grepai/watch.pid"), std::process::id().to_string()).unwrap();
    let ollama = ollama();

    // A shell whose command line carries "grepai mcp-serve"; `; :` keeps it from exec'ing sleep.
    // It marks itself started in a file: its command line is set by then, on every Unix.
    let started = project.path().join("started");
    let mut child = std::process::Command::new("sh")
        .args(["-c", ": > \"$1\"; sleep 30; :", "grepai mcp-serve --dir x"])
        .arg(&started)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !started.exists() {
        assert!(Instant::now() < deadline, "the stand-in process did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    let event =
        json!({"session_id": "s", "cwd": project.path(), "hook_event_name": "SessionStart", "source": "startup"});
    let out = Hookmux::new(["run", "grepai-status", "--ollama", &ollama]).stdin(event.to_string()).run();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        out.json(),
        json!({
            "systemMessage": "grepai: ready | index: 0.1MB",
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "grepai: USE grepai_search FIRST for code exploration"}
        })
    );
}

#[test]
#[cfg_attr(windows, ignore = "starts its stand-in process through /bin/sh, which Windows does not have")]
fn the_watcher_is_started_when_only_it_is_missing() {
    let _alone = common::grepai_lookalikes_running();
    let project = indexed_project();
    std::fs::write(project.path().join(".grepai/mcp-serve.pid"), std::process::id().to_string()).unwrap();
    // A `grepai` on PATH that records how it was called.
    let bin = tempfile::tempdir().unwrap();
    let marker = project.path().join("started.txt");
    let script = bin.path().join("grepai");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$PWD $*\" > '{}.tmp' && mv '{0}.tmp' '{0}'\n", marker.display()),
    )
    .unwrap();
    hookmux_platform::fs::make_runnable(&script).unwrap();

    let out = Hookmux::new(["run", "grepai-status", "--ollama", &ollama()])
        .stdin(session_start(project.path()))
        .env("PATH", format!("{}:/usr/bin:/bin", bin.path().display()))
        // brewcode logs only inside a project; Claude Code names it.
        .env("CLAUDE_PROJECT_DIR", project.path())
        .run();
    assert_eq!(
        out.json(),
        json!({
            "systemMessage": "grepai: watch: starting | index: 0.1MB",
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "grepai: USE grepai_search FIRST for code exploration"}
        })
    );
    let logs = project.path().join(".grepai/logs");
    assert!(logs.is_dir());
    let deadline = Instant::now() + Duration::from_secs(5);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "grepai was not started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let called = std::fs::read_to_string(&marker).unwrap();
    let cwd = hookmux_platform::fs::canonicalize(project.path()).unwrap();
    assert_eq!(called, format!("{} watch --background --log-dir {}\n", cwd.display(), logs.display()));
    let log = std::fs::read_to_string(project.path().join(".claude/tasks/logs/brewcode.log")).unwrap();
    let messages: Vec<&str> = log.lines().map(|line| line.split_once(" [s] ").unwrap().1).collect();
    assert_eq!(
        messages,
        [
            "[grepai] SessionStart hook triggered",
            "[grepai] Auto-starting watch",
            "[grepai] Watch spawn initiated",
            "[grepai] Status: watch: starting | index: 0.1MB",
        ]
    );
}
