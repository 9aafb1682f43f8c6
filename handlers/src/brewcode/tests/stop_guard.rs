use super::support::*;
use crate::brewcode::StopGuard;
use hookmux_sdk::{Answer, Decision};
use serde_json::json;

fn stop(project: &Project) -> Outcome {
    project.call(&StopGuard, "Stop", json!({"stop_hook_active": false, "last_assistant_message": "done"}), &[])
}

#[test]
fn stop_hook_active_allows_and_keeps_the_lock() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let out = project.call(&StopGuard, "Stop", json!({"stop_hook_active": true}), &[]);
    assert_eq!(out.answer, Answer::none());
    assert!(project.exists(LOCK));
    assert!(project.log().is_empty());
}

#[test]
fn a_stale_lock_is_deleted() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 25)));
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(!project.exists(LOCK));
    assert_eq!(project.log(), ["WARN  [7b6b5f32] [stop] Stale lock detected (>24h old) - removing"]);
}

#[test]
fn twenty_three_hours_is_not_stale_but_an_unreadable_time_is() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 23)));
    assert_eq!(stop(&project).answer.decision, Some(Decision::Block));
    let garbage =
        json!({"task_path": TASK_PLAN, "started_at": hours_ago(1), "session_id": SESSION, "bound_at": "yesterday"});
    let project = Project::with_task(Some(garbage.to_string()));
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(!project.exists(LOCK));
}

#[test]
fn no_lock_and_no_task_allows_and_writes_nothing() {
    let project = Project::new().file("README.md", "x");
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(!project.exists(".claude"), "nothing is written, not even the log");
}

#[test]
fn a_task_without_a_lock_was_never_started() {
    let project = Project::with_task(None).file(CONFIG, r#"{"logging": {"level": "debug"}}"#);
    assert_eq!(stop(&project).answer, Answer::none());
    assert_eq!(project.log(), ["DEBUG [7b6b5f32] [stop] Task reference exists but no lock file - task not started"]);
}

#[test]
fn an_unbound_lock_is_deleted_as_stale() {
    let project = Project::with_task(Some(lock_json(None, 1)));
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(!project.exists(LOCK));
    assert_eq!(project.log(), ["WARN  [7b6b5f32] [stop] Lock has no session_id - treating as stale"]);
}

#[test]
fn another_sessions_lock_is_kept() {
    let project =
        Project::with_task(Some(lock_json(Some(OTHER_SESSION), 1))).file(CONFIG, r#"{"logging":{"level":"debug"}}"#);
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(project.exists(LOCK));
    assert_eq!(project.log(), ["DEBUG [7b6b5f32] [stop] Lock owned by different session: 09110fd9"]);
}

#[test]
fn an_invalid_task_path_deletes_the_lock_as_it_is_read() {
    let lock =
        json!({"task_path": ".claude/tasks/../evil_task/PLAN.md", "started_at": hours_ago(1), "session_id": SESSION});
    let project = Project::with_task(Some(lock.to_string()));
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(!project.exists(LOCK));
    assert_eq!(
        project.log(),
        ["ERROR [lock] Corrupted lock (invalid task_path: .claude/tasks/../evil_task/PLAN.md) — deleting"]
    );
}

#[test]
fn a_missing_task_file_keeps_the_lock_because_the_delete_looks_beside_it() {
    let lock = json!({
        "task_path": ".claude/tasks/20990101-000000_gone_task/PLAN.md",
        "started_at": hours_ago(1), "session_id": SESSION, "bound_at": hours_ago(1)
    });
    let project = Project::with_task(Some(lock.to_string()));
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(project.exists(LOCK), "brewcode deletes .claude/tasks/20990101-000000_gone_task/.lock, which is not there");
    assert_eq!(project.log(), ["WARN  [7b6b5f32] [stop] Invalid lock - task file not found"]);
}

#[test]
fn an_unreadable_plan_deletes_the_lock() {
    let project =
        Project::new().file(".claude/TASK.md", TASK_PLAN).folder(TASK_PLAN).file(LOCK, &lock_json(Some(SESSION), 1));
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(!project.exists(LOCK));
    let log = project.log();
    assert!(log[0].starts_with("ERROR [parseTask] Failed to read "), "{log:?}");
    assert!(log[0].ends_with("PLAN.md: EISDIR: illegal operation on a directory, read"), "{log:?}");
    assert_eq!(log[1], "ERROR [7b6b5f32] [stop] Failed to parse task file");
}

#[test]
fn terminal_statuses_allow_and_delete_the_lock() {
    for status in ["finished", "failed", "cancelled", "error"] {
        let plan = PLAN_V2.replace("status: in progress", &format!("status: {status}"));
        let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).file(TASK_PLAN, &plan);
        assert_eq!(stop(&project).answer, Answer::none(), "{status}");
        assert!(!project.exists(LOCK), "{status}");
        let rules =
            format!("INFO  [7b6b5f32] [stop] Task finished. Consider: /brewcode:rules {}", project.shown(KNOWLEDGE));
        assert_eq!(project.log(), [rules], "{status}");
    }
    let plan = PLAN_V2.replace("in progress", "finished");
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).file(TASK_PLAN, &plan);
    std::fs::remove_file(project.path(KNOWLEDGE)).unwrap();
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(project.log().is_empty(), "no knowledge, no /brewcode:rules hint");
}

