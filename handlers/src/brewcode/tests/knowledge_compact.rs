use super::support::*;
use crate::brewcode::KnowledgeCompact;
use hookmux_sdk::Answer;
use serde_json::{json, Value};

fn compact(project: &Project) -> Answer {
    project.call(&KnowledgeCompact, "PreCompact", json!({"trigger": "auto", "custom_instructions": ""}), &[]).answer
}

fn go_on() -> Answer {
    Answer { continue_: Some(true), ..Answer::none() }
}

fn entries(project: &Project) -> Vec<Value> {
    project.read(KNOWLEDGE).lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn lesson(i: usize, kind: &str, minute: usize) -> String {
    json!({"ts": format!("2026-02-01T10:{minute:02}:00.000Z"), "t": kind, "txt": format!("Lesson {i}"), "src": "dev"})
        .to_string()
}

#[test]
fn without_this_sessions_lock_compaction_just_goes_on() {
    for lock in [None, Some(lock_json(None, 1)), Some(lock_json(Some(OTHER_SESSION), 1))] {
        let project = Project::with_task(lock.clone());
        let before = project.snapshot();
        assert_eq!(compact(&project), go_on(), "{lock:?}");
        assert_eq!(project.snapshot(), before, "{lock:?}: nothing is written");
    }
}

#[test]
fn an_unreadable_plan_goes_on_with_a_warning() {
    let project =
        Project::new().file(".claude/TASK.md", TASK_PLAN).folder(TASK_PLAN).file(LOCK, &lock_json(Some(SESSION), 1));
    assert_eq!(compact(&project), go_on());
    assert_eq!(project.log()[1], "WARN  [7b6b5f32] [pre-compact] Failed to parse task file");
}

#[test]
fn a_terminal_task_goes_on_untouched() {
    let plan = PLAN_V2.replace("in progress", "finished");
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).file(TASK_PLAN, &plan);
    let before = project.snapshot();
    assert_eq!(compact(&project), go_on());
    assert_eq!(project.snapshot(), before);
}

#[test]
fn an_active_task_below_the_threshold_gets_the_handoff() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let answer = compact(&project);
    assert_eq!(answer.continue_, Some(true));
    assert_eq!(answer.system_message.as_deref(), Some("brewcode: compact handoff, phase 2/3"));
    assert_eq!((answer.decision, answer.additional_context), (None, None));

    let lines = entries(&project);
    assert_eq!(lines.len(), 6, "five entries kept as they were, the handoff appended");
    assert_eq!(
        project.read(KNOWLEDGE).lines().last().unwrap(),
        r#"{"t":"✅","txt":"Handoff at phase 2: context auto-compact","src":"pre-compact-hook","ts":"2026-02-01T12:00:00.000Z"}"#
    );
    assert!(project.read(TASK_PLAN).starts_with("status: handoff\n\n# Plan: Auth refactor"));
    assert_eq!(
        project.json(STATE),
        json!({"lastHandoff": "2026-02-01T12:00:00.000Z", "lastPhase": 2, "lastCompactAt": "2026-02-01T12:00:00.000Z"})
    );
    assert_eq!(project.log(), ["INFO  [7b6b5f32] [pre-compact] Handoff to phase 2",]);
}

#[test]
fn missing_artifacts_are_a_debug_note_only() {
    let project =
        Project::with_task(Some(lock_json(Some(SESSION), 1))).file(CONFIG, r#"{"logging":{"level":"debug"}}"#);
    compact(&project);
    assert!(project.log().contains(
        &"DEBUG [7b6b5f32] [pre-compact] Validation warnings (agent may still be executing): Artifacts directory missing for phase 2"
            .to_string()
    ));
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)))
        .file(CONFIG, r#"{"logging":{"level":"debug"}}"#)
        .file(&format!("{TASK}/artifacts/2-1e/out.md"), "x");
    compact(&project);
    assert!(!project.log().iter().any(|line| line.contains("Validation warnings")));
}

