//! Tests that start a grepai process live in tests/it/brewcode_processes.rs: the process table is
//! shared by every test running at the same time.

use super::support::*;
use crate::brewcode::GrepaiStatus;
use hookmux_sdk::Answer;
use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpListener;

const REMINDER: &str = "grepai: USE grepai_search FIRST for code exploration";

/// A real HTTP server answering like ollama's `/api/tags`, on a free port.
fn ollama() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut request = [0u8; 1024];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"models\":[]}",
            );
        }
    });
    address
}

/// An address where nothing listens.
fn nobody() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().to_string()
}

fn status(project: &Project, ollama_at: &str) -> Answer {
    project.call(&GrepaiStatus, "SessionStart", json!({"source": "startup"}), &["--ollama", ollama_at]).answer
}

fn message(answer: &Answer) -> &str {
    answer.system_message.as_deref().unwrap_or_default()
}

#[test]
fn no_grepai_folder_is_not_configured() {
    let project = Project::new();
    let answer = status(&project, &nobody());
    assert_eq!(answer, Answer { system_message: Some("grepai: not configured".into()), ..Answer::none() });
    assert_eq!(project.log(), ["INFO  [7b6b5f32] [grepai] SessionStart hook triggered"]);
}

#[test]
fn everything_down_lists_every_part() {
    let project = Project::new().file(".grepai/config.yaml", "x");
    let answer = status(&project, &nobody());
    assert_eq!(message(&answer), "grepai: ollama: stopped, index: missing, mcp-serve: stopped, watch: stopped");
    assert_eq!(answer.additional_context, None);
    assert_eq!(
        project.log(),
        [
            "INFO  [7b6b5f32] [grepai] SessionStart hook triggered",
            "INFO  [7b6b5f32] [grepai] Status: ollama: stopped, index: missing, mcp-serve: stopped, watch: stopped",
        ]
    );
}

#[test]
fn index_sizes_follow_brewcodes_bands() {
    for (bytes, shown) in
        [(19_999, "⚠️ 20KB"), (20_000, "20KB"), (99_999, "98KB"), (262_144, "0.3MB"), (2_202_010, "2.1MB")]
    {
        let project = Project::new().sized(".grepai/index.gob", bytes);
        let answer = status(&project, &nobody());
        assert_eq!(
            message(&answer),
            format!("grepai: ollama: stopped, mcp-serve: stopped, watch: stopped | index: {shown}")
        );
    }
    let project = Project::new().sized(".grepai/index.gob", 100);
    status(&project, &nobody());
    assert_eq!(project.log()[1], "WARN  [7b6b5f32] [grepai] index: small (0KB, likely <10 files) - run reindex");
}

#[test]
fn all_parts_running_is_ready_with_the_reminder() {
    let project = Project::new()
        .sized(".grepai/index.gob", 150_000)
        .file(".grepai/watch.pid", &format!("{}\n", std::process::id()))
        .file(".grepai/mcp-serve.pid", &std::process::id().to_string());
    let answer = status(&project, &ollama());
    assert_eq!(answer.system_message.as_deref(), Some("grepai: ready | index: 0.1MB"));
    assert_eq!(answer.additional_context.as_deref(), Some(REMINDER));
}

#[test]
fn a_dead_pid_is_not_running() {
    let project = Project::new()
        .sized(".grepai/index.gob", 150_000)
        .file(".grepai/watch.pid", "999999999")
        .file(".grepai/mcp-serve.pid", "not a pid")
        .file(CONFIG, r#"{"logging": {"level": "debug"}}"#);
    let answer = status(&project, &nobody());
    assert_eq!(message(&answer), "grepai: ollama: stopped, mcp-serve: stopped, watch: stopped | index: 0.1MB");
    assert!(project.log().contains(&"DEBUG [7b6b5f32] [grepai] watch: stopped".to_string()));
}

#[test]
fn a_missing_grepai_program_is_reported_last_and_still_says_starting() {
    let project = Project::new()
        .sized(".grepai/index.gob", 150_000)
        .file(".grepai/mcp-serve.pid", &std::process::id().to_string());
    let answer = status(&project, &ollama());
    assert_eq!(message(&answer), "grepai: watch: starting | index: 0.1MB");
    assert_eq!(project.log().last().unwrap(), "WARN  [7b6b5f32] [grepai] Watch spawn error: spawn grepai ENOENT");
}

#[test]
fn a_dry_run_starts_nothing() {
    let project = Project::new()
        .sized(".grepai/index.gob", 150_000)
        .file(".grepai/mcp-serve.pid", &std::process::id().to_string());
    let out = project.call_dry(&GrepaiStatus, "SessionStart", json!({}), &["--ollama", &ollama()]);
    assert_eq!(message(&out.answer), "grepai: watch: starting | index: 0.1MB");
    assert!(!project.path(".grepai/logs").exists());
    assert!(!project.exists(LOG));
}

#[test]
fn outside_a_project_nothing_is_logged_and_no_claude_folder_appears() {
    let project = Project::outside();
    let answer = status(&project, &nobody());
    assert_eq!(answer, Answer { system_message: Some("grepai: not configured".into()), ..Answer::none() });
    assert!(!project.exists(".claude"), "a folder that is no project gets no .claude/");
}

#[test]
fn a_session_id_with_a_newline_or_nul_stays_on_one_log_line() {
    let project = Project::new();
    project.call(&GrepaiStatus, "SessionStart", json!({"session_id": "\0\nFAKE LINE\0"}), &["--ollama", &nobody()]);
    assert_eq!(project.log(), [r"INFO  [\u0000\nFAKE L] [grepai] SessionStart hook triggered"]);
}
