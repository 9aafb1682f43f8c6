use super::support::*;
use crate::brewcode::TaskBind;
use hookmux_sdk::{Answer, Event};
use serde_json::{json, Value};

const DONE: &str = "DEVELOPER DONE -> 1. WRITE report 2. CALL bc-coordinator NOW";
const FAILED: &str = "DEVELOPER FAILED -> 1. Retry once with same agent 2. If retry fails: TaskUpdate(taskId, status=\"failed\"), apply Escalation 3. Do NOT write report, do NOT call bc-coordinator";
const UNBOUND: &str = "brewcode: Task lock exists but session not bound. REQUIRED: Call bc-coordinator FIRST to initialize and bind this session. Then re-run your agent.";

/// A PostToolUse for an Agent call as Claude Code 2.1.328 sends it: launched in the background.
fn finished(agent: &str, extra: Value) -> Value {
    let mut event = json!({
        "tool_name": "Agent",
        "tool_input": {"description": "phase work", "prompt": "Implement phase 2.", "subagent_type": agent},
        "tool_response": {"isAsync": true, "status": "async_launched", "agentId": "a1051b9639cd81eb6", "prompt": "Implement phase 2."},
        "tool_use_id": "toolu_mock_0",
    });
    for (key, value) in extra.as_object().cloned().unwrap_or_default() {
        event[key] = value;
    }
    event
}

fn post(project: &Project, agent: &str, extra: Value, args: &[&str]) -> Answer {
    project.call(&TaskBind, "PostToolUse", finished(agent, extra), args).answer
}

#[test]
fn no_tool_input_says_nothing() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    assert_eq!(project.call(&TaskBind, "PostToolUse", json!({"tool_name": "Agent"}), &[]).answer, Answer::none());
}

#[test]
fn the_coordinator_binds_an_unbound_lock() {
    let project = Project::with_task(Some(lock_json(None, 2)));
    let answer = post(&project, "bc-coordinator", json!({}), &[]);
    assert_eq!(answer, Answer::context("brewcode: session 7b6b5f32 bound to lock"));
    let lock = project.read(LOCK);
    assert_eq!(
        lock,
        format!(
            "{{\n  \"task_path\": \"{TASK_PLAN}\",\n  \"started_at\": \"{}\",\n  \"session_id\": \"{SESSION}\",\n  \"bound_at\": \"2026-02-01T12:00:00.000Z\"\n}}",
            hours_ago(2)
        ),
        "two-space JSON without a final newline, as JSON.stringify(lock, null, 2) writes"
    );
    assert_eq!(
        project.log(),
        [
            "INFO  [7b6b5f32] [lock] Session bound: 7b6b5f32",
            "INFO  [7b6b5f32] [post-task] Bound session 7b6b5f32 to lock"
        ]
    );
    // Bound now: the next coordinator run changes nothing.
    assert_eq!(post(&project, "brewcode:bc-coordinator", json!({}), &[]), Answer::none());
    assert_eq!(project.read(LOCK), lock);
}

#[test]
fn the_coordinator_without_a_lock_says_nothing() {
    let project = Project::with_task(None);
    assert_eq!(post(&project, "bc-coordinator", json!({}), &[]), Answer::none());
}

#[test]
fn the_coordinator_without_a_session_id_binds_nothing_but_says_it_did() {
    let project = Project::with_task(Some(lock_json(None, 2)));
    let answer = post(&project, "bc-coordinator", json!({"session_id": null}), &[]);
    assert_eq!(answer, Answer::context("brewcode: session unknown bound to lock"));
    assert!(project.json(LOCK).get("session_id").is_none());
    assert_eq!(
        project.log(),
        ["WARN  [lock] Cannot bind: invalid sessionId", "INFO  [post-task] Bound session unknown to lock"]
    );
}

#[test]
fn system_agents_and_missing_types_say_nothing() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    for agent in ["Explore", "Plan", "general-purpose", "brewcode:bc-knowledge-manager"] {
        assert_eq!(post(&project, agent, json!({}), &[]), Answer::none(), "{agent}");
    }
    let untyped = json!({"tool_name": "Agent", "tool_input": {"prompt": "x"}});
    assert_eq!(project.call(&TaskBind, "PostToolUse", untyped, &[]).answer, Answer::none());
}

#[test]
fn a_worker_without_a_lock_says_nothing() {
    assert_eq!(post(&Project::with_task(None), "developer", json!({}), &[]), Answer::none());
}

#[test]
fn a_worker_with_an_unbound_lock_is_told_to_call_the_coordinator() {
    let project = Project::with_task(Some(lock_json(None, 1)));
    assert_eq!(post(&project, "developer", json!({}), &[]), Answer::context(UNBOUND));
}

#[test]
fn another_sessions_task_says_nothing() {
    let project = Project::with_task(Some(lock_json(Some(OTHER_SESSION), 1)));
    assert_eq!(post(&project, "developer", json!({}), &[]), Answer::none());
}

