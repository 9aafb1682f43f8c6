//! Symbolic links a cloned repository ships in the project: no handler writes through one. Each
//! test plants links to a victim file (or folder) outside the project and checks that the victim
//! is as it was and that the handler says why it did not write.

use super::support::*;
use crate::brewcode::{GrepaiReminder, KnowledgeCompact, TaskBind};
use hookmux_platform::fs::{symlink_dir, symlink_file};
use serde_json::json;
use std::path::PathBuf;

const PRECIOUS: &str = "export PATH=/usr/bin\n";

/// `~/.bashrc`, outside the project, with content nothing may change.
fn victim(project: &Project) -> PathBuf {
    let file = project.home().join(".bashrc");
    std::fs::write(&file, PRECIOUS).unwrap();
    file
}

fn link(project: &Project, relative: &str, target: &std::path::Path) {
    let at = project.path(relative);
    std::fs::create_dir_all(at.parent().unwrap()).unwrap();
    let symlink = if target.is_dir() { symlink_dir } else { symlink_file };
    symlink(target, &at).unwrap();
}

fn bind(project: &Project) -> Outcome {
    let event = json!({
        "tool_name": "Agent",
        "tool_input": {"description": "d", "prompt": "p", "subagent_type": "bc-coordinator"},
        "tool_response": {"status": "completed"},
        "tool_use_id": "toolu_0",
    });
    project.call(&TaskBind, "PostToolUse", event, &[])
}

fn compact(project: &Project) -> Outcome {
    project.call(&KnowledgeCompact, "PreCompact", json!({"trigger": "auto", "custom_instructions": ""}), &[])
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_planted_lock_tmp_is_not_written_through() {
    let project = Project::with_task(Some(lock_json(None, 2)));
    let victim = victim(&project);
    link(&project, &format!("{LOCK}.tmp"), &victim);
    let outcome = bind(&project);
    assert_eq!(outcome.answer.additional_context.as_deref(), Some("brewcode: session 7b6b5f32 bound to lock"));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), PRECIOUS);
    assert_eq!(project.json(LOCK)["session_id"], json!(SESSION), "the lock itself is written");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_lock_in_a_linked_task_folder_is_not_bound() {
    // The repository's task folder is a link to a folder outside the project.
    let project = Project::new().file(".claude/TASK.md", &format!("{TASK_PLAN}\n"));
    let outside = project.home().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("PLAN.md"), PLAN_V2).unwrap();
    std::fs::write(outside.join(".lock"), lock_json(None, 2)).unwrap();
    link(&project, TASK, &outside);
    bind(&project);
    let lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(outside.join(".lock")).unwrap()).unwrap();
    assert!(lock.get("session_id").is_none(), "the lock outside the project is not rewritten: {lock}");
    let log = project.log();
    assert!(
        log.iter().any(|line| line.contains("Failed to bind session: refused to write")
            && line.contains(&format!("{} is a symbolic link", project.path(TASK).display()))),
        "{log:?}"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn planted_plan_and_state_temporary_files_are_not_written_through() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let victim = victim(&project);
    link(&project, &format!("{TASK_PLAN}.tmp"), &victim);
    link(&project, &format!("{STATE}.tmp"), &victim);
    let outcome = compact(&project);
    assert_eq!(outcome.answer.system_message.as_deref(), Some("brewcode: compact handoff, phase 2/3"));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), PRECIOUS);
    assert!(project.read(TASK_PLAN).starts_with("status: handoff\n"));
    assert_eq!(project.json(STATE)["lastPhase"], json!(2));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_plan_or_state_file_is_refused_and_logged() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let victim = victim(&project);
    link(&project, STATE, &victim);
    compact(&project);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), PRECIOUS);
    assert!(project.path(STATE).is_symlink(), "the link is left as it is");
    let log = project.log();
    assert!(
        log.iter().any(|line| line.starts_with("WARN  [state] Failed to save state: refused to write")
            && line.ends_with("it is a symbolic link, and hookmux does not write through symbolic links; replace the link with a real file or folder")),
        "{log:?}"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_knowledge_file_takes_no_entry() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let victim = victim(&project);
    std::fs::remove_file(project.path(KNOWLEDGE)).unwrap();
    link(&project, KNOWLEDGE, &victim);
    compact(&project);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), PRECIOUS);
    let log = project.log();
    assert!(log.iter().any(|line| line.contains("appendKnowledge failed: refused to write")), "{log:?}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_log_is_not_appended_to_and_stderr_says_so() {
    let project = Project::with_task(Some(lock_json(None, 2)));
    let victim = victim(&project);
    link(&project, LOG, &victim);
    let outcome = bind(&project);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), PRECIOUS);
    let refused: Vec<&String> = outcome.notes.iter().filter(|note| note.contains("log is not written")).collect();
    assert_eq!(refused.len(), 1, "said once per call: {:?}", outcome.notes);
    assert!(refused[0].contains("is a symbolic link"), "{refused:?}");

    // A linked log folder: nothing is created in the folder it points at.
    let project = Project::with_task(Some(lock_json(None, 2)));
    let outside = project.home().join("logs");
    std::fs::create_dir_all(&outside).unwrap();
    link(&project, ".claude/tasks/logs", &outside);
    bind(&project);
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_reminder_stamp_is_not_truncated() {
    let project = Project::new().sized(".grepai/index.gob", 150_000);
    let victim = victim(&project);
    // Older than the throttle's minute: the stamp's time is read through the link, as brewcode does.
    project.touch(&victim, project.now() - std::time::Duration::from_secs(3600));
    link(&project, ".grepai/.reminder-ts", &victim);
    let outcome = project.call(&GrepaiReminder, "PreToolUse", json!({"tool_name": "Grep", "tool_input": {}}), &[]);
    assert_eq!(context(&outcome.answer), crate::brewcode::hook::GREPAI_REMINDER, "the reminder is still given");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), PRECIOUS);
    let log = project.log();
    assert!(log.iter().any(|line| line.contains("Throttle write failed: refused to write")), "{log:?}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_pending_folder_takes_no_record() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    let outside = project.home().join("pending");
    std::fs::create_dir_all(&outside).unwrap();
    link(&project, ".claude/tasks/cfg/task-bind.pending", &outside);
    let event = json!({
        "tool_name": "Agent",
        "tool_input": {"description": "d", "prompt": "p", "subagent_type": "developer"},
        "tool_response": {"isAsync": true, "status": "async_launched", "agentId": "a1", "prompt": "p"},
        "tool_use_id": "toolu_0",
    });
    project.call(&TaskBind, "PostToolUse", event, &["--defer-async"]);
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}
