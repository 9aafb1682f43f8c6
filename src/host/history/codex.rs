//! Codex (0.169.0): `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl` (`~/.codex`
//! without `CODEX_HOME`), one rollout per thread. The first line is the thread's `session_meta`:
//! its `id`, and `session_id`, the session it belongs to (a subagent's thread has the parent's,
//! with `thread_source: "subagent"`). A tool call is a `response_item` of type `function_call`
//! (`name`, `namespace`, `arguments`, `call_id`), `custom_tool_call` (`apply_patch`) or
//! `local_shell_call`; its hooks get the session's `session_id` and the call's `call_id` as
//! `tool_use_id`, a subagent's too. A call of a tool Codex does not have is answered
//! `unsupported call: NAME` before any hook.

use super::{field, lines, plain_id, time, Call, Found, Reader, Session, Want};
use crate::host::Host;
use hookmux_sdk::{Env, Event};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub const READER: Reader = Reader { host: Host::Codex, place: "~/.codex/sessions", find, read, recognise };

/// The most of a rollout's first line read: it holds the thread's instructions.
const HEADER_BYTES: usize = 4 * 1024 * 1024;

fn sessions_dir(env: &Env) -> Option<PathBuf> {
    super::home_dir(env, "CODEX_HOME", ".codex").map(|dir| dir.join("sessions"))
}

/// Every rollout file under `sessions/YYYY/MM/DD/`, newest first.
fn rollouts(env: &Env) -> Vec<lines::Entry> {
    let Some(root) = sessions_dir(env).filter(|d| lines::is_dir(d)) else { return Vec::new() };
    let mut files = Vec::new();
    let mut dirs = vec![(root, 0)];
    while let Some((dir, depth)) = dirs.pop() {
        for entry in lines::entries(&dir) {
            if entry.is_dir && depth < 3 {
                dirs.push((entry.path, depth + 1));
            } else if !entry.is_dir && entry.name.starts_with("rollout-") && entry.name.ends_with(".jsonl") {
                files.push(entry);
            }
            if files.len() >= super::MAX_FILES {
                break;
            }
        }
    }
    files.sort_by_key(|f| std::cmp::Reverse(f.modified));
    files
}

/// What a rollout's first line says about its thread.
struct Header {
    thread: String,
    session: String,
    started: Option<SystemTime>,
}

fn header(meta: &Value) -> Option<Header> {
    if field(meta, "type") != Some("session_meta") {
        return None;
    }
    let payload = meta.get("payload")?;
    let thread = field(payload, "id").filter(|id| plain_id(id))?.to_string();
    let session = field(payload, "session_id").filter(|id| plain_id(id)).map_or_else(|| thread.clone(), str::to_string);
    Some(Header { thread, session, started: time(field(payload, "timestamp")) })
}

fn find(env: &Env, want: Want<'_>) -> Vec<Found> {
    let mut groups: Vec<Found> = Vec::new();
    let mut latest_start: Option<SystemTime> = None;
    for file in rollouts(env) {
        match want {
            Want::Since(since) if file.modified < since => break,
            // Past the newest session's start, no file is one of its subagents.
            Want::Latest if latest_start.is_some_and(|start| file.modified < start) => break,
            _ => {}
        }
        let Some(head) = lines::first_line(&file.path, HEADER_BYTES).as_ref().and_then(header) else { continue };
        let main = head.thread == head.session;
        if main && latest_start.is_none() {
            latest_start = Some(head.started.unwrap_or(file.modified));
        }
        match groups.iter_mut().find(|g| g.id == head.session) {
            Some(group) => {
                if main {
                    group.files.insert(0, file.path);
                } else {
                    group.files.push(file.path);
                }
                group.modified = group.modified.max(file.modified);
            }
            None => groups.push(Found {
                host: Host::Codex,
                id: head.session,
                files: vec![file.path],
                modified: file.modified,
            }),
        }
    }
    want.pick(groups)
}

fn recognise(path: &Path, head: &[u8]) -> Option<Vec<Found>> {
    let first = head.split(|&b| b == b'\n').next()?;
    let meta: Value = serde_json::from_slice(first).ok().or_else(|| lines::first_line(path, HEADER_BYTES))?;
    let head = header(&meta)?;
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
    Some(vec![Found { host: Host::Codex, id: head.session, files: vec![path.to_path_buf()], modified }])
}

