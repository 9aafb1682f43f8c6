//! OpenCode (1.18.33): one SQLite database, `~/.local/share/opencode/opencode.db`
//! (`$XDG_DATA_HOME/opencode/opencode.db` when set). A session is a row of `session`; a
//! subagent's session is a row of its own whose `parent_id` names its parent. A tool call is a
//! row of `part` whose JSON `data` has `type: "tool"`, `tool`, `callID` and `state`. The plugin
//! hands hookmux `callID` as `tool_use_id`, and a subagent's calls come with the subagent's own
//! session id. The database is opened read-only; OpenCode may be writing to it meanwhile.

use super::{lines, plain_id, time_ms, Call, Found, Reader, Session, Want};
use crate::host::Host;
use hookmux_sdk::Env;
use rusqlite::{Connection, OpenFlags};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

pub const READER: Reader =
    Reader { host: Host::Opencode, place: "~/.local/share/opencode/opencode.db", find, read, recognise };

/// How deep subagents of subagents are followed.
const MAX_DEPTH: usize = 8;

fn database(env: &Env) -> Option<PathBuf> {
    super::home_dir(env, "XDG_DATA_HOME", ".local/share").map(|dir| dir.join("opencode").join("opencode.db"))
}

/// The database, read-only, when it is a regular file (not a link).
fn open(path: &Path) -> Option<Connection> {
    std::fs::symlink_metadata(path).ok().filter(|m| m.is_file())?;
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_NOFOLLOW;
    let conn = Connection::open_with_flags(path, flags).ok()?;
    conn.busy_timeout(Duration::from_millis(500)).ok()?;
    Some(conn)
}

fn find(env: &Env, want: Want<'_>) -> Vec<Found> {
    match database(env) {
        Some(db) => sessions(&db, want),
        None => Vec::new(),
    }
}

/// The database's top-level sessions; by id, the top-level session of a subagent's too.
fn sessions(db: &Path, want: Want<'_>) -> Vec<Found> {
    let Some(conn) = open(db) else { return Vec::new() };
    let since = match want {
        Want::Since(since) => since.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64),
        _ => 0,
    };
    let limit = if matches!(want, Want::Latest) { 1 } else { super::MAX_FILES as i64 };
    let Ok(mut query) = conn.prepare(
        "SELECT id, parent_id, time_updated FROM session WHERE (parent_id IS NULL AND time_updated >= ?1) OR ?3 \
         ORDER BY time_updated DESC LIMIT ?2",
    ) else {
        return Vec::new();
    };
    let by_id = matches!(want, Want::Id(_));
    let rows = query.query_map((since, limit, by_id), |row| {
        Ok((row.get::<_, String>(0)?, row.get::<_, Option<String>>(1)?, row.get::<_, Option<i64>>(2)?))
    });
    let rows: Vec<(String, Option<String>, Option<i64>)> =
        rows.map(|rows| rows.filter_map(Result::ok).collect()).unwrap_or_default();
    let mut found: Vec<Found> = Vec::new();
    for (id, parent, updated) in &rows {
        let modified = time_ms(*updated).unwrap_or(SystemTime::UNIX_EPOCH);
        let id = match want {
            Want::Id(prefix) if id.starts_with(prefix) => top(&rows, id),
            Want::Id(_) => continue,
            _ if parent.is_some() => continue,
            _ => id.clone(),
        };
        if plain_id(&id) && !found.iter().any(|f| f.id == id) {
            found.push(Found { host: Host::Opencode, id, files: vec![db.to_path_buf()], modified });
        }
    }
    if let Want::Id(_) = want {
        // Found by a subagent's id, a session's own does not start with it.
        return found;
    }
    want.pick(found)
}

/// The top-level session above `id`.
fn top(rows: &[(String, Option<String>, Option<i64>)], id: &str) -> String {
    let mut id = id;
    for _ in 0..MAX_DEPTH {
        match rows.iter().find(|(known, _, _)| known == id).and_then(|(_, parent, _)| parent.as_deref()) {
            Some(parent) => id = parent,
            None => break,
        }
    }
    id.to_string()
}

