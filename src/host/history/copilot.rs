//! GitHub Copilot CLI (1.0.102): `~/.copilot/session-state/<session>/events.jsonl` (the folder is
//! `$COPILOT_HOME` when set), one event a line: `assistant.message` with the model's
//! `toolRequests`, `tool.execution_start` (`toolCallId`, `toolName`, and `parentToolCallId` for a
//! subagent's call), `subagent.started`, `tool.execution_complete`, `hook.start`. A subagent's
//! calls are in its parent's file, but their hooks carry the subagent's own `session_id` (its
//! `agent_id` in the `task` call's result, and the `sessionId` of its hooks' `hook.start`).
//! Copilot's hooks get no `tool_use_id`: a call is paired with a dispatch by session, tool and
//! order.

use super::{field, lines, plain_id, time, Call, Found, Reader, Session, Want};
use crate::host::Host;
use hookmux_sdk::Env;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub const READER: Reader = Reader { host: Host::Copilot, place: "~/.copilot/session-state", find, read, recognise };

fn state_dir(env: &Env) -> Option<PathBuf> {
    super::home_dir(env, "COPILOT_HOME", ".copilot").map(|dir| dir.join("session-state"))
}

fn find(env: &Env, want: Want<'_>) -> Vec<Found> {
    let Some(dir) = state_dir(env).filter(|d| lines::is_dir(d)) else { return Vec::new() };
    let found = lines::entries(&dir)
        .into_iter()
        .filter(|e| e.is_dir && plain_id(&e.name))
        .filter_map(|e| {
            let events = e.path.join("events.jsonl");
            let meta = std::fs::symlink_metadata(&events).ok().filter(|m| m.is_file())?;
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            Some(Found { host: Host::Copilot, id: e.name, files: vec![events], modified })
        })
        .collect();
    want.pick(found)
}

fn recognise(path: &Path, head: &[u8]) -> Option<Vec<Found>> {
    let first: Value = serde_json::from_slice(head.split(|&b| b == b'\n').next()?).ok()?;
    if field(&first, "type") != Some("session.start") {
        return None;
    }
    let id = first.pointer("/data/sessionId").and_then(Value::as_str).filter(|id| plain_id(id))?.to_string();
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
    Some(vec![Found { host: Host::Copilot, id, files: vec![path.to_path_buf()], modified }])
}

/// What the file says about subagents: the `task` call that started each, its name and its
/// session.
#[derive(Default)]
struct Subagents {
    names: HashMap<String, String>,
    sessions: HashMap<String, String>,
    /// Each call made by a subagent, with the `task` call that started it.
    parents: HashMap<String, String>,
}

fn read(found: &Found) -> Session {
    let mut session = Session::new(found);
    let mut subagents = Subagents::default();
    for file in &found.files {
        let read = lines::json_lines(file, |line| event(&mut session, &mut subagents, &line));
        session.absorb(read);
    }
    for call in &mut session.calls {
        let Some(parent) = subagents.parents.get(&call.id) else { continue };
        call.agent = Some(subagents.names.get(parent).cloned().unwrap_or_else(|| parent.clone()));
        if call.hook_session.is_none() {
            call.hook_session = subagents.sessions.get(parent).cloned();
        }
    }
    session
}

fn event(session: &mut Session, subagents: &mut Subagents, line: &Value) {
    let at = time(field(line, "timestamp"));
    session.note_time(at);
    let data = line.get("data").unwrap_or(&Value::Null);
    let parent = field(data, "parentToolCallId");
    match field(line, "type") {
        Some("assistant.message") => {
            for request in data.get("toolRequests").and_then(Value::as_array).into_iter().flatten() {
                if let Some(call) = call(request, "toolCallId", "name", "arguments", at) {
                    add(session, subagents, call, parent);
                }
            }
        }
        Some("tool.execution_start") => {
            if let Some(call) = call(data, "toolCallId", "toolName", "arguments", at) {
                add(session, subagents, call, parent);
            }
        }
        Some("subagent.started") => {
            if let (Some(task), Some(name)) = (field(data, "toolCallId"), field(data, "agentName")) {
                subagents.names.insert(task.to_string(), name.to_string());
            }
        }
        Some("tool.execution_complete") => {
            let agent = data.pointer("/toolTelemetry/restrictedProperties/agent_id").and_then(Value::as_str);
            if let (Some(task), Some(agent)) = (field(data, "toolCallId"), agent.filter(|a| plain_id(a))) {
                subagents.sessions.insert(task.to_string(), agent.to_string());
            }
        }
        Some("hook.start") => {
            // A subagent's hooks name its session before its `task` call ends.
            let (Some(parent), Some(hooked)) = (parent, data.pointer("/input/sessionId").and_then(Value::as_str))
            else {
                return;
            };
            if plain_id(hooked) {
                subagents.sessions.entry(parent.to_string()).or_insert_with(|| hooked.to_string());
            }
        }
        _ => {}
    }
}

/// Adds a call: a subagent's is noted with the `task` call that started it (its hooks' session
/// is the subagent's, known later); the main agent's hooks have the session's own.
fn add(session: &mut Session, subagents: &mut Subagents, mut call: Call, parent: Option<&str>) {
    match parent {
        Some(parent) => {
            subagents.parents.insert(call.id.clone(), parent.to_string());
        }
        None => call.hook_session = Some(session.id.clone()),
    }
    session.add(call);
}

/// A call from a `toolRequests` item or a `tool.execution_start`.
fn call(data: &Value, id: &str, name: &str, arguments: &str, at: Option<SystemTime>) -> Option<Call> {
    let (id, name) = (field(data, id)?, field(data, name)?);
    let input = data.get(arguments).cloned().unwrap_or_else(|| json!({}));
    Some(Call {
        id: id.to_string(),
        host_tool: name.to_string(),
        tools: vec![crate::host::copilot::claude_tool(name, &input)],
        hook_id: None,
        hook_session: None,
        agent: None,
        time: at,
        refused: false,
    })
}
