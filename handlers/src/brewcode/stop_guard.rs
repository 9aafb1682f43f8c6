//! `stop-guard` (Stop), brewcode's `stop.mjs`: while this session's task is unfinished, the
//! model may not stop; otherwise it may, and locks that no longer mean anything are removed.
//!
//! | condition (in order) | answer | lock |
//! |---|---|---|
//! | `stop_hook_active` (already continuing because of a Stop hook) | allow | kept |
//! | lock older than 24 h (`bound_at`, else `started_at`) | allow | deleted |
//! | no lock (with or without `.claude/TASK.md`) | allow | — |
//! | lock without `session_id` | allow | deleted |
//! | lock of another session | allow | kept |
//! | the lock's `task_path` names a PLAN.md that does not exist | allow | the lock beside that path, which is not there: kept |
//! | PLAN.md cannot be read | allow | deleted |
//! | status `finished`, `failed`, `cancelled` or `error` | allow (and the log suggests `/brewcode:rules`) | deleted |
//! | anything else | **block**: `brewcode: task incomplete (<status>, phase N/M)` + the emergency exit, and context telling the model to continue | kept |
//! | an error in the handler | allow | kept, for recovery |
//!
//! A lock is only read through `.claude/TASK.md`, and one that is corrupt (not JSON, fields
//! missing, an invalid `task_path`, a folder) is deleted as it is read.

use super::config::Level;
use super::hook::{Hook, Tag};
use super::js::{self, Js};
use super::knowledge::knowledge_path;
use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent};
use serde_json::Value;

pub struct StopGuard;

static INFO: HandlerInfo = HandlerInfo {
    name: "stop-guard",
    description: "brewcode's stop guard: block stopping while this session's task is unfinished; clean up dead locks",
    events: &[HookEvent::Stop],
    matcher: None,
    options: &[],
};

impl Handler for StopGuard {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        Hook::answer(cx, "[stop]", "Error", Answer::none(), stop)
    }
}

register_handler!(StopGuard);

fn stop(h: &Hook) -> Js<Answer> {
    if js::truthy(h.field("stop_hook_active")) {
        return Ok(Answer::none());
    }
    let lock = h.get_lock()?;
    if let Some(lock) = lock.as_ref().filter(|lock| lock.is_stale(h.now_ms())) {
        h.log(Level::Warn, "[stop]", "Stale lock detected (>24h old) - removing", Tag::Session)?;
        h.delete_lock(&h.join(&[lock.task_path()]))?;
        return Ok(Answer::none());
    }
    let Some(lock) = lock else {
        if h.active_task_path()?.is_some() {
            let message = "Task reference exists but no lock file - task not started";
            h.log(Level::Debug, "[stop]", message, Tag::Session)?;
        }
        return Ok(Answer::none());
    };
    if !lock.is_bound() {
        h.log(Level::Warn, "[stop]", "Lock has no session_id - treating as stale", Tag::Session)?;
        h.delete_lock(&h.join(&[lock.task_path()]))?;
        return Ok(Answer::none());
    }
    if !lock.is_owned_by(h.session()) {
        let owner = match lock.session_id() {
            Some(Value::String(s)) => js::text::short_id(s),
            _ => "unknown".to_string(),
        };
        h.log(Level::Debug, "[stop]", &format!("Lock owned by different session: {owner}"), Tag::Session)?;
        return Ok(Answer::none());
    }
    // The lock's task_path passed validation when it was read; the existence check is what
    // brewcode's second line of defence still catches.
    let task_path = h.join(&[lock.task_path()]);
    if !h.exists(&task_path) {
        h.log(Level::Warn, "[stop]", "Invalid lock - task file not found", Tag::Session)?;
        h.delete_lock(&task_path)?;
        return Ok(Answer::none());
    }
    let Some(task) = h.parse_task(&task_path)? else {
        h.log(Level::Error, "[stop]", "Failed to parse task file", Tag::Session)?;
        h.delete_lock(&task_path)?;
        return Ok(Answer::none());
    };
    if task.is_terminal() {
        let knowledge = knowledge_path(&task_path);
        if h.exists(&knowledge) {
            let message = format!("Task finished. Consider: /brewcode:rules {knowledge}");
            h.log(Level::Info, "[stop]", &message, Tag::Session)?;
        }
        h.delete_lock(&task_path)?;
        return Ok(Answer::none());
    }
    let (current, total) = (task.current(), task.total());
    let message = format!("Stop blocked - task incomplete (phase {current}/{total})");
    h.log(Level::Warn, "[stop]", &message, Tag::Session)?;
    let reason = format!(
        "brewcode: task incomplete ({}, phase {current}/{total})\nEmergency exit: rm .claude/tasks/*_task/.lock",
        task.status
    );
    let context = format!(
        "brewcode: stop blocked. Continue execution. Re-read PLAN.md and proceed with phase {current}. Task: {}",
        lock.task_path()
    );
    Ok(Answer::block(reason).with_context(context))
}