#[test]
fn eighty_entries_compact_with_the_default_limit() {
    let mut lines: Vec<String> = (0..74).map(|i| lesson(i, ["❌", "✅", "ℹ️"][i % 3], i % 60)).collect();
    for i in 0..6 {
        lines.push(lesson(i, ["❌", "✅", "ℹ️"][i % 3], 59)); // newer duplicates of lessons 0..5
    }
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).file(KNOWLEDGE, &(lines.join("\n") + "\n"));
    assert_eq!(compact(&project).system_message.as_deref(), Some("brewcode: compact handoff, phase 2/3"));
    let kept = entries(&project);
    assert_eq!(kept.len(), 74 + 1);
    let kinds: Vec<&str> = kept[..74].iter().map(|e| e["t"].as_str().unwrap()).collect();
    assert!(kinds.windows(2).all(|w| rank(w[0]) <= rank(w[1])), "sorted by kind");
    assert_eq!(kept[0]["ts"], "2026-02-01T10:59:00.000Z", "newest first, and the duplicate's newer copy won");
    assert_eq!(
        project.log(),
        [
            "INFO  [7b6b5f32] [pre-compact] Knowledge compacted successfully",
            "INFO  [7b6b5f32] [pre-compact] Handoff to phase 2"
        ]
    );
}

fn rank(kind: &str) -> u8 {
    match kind {
        "❌" => 0,
        "✅" => 1,
        "ℹ️" => 2,
        _ => 3,
    }
}

#[test]
fn seventy_nine_entries_do_not_compact() {
    let lines: Vec<String> = (0..79).map(|i| lesson(i, "✅", i % 60)).collect();
    let text = lines.join("\n") + "\n";
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).file(KNOWLEDGE, &text);
    compact(&project);
    assert!(project.read(KNOWLEDGE).starts_with(&text), "untouched, the handoff appended");
}

#[test]
fn over_the_configured_limit_the_file_is_trimmed() {
    let mut lines: Vec<String> = (0..14).map(|i| lesson(i, ["❌", "✅", "ℹ️", "?"][i % 4], i)).collect();
    lines.push(json!({"t": "❌", "txt": "No time", "ts": "soon"}).to_string());
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)))
        .file(CONFIG, r#"{"knowledge": {"maxEntries": 10}}"#)
        .file(KNOWLEDGE, &(lines.join("\n") + "\n"));
    compact(&project);
    let kept = entries(&project);
    assert_eq!(kept.len(), 11);
    assert_eq!(kept[4], json!({"t": "❌", "txt": "No time", "ts": "1970-01-01T00:00:00.000Z"}));
    assert!(!kept.iter().any(|e| e["t"] == "?"), "unknown kinds sort last and are cut first");
    assert_eq!(kept[10]["src"], "pre-compact-hook");
}

#[test]
fn a_v3_task_gets_the_after_compact_steps() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)))
        .file(TASK_PLAN, PLAN_V3)
        .folder(&format!("{TASK}/phases"));
    let message = compact(&project).system_message.unwrap();
    assert_eq!(
        message,
        "brewcode: compact handoff, phase 3/5. After compact: 1) TaskList() for current task state 2) Read PLAN.md for protocol 3) DO NOT read phases/ — they are for agents 4) Continue with current in_progress or next pending task 5) WRITE report → CALL coordinator after EVERY agent"
    );
    assert!(project.read(TASK_PLAN).starts_with("status: handoff\ncurrent_phase: 3\n"));
}

#[test]
fn an_invalid_task_path_deletes_the_lock() {
    let lock =
        json!({"task_path": ".claude/tasks/x/../y_task/PLAN.md", "started_at": hours_ago(1), "session_id": SESSION});
    let project = Project::with_task(Some(lock.to_string()));
    assert_eq!(compact(&project), go_on());
    assert!(!project.exists(LOCK));
}

