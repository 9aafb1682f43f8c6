//! The transcript files: where they live, what a line holds, rotation and pruning.

use crate::safe_fs;
use hookmux_sdk::{Env, Event, HookEvent};
use serde_json::{json, Map, Value};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A transcript that would grow past this many bytes is rotated first.
pub const ROTATE_AT: u64 = 1 << 20;

/// Sessions whose transcript has not changed for this long are deleted.
pub const KEEP_FOR: Duration = Duration::from_secs(14 * 24 * 3600);

/// `hookmux/` in the user's state folder (`${XDG_STATE_HOME:-$HOME/.local/state}/hookmux` on
/// Unix); `None` when the environment places no state folder.
pub fn state_dir(env: &Env) -> Option<PathBuf> {
    hookmux_platform::dirs::state(env).map(|dir| dir.join("hookmux"))
}

/// One line of a transcript, in Claude Code's transcript shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// What the user asked.
    Prompt { text: String },
    /// A tool call the model made.
    ToolUse { id: String, name: String, input: Value },
    /// What the tool returned.
    ToolResult { id: String, response: Value, is_error: bool },
    /// The model's last message of a turn.
    AssistantText { text: String },
}

/// The entry a Claude-shaped event stands for, if any.
pub fn entry_for(event: &Event) -> Option<Entry> {
    let id = || event.tool_use_id().unwrap_or_default().to_string();
    match event.kind()? {
        HookEvent::UserPromptSubmit => Some(Entry::Prompt { text: event.prompt()?.to_string() }),
        HookEvent::PreToolUse => Some(Entry::ToolUse {
            id: id(),
            name: event.tool_name()?.to_string(),
            input: event.get("tool_input").cloned().unwrap_or_else(|| json!({})),
        }),
        HookEvent::PostToolUse => Some(Entry::ToolResult {
            id: id(),
            response: event.tool_response().cloned().unwrap_or(Value::Null),
            is_error: false,
        }),
        HookEvent::PostToolUseFailure => Some(Entry::ToolResult {
            id: id(),
            response: event.get("error").cloned().unwrap_or(Value::Null),
            is_error: true,
        }),
        HookEvent::Stop | HookEvent::SubagentStop => {
            Some(Entry::AssistantText { text: event.str("last_assistant_message")?.to_string() })
        }
        _ => None,
    }
}

impl Entry {
    /// The JSON line, without its newline.
    pub fn to_line(&self, session: &str, cwd: Option<&Path>, now: SystemTime) -> String {
        let (kind, message) = match self {
            Entry::Prompt { text } => ("user", json!({"role": "user", "content": text})),
            Entry::ToolUse { id, name, input } => (
                "assistant",
                json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}),
            ),
            Entry::ToolResult { id, response, is_error } => {
                let content = match response {
                    Value::String(text) => Value::String(text.clone()),
                    other => Value::String(other.to_string()),
                };
                (
                    "user",
                    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error}]}),
                )
            }
            Entry::AssistantText { text } => {
                ("assistant", json!({"role": "assistant", "content": [{"type": "text", "text": text}]}))
            }
        };
        let mut line = Map::new();
        line.insert("type".into(), kind.into());
        line.insert("timestamp".into(), humantime::format_rfc3339_millis(now).to_string().into());
        line.insert("sessionId".into(), session.into());
        if let Some(cwd) = cwd {
            line.insert("cwd".into(), cwd.to_string_lossy().into_owned().into());
        }
        line.insert("message".into(), message);
        if let Entry::ToolResult { response, .. } = self {
            line.insert("toolUseResult".into(), response.clone());
        }
        Value::Object(line).to_string()
    }
}

/// The transcripts folder.
#[derive(Clone, Debug)]
pub struct Transcripts {
    dir: PathBuf,
}

impl Transcripts {
    /// `<state dir>/transcripts`.
    pub fn in_state_dir(env: &Env) -> Option<Transcripts> {
        state_dir(env).map(|dir| Transcripts::at(dir.join("transcripts")))
    }

