use super::support::*;
use crate::brewcode::KnowledgeInject;
use hookmux_sdk::{Answer, Decision};
use serde_json::{json, Value};

fn task_call(agent: &str, prompt: &str) -> Value {
    json!({"tool_name": "Agent", "tool_input": {"description": "phase work", "prompt": prompt, "subagent_type": agent}})
}

fn inject(project: &Project, agent: &str) -> Answer {
    project.call(&KnowledgeInject, "PreToolUse", task_call(agent, "Do the work."), &[]).answer
}

/// The new prompt, after checking the rest of the answer field by field.
fn prompt(answer: &Answer, agent: &str) -> String {
    assert_eq!(answer.decision, Some(Decision::Allow));
    assert_eq!(
        (answer.reason.as_ref(), answer.additional_context.as_ref(), answer.system_message.as_ref()),
        (None, None, None)
    );
    let input = answer.updated_input.as_ref().expect("updatedInput");
    assert_eq!(input["description"], "phase work", "the other fields are kept");
    assert_eq!(input["subagent_type"], agent);
    assert_eq!(input.as_object().unwrap().keys().collect::<Vec<_>>(), ["description", "prompt", "subagent_type"]);
    input["prompt"].as_str().unwrap().to_string()
}

#[test]
fn no_tool_input_or_no_agent_type_says_nothing() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    assert_eq!(project.call(&KnowledgeInject, "PreToolUse", json!({"tool_name": "Agent"}), &[]).answer, Answer::none());
    let no_type = json!({"tool_name": "Agent", "tool_input": {"prompt": "x"}});
    assert_eq!(project.call(&KnowledgeInject, "PreToolUse", no_type, &[]).answer, Answer::none());
}

#[test]
fn a_developer_gets_all_and_dev_constraints_then_knowledge() {
    let project =
        Project::with_task(Some(lock_json(Some(SESSION), 1))).file(CONFIG, r#"{"logging": {"level": "debug"}}"#);
    let answer = inject(&project, "developer");
    assert_eq!(
        prompt(&answer, "developer"),
        format!("## Task Constraints\n- Keep public API signatures unchanged\n- Use JOOQ DSLContext only\n\n{K_BLOCK}\n\nDo the work.")
    );
    assert_eq!(
        project.log(),
        [
            "DEBUG [7b6b5f32] [lock] Session matched: 7b6b5f32",
            "INFO  [7b6b5f32] [pre-task] Injecting knowledge for developer (5 entries)",
            "DEBUG [7b6b5f32] [pre-task] Injecting DEV constraints for developer",
        ]
    );
}

#[test]
fn roles_pick_their_sections() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let tester = prompt(&inject(&project, "tester"), "tester");
    assert!(tester.starts_with(
        "## Task Constraints\n- Keep public API signatures unchanged\n- `.as()` on EVERY assertion\n\n## K"
    ));
    let reviewer = prompt(&inject(&project, "code-reviewer"), "code-reviewer");
    assert!(reviewer
        .starts_with("## Task Constraints\n- Keep public API signatures unchanged\n- Flag missing null checks\n\n"));
    let expert = prompt(&inject(&project, "sql_expert"), "sql_expert");
    assert!(expert.starts_with("## Task Constraints\n- Keep public API signatures unchanged\n\n## K"));
}

#[test]
fn system_agents_get_only_the_reminders() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    assert_eq!(inject(&project, "Explore"), Answer::none());
    let project = project.sized(".grepai/index.gob", 150_000);
    let answer = inject(&project, "Explore");
    assert_eq!(prompt(&answer, "Explore"), "grepai: USE grepai_search FIRST for code exploration\n\nDo the work.");
    let project = project.file(CONFIG, r#"{"agents": {"system": ["developer"]}}"#);
    assert_eq!(
        prompt(&inject(&project, "developer"), "developer"),
        "grepai: USE grepai_search FIRST for code exploration\n\nDo the work."
    );
}

#[test]
fn a_grepai_folder_without_an_index_is_no_reason_to_remind() {
    let project = Project::new().folder(".grepai");
    assert_eq!(inject(&project, "Explore"), Answer::none());
}

#[test]
fn without_this_sessions_lock_there_is_no_knowledge() {
    for lock in [None, Some(lock_json(None, 1)), Some(lock_json(Some(OTHER_SESSION), 1))] {
        let project = Project::with_task(lock.clone());
        assert_eq!(inject(&project, "developer"), Answer::none(), "{lock:?}");
    }
}

#[test]
fn a_lock_with_an_invalid_task_path_is_deleted_and_nothing_injected() {
    let lock =
        json!({"task_path": ".claude/tasks/../evil_task/PLAN.md", "started_at": hours_ago(1), "session_id": SESSION});
    let project = Project::with_task(Some(lock.to_string()));
    assert_eq!(inject(&project, "developer"), Answer::none());
    assert!(!project.exists(LOCK));
}

