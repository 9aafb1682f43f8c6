//! What one handler produced, and what it means under Claude Code's exit-code and JSON rules.
//!
//! In order: a cancelled (timed-out) handler gives no decision. stdout that starts with `{`
//! (after leading whitespace) is read as JSON, anything else as plain text. Exit 0 applies valid
//! JSON; exit 2 blocks (the JSON's own blocking reason, else stderr, is the message; other JSON
//! fields still apply); any other exit with valid JSON is honoured as if it were exit 0, and
//! without it is a non-blocking error. JSON that looks like JSON but does not parse, or fails
//! validation (a wrong type, an unknown decision, a `hookEventName` for another event), is a
//! non-blocking error, except under exit 2, which still blocks with stderr.

use crate::engine::execute::RawOutput;
use crate::protocol::{read_stdout, HookJson, StdoutRead};
use hookmux_sdk::HookEvent;
use serde_json::Value;
use std::time::Duration;

/// The meaning of one handler's result.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Ran and answered (exit 0, or another exit with valid JSON).
    Answered { json: Option<HookJson>, plain: Option<String> },
    /// Exit 2: a blocking error with its message (the JSON's own reason, else `[command]: stderr`).
    Blocked { message: String, json: Option<HookJson> },
    /// A non-blocking error: the action proceeds; the message is for the user.
    Failed { message: String },
    /// An answer Claude Code refuses because the capture may be incomplete (the hook's stdio
    /// stayed open after it exited): on PreToolUse the call is blocked with this message.
    Refused { message: String },
    /// Timed out: no decision.
    Cancelled { after: Duration },
}

/// Classifies one handler's raw output. `label` is the command (or URL) as configured, used in
/// the blocking message `[label]: stderr` exactly as Claude Code words it.
pub fn classify(raw: &RawOutput, event: HookEvent, label: &str, timeout: Duration) -> Outcome {
    if raw.timed_out {
        return Outcome::Cancelled { after: timeout };
    }
    let stdout = raw.stdout_text();
    let stderr = raw.stderr_text();
    let read = read_stdout(&stdout, event);
    if raw.unterminated && raw.exit_code != Some(2) && suspects_unterminated_output(event) {
        if let Some(message) = refusal(&read, &stdout, event) {
            return Outcome::Refused { message };
        }
    }
    match raw.exit_code {
        Some(0) => match read {
            StdoutRead::Empty => Outcome::Answered { json: None, plain: None },
            StdoutRead::Plain(text) => Outcome::Answered { json: None, plain: Some(text) },
            StdoutRead::Json(json) => Outcome::Answered { json: Some(json), plain: None },
            StdoutRead::Invalid(error) => Outcome::Failed { message: error },
        },
        Some(2) => {
            let json = match read {
                StdoutRead::Json(json) => Some(json),
                _ => None,
            };
            let own = json.as_ref().and_then(|j| j.blocking_reason(event));
            let stderr_or_default = if stderr.is_empty() { "No stderr output".to_string() } else { stderr };
            let message = own.unwrap_or_else(|| format!("[{label}]: {stderr_or_default}"));
            Outcome::Blocked { message, json }
        }
        code => match read {
            StdoutRead::Json(json) => Outcome::Answered { json: Some(json), plain: None },
            _ => {
                let first_line = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("No stderr output");
                let status = match code {
                    Some(code) => format!("status code {code}"),
                    None => "status: killed by a signal".to_string(),
                };
                Outcome::Failed { message: format!("Failed with non-blocking {status}: {first_line}") }
            }
        },
    }
}

/// Events on which Claude Code 2.1.328 distrusts a capture whose stdio outlived the hook
/// (observed: PreToolUse, PostToolUse, Stop; UserPromptSubmit and SessionStart honour it).
fn suspects_unterminated_output(event: HookEvent) -> bool {
    use HookEvent::*;
    matches!(event, PreToolUse | PostToolUse | PostToolUseFailure | Stop | SubagentStop)
}

/// Why an unterminated capture is refused, in the host's words: when it opens a JSON object that
/// never completed, or parses as an answer that grants (allow, approve), rewrites (updated input
/// or output) or injects (additional context, a Stop or PostToolUse block). Restrictions (deny,
/// ask, `continue: false`) and plain text are honoured.
fn refusal(read: &StdoutRead, stdout: &str, event: HookEvent) -> Option<String> {
    match read {
        StdoutRead::Invalid(_) if stdout.trim_start().starts_with('{') && serde_json::from_str::<Value>(stdout.trim()).is_err() => {
            Some("hook output opens a JSON payload that never completed before its stdio went quiet; refusing to read the partial capture as a verdict".to_string())
        }
        StdoutRead::Json(json) => {
            let grants = json.specific_str("permissionDecision") == Some("allow") || json.decision.as_deref() == Some("approve");
            let rewrites = ["updatedInput", "updatedToolOutput", "updatedMCPToolOutput"].iter().any(|k| json.specific.contains_key(*k));
            let injects = json.specific.contains_key("additionalContext")
                || (event != HookEvent::PreToolUse && json.decision.as_deref() == Some("block"));
            (grants || rewrites || injects).then(|| {
                "hook output parsed as a document that grants, rewrites or injects, but its stdio went quiet before end-of-stream and a dropped later document could have changed it; refusing to honor the suspect capture".to_string()
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
