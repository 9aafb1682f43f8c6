//! Gemini CLI (0.61.0): `~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl` (`~` is
//! `$GEMINI_CLI_HOME` when set). The first line names the session (`sessionId`, `kind: "main"`);
//! then messages, each written again as it grows (the same `id`) and `$set` updates. A
//! `gemini` message's `toolCalls` are the calls (`id`, `name`, `args`, `status`, `result`). A
//! subagent's chat is `chats/<session id>/<subagent session>.jsonl` (`kind: "subagent"`); its
//! tools fire BeforeTool and AfterTool with the parent's `session_id`. Gemini sends no
//! `tool_use_id`: hookmux derives one from the tool's name and input, and so does this reader.
//! `complete_task` (how a subagent hands back its result) runs no hooks under hookmux and is
//! not counted.

use super::{field, lines, plain_id, time, Call, Found, Reader, Session, Want};
use crate::host::Host;
use hookmux_sdk::Env;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub const READER: Reader = Reader { host: Host::Gemini, place: "~/.gemini/tmp/*/chats", find, read, recognise };

/// The most of a chat's first line read.
const HEADER_BYTES: usize = 64 * 1024;

fn chat_dirs(env: &Env) -> Vec<PathBuf> {
    let Some(tmp) = super::home_dir(env, "GEMINI_CLI_HOME", "").map(|home| home.join(".gemini").join("tmp")) else {
        return Vec::new();
    };
    if !lines::is_dir(&tmp) {
        return Vec::new();
    }
    lines::entries(&tmp)
        .into_iter()
        .filter(|e| e.is_dir)
        .map(|e| e.path.join("chats"))
        .filter(|chats| lines::is_real_dir(chats))
        .collect()
}

/// The session a chat's first line names, and whether it is a subagent's.
fn header(line: &Value) -> Option<(String, bool)> {
    let id = field(line, "sessionId").filter(|id| plain_id(id))?;
    Some((id.to_string(), field(line, "kind") == Some("subagent")))
}

fn find(env: &Env, want: Want<'_>) -> Vec<Found> {
    let mut found = Vec::new();
    for chats in chat_dirs(env) {
        for file in lines::entries(&chats) {
            if file.is_dir || !(file.name.starts_with("session-") && file.name.ends_with(".jsonl")) {
                continue;
            }
            if let Want::Since(since) = want {
                if file.modified < since {
                    continue;
                }
            }
            let Some((id, false)) = lines::first_line(&file.path, HEADER_BYTES).as_ref().and_then(header) else {
                continue;
            };
            let mut session = Found { host: Host::Gemini, id, files: vec![file.path], modified: file.modified };
            add_subagents(&mut session, &chats);
            found.push(session);
            if found.len() >= super::MAX_FILES {
                return want.pick(found);
            }
        }
    }
    want.pick(found)
}

/// The session's subagents' chats: `chats/<session id>/*.jsonl`.
fn add_subagents(session: &mut Found, chats: &Path) {
    let dir = chats.join(&session.id);
    if !lines::is_real_dir(&dir) {
        return;
    }
    let mut subagents: Vec<_> =
        lines::entries(&dir).into_iter().filter(|e| !e.is_dir && e.name.ends_with(".jsonl")).collect();
    subagents.sort_by(|a, b| a.name.cmp(&b.name));
    for file in subagents.into_iter().take(1000) {
        session.modified = session.modified.max(file.modified);
        session.files.push(file.path);
    }
}

fn recognise(path: &Path, head: &[u8]) -> Option<Vec<Found>> {
    let first: Value = serde_json::from_slice(head.split(|&b| b == b'\n').next()?).ok()?;
    first.get("projectHash")?;
    let (id, _) = header(&first)?;
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
    let mut found = Found { host: Host::Gemini, id, files: vec![path.to_path_buf()], modified };
    if let Some(chats) = path.parent() {
        add_subagents(&mut found, chats);
    }
    Some(vec![found])
}

fn read(found: &Found) -> Session {
    let mut session = Session::new(found);
    for file in &found.files {
        let mut agent: Option<String> = None;
        let read = lines::json_lines(file, |line| {
            if let Some((id, subagent)) = header(&line).filter(|_| line.get("projectHash").is_some()) {
                session.note_time(time(field(&line, "startTime")));
                agent = subagent.then_some(id);
                return;
            }
            // The first messages come in one `$set`.
            if let Some(messages) = line.pointer("/$set/messages").and_then(Value::as_array) {
                for message in messages {
                    self::message(&mut session, message, agent.as_deref());
                }
                return;
            }
            message(&mut session, &line, agent.as_deref());
        });
        session.absorb(read);
    }
    session
}

fn message(session: &mut Session, message: &Value, agent: Option<&str>) {
    let at = time(field(message, "timestamp"));
    session.note_time(at);
    let Some(calls) = message.get("toolCalls").and_then(Value::as_array) else { return };
    for call in calls {
        let (Some(id), Some(name)) = (field(call, "id"), field(call, "name")) else {
            session.skipped += 1;
            continue;
        };
        if name == "complete_task" {
            continue;
        }
        let args = call.get("args").cloned().unwrap_or_else(|| json!({}));
        let error = call.pointer("/result/0/functionResponse/response/error").and_then(Value::as_str);
        session.add(Call {
            id: id.to_string(),
            host_tool: name.to_string(),
            tools: vec![crate::host::gemini::claude_tool(name, mcp_context(name).as_ref())],
            hook_id: Some(crate::host::gemini::tool_use_id(name, &args)),
            hook_session: Some(session.id.clone()),
            agent: agent.map(str::to_string),
            time: time(field(call, "timestamp")).or(at),
            refused: field(call, "status") == Some("error") && error.is_some_and(refused_before_hooks),
        });
    }
}

/// Whether a failed call's error is one Gemini gives before BeforeTool: a tool it does not have
/// (`Tool "x" not found`), or input that does not fit the tool's schema (`params must have
/// required property 'file_path'`). A call that ran and failed has its hooks.
fn refused_before_hooks(error: &str) -> bool {
    (error.starts_with("Tool \"") && error.contains("\" not found"))
        || error.starts_with("params ")
        || error.starts_with("params/")
}

/// Gemini names an MCP server's tool `mcp_<server>_<tool>`; the event's `mcp_context` says which
/// is which, the chat does not: the server is taken to be the part up to the next `_`.
fn mcp_context(name: &str) -> Option<Value> {
    let rest = name.strip_prefix("mcp_")?;
    let (server, tool) = rest.split_once('_')?;
    Some(json!({ "server_name": server, "tool_name": tool }))
}