fn recognise(path: &Path, head: &[u8]) -> Option<Vec<Found>> {
    if !head.starts_with(b"SQLite format 3\0") {
        return None;
    }
    let conn = open(path)?;
    conn.prepare("SELECT id, parent_id, time_updated FROM session LIMIT 0").ok()?;
    Some(sessions(path, Want::Since(SystemTime::UNIX_EPOCH)))
}

fn read(found: &Found) -> Session {
    let mut session = Session::new(found);
    let Some(conn) = found.files.first().and_then(|db| open(db)) else {
        session.skipped += 1;
        return session;
    };
    // The session and its subagents' sessions, with each subagent's name.
    let mut ids: Vec<(String, Option<String>)> = vec![(found.id.clone(), None)];
    let mut level = vec![found.id.clone()];
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for parent in &level {
            let Ok(mut query) = conn.prepare("SELECT id, agent FROM session WHERE parent_id = ?1 LIMIT 1000") else {
                break;
            };
            let children =
                query.query_map([parent], |row| Ok((row.get::<_, String>(0)?, row.get::<_, Option<String>>(1)?)));
            for (id, agent) in children.into_iter().flatten().filter_map(Result::ok) {
                if plain_id(&id) && !ids.iter().any(|(known, _)| *known == id) {
                    next.push(id.clone());
                    ids.push((id.clone(), Some(agent.unwrap_or(id))));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    for (id, agent) in &ids {
        let Ok(mut query) = conn.prepare(
            "SELECT time_created, data FROM part WHERE session_id = ?1 AND length(data) < ?2 \
             AND json_valid(data) AND json_extract(data, '$.type') = 'tool' ORDER BY time_created, id LIMIT ?3",
        ) else {
            session.skipped += 1;
            continue;
        };
        let rows = query.query_map((id, lines::MAX_LINE_BYTES as i64, super::MAX_CALLS as i64), |row| {
            Ok((row.get::<_, Option<i64>>(0)?, row.get::<_, String>(1)?))
        });
        for (created, data) in rows.into_iter().flatten().filter_map(Result::ok) {
            match serde_json::from_str::<Value>(&data) {
                Ok(part) => tool_part(&mut session, &part, id, agent.as_deref(), time_ms(created)),
                Err(_) => session.skipped += 1,
            }
        }
    }
    session
}

fn tool_part(session: &mut Session, part: &Value, session_id: &str, agent: Option<&str>, at: Option<SystemTime>) {
    let (Some(id), Some(tool)) = (super::field(part, "callID"), super::field(part, "tool")) else {
        session.skipped += 1;
        return;
    };
    let input = part.pointer("/state/input").cloned().unwrap_or(Value::Null);
    session.add(Call {
        id: id.to_string(),
        host_tool: tool.to_string(),
        tools: claude_tools(tool, &input),
        hook_id: Some(id.to_string()),
        hook_session: Some(session_id.to_string()),
        agent: agent.map(str::to_string),
        time: at,
        refused: false,
    });
}

/// The Claude tools hookmux's OpenCode adapter makes of a call. The plugin tells hookmux the MCP
/// servers (`server_tool` → `mcp__server__tool`); the database does not, so a tool that is not
/// one of OpenCode's own and has a `_` is taken for an MCP server's.
fn claude_tools(tool: &str, input: &Value) -> Vec<String> {
    use crate::host::opencode::{claude_tool, TOOL_NAMES};
    if tool == "apply_patch" {
        let patch = super::field(input, "patchText").unwrap_or_default();
        let mut tools: Vec<String> = Vec::new();
        for file in crate::host::patch::parse(patch) {
            let name = if file.op == crate::host::patch::PatchOp::Add { "Write" } else { "Edit" };
            if !tools.iter().any(|t| t == name) {
                tools.push(name.to_string());
            }
        }
        return if tools.is_empty() { vec!["Edit".to_string()] } else { tools };
    }
    let own = TOOL_NAMES.iter().any(|(oc, _)| *oc == tool);
    let server: Vec<String> = tool.split_once('_').filter(|_| !own).map(|(s, _)| s.to_string()).into_iter().collect();
    vec![claude_tool(tool, &server)]
}
