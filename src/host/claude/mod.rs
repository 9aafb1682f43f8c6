//! Claude Code: the host whose protocol the engine speaks, so decoding is reading the event and
//! encoding is folding the verdict into one hook answer ([`encode`]). [`install`] routes a
//! settings file's hooks through `hookmux dispatch`.

pub mod encode;
pub mod install;
pub mod large;

use crate::engine::config::trust::HostTrust;
use crate::engine::dispatch::{self, DispatchOptions, NotRun, Verdict, World};
use crate::protocol::Encoded;
use hookmux_sdk::{Env, Event};
use serde_json::Value;
use std::path::Path;

pub use encode::encode_combined;

/// `hookmux dispatch` (`--host claude`): one event in, one answer out.
pub fn dispatch(stdin: Vec<u8>, world: &World, options: &DispatchOptions) -> Encoded {
    // Claude Code asks the user before it trusts a folder, and runs no hooks of one it does not.
    let options = DispatchOptions { host_trust: HostTrust::Prompted, ..options.clone() };
    let event = Event::parse_bytes(stdin);
    if let Some(error) = event.parse_error() {
        return super::answer::unreadable(error, world, &options);
    }
    let mut result = dispatch::dispatch(std::slice::from_ref(&event), world, &options);
    if let Ok(verdict) = &mut result {
        large::fit(&mut verdict.combined, verdict.kind, &large::Store::for_event(&event, &world.env));
    }
    answer(result)
}

/// What Claude Code records about `project` (a real path) in its own configuration
/// (`$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`): the user accepted its trust dialog
/// for the folder or a folder above it. For callers that do not know Claude Code runs them:
/// under Claude Code itself, every hook runs in a folder it trusts.
pub(crate) fn recorded_trust(env: &Env, project: &Path) -> HostTrust {
    let file = match env.path("CLAUDE_CONFIG_DIR") {
        Some(dir) => dir.join(".claude.json"),
        None => match hookmux_platform::dirs::home(env) {
            Some(home) => home.join(".claude.json"),
            None => return HostTrust::Unknown,
        },
    };
    let Some(projects) = std::fs::read(file)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|config| config.get("projects").cloned())
    else {
        return HostTrust::Unknown;
    };
    let accepted = |folder: &Path| {
        projects.get(folder.to_string_lossy().as_ref()).and_then(|p| p.get("hasTrustDialogAccepted"))
            == Some(&Value::Bool(true))
    };
    if project.ancestors().any(accepted) {
        HostTrust::Trusted
    } else {
        HostTrust::Unknown
    }
}

/// The hook answer for what dispatch did: the encoded verdict with dispatch's notices on stderr.
pub fn answer(result: Result<Verdict, NotRun>) -> Encoded {
    match result {
        Ok(verdict) => {
            super::answer::with_notices(encode_combined(&verdict.combined, verdict.kind), &verdict.combined.notices)
        }
        Err(why) => super::answer::not_run(&why),
    }
}
