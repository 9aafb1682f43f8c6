//! What one session's events leave for later ones under hosts that take Claude's hook layout but
//! cannot carry it between events themselves (Gemini CLI, Qwen Code), kept in hookmux's
//! [session state](crate::host::session_state) under the host's folder: a `continue: false` for
//! the next model call, PreToolUse context for the tool's result, how many Stop blocks in a row
//! continued the turn. The host's own names (what was told once, …) go through the session state
//! itself, which this store derefs to.

use crate::engine::dispatch::World;
use crate::host::session_state;

pub struct Store(session_state::Store);

impl Store {
    /// The session's folder for `host` (not created yet; `label` names the host in messages);
    /// `None` without a session id or a state folder.
    pub fn open(world: &World, host: &str, label: &'static str, session: Option<&str>) -> Option<Store> {
        session_state::Store::open(world, host, label, session).map(Store)
    }

    pub fn put_stop(&self, reason: &str) {
        self.0.put("stop", reason);
    }

    pub fn take_stop(&self) -> Option<String> {
        self.0.take("stop")
    }

    pub fn forget_stop(&self) {
        self.0.remove("stop");
    }

    /// `key` names the tool call in letters and digits only (a hash).
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
}

impl std::ops::Deref for Store {
    type Target = session_state::Store;

    fn deref(&self) -> &session_state::Store {
        &self.0
    }
}