#[test]
fn the_full_stack_comes_in_brewcodes_order() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)))
        .file(TASK_PLAN, PLAN_V3)
        .folder(&format!("{TASK}/phases"))
        .folder(".claude/teams")
        .sized(".grepai/index.gob", 150_000)
        .file(
            "../plugin-data/modes.json",
            &format!(r#"{{"global": {{"mode": "terse"}}, "sessions": {{"{SESSION}": {{"mode": "deep"}}}}}}"#),
        )
        .file("../plugin-data/modes/deep.md", "\n Think step by step. \n");
    let data = project.path("../plugin-data").to_string_lossy().into_owned();
    let project = project.env("CLAUDE_PLUGIN_ROOT", "/opt/brewcode").env("CLAUDE_PLUGIN_DATA", &data);
    let task_dir = project.shown(TASK);
    let expected = [
        "## Task Constraints\n- Never log card numbers\n- Stream rows".to_string(),
        format!("## Task Context\nTask dir: {task_dir}\nArtifacts: {task_dir}/artifacts\n\n> ⛔ READ the phases/ file referenced in your task description FIRST before doing any work."),
        K_BLOCK.to_string(),
        "grepai: USE grepai_search FIRST for code exploration".to_string(),
        "SID=7b6b5f32".to_string(),
        "[MODE: deep] Think step by step.".to_string(),
        format!("BC_PLUGIN_DATA={data}"),
        "BC_PLUGIN_ROOT=/opt/brewcode".to_string(),
        "Do the work.".to_string(),
    ]
    .join("\n\n");
    assert_eq!(prompt(&inject(&project, "developer"), "developer"), expected);
}

#[test]
fn constraints_can_be_turned_off() {
    let project =
        Project::with_task(Some(lock_json(Some(SESSION), 1))).file(CONFIG, r#"{"constraints": {"enabled": false}}"#);
    assert_eq!(prompt(&inject(&project, "developer"), "developer"), format!("{K_BLOCK}\n\nDo the work."));
}

#[test]
fn over_the_token_budget_knowledge_shrinks_to_five_five_three() {
    let lines: String = (0..30)
        .map(|i| {
            let kind = ["❌", "✅", "ℹ️"][i % 3];
            format!(
                "{}\n",
                json!({"t": kind, "txt": format!("Lesson {i:02}: a sentence long enough to be cut at fifty")})
            )
        })
        .collect();
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)))
        .file(KNOWLEDGE, &lines)
        .file(CONFIG, r#"{"knowledge": {"maxTokens": 50}, "constraints": {"enabled": false}}"#);
    let text = prompt(&inject(&project, "developer"), "developer");
    let block: Vec<&str> = text.split("\n\n").next().unwrap().lines().collect();
    assert_eq!(block[0], "## K");
    let counts: Vec<usize> = block[1..].iter().map(|line| line.split('|').count()).collect();
    assert_eq!(counts, [5, 5, 3]);
    assert!(block[1].starts_with("❌ Lesson 00: a sentence long enough to be cut at ...|"), "{}", block[1]);
}

#[test]
fn a_broken_knowledge_line_fails_quietly() {
    // A line `5` makes brewcode's reader throw; the agent still runs, unmodified.
    let project =
        Project::with_task(Some(lock_json(Some(SESSION), 1))).file(KNOWLEDGE, "{\"t\":\"❌\",\"txt\":\"a\"}\n5\n");
    assert_eq!(inject(&project, "developer"), Answer::none());
    assert_eq!(project.log(), ["ERROR [7b6b5f32] [pre-task] Error: Cannot create property 't' on number '5'"]);
}

#[test]
fn unreadable_lines_are_logged_and_skipped() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)))
        .file(KNOWLEDGE, "one\ntwo\n{\"t\":\"❌\",\"txt\":\"kept\"}\nthree\nfour\n")
        .file(CONFIG, r#"{"constraints": {"enabled": false}}"#);
    assert_eq!(prompt(&inject(&project, "developer"), "developer"), "## K\n❌ kept\n\nDo the work.");
    assert_eq!(
        project.log(),
        [
            "WARN  [knowledge] Invalid JSON at line 1: one...",
            "WARN  [knowledge] Invalid JSON at line 2: two...",
            "WARN  [knowledge] Invalid JSON at line 4: three...",
            "WARN  [knowledge] 4 total invalid lines in KNOWLEDGE.jsonl",
            "INFO  [7b6b5f32] [pre-task] Injecting knowledge for developer (1 entries)",
        ]
    );
}
