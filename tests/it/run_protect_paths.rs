//! `hookmux run protect-paths` as a standalone Claude Code hook, on the real payloads captured
//! from Claude Code 2.1.328.

use crate::common;
use common::Hookmux;
use serde_json::Value;
use std::path::Path;

/// A real fixture moved into `dir`, with its `tool_input` path set to `relative` under `dir`.
fn with_path(dir: &Path, fixture: &str, field: &str, relative: &str) -> String {
    let mut event = common::event(fixture, dir);
    event["tool_input"][field] = Value::from(dir.join(relative).to_str().unwrap());
    event.to_string()
}

fn run(dir: &Path, stdin: String, args: &[&str]) -> common::Output {
    let mut argv = vec!["run", "protect-paths"];
    argv.extend(args);
    Hookmux::new(argv).stdin(stdin).env("CLAUDE_PROJECT_DIR", dir).cwd(dir).run()
}

#[test]
fn a_write_to_a_secret_is_denied_with_exit_0_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let out = run(dir, with_path(dir, "events/PreToolUse-Write.json", "file_path", "config/tls.pem"), &[]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let answer = out.json();
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse");
    assert_eq!(specific["permissionDecision"], "deny");
    let reason = specific["permissionDecisionReason"].as_str().unwrap();
    // The file as the OS spells it (`config\tls.pem` on Windows); the pattern as it is written.
    let file = format!("`{}`", Path::new("config").join("tls.pem").display());
    assert!(reason.contains(&file) && reason.contains("`**/*.pem`"), "{reason}");
}

#[test]
fn the_real_write_fixture_gets_no_decision_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), common::event_text("events/PreToolUse-Write.json", dir.path()), &[]);
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (Some(0), "", ""));
}

#[test]
fn bash_and_read_fixtures_pass_untouched_unless_reads_are_included() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let out = run(dir, common::event_text("events/PreToolUse-Bash.json", dir), &[]);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    let read = with_path(dir, "events/PreToolUse-Read.json", "file_path", ".env");
    assert_eq!(run(dir, read.clone(), &[]).stdout, "");
    let out = run(dir, read, &["--include-read"]);
    assert_eq!(out.json()["hookSpecificOutput"]["permissionDecision"], "deny");
}

#[test]
fn options_reach_the_handler() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let event = with_path(dir, "events/PreToolUse-Write.json", "file_path", "infra/prod.tfvars");
    assert_eq!(run(dir, event.clone(), &[]).stdout, "");
    let out = run(dir, event, &["--deny", "infra/*.tfvars"]);
    assert!(out.stdout.contains("infra/*.tfvars"), "{out:?}");
    let env = with_path(dir, "events/PreToolUse-Write.json", "file_path", ".env.example");
    assert_eq!(run(dir, env, &["--allow", ".env.example"]).stdout, "");
}

#[test]
fn an_event_it_cannot_read_is_denied_not_passed() {
    // A guard cannot approve what it cannot read: a Write to `.env` cut short must not pass.
    let dir = tempfile::tempdir().unwrap();
    let event = with_path(dir.path(), "events/PreToolUse-Write.json", "file_path", ".env");
    for stdin in [event[..event.len() / 2].to_string(), "{not json".to_string(), String::new()] {
        let out = run(dir.path(), stdin.clone(), &[]);
        assert_eq!((out.code, out.stdout.as_str()), (Some(2), ""), "{stdin:?}");
        assert!(
            out.stderr.contains("could not be read") && out.stderr.contains("`protect-paths` denies"),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn mistakes_are_non_blocking_errors_that_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), common::event_text("events/PreToolUse-Write.json", dir.path()), &["--deny"]);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("`--deny` needs a value"), "{}", out.stderr);
    let out = Hookmux::new(["run", "no-such"]).stdin("{}").run();
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("no handler named `no-such`") && out.stderr.contains("protect-paths"));
}

#[test]
fn handlers_lists_the_registry() {
    let out = Hookmux::new(["handlers", "--json"]).run();
    let list = out.json();
    let entry = list.as_array().unwrap().iter().find(|h| h["name"] == "protect-paths").expect("registered");
    assert_eq!(entry["events"], serde_json::json!(["PreToolUse"]));
    let option_names: Vec<_> = entry["options"].as_array().unwrap().iter().map(|o| o["name"].clone()).collect();
    assert_eq!(option_names, ["deny", "allow", "include-read", "no-defaults"]);
    assert_eq!(entry["snippet"]["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "hookmux run protect-paths");
    let names: Vec<_> = list.as_array().unwrap().iter().map(|h| h["name"].as_str().unwrap().to_string()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "the registry is sorted by name");
}