#[test]
fn an_incomplete_v2_task_blocks_with_reason_and_context() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let answer = stop(&project).answer;
    assert_eq!(answer.decision, Some(Decision::Block));
    assert_eq!(
        answer.reason.as_deref(),
        Some("brewcode: task incomplete (in progress, phase 2/3)\nEmergency exit: rm .claude/tasks/*_task/.lock")
    );
    assert_eq!(
        context(&answer),
        "brewcode: stop blocked. Continue execution. Re-read PLAN.md and proceed with phase 2. Task: .claude/tasks/20260201-120000_auth_refactor_task/PLAN.md"
    );
    assert_eq!((answer.system_message, answer.continue_, answer.updated_input), (None, None, None));
    assert!(project.exists(LOCK));
    assert_eq!(project.log(), ["WARN  [7b6b5f32] [stop] Stop blocked - task incomplete (phase 2/3)"]);
}

#[test]
fn an_incomplete_v3_task_blocks_at_its_header_phase() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)))
        .file(TASK_PLAN, PLAN_V3)
        .folder(&format!("{TASK}/phases"));
    let answer = stop(&project).answer;
    assert_eq!(
        answer.reason.as_deref(),
        Some("brewcode: task incomplete (in progress, phase 3/5)\nEmergency exit: rm .claude/tasks/*_task/.lock")
    );
}

#[test]
fn a_phases_folder_without_the_v3_header_falls_back_to_v2() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).folder(&format!("{TASK}/phases"));
    let answer = stop(&project).answer;
    assert!(answer.reason.unwrap().contains("phase 2/3"));
    assert_eq!(
        project.log()[0],
        "WARN  [parseTask] phases/ dir exists but PLAN.md lacks v3 header, falling back to v2"
    );
}

#[test]
fn an_error_allows_the_stop_and_keeps_the_lock() {
    // TASK.md as a folder makes reading it throw.
    let project = Project::new().folder(".claude/TASK.md").file(LOCK, &lock_json(Some(SESSION), 1));
    assert_eq!(stop(&project).answer, Answer::none());
    assert!(project.exists(LOCK));
    assert_eq!(project.log(), ["ERROR [7b6b5f32] [stop] Error: EISDIR: illegal operation on a directory, read"]);
}

#[test]
fn a_dry_run_blocks_the_same_and_writes_nothing() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 25)));
    let before = project.snapshot();
    let out = project.call_dry(&StopGuard, "Stop", json!({}), &[]);
    assert_eq!(out.answer, Answer::none());
    assert_eq!(out.notes, ["[stop] Stale lock detected (>24h old) - removing"]);
    assert_eq!(project.snapshot(), before);
}
