use super::support::*;
use crate::brewcode::GrepaiReminder;
use hookmux_sdk::Answer;
use serde_json::{json, Value};
use std::time::Duration;

const STAMP: &str = ".grepai/.reminder-ts";
const REMINDER: &str = "grepai: USE grepai_search FIRST for code exploration";

fn grep() -> Value {
    json!({"tool_name": "Grep", "tool_input": {"pattern": "SessionStore"}})
}

fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}})
}

fn indexed() -> Project {
    Project::new().sized(".grepai/index.gob", 150_000)
}

fn stamp_time(project: &Project) -> std::time::SystemTime {
    std::fs::metadata(project.path(STAMP)).unwrap().modified().unwrap()
}

#[test]
fn no_grepai_or_no_index_says_nothing() {
    assert_eq!(Project::new().call(&GrepaiReminder, "PreToolUse", grep(), &[]).answer, Answer::none());
    let project = Project::new().folder(".grepai");
    assert_eq!(project.call(&GrepaiReminder, "PreToolUse", grep(), &[]).answer, Answer::none());
    assert!(!project.exists(STAMP));
}

#[test]
fn the_first_search_is_reminded_and_stamped() {
    let project = indexed().file(CONFIG, r#"{"logging": {"level": "debug"}}"#);
    let answer = project.call(&GrepaiReminder, "PreToolUse", grep(), &[]).answer;
    assert_eq!(answer, Answer::context(REMINDER));
    assert_eq!(project.read(STAMP), "");
    assert_eq!(stamp_time(&project), project.now(), "stamped with the context's clock");
    assert_eq!(project.log(), ["DEBUG [7b6b5f32] [grepai-reminder] Reminder triggered"]);
}

#[test]
fn reminders_are_throttled_to_one_a_minute() {
    let mut project = indexed();
    let start = project.now();
    assert_eq!(project.call(&GrepaiReminder, "PreToolUse", grep(), &[]).answer, Answer::context(REMINDER));
    for seconds in [1, 10, 59] {
        project.at(start + Duration::from_secs(seconds));
        assert_eq!(project.call(&GrepaiReminder, "PreToolUse", grep(), &[]).answer, Answer::none(), "{seconds} s");
        assert_eq!(stamp_time(&project), start, "a throttled call leaves the stamp alone");
    }
    project.at(start + Duration::from_secs(60));
    assert_eq!(project.call(&GrepaiReminder, "PreToolUse", grep(), &[]).answer, Answer::context(REMINDER));
    assert_eq!(stamp_time(&project), start + Duration::from_secs(60));
}

#[test]
fn a_stamp_from_the_future_throttles_too() {
    let project = indexed().file(STAMP, "");
    project.touch(&project.path(STAMP), project.now() + Duration::from_secs(3600));
    assert_eq!(project.call(&GrepaiReminder, "PreToolUse", grep(), &[]).answer, Answer::none());
}

#[test]
fn a_stamp_that_cannot_be_written_still_reminds() {
    let project = indexed().folder(STAMP);
    project.touch(&project.path(STAMP), project.now() - Duration::from_secs(7200));
    let answer = project.call(&GrepaiReminder, "PreToolUse", grep(), &[]).answer;
    assert_eq!(answer, Answer::context(REMINDER));
    let log = project.log();
    // Opening a folder to write it: EISDIR on Unix. Windows refuses the open with a code that
    // depends on the system (Windows: "Access denied", EPERM; Wine: EINVAL).
    let errno = if cfg!(unix) { "EISDIR" } else { "E" };
    assert!(
        log[0].starts_with(&format!("WARN  [7b6b5f32] [grepai-reminder] Throttle write failed: {errno}")),
        "{log:?}"
    );
}

#[test]
fn without_bash_search_any_wired_call_reminds() {
    let project = indexed();
    assert_eq!(project.call(&GrepaiReminder, "PreToolUse", bash("cargo build"), &[]).answer, Answer::context(REMINDER));
}

#[test]
fn bash_search_reminds_only_on_commands_that_search() {
    let mut project = indexed();
    let start = project.now();
    for command in ["cargo build", "echo grep", "git grep x"] {
        let answer = project.call(&GrepaiReminder, "PreToolUse", bash(command), &["--bash-search"]).answer;
        assert_eq!(answer, Answer::none(), "{command}");
    }
    assert!(!project.exists(STAMP), "commands that do not search leave the throttle alone");
    for (i, command) in
        ["rg SessionStore src", "cd src && grep -rn x .", "find . -name '*.rs' | head", "fd main"].iter().enumerate()
    {
        project.at(start + Duration::from_secs(61 * i as u64));
        let answer = project.call(&GrepaiReminder, "PreToolUse", bash(command), &["--bash-search"]).answer;
        assert_eq!(answer, Answer::context(REMINDER), "{command}");
    }
    project.at(start + Duration::from_secs(61 * 4));
    assert_eq!(
        project.call(&GrepaiReminder, "PreToolUse", grep(), &["--bash-search"]).answer,
        Answer::context(REMINDER)
    );
}

#[test]
fn a_dry_run_reminds_without_stamping() {
    let project = indexed();
    let out = project.call_dry(&GrepaiReminder, "PreToolUse", grep(), &[]);
    assert_eq!(out.answer, Answer::context(REMINDER));
    assert!(!project.exists(STAMP));
}
