//! What one handler produced, and what it means under Claude Code's exit-code and JSON rules.
//!
//! In order: a cancelled (timed-out) handler gives no decision. stdout that starts with `{`
//! (after leading whitespace) is read as JSON, anything else as plain text. Exit 0 applies valid
//! JSON; exit 2 blocks (the JSON's own blocking reason, else stderr, is the message; other JSON
//! fields still apply); any other exit with valid JSON is honoured as if it were exit 0, and
//! without it is a non-blocking error. JSON that looks like JSON but does not parse, or fails
//! validation (a wrong type, an unknown decision, a `hookEventName` for another event), is a
//! non-blocking error, except under exit 2, which still blocks with stderr.

use hookmux_sdk::HookEvent;
use serde_json::{Map, Value};
use std::time::Duration;

/// A finished handler's raw result, however it ran (process, in-process built-in, http).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawOutput {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// `None` when there is no exit status (killed by a signal, or timed out).
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    /// The process exited but its stdout or stderr stayed open (a background child holding it)
    /// past the quiet window: later output may have been lost.
    pub unterminated: bool,
    /// Bytes dropped past the capture cap.
    pub stdout_dropped: u64,
    pub stderr_dropped: u64,
    pub wall: Duration,
}

impl RawOutput {
    /// A failure before anything ran (spawn error, bad arguments): exit 1 with a message.
    pub fn failure(message: impl Into<String>) -> RawOutput {
        RawOutput { stderr: message.into().into_bytes(), exit_code: Some(1), ..RawOutput::default() }
    }

    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

/// A hook's JSON answer, validated for the event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HookJson {
    pub continue_: Option<bool>,
    pub stop_reason: Option<String>,
    pub system_message: Option<String>,
    /// Top-level `decision`: `approve` or `block`.
    pub decision: Option<String>,
    pub reason: Option<String>,
    /// `hookSpecificOutput` without `hookEventName`.
    pub specific: Map<String, Value>,
}

impl HookJson {
    pub fn specific_str(&self, key: &str) -> Option<&str> {
        self.specific.get(key).and_then(Value::as_str)
    }

    /// The blocking reason this JSON gives on its own, if it blocks.
    pub fn blocking_reason(&self, event: HookEvent) -> Option<String> {
        if event == HookEvent::PreToolUse && self.specific_str("permissionDecision") == Some("deny") {
            return Some(self.specific_str("permissionDecisionReason").unwrap_or("Blocked by hook").to_string());
        }
        if self.decision.as_deref() == Some("block") {
            return Some(self.reason.clone().unwrap_or_else(|| "Blocked by hook".to_string()));
        }
        None
    }
}

/// How stdout reads.
#[derive(Clone, Debug, PartialEq)]
pub enum StdoutRead {
    Empty,
    Plain(String),
    Json(HookJson),
    /// Starts with `{` but is not valid JSON, or fails validation.
    Invalid(String),
}

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

/// Reads stdout the way Claude Code does.
pub fn read_stdout(stdout: &str, event: HookEvent) -> StdoutRead {
    let trimmed = stdout.trim_start();
    if trimmed.is_empty() {
        return StdoutRead::Empty;
    }
    if !trimmed.starts_with('{') {
        return StdoutRead::Plain(stdout.to_string());
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(object)) => match validate(&object, event) {
            Ok(json) => StdoutRead::Json(json),
            Err(error) => StdoutRead::Invalid(error),
        },
        Ok(_) => StdoutRead::Plain(stdout.to_string()),
        Err(error) => StdoutRead::Invalid(format!("output looks like a JSON object but is not valid JSON: {error}")),
    }
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

/// Schema checks, as the host's (non-strict) validation: unknown keys are ignored, wrong types
/// and unknown enum values fail, and `hookEventName` must be this event.
fn validate(object: &Map<String, Value>, event: HookEvent) -> Result<HookJson, String> {
    let mut json = HookJson {
        continue_: typed(object, "continue", Value::as_bool, "a boolean")?,
        stop_reason: typed(object, "stopReason", as_string, "a string")?,
        system_message: typed(object, "systemMessage", as_string, "a string")?,
        decision: typed(object, "decision", as_string, "a string")?,
        reason: typed(object, "reason", as_string, "a string")?,
        specific: Map::new(),
    };
    typed(object, "suppressOutput", Value::as_bool, "a boolean")?;
    if let Some(decision) = &json.decision {
        if decision != "approve" && decision != "block" {
            return Err(format!("`decision` must be \"approve\" or \"block\", not {decision:?}"));
        }
    }
    match object.get("hookSpecificOutput") {
        None | Some(Value::Null) => {}
        Some(Value::Object(specific)) => {
            let name = specific.get("hookEventName").and_then(Value::as_str);
            match name {
                Some(name) if name == event.as_str() => {}
                Some(name) => {
                    return Err(format!("Hook returned incorrect event name: expected '{event}' but got '{name}'"))
                }
                None => return Err("`hookSpecificOutput.hookEventName` is missing".to_string()),
            }
            validate_specific(specific, event)?;
            json.specific =
                specific.iter().filter(|(k, _)| *k != "hookEventName").map(|(k, v)| (k.clone(), v.clone())).collect();
        }
        Some(_) => return Err("`hookSpecificOutput` must be an object".to_string()),
    }
    Ok(json)
}

fn validate_specific(specific: &Map<String, Value>, event: HookEvent) -> Result<(), String> {
    let check_str = |key: &str| typed(specific, key, as_string, "a string").map(|_| ());
    check_str("additionalContext")?;
    if event == HookEvent::PreToolUse {
        if let Some(decision) = typed(specific, "permissionDecision", as_string, "a string")? {
            if !["allow", "deny", "ask", "defer"].contains(&decision.as_str()) {
                return Err(format!(
                    "`permissionDecision` must be \"allow\", \"deny\", \"ask\" or \"defer\", not {decision:?}"
                ));
            }
        }
        check_str("permissionDecisionReason")?;
        typed(specific, "updatedInput", Value::as_object, "an object")?;
    }
    if event == HookEvent::PermissionRequest {
        if let Some(decision) = typed(specific, "decision", Value::as_object, "an object")? {
            match decision.get("behavior").and_then(Value::as_str) {
                Some("allow" | "deny") => {}
                other => return Err(format!("`decision.behavior` must be \"allow\" or \"deny\", not {other:?}")),
            }
        }
    }
    Ok(())
}

fn as_string(value: &Value) -> Option<String> {
    value.as_str().map(str::to_string)
}

fn typed<'v, T>(
    object: &'v Map<String, Value>,
    key: &str,
    read: impl Fn(&'v Value) -> Option<T>,
    expected: &str,
) -> Result<Option<T>, String> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => read(value).map(Some).ok_or_else(|| format!("`{key}` must be {expected}")),
    }
}

#[cfg(test)]
mod tests;