#[test]
fn a_worker_that_finished_gets_the_protocol() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    assert_eq!(post(&project, "developer", json!({}), &[]), Answer::context(DONE));
    let failed = post(&project, "developer", json!({"tool_result": {"is_error": true, "content": "crashed"}}), &[]);
    assert_eq!(failed, Answer::context(FAILED));
    let truthy_only = post(&project, "developer", json!({"tool_result": {"is_error": "yes"}}), &[]);
    assert_eq!(truthy_only, Answer::context(DONE), "only `is_error === true` is a failure");
    assert_eq!(
        post(&project, "straße-dev", json!({}), &[]),
        Answer::context("STRASSE-DEV DONE -> 1. WRITE report 2. CALL bc-coordinator NOW")
    );
}

#[test]
fn v3_tasks_get_the_task_api_steps() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).folder(&format!("{TASK}/phases"));
    assert_eq!(
        context(&post(&project, "developer", json!({}), &[])),
        format!("{DONE}\n3. TaskUpdate(taskId, status=\"completed\")\n4. TaskList() -> find next ready task\n⛔ DO NOT read phases/ files — they are for agents only.")
    );
    assert_eq!(
        context(&post(&project, "developer", json!({"tool_result": {"is_error": true}}), &[])),
        format!("{FAILED}\n4. Persist failure to KNOWLEDGE.jsonl\n5. Check for blocked dependents -> cascade failure\n⛔ DO NOT read phases/ files — they are for agents only.")
    );
}

#[test]
fn by_default_tool_response_errors_are_not_seen_as_brewcode_3_4_20_does() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let error = json!({"tool_response": {"is_error": true, "content": "boom"}});
    assert_eq!(post(&project, "developer", error.clone(), &[]), Answer::context(DONE));
    assert_eq!(post(&project, "developer", error.clone(), &["--tool-response"]), Answer::context(FAILED));
    assert_eq!(post(&project, "developer", error, &["--defer-async"]), Answer::context(FAILED));
}

#[test]
fn by_default_a_background_agent_gets_done_at_launch() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    assert_eq!(post(&project, "developer", json!({}), &["--tool-response"]), Answer::context(DONE));
}

fn notice(project: &Project, status: &str, args: &[&str]) -> Answer {
    let prompt = format!(
        "<task-notification>\n<task-id>a1051b9639cd81eb6</task-id>\n<tool-use-id>toolu_mock_0</tool-use-id>\n<status>{status}</status>\n<summary>Agent \"phase work\" finished</summary>\n</task-notification>"
    );
    project.call(&TaskBind, "UserPromptSubmit", json!({"prompt": prompt}), args).answer
}

#[test]
fn defer_async_holds_the_protocol_until_the_completion_notice() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let pending = ".claude/tasks/cfg/task-bind.pending/a1051b9639cd81eb6.json";
    assert_eq!(post(&project, "developer", json!({}), &["--defer-async"]), Answer::none());
    assert_eq!(project.json(pending)["agent"], "DEVELOPER");
    assert_eq!(notice(&project, "completed", &[]), Answer::none(), "without the option a notice is ignored");
    assert_eq!(notice(&project, "completed", &["--defer-async"]), Answer::context(DONE));
    assert!(!project.exists(pending));
    assert_eq!(notice(&project, "completed", &["--defer-async"]), Answer::none(), "one protocol per agent");

    assert_eq!(post(&project, "developer", json!({}), &["--defer-async"]), Answer::none());
    assert_eq!(notice(&project, "failed", &["--defer-async"]), Answer::context(FAILED));
}

#[test]
fn a_notice_for_another_session_or_a_finished_task_says_nothing() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    post(&project, "developer", json!({}), &["--defer-async"]);
    let other = Event::from_fields(project.event(
        "UserPromptSubmit",
        json!({"session_id": OTHER_SESSION, "prompt": "<task-notification><task-id>a1051b9639cd81eb6</task-id><status>completed</status></task-notification>"}),
    ));
    assert_eq!(project.call_raw(&TaskBind, other, &["--defer-async"], false).answer, Answer::none());
    std::fs::remove_file(project.path(LOCK)).unwrap();
    assert_eq!(notice(&project, "completed", &["--defer-async"]), Answer::none());
}

#[test]
fn a_number_as_session_id_fails_quietly() {
    let project = Project::with_task(Some(lock_json(None, 2)));
    let answer = post(&project, "bc-coordinator", json!({"session_id": 12345678}), &[]);
    assert_eq!(answer, Answer::none());
    assert_eq!(project.log().last().unwrap(), "ERROR [post-task] Error: session_id?.slice is not a function");
}

#[test]
fn a_dry_run_binds_nothing() {
    let project = Project::with_task(Some(lock_json(None, 2)));
    let before = project.snapshot();
    let out = project.call_dry(&TaskBind, "PostToolUse", finished("bc-coordinator", json!({})), &[]);
    assert_eq!(out.answer, Answer::context("brewcode: session 7b6b5f32 bound to lock"));
    assert_eq!(project.snapshot(), before);
}
