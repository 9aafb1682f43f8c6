//! One file per subcommand: each gathers what its command needs from the layers below and
//! renders it. [`render`] holds the rendering the inspection commands share.

pub mod completions;
pub mod coverage;
pub mod dispatch;
pub mod doctor;
pub mod dry_run;
pub mod handlers;
pub mod install;
pub mod list;
pub mod log;
pub mod man;
pub mod render;
pub mod run;
pub mod trust;
pub mod validate;

use crate::engine::config::sources::{self, Discovery, Sources};
use hookmux_sdk::{Env, Event};
use serde_json::Value;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;

/// Reads the event from stdin, all of it, as the bytes the host wrote; nothing when stdin is a
/// terminal. No size limit: the host's own limit is what it can send, and an event cut short
/// here would skip the hooks a guard needs.
pub fn read_stdin() -> Vec<u8> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Vec::new();
    }
    // Room for a usual event up front: from empty, reading grows the buffer from 32 bytes, a
    // system call for each doubling.
    let mut bytes = Vec::with_capacity(16 * 1024);
    if let Err(err) = stdin.lock().read_to_end(&mut bytes) {
        eprintln!("hookmux: could not read the event from stdin: {err}");
    }
    bytes
}

/// The process's current folder, or `/` when it no longer exists.
pub(crate) fn process_cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// The sources for an inspection command without an event: the project is
/// `$CLAUDE_PROJECT_DIR`, else the current folder. The enabled plugins' hooks are among them:
/// Claude Code runs those too.
pub(crate) fn inspected_sources(env: &Env, settings: Vec<PathBuf>) -> (Sources, PathBuf) {
    let cwd = process_cwd();
    let event = Event::from_fields(serde_json::Map::from_iter([(
        "cwd".to_string(),
        Value::from(cwd.to_string_lossy().into_owned()),
    )]));
    let discovery = Discovery::new(env, &event, settings).with_plugins(true);
    let root = sources::project_root(env, &event).unwrap_or(cwd);
    (Sources::load(&discovery), root)
}
