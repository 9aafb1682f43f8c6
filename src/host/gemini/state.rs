//! What one Gemini session's events leave for later ones (in hookmux's
//! [session state](crate::host::session_state), under `gemini/`): a `continue: false` for the
//! next model call, PreToolUse context for the tool's AfterTool, and how many Stop blocks in a row
//! continued the turn.

use crate::engine::dispatch::World;
use crate::host::session_state;

pub struct Store(session_state::Store);

impl Store {
    /// The session's folder (not created yet); `None` without a session id or a state folder.
    pub fn open(world: &World, session: Option<&str>) -> Option<Store> {
        session_state::Store::open(world, "gemini", "Gemini", session).map(Store)
    }

    pub fn put_stop(&self, reason: &str) {
        self.0.put("stop", reason);
    }

    pub fn take_stop(&self) -> Option<String> {
        self.0.take("stop")
    }

    pub fn put_context(&self, key: &str, context: &str) {
        self.0.put(&format!("context-{key}"), context);
    }

    pub fn take_context(&self, key: &str) -> Option<String> {
        self.0.take(&format!("context-{key}"))
    }

    pub fn stop_blocks(&self) -> u32 {
        self.0.read("stop-blocks").and_then(|t| t.trim().parse().ok()).unwrap_or(0)
    }

    pub fn set_stop_blocks(&self, count: u32) {
        if count == 0 {
            self.0.remove("stop-blocks");
        } else {
            self.0.put("stop-blocks", &count.to_string());
        }
    }

    /// The session ended: nothing of it is needed any more.
    pub fn forget(&self) {
        self.0.forget();
    }
}
