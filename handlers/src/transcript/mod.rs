//! Transcripts and the tool-input cache: what Claude Code keeps for its hooks and other hosts do
//! not.
//!
//! - A **transcript** per session, JSONL under `${XDG_STATE_HOME:-~/.local/state}/hookmux/
//!   transcripts/<session>.jsonl`, in Claude Code's transcript shape (a subset: user prompts,
//!   tool uses, tool results, the assistant's last message), so that a hook's `transcript_path`
//!   names a real file. A file that would pass [`ROTATE_AT`] is renamed to `<session>.1.jsonl`
//!   (replacing the previous one) and started afresh; sessions untouched for [`KEEP_FOR`] are
//!   deleted when a new session starts.
//! - The **tool-input cache**: a PostToolUse that arrives without `tool_input` gets the input its
//!   PreToolUse carried, keyed by session and `tool_use_id`, on disk beside the transcripts
//!   (`tool-inputs/`), for [`TOOL_INPUT_TTL`].
//!
//! The host adapters (`hookmux dispatch --host opencode|codex`) use both directly; the
//! `transcript` handler records into the same files for any other host that runs Claude hooks.

mod cache;
mod store;

#[cfg(test)]
mod tests;

pub use cache::{ToolInputCache, TOOL_INPUT_TTL};
pub use store::{entry_for, state_dir, Entry, Transcripts, KEEP_FOR, ROTATE_AT};

use hookmux_platform::dirs::{variable, Folder};
use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent};

pub struct Transcript;

static INFO: HandlerInfo = HandlerInfo {
    name: "transcript",
    description: "Records prompts, tool uses and results as a Claude-shaped JSONL transcript per session",
    events: &[
        HookEvent::UserPromptSubmit,
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::PostToolUseFailure,
        HookEvent::Stop,
    ],
    matcher: None,
    options: &[],
};

impl Handler for Transcript {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        let event = cx.event();
        let (Some(session), Some(entry)) = (event.session_id().filter(|s| !s.is_empty()), entry_for(event)) else {
            return Ok(Answer::none());
        };
        if cx.dry() {
            return Ok(Answer::none());
        }
        let Some(transcripts) = Transcripts::in_state_dir(cx.env()) else {
            anyhow::bail!(
                "transcript: neither {} nor {} is set, so there is nowhere to write",
                variable(Folder::State),
                variable(Folder::Home)
            );
        };
        let path = transcripts.append(session, &entry, cx.now())?;
        cx.note(format!("hookmux transcript: recorded in {}", path.display()));
        Ok(Answer::none())
    }
}

register_handler!(Transcript);
