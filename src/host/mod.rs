//! The hosts hookmux answers: Claude Code natively, Codex and OpenCode through adapters that map
//! the host's event to Claude Code's before planning and encode the one verdict in the form the
//! host honours after combining.

pub mod claude;
pub mod codex;
pub mod codex_install;
pub mod opencode;

use crate::dispatch::World;
use hookmux_handlers::transcript::{entry_for, Transcripts};
use hookmux_sdk::Event;
use std::time::SystemTime;

/// Which host sent the event, and so which protocol the answer must speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Host {
    /// Claude Code's hook protocol (and any host that speaks it).
    #[default]
    Claude,
    /// Codex CLI hooks (0.169.0): Claude's JSON shape with Codex's rules.
    Codex,
    /// The OpenCode plugin in `integrations/opencode/`: hookmux's own documented JSON.
    Opencode,
}

/// Records the event in hookmux's transcript of its session (for hosts that keep none Claude
/// hooks can read) and points the event's `transcript_path` at it.
pub(crate) fn record_transcript(event: Event, world: &World) -> Event {
    let (Some(session), Some(transcripts)) =
        (event.session_id().filter(|s| !s.is_empty()).map(str::to_string), Transcripts::in_state_dir(&world.env))
    else {
        return event;
    };
    let path = match entry_for(&event) {
        Some(entry) => transcripts
            .append_with_cwd(&session, &entry, event.cwd().as_deref(), SystemTime::now())
            .unwrap_or_else(|err| {
                eprintln!("hookmux: cannot record the transcript: {err}");
                transcripts.path(&session)
            }),
        None => transcripts.path(&session),
    };
    let mut fields = event.fields().clone();
    fields.insert("transcript_path".into(), path.to_string_lossy().into_owned().into());
    Event::from_fields(fields)
}

/// A block's reason for Codex, which refuses a block without one, and for OpenCode, whose thrown
/// error would otherwise say nothing: a hook that blocks without saying why reads
/// `Blocked by hook`.
pub(crate) fn non_empty_reason(reason: String) -> String {
    if reason.trim().is_empty() {
        "Blocked by hook".to_string()
    } else {
        reason
    }
}
