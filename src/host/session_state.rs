//! What one session's events leave for later ones, for hosts that call hookmux once per event
//! and cannot carry anything between the calls themselves: a folder per host and session under
//! hookmux's state folder (`${XDG_STATE_HOME:-~/.local/state}/hookmux/<host>/<session>/`), one
//! small file per thing kept. Nothing here is needed for safety: when the folder cannot be used,
//! the answer is what it would be without it, and the problem is told on stderr. The folders are
//! private (`0700`, the user's own, no links), and no file is written or read through a link.

use crate::engine::dispatch::World;
use hookmux_handlers::safe_fs;
use sha2::{Digest, Sha256};
use std::io::Read as _;
use std::path::PathBuf;

pub struct Store {
    /// hookmux's state folder: nothing below it may be a link.
    base: PathBuf,
    /// `<base>/<host>`.
    host_dir: PathBuf,
    dir: PathBuf,
    /// The host's name for people, in messages.
    label: &'static str,
}

impl Store {
    /// The session's folder for `host` (not created yet); `None` without a session id or a
    /// state folder.
    pub fn open(world: &World, host: &str, label: &'static str, session: Option<&str>) -> Option<Store> {
        let session = session.filter(|s| !s.is_empty())?;
        let base = hookmux_handlers::transcript::state_dir(&world.env)?;
        let host_dir = base.join(host);
        Some(Store { dir: host_dir.join(hashed(session)), host_dir, base, label })
    }

    /// Keeps `text` under `name`; whether it was kept (a failure is told on stderr).
    pub fn put(&self, name: &str, text: &str) -> bool {
        let result = [&self.base, &self.host_dir, &self.dir]
            .iter()
            .try_for_each(|dir| safe_fs::private_dir(dir))
            .and_then(|()| safe_fs::replace(&self.base, &self.dir.join(name), text.as_bytes()).map_err(|(_, e)| e));
        if let Err(err) = &result {
            eprintln!("hookmux: cannot keep {} session state in {}: {err}", self.label, self.dir.display());
        }
        result.is_ok()
    }

    /// What was kept under `name`, if anything.
    pub fn read(&self, name: &str) -> Option<String> {
        if safe_fs::check_private_dir(&self.dir).is_err() {
            return None;
        }
        let mut file = safe_fs::open_no_follow(std::fs::OpenOptions::new().read(true), &self.dir.join(name)).ok()?;
        let mut text = String::new();
        file.read_to_string(&mut text).ok()?;
        Some(text)
    }

    /// What was kept under `name`, which is then kept no longer.
    pub fn take(&self, name: &str) -> Option<String> {
        let text = self.read(name)?;
        self.remove(name);
        Some(text)
    }

    pub fn remove(&self, name: &str) {
        let _ = std::fs::remove_file(self.dir.join(name));
    }

    /// The session ended: nothing of it is needed any more.
    pub fn forget(&self) {
        if safe_fs::check_private_dir(&self.dir).is_ok() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// A name as a file name that no name can make into a path: the first 24 hex digits of its
/// SHA-256.
pub fn hashed(name: &str) -> String {
    Sha256::digest(name.as_bytes()).iter().take(12).map(|b| format!("{b:02x}")).collect()
}
