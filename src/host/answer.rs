//! What every host adapter answers in the same way: an event it cannot read, a dispatch that
//! ran nothing, dispatch's notices, a block without a reason.

use crate::engine::dispatch::{self, DispatchOptions, NotRun, World};
use crate::engine::notice::Notice;
use crate::engine::verdict::combine::{Combined, ContextPiece};
use crate::protocol::Encoded;
use hookmux_sdk::HookEvent;
use std::fmt;

/// A part of the verdict the host cannot carry out, told to the user instead of dropped
/// silently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unhonoured {
    /// A hook's `updatedInput` that cannot be written back in the host's form.
    UpdatedInput { why: String },
    /// A PermissionRequest allow with a rewritten input: the host cannot run the rewrite.
    RewrittenPermission,
    /// A PermissionRequest allow's `updatedPermissions`, which the host does not take.
    UpdatedPermissions,
    /// A request to stop the turn from an event the host cannot stop a turn from.
    Stop { event: HookEvent, reason: String },
    /// A PreCompact block, where the host cannot block compaction.
    CompactionBlock,
}

impl fmt::Display for Unhonoured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unhonoured::UpdatedInput { why } => write!(f, "hookmux: a hook's updatedInput was not applied: {why}"),
            Unhonoured::RewrittenPermission => f.write_str(
                "hookmux: a PermissionRequest hook allowed a rewritten input, which Codex cannot apply; Codex decides as without the hook",
            ),
            Unhonoured::UpdatedPermissions => {
                f.write_str("hookmux: a PermissionRequest hook's updatedPermissions were dropped: Codex does not take them")
            }
            Unhonoured::Stop { event, reason } => {
                let reason = if reason.is_empty() { String::new() } else { format!(" ({reason})") };
                write!(
                    f,
                    "hookmux: a {event} hook asked to stop the turn{reason}; Codex cannot stop a turn from {event}, so it goes on"
                )
            }
            Unhonoured::CompactionBlock => {
                f.write_str("hookmux: a PreCompact hook asked to block compaction, which OpenCode cannot do")
            }
        }
    }
}

/// The answer when dispatch ran nothing: silence when the host's event maps to none of Claude
/// Code's, the reason on stderr for an event no hook can be configured for.
pub fn not_run(why: &NotRun) -> Encoded {
    match why {
        NotRun::NoEvent => Encoded::default(),
        NotRun::NotAHookEvent(problem) => {
            Encoded { stderr: format!("hookmux dispatch: {problem}\n"), ..Encoded::default() }
        }
    }
}

/// What dispatch says about an event it cannot read: the notice of the hooks it skipped (none
/// when there were none to skip), and the guards' denial (none when no guard is configured).
pub struct Unread {
    pub notice: Option<String>,
    pub deny: Option<String>,
}

/// Every configured guard denies an event that cannot be read; every other hook is skipped, with
/// a notice.
pub fn unread(error: &str, world: &World, options: &DispatchOptions) -> Unread {
    let found = dispatch::unreadable(world, options);
    let notice = Notice::Unreadable { error: error.to_string(), skipped: found.skipped }.to_string();
    match found.denial(error) {
        None => Unread { notice: Some(notice), deny: None },
        deny => Unread { notice: (found.skipped > 0).then_some(notice), deny },
    }
}

/// The answer to an event that cannot be read, for hosts that take exit codes: a denial is exit
/// 2 with the reason on stderr, the one block every event honours (no event can be told here).
pub fn unreadable(error: &str, world: &World, options: &DispatchOptions) -> Encoded {
    let Unread { notice, deny } = unread(error, world, options);
    let stderr: String = notice.iter().chain(&deny).map(|line| format!("{line}\n")).collect();
    Encoded { stderr, exit_code: if deny.is_some() { 2 } else { 0 }, ..Encoded::default() }
}

/// Adds dispatch's notices, one a line, in front of the encoder's own stderr.
pub fn with_notices(mut encoded: Encoded, notices: &[String]) -> Encoded {
    let mut stderr: String = notices.iter().map(|n| format!("{n}\n")).collect();
    if !encoded.stderr.is_empty() {
        stderr.push_str(&encoded.stderr);
        stderr.push('\n');
    }
    encoded.stderr = stderr;
    encoded
}

/// A block's reason for Codex, which refuses a block without one, and for OpenCode, whose thrown
/// error would otherwise say nothing: a hook that blocks without saying why reads
/// `Blocked by hook`.
pub fn non_empty_reason(reason: String) -> String {
    if reason.trim().is_empty() {
        "Blocked by hook".to_string()
    } else {
        reason
    }
}

/// Every handler's context for the model, one after another, each without its trailing newline.
pub fn joined(pieces: &[ContextPiece]) -> String {
    pieces.iter().map(|p| p.text().trim_end_matches('\n')).filter(|t| !t.is_empty()).collect::<Vec<_>>().join("\n")
}

/// A JSON value as text for a host field that takes text: a string as it is, anything else as
/// JSON.
pub fn as_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A `stopReason` the host shows: one that says nothing reads as hookmux's own words.
pub fn stop_text(reason: &str) -> String {
    if reason.trim().is_empty() {
        "Stopped by a hook (continue: false)".to_string()
    } else {
        reason.to_string()
    }
}

/// Exit 0 and one JSON object on stdout: the answer of hosts that read JSON at any exit code.
pub fn json_answer(value: &serde_json::Value) -> Encoded {
    Encoded { stdout: format!("{value}\n"), stderr: String::new(), exit_code: 0 }
}

/// What hosts that append text to a tool's result (Gemini CLI, Qwen Code) append for the model:
/// the context a PreToolUse hook gave before the tool ran, then the blocks and the context of the
/// hooks on its result, each labelled as Claude Code labels them (`labelled(label, text)`), a
/// blank line between; `None` when there is nothing.
pub fn appended_to_result(
    pre_context: Option<&str>,
    combined: &Combined,
    context: &str,
    labelled: impl Fn(&str, &str) -> String,
) -> Option<String> {
    let mut appended: Vec<String> = pre_context.map(str::to_string).into_iter().collect();
    appended.extend(combined.blocks.iter().map(|b| labelled("blocking error", b)));
    if !context.is_empty() {
        appended.push(labelled("additional context", context));
    }
    (!appended.is_empty()).then(|| appended.join("\n\n"))
}

/// A notice for each replacement of a tool's output the hooks asked for (`updatedToolOutput`,
/// `updatedMCPToolOutput`) and the host (`label`) cannot carry out; `hook` names the hooks'
/// event and tool.
pub fn unreplaced_outputs(combined: &Combined, hook: &str, label: &str) -> Vec<String> {
    ["updatedToolOutput", "updatedMCPToolOutput"]
        .into_iter()
        .filter(|key| combined.extra.contains_key(*key))
        .map(|key| format!("hookmux: a {hook} hook's {key} was not applied: {label} cannot replace a tool's output"))
        .collect()
}
