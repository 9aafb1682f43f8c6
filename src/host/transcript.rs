//! A transcript for hosts that keep none Claude hooks can read (Codex without one, OpenCode).

use crate::engine::dispatch::World;
use hookmux_handlers::transcript::{entry_for, Transcripts};
use hookmux_sdk::Event;
use std::time::SystemTime;

/// Records the event in hookmux's transcript of its session (for hosts that keep none Claude
/// hooks can read) and points the event's `transcript_path` at it.
pub fn record_transcript(event: Event, world: &World) -> Event {
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
    event.with_fields(fields)
}

/// The event as it came when it names a transcript already, else with hookmux's
/// ([`record_transcript`]): for hosts that send one only sometimes (Codex sends null for a
/// session it does not record; Copilot sends none).
pub fn with_transcript(event: Event, world: &World) -> Event {
    if event.transcript_path().is_some_and(|path| !path.is_empty()) {
        return event;
    }
    record_transcript(event, world)
}