    pub fn at(dir: impl Into<PathBuf>) -> Transcripts {
        Transcripts { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The session's transcript (which may not exist yet).
    pub fn path(&self, session: &str) -> PathBuf {
        self.dir.join(format!("{}.jsonl", file_stem(session)))
    }

    /// Where the previous part of a rotated transcript is.
    pub fn rotated_path(&self, session: &str) -> PathBuf {
        self.dir.join(format!("{}.1.jsonl", file_stem(session)))
    }

    /// Appends one entry and returns the transcript's path. Each line is one `write` to a file
    /// opened for appending, under a lock shared by every hookmux process, so that hooks of
    /// parallel tool calls neither interleave lines nor rotate under each other.
    pub fn append(&self, session: &str, entry: &Entry, now: SystemTime) -> io::Result<PathBuf> {
        self.append_line(session, &entry.to_line(session, None, now), now)
    }

    /// As [`append`](Transcripts::append), with the event's `cwd` on the line.
    pub fn append_with_cwd(
        &self,
        session: &str,
        entry: &Entry,
        cwd: Option<&Path>,
        now: SystemTime,
    ) -> io::Result<PathBuf> {
        self.append_line(session, &entry.to_line(session, cwd, now), now)
    }

    fn append_line(&self, session: &str, line: &str, now: SystemTime) -> io::Result<PathBuf> {
        safe_fs::private_dir(&self.dir)?;
        let _lock = Lock::acquire(&self.dir.join(".lock"))?;
        let path = self.path(session);
        let size = match fs::symlink_metadata(&path) {
            Ok(meta) => Some(meta.len()),
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => return Err(with_path(err, &path)),
        };
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        match size {
            None => {
                // A new session: the moment to let old ones go.
                let _ = self.prune(now);
            }
            Some(size) if size > 0 && size + bytes.len() as u64 > ROTATE_AT => {
                fs::rename(&path, self.rotated_path(session)).map_err(|err| with_path(err, &path))?;
            }
            Some(_) => {}
        }
        // Never through a symbolic link: the model can plant one with the tools it runs.
        let mut file = safe_fs::open_no_follow(OpenOptions::new().create(true).append(true), &path)
            .map_err(|err| with_path(err, &path))?;
        file.write_all(&bytes).map_err(|err| with_path(err, &path))?;
        Ok(path)
    }

    /// Deletes the transcripts (and rotated parts) of sessions untouched for [`KEEP_FOR`].
    /// Returns how many files went.
    pub fn prune(&self, now: SystemTime) -> io::Result<usize> {
        let mut removed = 0;
        for entry in fs::read_dir(&self.dir)?.filter_map(Result::ok) {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
                continue;
            }
            let Ok(modified) = entry.metadata().and_then(|m| m.modified()) else { continue };
            if now.duration_since(modified).is_ok_and(|age| age > KEEP_FOR) && fs::remove_file(&path).is_ok() {
                removed += 1;
            }
        }
        Ok(removed)
    }
}

/// A file-name-safe stem for a session id: the id itself when it is plain, else a hash of it.
pub(crate) fn file_stem(id: &str) -> String {
    let plain = !id.is_empty()
        && id.len() <= 128
        && !id.starts_with('.')
        && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        id.to_string()
    } else {
        format!("id-{:016x}", fnv1a(id.as_bytes()))
    }
}

/// FNV-1a, 64 bits: a stable name for an id that cannot be a file name as it is.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3))
}

pub(crate) fn with_path(err: io::Error, path: &Path) -> io::Error {
    io::Error::new(err.kind(), format!("{}: {err}", path.display()))
}

/// An exclusive lock on a file, released when dropped.
pub(crate) struct Lock {
    file: File,
}

impl Lock {
    pub(crate) fn acquire(path: &Path) -> io::Result<Lock> {
        let file = safe_fs::open_no_follow(OpenOptions::new().create(true).truncate(false).write(true), path)
            .map_err(|err| with_path(err, path))?;
        hookmux_platform::lock::exclusive(&file).map_err(|err| with_path(err, path))?;
        Ok(Lock { file })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Closing the file would release the lock as well.
        let _ = hookmux_platform::lock::unlock(&self.file);
    }
}
