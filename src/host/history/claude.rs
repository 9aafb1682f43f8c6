//! Claude Code (2.1.328): `~/.claude/projects/<project key>/<session>.jsonl` (`~/.claude` is
//! `$CLAUDE_CONFIG_DIR` when set), one JSON line per entry. A tool call is a `tool_use` block of
//! an `assistant` line (`id`, `name`, `input`), its result a `tool_result` block of a `user`
//! line. A subagent's lines are in `<session>/subagents/agent-<id>.jsonl` beside it (older
//! versions kept them in the session's file, marked `isSidechain`); its hooks carry the parent's
//! `session_id` and the call's own `tool_use_id`. Claude Code checks a call's input before its
//! hooks: a call refused there has a `<tool_use_error>` result and no hook ever sees it.

use super::{field as str, lines, plain_id, time, Call, Found, Reader, Session, Want};
use crate::host::Host;
use hookmux_sdk::Env;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub const READER: Reader = Reader { host: Host::Claude, place: "~/.claude/projects", find, read, recognise };

/// `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`.
fn projects(env: &Env) -> Option<PathBuf> {
    super::home_dir(env, "CLAUDE_CONFIG_DIR", ".claude").map(|dir| dir.join("projects"))
}

fn find(env: &Env, want: Want<'_>) -> Vec<Found> {
    let Some(projects) = projects(env).filter(|p| lines::is_dir(p)) else { return Vec::new() };
    let mut found = Vec::new();
    for project in lines::entries(&projects).into_iter().filter(|e| e.is_dir) {
        for file in lines::entries(&project.path) {
            let Some(id) = file.name.strip_suffix(".jsonl").filter(|id| !file.is_dir && plain_id(id)) else {
                continue;
            };
            // Older versions' subagent files sit beside the sessions; they are read with them.
            if id.starts_with("agent-") {
                continue;
            }
            found.push(Found {
                host: Host::Claude,
                id: id.to_string(),
                files: vec![file.path],
                modified: file.modified,
            });
            if found.len() >= super::MAX_FILES {
                return want.pick(found);
            }
        }
    }
    want.pick(found)
}

fn recognise(path: &Path, head: &[u8]) -> Option<Vec<Found>> {
    let line = head.split(|&b| b == b'\n').filter_map(|l| serde_json::from_slice::<Value>(l).ok()).find(|line| {
        line.get("sessionId").is_some_and(Value::is_string)
            && (line.get("uuid").is_some() || matches!(str(line, "type"), Some("queue-operation" | "summary")))
    })?;
    let id = str(&line, "sessionId").filter(|id| plain_id(id))?.to_string();
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).unwrap_or(std::time::SystemTime::UNIX_EPOCH);
    Some(vec![Found { host: Host::Claude, id, files: vec![path.to_path_buf()], modified }])
}

fn read(found: &Found) -> Session {
    let mut session = Session::new(found);
    let Some(main) = found.files.first() else { return session };
    let mut files = vec![(main.clone(), None)];
    // The subagents' files: in the folder named after the session's file, beside it.
    let folder = main.with_extension("");
    let subagents = folder.join("subagents");
    if lines::is_real_dir(&folder) && lines::is_real_dir(&subagents) {
        let mut agents: Vec<_> = lines::entries(&subagents)
            .into_iter()
            .filter(|e| !e.is_dir && e.name.ends_with(".jsonl"))
            .map(|e| {
                let agent = e.name.trim_end_matches(".jsonl").trim_start_matches("agent-").to_string();
                (e.path, Some(agent))
            })
            .collect();
        agents.sort();
        session.files.extend(agents.iter().map(|(path, _)| path.clone()));
        files.extend(agents);
    }
    for (file, agent) in files {
        let read = lines::json_lines(&file, |line| entry(&mut session, &line, agent.as_deref()));
        session.absorb(read);
    }
    session
}

/// One line of the transcript.
fn entry(session: &mut Session, line: &Value, file_agent: Option<&str>) {
    let at = time(str(line, "timestamp"));
    session.note_time(at);
    let content = line.pointer("/message/content").and_then(Value::as_array);
    match str(line, "type") {
        Some("assistant") => {
            let sidechain = line.get("isSidechain").and_then(Value::as_bool) == Some(true);
            let agent = match (file_agent, sidechain) {
                (Some(agent), _) => Some(agent.to_string()),
                (None, true) => Some(str(line, "agentId").unwrap_or("sidechain").to_string()),
                (None, false) => None,
            };
            for block in content.into_iter().flatten().filter(|b| str(b, "type") == Some("tool_use")) {
                let (Some(id), Some(name)) = (str(block, "id"), str(block, "name")) else {
                    session.skipped += 1;
                    continue;
                };
                session.add(Call {
                    id: id.to_string(),
                    host_tool: name.to_string(),
                    tools: vec![name.to_string()],
                    hook_id: Some(id.to_string()),
                    hook_session: Some(session.id.clone()),
                    agent: agent.clone(),
                    time: at,
                    refused: false,
                });
            }
        }
        Some("user") => {
            for block in content.into_iter().flatten().filter(|b| str(b, "type") == Some("tool_result")) {
                let refused = block.get("is_error").and_then(Value::as_bool) == Some(true)
                    && super::text_of(block.get("content")).trim_start().starts_with("<tool_use_error>");
                if let (true, Some(id)) = (refused, str(block, "tool_use_id")) {
                    session.refuse(id);
                }
            }
        }
        _ => {}
    }
}
