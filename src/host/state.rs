//! What one session's events leave for later ones, for hosts whose events cannot carry it
//! themselves (Gemini CLI, Qwen Code), under hookmux's state folder
//! (`${XDG_STATE_HOME:-~/.local/state}/hookmux/<host>/<session>/`): a `continue: false` for the
//! next model call, PreToolUse context for the tool's result, how many Stop blocks in a row
//! continued the turn, what was already told once. Nothing here is needed for safety: when the
//! folder cannot be used, the answer is what it would be without it, and the problem is told on
//! stderr. The folders are private (`0700`, the user's own, no links), and no file is written or
//! read through a link.

use crate::engine::dispatch::World;
use hookmux_handlers::safe_fs;
use sha2::{Digest, Sha256};
use std::io::Read as _;
use std::path::PathBuf;

pub struct Store {
    /// hookmux's state folder: nothing below it may be a link.
    base: PathBuf,
    /// The host's folder in it (`gemini`, `qwen`).
    host: &'static str,
    /// Its name as the user knows it, for messages.
    label: &'static str,
    dir: PathBuf,
}

impl Store {
    /// The session's folder for `host` (not created yet; `label` names the host in messages);
    /// `None` without a session id or a state folder.
    pub fn open(world: &World, host: &'static str, label: &'static str, session: Option<&str>) -> Option<Store> {
        let session = session.filter(|s| !s.is_empty())?;
        let digest = Sha256::digest(session.as_bytes());
        let name: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
        let base = hookmux_handlers::transcript::state_dir(&world.env)?;
        Some(Store { dir: base.join(host).join(name), base, host, label })
    }

    /// Keeps `text` under `name` for the session's later events.
    pub fn write(&self, name: &str, text: &str) {
        let result = [&self.base, &self.base.join(self.host), &self.dir]
            .iter()
            .try_for_each(|dir| safe_fs::private_dir(dir))
            .and_then(|()| safe_fs::replace(&self.base, &self.dir.join(name), text.as_bytes()).map_err(|(_, e)| e));
        if let Err(err) = result {
            eprintln!("hookmux: cannot keep {} session state in {}: {err}", self.label, self.dir.display());
        }
    }

    /// What an earlier event kept under `name`.
    pub fn read(&self, name: &str) -> Option<String> {
        if safe_fs::check_private_dir(&self.dir).is_err() {
            return None;
        }
        let mut file = safe_fs::open_no_follow(std::fs::OpenOptions::new().read(true), &self.dir.join(name)).ok()?;
        let mut text = String::new();
        file.read_to_string(&mut text).ok()?;
        Some(text)
    }

    /// What an earlier event kept under `name`, given once: it is gone after.
    pub fn take(&self, name: &str) -> Option<String> {
        let text = self.read(name)?;
        self.remove(name);
        Some(text)
    }

    pub fn remove(&self, name: &str) {
        let _ = std::fs::remove_file(self.dir.join(name));
    }

    pub fn put_stop(&self, reason: &str) {
        self.write("stop", reason);
    }

    pub fn take_stop(&self) -> Option<String> {
        self.take("stop")
    }

    pub fn put_context(&self, key: &str, context: &str) {
        self.write(&format!("context-{key}"), context);
    }

    pub fn take_context(&self, key: &str) -> Option<String> {
        self.take(&format!("context-{key}"))
    }

    pub fn stop_blocks(&self) -> u32 {
        self.read("stop-blocks").and_then(|t| t.trim().parse().ok()).unwrap_or(0)
    }

    pub fn set_stop_blocks(&self, count: u32) {
        if count == 0 {
            self.remove("stop-blocks");
        } else {
            self.write("stop-blocks", &count.to_string());
        }
    }

    /// The session ended: nothing of it is needed any more.
    pub fn forget(&self) {
        if safe_fs::check_private_dir(&self.dir).is_ok() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
