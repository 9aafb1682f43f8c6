//! Cline CLI (3.0.65): `~/.cline/data/sessions/<session>/` (the folder is
//! `$CLINE_SESSION_DATA_DIR`, else `$CLINE_DATA_DIR/sessions`, else `$CLINE_DIR/data/sessions`),
//! one folder per session named by its id, the `sessionContext.rootSessionId` its hooks get. In
//! it `<session>.messages.json` is the main agent's conversation, one JSON document whose
//! `messages` are the model's and the tools' turns: a call is a `tool_use` block of an
//! `assistant` message (`id`, `name`, `input`), its result a `tool_result` block. A subagent
//! (`spawn_agent`) has its own `agent_<id>.messages.json` beside it; its hooks carry the root
//! session's id. `<session>.json` (the manifest) and `~/.cline/data/db/sessions.db` index the same
//! files and are not read.
//!
//! Cline's `run_commands`, `read_files`, `search_codebase` and `fetch_web_content` take a list:
//! hookmux's adapter makes one Claude call of each item, with the `tool_use_id` `<id>#<n>` when
//! there are several, in one dispatch that the trace records by its first part; coverage counts
//! the Cline call once, by that first id. A tool Cline does not have is refused before its hooks
//! (`AI_NoSuchToolError`).

use super::{field, lines, plain_id, time_ms, Call, Found, Reader, Session, Want};
use crate::host::Host;
use hookmux_sdk::Env;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub const READER: Reader = Reader { host: Host::Cline, place: "~/.cline/data/sessions", find, read, recognise };

/// What a conversation file's name ends with.
const MESSAGES: &str = ".messages.json";

/// The most subagents' files read with one session.
const MAX_SUBAGENTS: usize = 1000;

/// Where Cline keeps its sessions, as Cline itself finds it.
fn sessions_dir(env: &Env) -> Option<PathBuf> {
    let absolute = |var: &str| env.path(var).filter(|p| p.is_absolute());
    absolute("CLINE_SESSION_DATA_DIR")
        .or_else(|| absolute("CLINE_DATA_DIR").map(|dir| dir.join("sessions")))
        .or_else(|| super::home_dir(env, "CLINE_DIR", ".cline").map(|dir| dir.join("data").join("sessions")))
}

fn find(env: &Env, want: Want<'_>) -> Vec<Found> {
    let Some(dir) = sessions_dir(env).filter(|d| lines::is_dir(d)) else { return Vec::new() };
    let found = lines::entries(&dir)
        .into_iter()
        .filter(|e| e.is_dir && plain_id(&e.name))
        .filter_map(|e| session_in(&e.path, &e.name))
        .take(super::MAX_FILES)
        .collect();
    want.pick(found)
}

/// The session a folder holds: its main conversation first, then its subagents', when the main
/// one is there.
fn session_in(folder: &Path, id: &str) -> Option<Found> {
    let mut main = None;
    let mut subagents = Vec::new();
    for file in lines::entries(folder).into_iter().filter(|e| !e.is_dir) {
        let Some(stem) = file.name.strip_suffix(MESSAGES) else { continue };
        if stem == id {
            main = Some(file);
        } else if stem.strip_prefix("agent_").is_some_and(plain_id) {
            subagents.push(file);
        }
    }
    let main = main?;
    subagents.sort_by(|a, b| a.name.cmp(&b.name));
    subagents.truncate(MAX_SUBAGENTS);
    let modified = subagents.iter().map(|f| f.modified).fold(main.modified, SystemTime::max);
    let files = std::iter::once(main.path).chain(subagents.into_iter().map(|f| f.path)).collect();
    Some(Found { host: Host::Cline, id: id.to_string(), files, modified })
}

/// A conversation file named on the command line: its session is the folder it is in (a
/// subagent's file reads as its whole session).
fn recognise(path: &Path, head: &[u8]) -> Option<Vec<Found>> {
    let name = path.file_name()?.to_str()?;
    name.strip_suffix(MESSAGES)?;
    let text = std::str::from_utf8(head).unwrap_or_default().trim_start();
    if !(text.starts_with('{') && text.contains("\"sessionId\"") && text.contains("\"origin\"")) {
        return None;
    }
    let folder = path.parent()?;
    let id = folder.file_name()?.to_str().filter(|id| plain_id(id))?;
    let found = session_in(folder, id).filter(|f| f.files.iter().any(|f| f.file_name() == path.file_name()));
    Some(vec![found.unwrap_or_else(|| {
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
        Found { host: Host::Cline, id: id.to_string(), files: vec![path.to_path_buf()], modified }
    })])
}

fn read(found: &Found) -> Session {
    let mut session = Session::new(found);
    for file in &found.files {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let agent = name.strip_suffix(MESSAGES).filter(|stem| *stem != found.id).map(str::to_string);
        let read = lines::json_array_items(file, "messages", |message| {
            self::message(&mut session, &message, agent.as_deref());
        });
        session.absorb(read);
    }
    session
}

fn message(session: &mut Session, message: &Value, agent: Option<&str>) {
    let at = time_ms(message.get("ts").and_then(Value::as_i64));
    session.note_time(at);
    let Some(blocks) = message.get("content").and_then(Value::as_array) else { return };
    for block in blocks {
        match field(block, "type") {
            Some("tool_use") => tool_use(session, block, agent, at),
            Some("tool_result") if refused(block) => {
                if let Some(id) = field(block, "tool_use_id") {
                    session.refuse(id);
                }
            }
            _ => {}
        }
    }
}

/// A `tool_use` block: one call, whose hooks see one Claude call per item of a list
/// ([`crate::host::cline::tools::parts`]); the trace records a dispatch by its first part's id.
fn tool_use(session: &mut Session, block: &Value, agent: Option<&str>, at: Option<SystemTime>) {
    let (Some(id), Some(tool)) = (field(block, "id"), field(block, "name")) else {
        session.skipped += 1;
        return;
    };
    let input = block.get("input").cloned().unwrap_or_else(|| json!({}));
    let parts = crate::host::cline::tools::parts(tool, &input);
    let hook_id = if parts.len() > 1 { format!("{id}#1") } else { id.to_string() };
    let mut tools: Vec<String> = Vec::new();
    for part in parts {
        if !tools.contains(&part.claude) {
            tools.push(part.claude);
        }
    }
    session.add(Call {
        id: id.to_string(),
        host_tool: tool.to_string(),
        tools,
        hook_id: Some(hook_id),
        hook_session: Some(session.id.clone()),
        agent: agent.map(str::to_string),
        time: at,
        refused: false,
    });
}

/// Whether a `tool_result` is Cline refusing the call before its hooks: a tool it does not have
/// answers `{"error": "Tool call NAME was rejected before execution: …"}`, as text. Only that
/// exact shape counts: a tool's own output is a list, an object or other text.
fn refused(block: &Value) -> bool {
    let (Some(name), Some(Value::String(text))) = (field(block, "name"), block.get("content")) else { return false };
    let Ok(Value::Object(answer)) = serde_json::from_str::<Value>(text) else { return false };
    let prefix = format!("Tool call {name} was rejected before execution: ");
    answer.len() == 1 && answer.get("error").and_then(Value::as_str).is_some_and(|e| e.starts_with(&prefix))
}
