//! `task-bind` (PostToolUse `Task|Agent`), brewcode's `post-task.mjs`: binds the session to the
//! task lock when the coordinator agent finishes, and after every worker agent tells the model
//! the 2-step protocol (write the report, call the coordinator).
//!
//! | condition (in order) | answer (`additionalContext`) |
//! |---|---|
//! | no `tool_input` | none |
//! | `bc-coordinator` (or `brewcode:bc-coordinator`) and an unbound lock | binds it: `brewcode: session <8 chars> bound to lock` |
//! | the coordinator otherwise | none |
//! | no `subagent_type`, or a system agent | none |
//! | no lock | none |
//! | an unbound lock | `brewcode: Task lock exists but session not bound. REQUIRED: Call bc-coordinator FIRST …` |
//! | a lock of another session | none |
//! | a worker, `tool_result.is_error === true` | `<AGENT> FAILED -> 1. Retry once with same agent …` |
//! | a worker otherwise | `<AGENT> DONE -> 1. WRITE report 2. CALL bc-coordinator NOW` |
//!
//! v3 tasks (with `phases/`) get the Task API steps appended.
//!
//! Two things brewcode v3.4.20 does under Claude Code 2.1.328 are kept by default: it reads only
//! `tool_result.is_error`, while Claude Code sends `tool_response`; and Agent calls now launch in
//! the background (`tool_response.status: "async_launched"`), so DONE goes out at launch, before
//! the agent has done anything. `--tool-response` also reads `tool_response.is_error`.
//! `--defer-async` (which implies it) holds the protocol of a background agent until Claude
//! Code's completion notice (a `<task-notification>` prompt, so wire the handler on
//! UserPromptSubmit too): DONE when its status is `completed`, FAILED otherwise.

use super::config::Level;
use super::hook::{Hook, Tag};
use super::js::{self, path, Js};
use super::lock::Lock;
use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent, OptionKind, OptionSpec};
use serde_json::{Map, Value};

pub struct TaskBind;

static INFO: HandlerInfo = HandlerInfo {
    name: "task-bind",
    description: "brewcode's post-task: bind the session to the task lock, then the 2-step protocol after worker agents",
    // UserPromptSubmit is handled too, but only with --defer-async: the default snippet leaves it out.
    events: &[HookEvent::PostToolUse],
    matcher: Some("Task|Agent"),
    options: &[
        OptionSpec {
            name: "tool-response",
            kind: OptionKind::Flag,
            default: None,
            help: "read tool_response.is_error too (Claude Code sends tool_response, brewcode 3.4.20 reads tool_result only)",
        },
        OptionSpec {
            name: "defer-async",
            kind: OptionKind::Flag,
            default: None,
            help: "hold a background agent's protocol until its completion notice; wire on UserPromptSubmit too; implies --tool-response",
        },
    ],
};

/// Where deferred agents wait for their notices: one file per agent, so that parallel launches
/// never rewrite each other's records.
const PENDING_DIR: &str = ".claude/tasks/cfg/task-bind.pending";

impl Handler for TaskBind {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        if cx.event().kind() == Some(HookEvent::UserPromptSubmit) {
            if !cx.args().flag("defer-async") {
                return Ok(Answer::none());
            }
            return Hook::answer(cx, "[post-task]", "Error", Answer::none(), completion_notice);
        }
        Hook::answer(cx, "[post-task]", "Error", Answer::none(), post_task)
    }
}

register_handler!(TaskBind);

fn is_coordinator(agent: Option<&Value>) -> bool {
    matches!(agent.and_then(Value::as_str), Some("bc-coordinator" | "brewcode:bc-coordinator"))
}

fn post_task(h: &Hook) -> Js<Answer> {
    let tool_input = h.field("tool_input");
    if !js::truthy(tool_input) {
        return Ok(Answer::none());
    }
    let agent = js::prop(tool_input, "subagent_type");
    if is_coordinator(agent) {
        let Some(lock) = h.get_lock()? else { return Ok(Answer::none()) };
        if lock.is_bound() {
            return Ok(Answer::none());
        }
        // brewcode reports the binding whatever bindLockSession returned.
        h.bind_lock_session()?;
        let short = h.session_short()?;
        h.log(Level::Info, "[post-task]", &format!("Bound session {short} to lock"), Tag::Session)?;
        return Ok(Answer::context(format!("brewcode: session {short} bound to lock")));
    }
    if !js::truthy(agent) || h.config()?.is_system_agent(agent) {
        return Ok(Answer::none());
    }
    let Some(lock) = h.get_lock()? else { return Ok(Answer::none()) };
    if !lock.is_bound() {
        return Ok(Answer::context(
            "brewcode: Task lock exists but session not bound. REQUIRED: Call bc-coordinator FIRST to initialize and bind this session. Then re-run your agent.",
        ));
    }
    if !lock.is_owned_by(h.session()) {
        return Ok(Answer::none());
    }
    let name = js::string_of(agent).to_uppercase();
    let args = h.cx().args();
    let defer = args.flag("defer-async");
    let read_response = defer || args.flag("tool-response");
    let result = match h.field("tool_result") {
        Some(value) if !value.is_null() => Some(value),
        _ if read_response => h.field("tool_response"),
        _ => None,
    };
    let failed = js::prop(result, "is_error") == Some(&Value::Bool(true));
    if defer && !failed {
        let response = h.field("tool_response");
        let launched = js::prop(response, "status").and_then(Value::as_str) == Some("async_launched");
        let agent_id = js::prop(response, "agentId").and_then(Value::as_str).filter(|id| is_plain_id(id));
        if let (true, Some(agent_id)) = (launched, agent_id) {
            record_pending(h, agent_id, &name)?;
            return Ok(Answer::none());
        }
    }
    Ok(Answer::context(protocol(h, &lock, &name, failed)))
}

