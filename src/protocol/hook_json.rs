//! A hook's stdout as Claude Code reads it: empty, plain text, or a JSON object checked against
//! the event's schema (unknown keys ignored, wrong types and unknown values refused).

use super::events::decides_permission;
use hookmux_sdk::HookEvent;
use serde_json::{Map, Value};

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
        if decides_permission(event) && self.specific_str("permissionDecision") == Some("deny") {
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
    let decisions = event.spec().permission;
    if !decisions.is_empty() {
        if let Some(decision) = typed(specific, "permissionDecision", as_string, "a string")? {
            if !decisions.contains(&decision.as_str()) {
                let quoted: Vec<String> = decisions.iter().map(|d| format!("{d:?}")).collect();
                return Err(format!("`permissionDecision` must be one of {}, not {decision:?}", quoted.join(", ")));
            }
        }
        check_str("permissionDecisionReason")?;
    }
    if event == HookEvent::PreToolUse {
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
