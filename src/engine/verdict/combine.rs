//! Folding every handler's outcome, in configured order, into one verdict for the event.
//!
//! Claude Code's rules: deny > defer > ask > allow; an exit 2 blocks even when the same hook's
//! JSON says allow; every `additionalContext` and `systemMessage` is kept; any `continue: false`
//! stops the turn, with its `stopReason`. Where the host leaves the outcome open (several
//! `updatedInput`s: it takes whichever hook finishes last), hookmux takes the last in configured
//! order, one of the outcomes the host allows and the only deterministic one.

use crate::engine::verdict::outcome::Outcome;
use crate::protocol::events::{blocks_by_exit_code, blocks_with_decision, decides_permission, exit2_is_a_notice};
use crate::protocol::HookJson;
use hookmux_sdk::HookEvent;
use serde_json::{Map, Value};

/// A PreToolUse permission decision, most restrictive last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Permission {
    Allow,
    Ask,
    Defer,
    Deny,
}

impl Permission {
    pub fn parse(text: &str) -> Option<Permission> {
        match text {
            "allow" => Some(Permission::Allow),
            "ask" => Some(Permission::Ask),
            "defer" => Some(Permission::Defer),
            "deny" => Some(Permission::Deny),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Allow => "allow",
            Permission::Ask => "ask",
            Permission::Defer => "defer",
            Permission::Deny => "deny",
        }
    }
}

/// Text for the model, in the order the handlers are configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContextPiece {
    /// Plain stdout, which the host reads as context on UserPromptSubmit, UserPromptExpansion
    /// and SessionStart.
    Plain(String),
    /// `additionalContext`.
    Additional(String),
}

impl ContextPiece {
    pub fn text(&self) -> &str {
        match self {
            ContextPiece::Plain(text) | ContextPiece::Additional(text) => text,
        }
    }
}

/// The one verdict of all handlers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Combined {
    /// PreToolUse: the winning decision and the reasons given for it.
    pub permission: Option<(Permission, Vec<String>)>,
    pub updated_input: Option<Value>,
    /// PreToolUse, filled by dispatch: each event's own `updatedInput`, in event order, for a host
    /// whose one call stood for several Claude calls (Cline's `run_commands` of three commands)
    /// and writes each rewrite back to its own part.
    pub updated_inputs: Vec<Option<Value>>,
    /// PermissionRequest: the combined `decision` object.
    pub permission_request: Option<Map<String, Value>>,
    /// Blocking messages on events that block with `decision: "block"`.
    pub blocks: Vec<String>,
    /// Blocking messages on events that block only by exit code.
    pub exit_blocks: Vec<String>,
    pub context: Vec<ContextPiece>,
    pub system_messages: Vec<String>,
    /// `Some` when any handler said `continue: false`, with every `stopReason` given.
    pub stop: Option<Vec<String>>,
    /// Other `hookSpecificOutput` fields: the last wins, arrays accumulate.
    pub extra: Map<String, Value>,
    /// WorktreeCreate: the path the first successful handler printed.
    pub worktree_path: Option<String>,
    /// For the user: non-blocking errors, timeouts, handlers not run, dispatch's own problems.
    pub notices: Vec<String>,
}

/// One handler's outcome with what the messages need to name it.
pub struct Labelled<'a> {
    pub label: &'a str,
    pub outcome: &'a Outcome,
}