/// The 2-step protocol for a finished (or failed) worker.
fn protocol(h: &Hook, lock: &Lock, name: &str, failed: bool) -> String {
    let task_dir = path::dirname(&h.join(&[lock.task_path()]));
    let v3 = h.exists(&path::join(&[&task_dir, "phases"]));
    match (failed, v3) {
        (false, false) => format!("{name} DONE -> 1. WRITE report 2. CALL bc-coordinator NOW"),
        (false, true) => format!(
            "{name} DONE -> 1. WRITE report 2. CALL bc-coordinator NOW\n3. TaskUpdate(taskId, status=\"completed\")\n4. TaskList() -> find next ready task\n⛔ DO NOT read phases/ files — they are for agents only."
        ),
        (true, false) => format!(
            "{name} FAILED -> 1. Retry once with same agent 2. If retry fails: TaskUpdate(taskId, status=\"failed\"), apply Escalation 3. Do NOT write report, do NOT call bc-coordinator"
        ),
        (true, true) => format!(
            "{name} FAILED -> 1. Retry once with same agent 2. If retry fails: TaskUpdate(taskId, status=\"failed\"), apply Escalation 3. Do NOT write report, do NOT call bc-coordinator\n4. Persist failure to KNOWLEDGE.jsonl\n5. Check for blocked dependents -> cascade failure\n⛔ DO NOT read phases/ files — they are for agents only."
        ),
    }
}

/// An agent id safe to use as a file name.
fn is_plain_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 128 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn record_pending(h: &Hook, agent_id: &str, name: &str) -> Js<()> {
    let mut record = Map::new();
    record.insert("agent".into(), Value::from(name));
    record.insert("session_id".into(), h.session().cloned().unwrap_or(Value::Null));
    record.insert("tool_use_id".into(), h.field("tool_use_id").cloned().unwrap_or(Value::Null));
    record.insert("launched_at".into(), Value::from(h.now_iso()));
    let message = format!("Deferred {name} protocol until agent {agent_id} completes");
    h.log(Level::Debug, "[post-task]", &message, Tag::Session)?;
    if h.dry() {
        return Ok(());
    }
    let dir = h.join(&[PENDING_DIR]);
    let file = path::join(&[&dir, &format!("{agent_id}.json")]);
    let written = h.mkdir_all(&dir).and_then(|()| h.write_atomic(&file, &js::stringify_pretty(&Value::Object(record))));
    if let Err(error) = written {
        h.log(Level::Warn, "[post-task]", &format!("Could not defer the protocol: {error}"), Tag::Session)?;
    }
    Ok(())
}

/// One `<task-notification>` in a prompt.
#[derive(Debug, PartialEq, Eq)]
struct Notice<'p> {
    task_id: &'p str,
    status: &'p str,
}

fn notices(prompt: &str) -> Vec<Notice<'_>> {
    let tag = |block: &'_ str, name: &str| -> Option<(usize, usize)> {
        let open = format!("<{name}>");
        let start = block.find(&open)? + open.len();
        let end = start + block[start..].find(&format!("</{name}>"))?;
        Some((start, end))
    };
    let mut found = Vec::new();
    let mut rest = prompt;
    let mut base = 0;
    while let Some(start) = rest.find("<task-notification>") {
        let end = rest[start..].find("</task-notification>").map(|e| start + e).unwrap_or(rest.len());
        let block = &prompt[base + start..base + end];
        if let (Some(id), Some(status)) = (tag(block, "task-id"), tag(block, "status")) {
            found.push(Notice { task_id: block[id.0..id.1].trim(), status: block[status.0..status.1].trim() });
        }
        base += end;
        rest = &prompt[base..];
    }
    found
}

/// UserPromptSubmit with `--defer-async`: the protocol of each deferred agent the prompt reports
/// as finished, if this session still owns the task.
fn completion_notice(h: &Hook) -> Js<Answer> {
    let prompt = h.field("prompt").and_then(Value::as_str).unwrap_or_default();
    let mut finished: Vec<(String, bool)> = Vec::new();
    for notice in notices(prompt) {
        if !is_plain_id(notice.task_id) {
            continue;
        }
        let file = h.join(&[PENDING_DIR, &format!("{}.json", notice.task_id)]);
        let Ok(text) = h.read_text(&file) else { continue };
        let record: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if !js::strict_equals(record.get("session_id"), h.session()) {
            continue;
        }
        if !h.dry() {
            let _ = h.unlink(&file);
        }
        let name = record.get("agent").and_then(Value::as_str).unwrap_or("AGENT").to_string();
        finished.push((name, notice.status != "completed"));
    }
    if finished.is_empty() {
        return Ok(Answer::none());
    }
    let Some(lock) = h.get_lock()?.filter(|lock| lock.is_bound() && lock.is_owned_by(h.session())) else {
        return Ok(Answer::none());
    };
    let messages: Vec<String> = finished.iter().map(|(name, failed)| protocol(h, &lock, name, *failed)).collect();
    Ok(Answer::context(messages.join("\n\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_are_read_from_the_prompt() {
        let prompt = "<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n</task-notification>\n\
                      text <task-notification><status>failed</status><task-id> b2 </task-id></task-notification>\
                      <task-notification><task-id>c3</task-id>";
        assert_eq!(
            notices(prompt),
            [Notice { task_id: "a1", status: "completed" }, Notice { task_id: "b2", status: "failed" }]
        );
        assert!(notices("no notice").is_empty());
        assert!(is_plain_id("a1051b9639cd81eb6") && !is_plain_id("../x") && !is_plain_id(""));
    }
}
