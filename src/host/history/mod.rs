//! What each host's own transcript says its agent did: every tool call of a session, the main
//! agent's and its subagents', in one shape ([`Session`], [`Call`]), so that `hookmux log
//! coverage` can put them beside the dispatch trace and tell which calls no hook saw.
//!
//! One reader per host ([`READERS`]), each a [`Reader`]: where the host keeps its sessions
//! ([`Reader::find`]), how one reads ([`Reader::read`]), and whether a file given on the command
//! line is one of its own ([`Reader::recognise`]). A host that gains an adapter adds a file here
//! and a line to [`READERS`].
//!
//! A transcript is written by the host, but what is in it comes from the model and the tools it
//! ran. The readers therefore trust nothing in it to steer them: the files read are the ones the
//! host's own folder holds (from the environment: `HOME`, `CODEX_HOME`, …) or the one the user
//! named, never a path found inside a transcript; below the host's folder nothing is followed
//! through a symbolic link, and what is not a regular file (a FIFO, a device) is not opened for
//! reading. Reading is bounded ([`lines`]): a line too long, a line that is not JSON or not of a
//! known shape is skipped and counted, and a file or session past its bound stops being read and
//! says so.

pub mod claude;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod gemini;
pub mod lines;
pub mod opencode;
pub mod qwen;

use super::Host;
use hookmux_sdk::Env;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The most tool calls kept of one session; past it the session is marked truncated.
pub const MAX_CALLS: usize = 200_000;

/// The most sessions one reader returns for a time window.
pub const MAX_SESSIONS: usize = 500;

pub use lines::MAX_FILES;

/// One tool call the agent made, as the host recorded it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Call {
    /// The host's id of the call.
    pub id: String,
    /// The tool as the host named it to the model (`exec_command`, `run_shell_command`, …).
    pub host_tool: String,
    /// The Claude Code names hooks match it against (`Bash`): one, or one per file a patch
    /// touches; the first is the one the trace records.
    pub tools: Vec<String>,
    /// The `tool_use_id` its hooks get, when the host sends one (Copilot sends none).
    pub hook_id: Option<String>,
    /// The `session_id` its hooks get: the session's own, or a subagent's where the host gives
    /// a subagent a session of its own (Copilot, OpenCode); `None` when it cannot be told.
    pub hook_session: Option<String>,
    /// The subagent that made it (its id or name), `None` for the main agent.
    pub agent: Option<String>,
    pub time: Option<SystemTime>,
    /// The host refused the call before its hooks could run (an unknown tool, input that does not
    /// fit the tool's schema): it did not run, and no hook was ever to see it.
    pub refused: bool,
}

impl Call {
    /// The Claude name the trace records for it.
    pub fn tool(&self) -> &str {
        self.tools.first().map_or(self.host_tool.as_str(), String::as_str)
    }
}

/// One session of a host, read from its transcripts.
#[derive(Clone, Debug)]
pub struct Session {
    pub host: Host,
    pub id: String,
    /// The first time the transcript gives.
    pub started: Option<SystemTime>,
    /// When its files last changed.
    pub modified: SystemTime,
    /// In the order the host recorded them.
    pub calls: Vec<Call>,
    /// The files read, the main one first.
    pub files: Vec<PathBuf>,
    /// Lines or records that could not be read (not JSON, too long, not of a known shape).
    pub skipped: usize,
    /// A bound was reached: calls past it are not here.
    pub truncated: bool,
    /// Where each call id is in `calls`.
    at: HashMap<String, usize>,
}

impl Session {
    pub(crate) fn new(found: &Found) -> Session {
        Session {
            host: found.host,
            id: found.id.clone(),
            started: None,
            modified: found.modified,
            calls: Vec::new(),
            files: found.files.clone(),
            skipped: 0,
            truncated: false,
            at: HashMap::new(),
        }
    }

