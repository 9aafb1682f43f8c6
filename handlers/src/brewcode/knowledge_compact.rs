//! `knowledge-compact` (PreCompact), brewcode's `pre-compact.mjs`: before Claude Code compacts
//! the context, prepares this session's task for the handoff. It always lets the compaction
//! happen (`continue: true`).
//!
//! | condition | effect |
//! |---|---|
//! | no lock, or a lock that is unbound or another session's | none |
//! | PLAN.md cannot be read | none (a warning in the log) |
//! | status `finished`, `failed`, `cancelled` or `error` | none |
//! | an active task | the steps below, and `systemMessage: brewcode: compact handoff, phase N/M` (v3 tasks add the after-compact steps) |
//!
//! The steps, for an active task: a debug note when `artifacts/` has no `N-*` entry for the
//! current phase; KNOWLEDGE.jsonl compacted when it holds 80 % of `knowledge.maxEntries`
//! (atomically, under the lock every hookmux writer of the file takes: see `knowledge_file`);
//! the entry `{"t":"✅","txt":"Handoff at phase N: context auto-compact",
//! "src":"pre-compact-hook"}` appended (under the same lock, all or nothing); `status: handoff` in PLAN.md (atomically); and
//! `lastHandoff`, `lastPhase`, `lastCompactAt` written to `.claude/tasks/cfg/brewcode.state.json`,
//! keeping its other keys.

use super::config::Level;
use super::hook::{Hook, Tag};
use super::js::{self, errno, path, Js, JsError};
use super::knowledge::{knowledge_path, BEST};
use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent};
use serde_json::{Map, Value};
use std::fs;

pub struct KnowledgeCompact;

static INFO: HandlerInfo = HandlerInfo {
    name: "knowledge-compact",
    description: "brewcode's pre-compact: compact KNOWLEDGE.jsonl, write the handoff, mark the task `handoff`",
    events: &[HookEvent::PreCompact],
    matcher: None,
    options: &[],
};

impl Handler for KnowledgeCompact {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        Hook::answer(cx, "[pre-compact]", "Error", go_on(), pre_compact)
    }
}

register_handler!(KnowledgeCompact);

/// `{continue: true}`: compaction goes ahead.
fn go_on() -> Answer {
    Answer { continue_: Some(true), ..Answer::none() }
}

fn pre_compact(h: &Hook) -> Js<Answer> {
    let Some(lock) = h.check_lock()? else { return Ok(go_on()) };
    let task_path = h.join(&[lock.task_path()]);
    let Some(task) = h.parse_task(&task_path)? else {
        h.log(Level::Warn, "[pre-compact]", "Failed to parse task file", Tag::Session)?;
        return Ok(go_on());
    };
    if task.is_terminal() {
        return Ok(go_on());
    }
    let task_dir = path::dirname(&task_path);
    let current = task.current();

    if !has_phase_artifacts(h, &path::join(&[&task_dir, "artifacts"]), &format!("{current}-"))? {
        let message = format!(
            "Validation warnings (agent may still be executing): Artifacts directory missing for phase {current}"
        );
        h.log(Level::Debug, "[pre-compact]", &message, Tag::Session)?;
    }

    let knowledge = knowledge_path(&task_path);
    let config = h.config()?;
    if h.exists(&knowledge) && h.compact_knowledge(&knowledge, config.max_entries)? {
        h.log(Level::Info, "[pre-compact]", "Knowledge compacted successfully", Tag::Session)?;
    }

    let mut handoff = Map::new();
    handoff.insert("t".into(), Value::from(BEST));
    handoff.insert("txt".into(), Value::from(format!("Handoff at phase {current}: context auto-compact")));
    handoff.insert("src".into(), Value::from("pre-compact-hook"));
    h.append_knowledge(&knowledge, &handoff)?;

    h.update_task_status(&task_path, "handoff")?;

    let mut state = h.state()?;
    stamp_handoff(&mut state, &h.now_iso(), task.current_phase)?;
    h.save_state(&state)?;

    h.log(Level::Info, "[pre-compact]", &format!("Handoff to phase {current}"), Tag::Session)?;
    let total = task.total();
    let message = if h.exists(&path::join(&[&task_dir, "phases"])) {
        format!(
            "brewcode: compact handoff, phase {current}/{total}. After compact: 1) TaskList() for current task state 2) Read PLAN.md for protocol 3) DO NOT read phases/ — they are for agents 4) Continue with current in_progress or next pending task 5) WRITE report → CALL coordinator after EVERY agent"
        )
    } else {
        format!("brewcode: compact handoff, phase {current}/{total}")
    };
    Ok(Answer { system_message: Some(message), ..go_on() })
}

/// Whether `artifacts/` holds an entry named `N-…` for the current phase. A file where the
/// folder should be throws, as `readdirSync` does.
fn has_phase_artifacts(h: &Hook, artifacts: &str, prefix: &str) -> Js<bool> {
    if !h.exists(artifacts) {
        return Ok(false);
    }
    let entries = fs::read_dir(h.fs_path(artifacts))
        .map_err(|err| JsError(errno::message(&err, "scandir", Some(artifacts), None)))?;
    Ok(entries.flatten().any(|entry| entry.file_name().to_string_lossy().starts_with(prefix)))
}

/// Sets the handoff keys on the state as JavaScript assigns them: on an object, in place; on an
/// array, as properties JSON leaves out; on `null` or a primitive, a TypeError.
fn stamp_handoff(state: &mut Value, now: &str, phase: f64) -> Js<()> {
    match state {
        Value::Object(fields) => {
            fields.insert("lastHandoff".into(), Value::from(now));
            fields.insert("lastPhase".into(), js::number_value(phase));
            fields.insert("lastCompactAt".into(), Value::from(now));
            Ok(())
        }
        Value::Array(_) => Ok(()),
        other => Err(js::cannot_create_property("lastHandoff", other)),
    }
}
