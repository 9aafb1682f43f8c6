//! `hookmux run protect-paths` as a standalone Claude Code hook, on the real payloads captured
//! from Claude Code 2.1.328.

use crate::common;
use common::{fixture_text, Hookmux};
use serde_json::Value;

/// A real fixture with its `tool_input` path replaced.
fn with_path(fixture: &str, field: &str, path: &str) -> String {
    let mut event: Value = serde_json::from_str(&fixture_text(fixture)).unwrap();
    event["tool_input"][field] = Value::from(path);
    event.to_string()
}

fn run(stdin: String, args: &[&str]) -> common::Output {
    let mut argv = vec!["run", "protect-paths"];
    argv.extend(args);
    Hookmux::new(argv).stdin(stdin).env("CLAUDE_PROJECT_DIR", "/home/dev/acme").run()
}

#[test]
fn a_write_to_a_secret_is_denied_with_exit_0_and_json() {
    let out = run(with_path("events/PreToolUse-Write.json", "file_path", "/home/dev/acme/config/tls.pem"), &[]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let answer = out.json();
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse");
    assert_eq!(specific["permissionDecision"], "deny");
    let reason = specific["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("`config/tls.pem`") && reason.contains("`**/*.pem`"), "{reason}");
}

#[test]
fn the_real_write_fixture_gets_no_decision_at_all() {
    let out = run(fixture_text("events/PreToolUse-Write.json"), &[]);
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (Some(0), "", ""));
}

#[test]
fn bash_and_read_fixtures_pass_untouched_unless_reads_are_included() {
    let out = run(fixture_text("events/PreToolUse-Bash.json"), &[]);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    let read = with_path("events/PreToolUse-Read.json", "file_path", "/home/dev/acme/.env");
    assert_eq!(run(read.clone(), &[]).stdout, "");
    let out = run(read, &["--include-read"]);
    assert_eq!(out.json()["hookSpecificOutput"]["permissionDecision"], "deny");
}

#[test]
fn options_reach_the_handler() {
    let event = with_path("events/PreToolUse-Write.json", "file_path", "/home/dev/acme/infra/prod.tfvars");
    assert_eq!(run(event.clone(), &[]).stdout, "");
    let out = run(event, &["--deny", "infra/*.tfvars"]);
    assert!(out.stdout.contains("infra/*.tfvars"), "{out:?}");
    let env = with_path("events/PreToolUse-Write.json", "file_path", "/home/dev/acme/.env.example");
    assert_eq!(run(env, &["--allow", ".env.example"]).stdout, "");
}

#[test]
fn malformed_stdin_fails_open_with_a_message() {
    let out = run("{not json".to_string(), &[]);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    assert!(out.stderr.contains("not valid JSON"), "{}", out.stderr);
    let out = run(String::new(), &[]);
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (Some(0), "", ""));
}

#[test]
fn mistakes_are_non_blocking_errors_that_name_the_problem() {
    let out = run(fixture_text("events/PreToolUse-Write.json"), &["--deny"]);
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