    /// Adds a call, once per id (a host may record one call in several lines); the later record
    /// of a call fills what the earlier one lacked.
    pub(crate) fn add(&mut self, call: Call) {
        if let Some(known) = self.at.get(&call.id).and_then(|&at| self.calls.get_mut(at)) {
            known.refused |= call.refused;
            known.time = known.time.or(call.time);
            known.agent = known.agent.take().or(call.agent);
            known.hook_session = known.hook_session.take().or(call.hook_session);
            return;
        }
        if self.calls.len() >= MAX_CALLS {
            self.truncated = true;
            return;
        }
        self.started = match (self.started, call.time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if !call.id.is_empty() {
            self.at.insert(call.id.clone(), self.calls.len());
        }
        self.calls.push(call);
    }

    /// Marks the call with this id as refused by the host, when it is there.
    fn refuse(&mut self, id: &str) {
        if let Some(call) = self.at.get(id).and_then(|&at| self.calls.get_mut(at)) {
            call.refused = true;
        }
    }

    fn note_time(&mut self, time: Option<SystemTime>) {
        if let Some(time) = time {
            self.started = Some(self.started.map_or(time, |t| t.min(time)));
        }
    }

    /// Counts what reading a file skipped; a file that could not be read at all is one skip.
    fn absorb(&mut self, read: std::io::Result<lines::Stats>) {
        match read {
            Ok(stats) => {
                self.skipped += stats.skipped;
                self.truncated |= stats.truncated;
            }
            Err(_) => self.skipped += 1,
        }
    }
}

/// A session a reader found: enough to pick it, before reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub host: Host,
    pub id: String,
    /// Its files, the main one first (OpenCode: the database).
    pub files: Vec<PathBuf>,
    /// When its files last changed.
    pub modified: SystemTime,
}

/// Which sessions to find.
#[derive(Clone, Copy, Debug)]
pub enum Want<'a> {
    /// The newest one.
    Latest,
    /// Those changed since this time, newest first.
    Since(SystemTime),
    /// Those whose id starts with this.
    Id(&'a str),
}

impl Want<'_> {
    /// Keeps what is wanted of `found`, newest first.
    fn pick(self, mut found: Vec<Found>) -> Vec<Found> {
        found.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.id.cmp(&b.id)));
        match self {
            Want::Latest => found.truncate(1),
            Want::Since(since) => {
                found.retain(|f| f.modified >= since);
                found.truncate(MAX_SESSIONS);
            }
            Want::Id(prefix) => found.retain(|f| f.id.starts_with(prefix)),
        }
        found
    }
}

/// One host's reader.
pub struct Reader {
    pub host: Host,
    /// Where the host keeps its sessions, for messages.
    pub place: &'static str,
    /// The sessions wanted, newest first.
    pub find: fn(&Env, Want<'_>) -> Vec<Found>,
    pub read: fn(&Found) -> Session,
    /// The sessions of a file named on the command line, when it is one of this host's (its
    /// first bytes say): the file, and what belongs with it beside it (Claude Code's subagents).
    pub recognise: fn(&Path, &[u8]) -> Option<Vec<Found>>,
}

/// Every host whose transcripts hookmux reads. Qwen Code's lines have Claude Code's fields: it
/// comes before Claude Code, so that a file named on the command line is told by its `parts`.
pub const READERS: &[Reader] =
    &[qwen::READER, claude::READER, codex::READER, gemini::READER, copilot::READER, opencode::READER, cline::READER];

/// The reader of `host`, if hookmux has one.
pub fn reader(host: Host) -> Option<&'static Reader> {
    READERS.iter().find(|r| r.host == host)
}

/// The text field `key` of a JSON object.
fn field<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// The text of a tool's result: a string, or the text blocks of a list (the first 4 KiB).
fn text_of(content: Option<&Value>) -> String {
    let mut text = String::new();
    match content {
        Some(Value::String(s)) => text.push_str(s),
        Some(Value::Array(blocks)) => {
            for block in blocks {
                match block {
                    Value::String(s) => text.push_str(s),
                    other => text.push_str(field(other, "text").unwrap_or_default()),
                }
                if text.len() > 4096 {
                    break;
                }
            }
        }
        _ => {}
    }
    text
}

/// `RFC 3339` text as a time, when it is one.
fn time(text: Option<&str>) -> Option<SystemTime> {
    humantime::parse_rfc3339_weak(text?).ok()
}

/// Milliseconds since the epoch as a time.
fn time_ms(ms: Option<i64>) -> Option<SystemTime> {
    let ms = u64::try_from(ms?).ok()?;
    SystemTime::UNIX_EPOCH.checked_add(std::time::Duration::from_millis(ms))
}

/// Whether `id` may name a session in a file name: no separators, no dots leading anywhere.
fn plain_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 200 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The host's folder from an absolute variable, else `$HOME/<rest>`.
fn home_dir(env: &Env, var: &str, rest: &str) -> Option<PathBuf> {
    env.path(var)
        .filter(|p| p.is_absolute())
        .or_else(|| hookmux_platform::dirs::home(env).filter(|h| h.is_absolute()).map(|h| h.join(rest)))
}

#[cfg(test)]
mod tests;