pub fn combine(event: HookEvent, hook_name: &str, outcomes: &[Labelled<'_>]) -> Combined {
    let mut combined = Combined::default();
    let mut permissions: Vec<(Permission, Option<String>)> = Vec::new();
    for Labelled { label, outcome } in outcomes {
        match outcome {
            Outcome::Answered { json, plain } => {
                if let Some(text) = plain {
                    if event == HookEvent::WorktreeCreate {
                        if combined.worktree_path.is_none() {
                            combined.worktree_path =
                                text.lines().rev().map(str::trim).find(|l| !l.is_empty()).map(str::to_string);
                        }
                    } else if event.plain_stdout_is_context() {
                        combined.context.push(ContextPiece::Plain(text.clone()));
                    }
                }
                if let Some(json) = json {
                    apply_json(&mut combined, &mut permissions, json, event, false);
                }
            }
            Outcome::Blocked { message, json } => {
                if let Some(json) = json {
                    apply_json(&mut combined, &mut permissions, json, event, true);
                }
                match event {
                    e if decides_permission(e) => permissions.push((Permission::Deny, Some(message.clone()))),
                    e if blocks_with_decision(e) => combined.blocks.push(message.clone()),
                    e if blocks_by_exit_code(e) => combined.exit_blocks.push(message.clone()),
                    e if exit2_is_a_notice(e) => combined.notices.push(format!("{hook_name} hook error: {message}")),
                    // PermissionRequest, Notification and the rest ignore exit 2.
                    _ => {}
                }
            }
            Outcome::Failed { message } => {
                if event == HookEvent::WorktreeCreate {
                    combined.exit_blocks.push(format!("[{label}]: {message}"));
                }
                combined.notices.push(format!("{hook_name} hook error: [{label}]: {message}"));
            }
            Outcome::Refused { message } => {
                let message = format!("[{label}]: {message}");
                if event == HookEvent::PreToolUse {
                    permissions.push((Permission::Deny, Some(message)));
                } else {
                    combined.notices.push(format!("{hook_name} hook error: {message}"));
                }
            }
            Outcome::Cancelled { after } => {
                combined.notices.push(format!(
                    "{hook_name} hook [{label}] timed out after {}; it gives no decision",
                    crate::engine::verdict::seconds(*after)
                ));
            }
        }
    }
    if let Some(winner) = permissions.iter().map(|(p, _)| *p).max() {
        let reasons = permissions.iter().filter(|(p, _)| *p == winner).filter_map(|(_, r)| r.clone()).collect();
        combined.permission = Some((winner, reasons));
        if winner == Permission::Deny {
            combined.updated_input = None;
        }
    }
    combined
}

fn apply_json(
    combined: &mut Combined,
    permissions: &mut Vec<(Permission, Option<String>)>,
    json: &HookJson,
    event: HookEvent,
    exit_blocked: bool,
) {
    if json.continue_ == Some(false) {
        let reasons = combined.stop.get_or_insert_with(Vec::new);
        reasons.extend(json.stop_reason.clone());
    }
    combined.system_messages.extend(json.system_message.clone());

    match event {
        e if decides_permission(e) => {
            // The top-level legacy decision first; hookSpecificOutput's overrides it.
            let mut decision = match json.decision.as_deref() {
                Some("approve") => Some((Permission::Allow, json.reason.clone())),
                Some("block") => {
                    Some((Permission::Deny, Some(json.reason.clone().unwrap_or_else(|| "Blocked by hook".into()))))
                }
                _ => None,
            };
            if let Some(permission) = json.specific_str("permissionDecision").and_then(Permission::parse) {
                let reason = json.specific_str("permissionDecisionReason").map(str::to_string);
                let reason = match (permission, reason) {
                    (Permission::Deny, None) => Some("Blocked by hook".to_string()),
                    (_, reason) => reason,
                };
                decision = Some((permission, reason));
            }
            if exit_blocked {
                // The exit 2 decides; the caller adds the deny with its message.
                decision = None;
            }
            let own = decision.as_ref().map(|(p, _)| *p);
            if let Some(input) = json.specific.get("updatedInput").filter(|_| event == HookEvent::PreToolUse) {
                if !exit_blocked && matches!(own, None | Some(Permission::Allow | Permission::Ask)) {
                    combined.updated_input = Some(input.clone());
                }
            }
            permissions.extend(decision);
        }
        HookEvent::PermissionRequest => {
            if let Some(Value::Object(decision)) = json.specific.get("decision") {
                merge_permission_request(combined, decision);
            }
        }
        e if blocks_with_decision(e) && !exit_blocked && json.decision.as_deref() == Some("block") => {
            combined.blocks.push(json.reason.clone().unwrap_or_else(|| "Blocked by hook".to_string()));
        }
        _ => {}
    }

    if let Some(text) = json.specific_str("additionalContext") {
        combined.context.push(ContextPiece::Additional(text.to_string()));
    }
    const COMBINED_KEYS: &[&str] =
        &["additionalContext", "permissionDecision", "permissionDecisionReason", "updatedInput", "decision"];
    for (key, value) in &json.specific {
        if COMBINED_KEYS.contains(&key.as_str()) {
            continue;
        }
        match (combined.extra.get_mut(key), value) {
            (Some(Value::Array(existing)), Value::Array(more)) => existing.extend(more.iter().cloned()),
            _ => {
                combined.extra.insert(key.clone(), value.clone());
            }
        }
        if key == "worktreePath" && combined.worktree_path.is_none() {
            combined.worktree_path = value.as_str().map(str::to_string);
        }
    }
}

/// Any deny wins (messages joined, `interrupt` if any asks); else allow, with the last
/// `updatedInput` and every `updatedPermissions` entry.
fn merge_permission_request(combined: &mut Combined, decision: &Map<String, Value>) {
    let behavior = decision.get("behavior").and_then(Value::as_str).unwrap_or_default();
    let current = combined.permission_request.get_or_insert_with(Map::new);
    let current_behavior = current.get("behavior").and_then(Value::as_str).unwrap_or_default().to_string();
    match (current_behavior.as_str(), behavior) {
        ("deny", "deny") => {
            if let Some(message) = decision.get("message").and_then(Value::as_str) {
                let joined = match current.get("message").and_then(Value::as_str) {
                    Some(existing) => format!("{existing}\n{message}"),
                    None => message.to_string(),
                };
                current.insert("message".into(), joined.into());
            }
            if decision.get("interrupt") == Some(&Value::Bool(true)) {
                current.insert("interrupt".into(), Value::Bool(true));
            }
        }
        ("deny", _) => {}
        (_, "deny") => *current = decision.clone(),
        (_, "allow") => {
            current.insert("behavior".into(), "allow".into());
            if let Some(input) = decision.get("updatedInput") {
                current.insert("updatedInput".into(), input.clone());
            }
            if let Some(Value::Array(more)) = decision.get("updatedPermissions") {
                match current.get_mut("updatedPermissions") {
                    Some(Value::Array(existing)) => existing.extend(more.iter().cloned()),
                    _ => {
                        current.insert("updatedPermissions".into(), Value::Array(more.clone()));
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
