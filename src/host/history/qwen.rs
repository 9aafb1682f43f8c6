//! Qwen Code (0.24.4): `~/.qwen/projects/<project key>/chats/<session>.jsonl` (`~/.qwen` is
//! `$QWEN_HOME` when set), one JSON line per entry, shaped as Claude Code's (`uuid`, `sessionId`,
//! `timestamp`, `type`) with Gemini's messages: a call is a `functionCall` part (`id`, `name`,
//! `args`) of an `assistant` line's `message.parts`, its outcome a `tool_result` line's
//! `toolCallResult` (`callId`, `status`, `errorType`). A subagent's lines are in
//! `subagents/<session>/agent-<agent id>.jsonl` beside `chats/`, marked `isSidechain` with the
//! parent's `sessionId`. hookmux's adapter gives hooks the model's call id (`tool_call_id`) as
//! `tool_use_id`: the `functionCall`'s `id`. Qwen refuses a tool it does not have
//! (`errorType: "tool_not_registered"`) before its hooks.

use super::{field, lines, plain_id, time, Call, Found, Reader, Session, Want};
use crate::host::Host;
use hookmux_sdk::Env;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub const READER: Reader = Reader { host: Host::Qwen, place: "~/.qwen/projects/*/chats", find, read, recognise };

/// The errors with which Qwen refuses a call before its hooks run.
const REFUSED: &[&str] = &["tool_not_registered"];

/// The most subagents' files read with one session.
const MAX_SUBAGENTS: usize = 1000;

fn projects(env: &Env) -> Option<PathBuf> {
    crate::host::qwen::qwen_dir(env).filter(|dir| dir.is_absolute()).map(|dir| dir.join("projects"))
}

fn find(env: &Env, want: Want<'_>) -> Vec<Found> {
    let Some(projects) = projects(env).filter(|p| lines::is_dir(p)) else { return Vec::new() };
    let mut found = Vec::new();
    for project in lines::entries(&projects).into_iter().filter(|e| e.is_dir) {
        let chats = project.path.join("chats");
        if !lines::is_real_dir(&chats) {
            continue;
        }
        for file in lines::entries(&chats) {
            let Some(id) = file.name.strip_suffix(".jsonl").filter(|id| !file.is_dir && plain_id(id)) else {
                continue;
            };
            let mut session =
                Found { host: Host::Qwen, id: id.to_string(), files: vec![file.path], modified: file.modified };
            add_subagents(&mut session, &project.path);
            found.push(session);
            if found.len() >= super::MAX_FILES {
                return want.pick(found);
            }
        }
    }
    want.pick(found)
}

/// The session's subagents' files: `subagents/<session>/*.jsonl` in the project's folder.
fn add_subagents(session: &mut Found, project: &Path) {
    let dir = project.join("subagents").join(&session.id);
    if !lines::is_real_dir(&dir) {
        return;
    }
    let mut files: Vec<_> =
        lines::entries(&dir).into_iter().filter(|e| !e.is_dir && e.name.ends_with(".jsonl")).collect();
    files.sort_by(|a, b| a.name.cmp(&b.name));
    for file in files.into_iter().take(MAX_SUBAGENTS) {
        session.modified = session.modified.max(file.modified);
        session.files.push(file.path);
    }
}

/// A chat named on the command line: a line of Qwen's shape (Claude Code's fields, Gemini's
/// `parts`) gives the session; its subagents are read with it when it sits in `chats/`.
fn recognise(path: &Path, head: &[u8]) -> Option<Vec<Found>> {
    let line = head
        .split(|&b| b == b'\n')
        .filter_map(|l| serde_json::from_slice::<Value>(l).ok())
        .find(|line| line.get("uuid").is_some() && line.pointer("/message/parts").is_some_and(Value::is_array))?;
    let id = field(&line, "sessionId").filter(|id| plain_id(id))?.to_string();
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
    let mut found = Found { host: Host::Qwen, id, files: vec![path.to_path_buf()], modified };
    let project = path.parent().filter(|dir| dir.file_name().is_some_and(|n| n == "chats")).and_then(Path::parent);
    if let Some(project) = project {
        add_subagents(&mut found, project);
    }
    Some(vec![found])
}

fn read(found: &Found) -> Session {
    let mut session = Session::new(found);
    for file in &found.files {
        let read = lines::json_lines(file, |line| self::line(&mut session, &line));
        session.absorb(read);
    }
    session
}

fn line(session: &mut Session, line: &Value) {
    let at = time(field(line, "timestamp"));
    session.note_time(at);
    match field(line, "type") {
        Some("assistant") => {
            let agent = field(line, "agentId").filter(|_| line.get("isSidechain") == Some(&Value::Bool(true)));
            let parts = line.pointer("/message/parts").and_then(Value::as_array);
            for call in parts.into_iter().flatten().filter_map(|part| part.get("functionCall")) {
                let (Some(id), Some(name)) = (field(call, "id"), field(call, "name")) else {
                    session.skipped += 1;
                    continue;
                };
                session.add(Call {
                    id: id.to_string(),
                    host_tool: name.to_string(),
                    tools: vec![crate::host::qwen::claude_tool(name)],
                    hook_id: Some(id.to_string()),
                    hook_session: Some(session.id.clone()),
                    agent: agent.map(str::to_string),
                    time: at,
                    refused: false,
                });
            }
        }
        Some("tool_result") => {
            let result = line.get("toolCallResult").unwrap_or(&Value::Null);
            if field(result, "errorType").is_some_and(|e| REFUSED.contains(&e)) {
                if let Some(id) = field(result, "callId") {
                    session.refuse(id);
                }
            }
        }
        _ => {}
    }
}