fn read(found: &Found) -> Session {
    let mut session = Session::new(found);
    for file in &found.files {
        let mut agent: Option<String> = None;
        let read = lines::json_lines(file, |line| {
            if let Some(head) = header(&line) {
                session.note_time(head.started);
                if head.thread != head.session {
                    let payload = line.get("payload").unwrap_or(&Value::Null);
                    agent = Some(field(payload, "agent_nickname").map_or(head.thread, str::to_string));
                }
                return;
            }
            item(&mut session, &line, agent.as_deref());
        });
        session.absorb(read);
    }
    session
}

/// One `response_item` line: a call, or a call's output.
fn item(session: &mut Session, line: &Value, agent: Option<&str>) {
    if field(line, "type") != Some("response_item") {
        return;
    }
    let Some(payload) = line.get("payload") else { return };
    let at = time(field(line, "timestamp"));
    match field(payload, "type") {
        Some(kind @ ("function_call" | "custom_tool_call" | "local_shell_call")) => {
            let Some(id) = field(payload, "call_id") else {
                session.skipped += 1;
                return;
            };
            let (host_tool, hook_tool, input) = hook_view(kind, payload);
            session.add(Call {
                id: id.to_string(),
                host_tool,
                tools: claude_tools(&hook_tool, input),
                hook_id: Some(id.to_string()),
                hook_session: Some(session.id.clone()),
                agent: agent.map(str::to_string),
                time: at,
                refused: false,
            });
        }
        Some("function_call_output" | "custom_tool_call_output") => {
            let output = payload.get("output");
            let text = match output {
                Some(Value::Object(o)) => super::text_of(o.get("content")),
                other => super::text_of(other),
            };
            if text.starts_with("unsupported call") || text.starts_with("unsupported custom tool call") {
                if let Some(id) = field(payload, "call_id") {
                    session.refuse(id);
                }
            }
        }
        _ => {}
    }
}

/// The call as the model made it (`exec_command`, `echo` in namespace `mcp__probe`), and as
/// Codex's hooks name it, with the input they get (`Bash {"command"}`, `mcp__probe__echo`).
fn hook_view(kind: &str, payload: &Value) -> (String, String, Value) {
    let name = field(payload, "name").unwrap_or(if kind == "local_shell_call" { "local_shell" } else { "" });
    let namespace = field(payload, "namespace").unwrap_or_default();
    let arguments = match payload.get("arguments") {
        Some(Value::String(text)) => serde_json::from_str(text).unwrap_or(Value::Null),
        Some(other) => other.clone(),
        None => Value::Null,
    };
    let shown = if namespace.is_empty() { name.to_string() } else { format!("{namespace}.{name}") };
    let (hook, input) = match (namespace, name) {
        (_, "exec_command" | "shell_command" | "shell" | "local_shell" | "container.exec") => {
            let command = match arguments.get("cmd").or_else(|| arguments.get("command")) {
                Some(Value::Array(argv)) => argv.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" "),
                Some(Value::String(text)) => text.clone(),
                _ => String::new(),
            };
            ("Bash".to_string(), json!({ "command": command }))
        }
        (_, "apply_patch") => {
            let patch = field(payload, "input").map(str::to_string).unwrap_or_default();
            ("apply_patch".to_string(), json!({ "command": patch }))
        }
        (ns, tool) if ns.starts_with("mcp__") => (format!("{}__{tool}", ns.trim_end_matches('_')), arguments),
        // Seen in 0.169.0: `spawn_agent` keeps its name, the namespace's other tools get it glued
        // on (`multi_agent_v1wait_agent`).
        (_, "spawn_agent") | ("", _) => (name.to_string(), arguments),
        (ns, tool) => (format!("{ns}{tool}"), arguments),
    };
    (shown, hook, input)
}

/// The Claude tools hookmux's Codex adapter makes of the call: one, or one per file of a patch.
fn claude_tools(tool: &str, input: Value) -> Vec<String> {
    let event = Event::from_fields(serde_json::Map::from_iter([
        ("hook_event_name".to_string(), Value::from("PreToolUse")),
        ("tool_name".to_string(), Value::from(tool)),
        ("tool_input".to_string(), input),
        ("cwd".to_string(), Value::from("/")),
    ]));
    let mut tools: Vec<String> = Vec::new();
    for event in crate::host::codex::decode(&event).events {
        let name = event.tool_name().unwrap_or(tool).to_string();
        if !tools.contains(&name) {
            tools.push(name);
        }
    }
    if tools.is_empty() {
        tools.push(tool.to_string());
    }
    tools
}