#[test]
fn the_state_keeps_its_other_keys() {
    let state = r#"{"mode": "terse", "lastPhase": 1, "_versionCache": {"brewcode": {"remote": "3.4.19"}}}"#;
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).file(STATE, state);
    compact(&project);
    let text = project.read(STATE);
    assert_eq!(
        text,
        "{\n  \"mode\": \"terse\",\n  \"lastPhase\": 2,\n  \"_versionCache\": {\n    \"brewcode\": {\n      \"remote\": \"3.4.19\"\n    }\n  },\n  \"lastHandoff\": \"2026-02-01T12:00:00.000Z\",\n  \"lastCompactAt\": \"2026-02-01T12:00:00.000Z\"\n}"
    );
}

#[test]
fn a_state_that_is_null_fails_after_the_handoff_and_still_goes_on() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).file(STATE, "null");
    assert_eq!(compact(&project), go_on());
    assert_eq!(project.read(STATE), "null");
    assert!(project.read(TASK_PLAN).starts_with("status: handoff"), "the steps before the failure happened");
    assert_eq!(
        project.log(),
        ["ERROR [7b6b5f32] [pre-compact] Error: Cannot set properties of null (setting 'lastHandoff')"]
    );
}

#[test]
fn a_dry_run_answers_and_writes_nothing() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let before = project.snapshot();
    let out = project.call_dry(&KnowledgeCompact, "PreCompact", json!({"trigger": "manual"}), &[]);
    assert_eq!(out.answer.system_message.as_deref(), Some("brewcode: compact handoff, phase 2/3"));
    assert_eq!(project.snapshot(), before);
}

#[test]
fn a_lock_naming_a_missing_task_goes_on_with_the_read_error_logged() {
    let lock = json!({
        "task_path": ".claude/tasks/20990101-000000_gone_task/PLAN.md",
        "started_at": hours_ago(1), "session_id": SESSION, "bound_at": hours_ago(1)
    });
    let project = Project::with_task(Some(lock.to_string()));
    let before = project.snapshot();
    assert_eq!(compact(&project), go_on());
    let log = project.log();
    let missing = project.shown(".claude/tasks/20990101-000000_gone_task/PLAN.md");
    assert_eq!(
        log[0],
        format!("ERROR [parseTask] Failed to read {missing}: ENOENT: no such file or directory, open '{missing}'")
    );
    assert_eq!(log[1], "WARN  [7b6b5f32] [pre-compact] Failed to parse task file");
    let after: Vec<_> = project
        .snapshot()
        .into_iter()
        .filter(|(path, _)| !path.starts_with(project.path(".claude/tasks/logs")))
        .collect();
    assert_eq!(after, before, "nothing but the log is written");
}

#[test]
fn compaction_waits_for_another_writer_and_keeps_its_entry() {
    use crate::brewcode::knowledge_file::WriterLock;
    use std::io::Write;
    let lines: Vec<String> = (0..80).map(|i| lesson(i, "✅", i % 60)).collect();
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1))).file(KNOWLEDGE, &(lines.join("\n") + "\n"));
    let file = project.path(KNOWLEDGE);
    // Another writer (`hookmux knowledge add`, say) holds the lock, with the file open, when the
    // hook starts; it appends a little later.
    let (locked, wait_for_lock) = std::sync::mpsc::channel();
    let writer = std::thread::spawn(move || {
        let lock = WriterLock::acquire(file.parent().unwrap(), &file).unwrap();
        let mut out = std::fs::OpenOptions::new().append(true).open(&file).unwrap();
        locked.send(()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        out.write_all("{\"t\":\"❌\",\"txt\":\"Added meanwhile\"}\n".as_bytes()).unwrap();
        drop(lock);
    });
    wait_for_lock.recv().unwrap();
    compact(&project);
    writer.join().unwrap();
    let kept = entries(&project);
    assert!(kept.iter().any(|e| e["txt"] == "Added meanwhile"), "the entry added during the compaction is kept");
    assert_eq!(kept.len(), 80 + 1 + 1);
    assert_eq!(kept.last().unwrap()["src"], "pre-compact-hook", "the handoff comes after the other writer's entry");
}
