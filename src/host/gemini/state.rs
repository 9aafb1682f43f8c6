//! What one Gemini session's events leave for later ones, under hookmux's state folder
//! (`${XDG_STATE_HOME:-~/.local/state}/hookmux/gemini/<session>/`): a `continue: false` for the
//! next model call, PreToolUse context for the tool's AfterTool, and how many Stop blocks in a row
//! continued the turn. Nothing here is needed for safety: when the folder cannot be used, the
//! answer is what it would be without it, and the problem is told on stderr.

use crate::engine::dispatch::World;
use sha2::{Digest, Sha256};
use std::path::PathBuf;

pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// The session's folder (not created yet); `None` without a session id or a state folder.
    pub fn open(world: &World, session: Option<&str>) -> Option<Store> {
        let session = session.filter(|s| !s.is_empty())?;
        let digest = Sha256::digest(session.as_bytes());
        let name: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
        let base = hookmux_handlers::transcript::state_dir(&world.env)?;
        Some(Store { dir: base.join("gemini").join(name) })
    }

    fn write(&self, name: &str, text: &str) {
        let result = std::fs::create_dir_all(&self.dir).and_then(|()| std::fs::write(self.dir.join(name), text));
        if let Err(err) = result {
            eprintln!("hookmux: cannot keep Gemini session state in {}: {err}", self.dir.display());
        }
    }

    fn take(&self, name: &str) -> Option<String> {
        let path = self.dir.join(name);
        let text = std::fs::read_to_string(&path).ok()?;
        let _ = std::fs::remove_file(&path);
        Some(text)
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
        std::fs::read_to_string(self.dir.join("stop-blocks")).ok().and_then(|t| t.trim().parse().ok()).unwrap_or(0)
    }

    pub fn set_stop_blocks(&self, count: u32) {
        if count == 0 {
            let _ = std::fs::remove_file(self.dir.join("stop-blocks"));
        } else {
            self.write("stop-blocks", &count.to_string());
        }
    }

    /// The session ended: nothing of it is needed any more.
    pub fn forget(&self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
