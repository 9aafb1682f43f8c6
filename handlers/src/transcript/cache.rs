//! The tool-input cache: PreToolUse's `tool_input`, for a PostToolUse that arrives without one.

use super::store::{file_stem, state_dir, with_path};
use crate::safe_fs;
use hookmux_sdk::Env;
use serde_json::{json, Value};
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a cached input is good for. A tool that runs longer than this loses its input.
pub const TOOL_INPUT_TTL: Duration = Duration::from_secs(10 * 60);

/// `<state dir>/tool-inputs/<session>/<tool_use_id>.json`, one small file per pending call.
#[derive(Clone, Debug)]
pub struct ToolInputCache {
    dir: PathBuf,
}

impl ToolInputCache {
    pub fn in_state_dir(env: &Env) -> Option<ToolInputCache> {
        state_dir(env).map(|dir| ToolInputCache::at(dir.join("tool-inputs")))
    }

    pub fn at(dir: impl Into<PathBuf>) -> ToolInputCache {
        ToolInputCache { dir: dir.into() }
    }

    fn entry(&self, session: &str, tool_use_id: &str) -> PathBuf {
        self.dir.join(file_stem(session)).join(format!("{}.json", file_stem(tool_use_id)))
    }

    /// Stores a call's input (temp file + rename, so a reader never sees half of it), and drops
    /// this session's entries that have expired.
    pub fn put(&self, session: &str, tool_use_id: &str, input: &Value, now: SystemTime) -> io::Result<()> {
        let path = self.entry(session, tool_use_id);
        let dir = path.parent().unwrap_or(&self.dir).to_path_buf();
        // Both folders private and real: a session folder linked elsewhere would take the entry
        // and have that folder's old files expired.
        safe_fs::private_dir(&self.dir)?;
        safe_fs::private_dir(&dir)?;
        expire(&dir, now);
        self.expire_sessions(now);
        let record = json!({"stored_at": seconds(now), "tool_input": input});
        let mut temp = tempfile::NamedTempFile::new_in(&dir).map_err(|err| with_path(err, &dir))?;
        temp.write_all(record.to_string().as_bytes()).map_err(|err| with_path(err, temp.path()))?;
        temp.persist(&path).map_err(|err| with_path(err.error, &path))?;
        Ok(())
    }

    /// The input stored for this call, removed as it is read; `None` when there is none, it
    /// has expired, or it cannot be read.
    pub fn take(&self, session: &str, tool_use_id: &str, now: SystemTime) -> Option<Value> {
        let path = self.entry(session, tool_use_id);
        let mut text = String::new();
        safe_fs::open_no_follow(fs::OpenOptions::new().read(true), &path).ok()?.read_to_string(&mut text).ok()?;
        let _ = fs::remove_file(&path);
        let record: Value = serde_json::from_str(&text).ok()?;
        let stored_at = record.get("stored_at").and_then(Value::as_u64)?;
        if seconds(now).saturating_sub(stored_at) > TOOL_INPUT_TTL.as_secs() {
            return None;
        }
        record.get("tool_input").cloned()
    }
}

impl ToolInputCache {
    /// Removes the folders of sessions whose last entry has expired: calls that never got their
    /// PostToolUse leave them behind.
    fn expire_sessions(&self, now: SystemTime) {
        let Ok(entries) = fs::read_dir(&self.dir) else { return };
        for entry in entries.filter_map(Result::ok) {
            let stale = entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|modified| now.duration_since(modified).is_ok_and(|age| age > TOOL_INPUT_TTL));
            if stale {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// Removes the expired entries of one session's folder.
fn expire(dir: &Path, now: SystemTime) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.filter_map(Result::ok) {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|modified| now.duration_since(modified).is_ok_and(|age| age > TOOL_INPUT_TTL));
        if old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

fn seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}
