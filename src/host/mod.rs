//! The hosts hookmux answers, one folder each. Every host is an adapter of the same shape:
//! decode the host's event into Claude Code events, run them through the one
//! [`engine::dispatch`](crate::engine::dispatch::dispatch), and encode the verdict in the form the
//! host honours. Each host also owns its installer.

pub mod claude;
pub mod codex;
pub mod opencode;

use crate::engine::dispatch::{DispatchOptions, NotRun, World};
use crate::protocol::Encoded;
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

/// Runs dispatch for `host` on the raw event the host sent.
pub fn dispatch(host: Host, stdin: &str, world: &World, options: &DispatchOptions) -> Encoded {
    match host {
        Host::Claude => claude::dispatch(stdin, world, options),
        Host::Codex => codex::dispatch(stdin, world, options),
        Host::Opencode => opencode::dispatch(stdin, world, options),
    }
}

/// The answer when dispatch ran nothing: silence for a nested dispatch (the outer one answers),
/// the reason on stderr for an event no hook can be configured for.
pub(crate) fn not_run(why: &NotRun) -> Encoded {
    match why {
        NotRun::Nested | NotRun::NoEvent => Encoded::default(),
        NotRun::NotAHookEvent(problem) => {
            Encoded { stderr: format!("hookmux dispatch: {problem}\n"), ..Encoded::default() }
        }
    }
}

/// The answer to an event that is not JSON at all.
pub(crate) fn unreadable(error: impl std::fmt::Display) -> Encoded {
    Encoded { stderr: format!("hookmux dispatch: {error}; no hooks ran\n"), ..Encoded::default() }
}

/// Adds dispatch's notices, one a line, in front of the encoder's own stderr.
pub(crate) fn with_notices(mut encoded: Encoded, notices: &[String]) -> Encoded {
    let mut stderr: String = notices.iter().map(|n| format!("{n}\n")).collect();
    if !encoded.stderr.is_empty() {
        stderr.push_str(&encoded.stderr);
        stderr.push('\n');
    }
    encoded.stderr = stderr;
    encoded
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
