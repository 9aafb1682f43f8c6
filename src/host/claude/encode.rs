//! Claude Code's side of one dispatch: the combined verdict of every handler encoded as the one
//! answer a hook command gives.

use crate::engine::verdict::combine::{Combined, ContextPiece, Permission};
use crate::protocol::events::{blocks_with_decision, takes_additional_context};
use crate::protocol::Encoded;
use hookmux_sdk::HookEvent;
use serde_json::{Map, Value};

/// Encodes the combined verdict of every handler as one Claude Code hook answer whose effect on
/// the host matches the handlers run natively: the same tools blocked, the same tool input, the
/// same turn end, the hooks' own text in front of the model in the same place.
///
/// - A PreToolUse block is a JSON deny whose reason is the hook's own (`[<command>]: <stderr>`
///   for an exit 2, which the host words exactly as it words a native exit 2).
/// - Blocks on UserPromptSubmit, PostToolUse, Stop and the other decision events become one
///   `decision: "block"` whose reason joins every blocking hook's message, one per line.
/// - Events that block only by exit code (TaskCompleted, TeammateIdle, WorktreeCreate,
///   Elicitation) get exit 2 with the messages on stderr.
/// - Plain stdout that the host reads as context (UserPromptSubmit, UserPromptExpansion,
///   SessionStart) is printed as plain text when it is all there is to say; next to anything
///   that needs JSON it joins `additionalContext`.
/// - Notices for the user (non-blocking errors, timeouts, dispatch's own problems) go to
///   `systemMessage`, which the host shows the user and never the model, and to stderr.
pub fn encode_combined(combined: &Combined, event: HookEvent) -> Encoded {
    let mut top = Map::new();
    let mut specific = Map::new();
    let mut encoded = Encoded::default();

    if let Some(reasons) = &combined.stop {
        top.insert("continue".into(), Value::Bool(false));
        if !reasons.is_empty() {
            top.insert("stopReason".into(), reasons.join("\n").into());
        }
    }
    let messages: Vec<&str> = combined.system_messages.iter().chain(&combined.notices).map(String::as_str).collect();
    if !messages.is_empty() {
        top.insert("systemMessage".into(), messages.join("\n").into());
    }
    if let Some((permission, reasons)) = &combined.permission {
        specific.insert("permissionDecision".into(), permission.as_str().into());
        if !reasons.is_empty() {
            specific.insert("permissionDecisionReason".into(), reasons.join("\n").into());
        }
    }
    if let Some(input) = &combined.updated_input {
        if combined.permission.as_ref().is_none_or(|(p, _)| *p != Permission::Deny) {
            specific.insert("updatedInput".into(), input.clone());
        }
    }
    if let Some(decision) = &combined.permission_request {
        specific.insert("decision".into(), Value::Object(decision.clone()));
    }
    if !combined.blocks.is_empty() && blocks_with_decision(event) {
        top.insert("decision".into(), "block".into());
        top.insert("reason".into(), combined.blocks.join("\n").into());
    }
    for (key, value) in &combined.extra {
        specific.insert(key.clone(), value.clone());
    }

    let needs_json = !top.is_empty() || !specific.is_empty();
    let all_plain = combined.context.iter().all(|piece| matches!(piece, ContextPiece::Plain(_)));
    let mut plain_stdout = None;
    if !combined.context.is_empty() {
        if all_plain && !needs_json {
            plain_stdout = Some(join_pieces(&combined.context));
        } else if takes_additional_context(event) {
            specific.insert("additionalContext".into(), join_pieces(&combined.context).into());
        }
    }

    if !specific.is_empty() {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), event.as_str().into());
        with_name.extend(specific);
        top.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }
    if event == HookEvent::WorktreeCreate {
        if let Some(path) = &combined.worktree_path {
            encoded.stdout = format!("{path}\n");
        }
    } else if !top.is_empty() {
        encoded.stdout = format!("{}\n", Value::Object(top));
    } else if let Some(text) = plain_stdout {
        encoded.stdout = text;
    }
    if !combined.exit_blocks.is_empty() {
        encoded.exit_code = 2;
        encoded.stderr = combined.exit_blocks.join("\n");
    }
    encoded
}

fn join_pieces(pieces: &[ContextPiece]) -> String {
    let texts: Vec<&str> = pieces.iter().map(|p| p.text().trim_end_matches('\n')).collect();
    if pieces.len() == 1 {
        return pieces[0].text().to_string();
    }
    texts.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn combined_json(combined: &Combined, event: HookEvent) -> Value {
        let encoded = encode_combined(combined, event);
        assert_eq!(encoded.exit_code, 0);
        serde_json::from_str(&encoded.stdout).unwrap_or(Value::Null)
    }

    #[test]
    fn one_answer_for_pre_tool_use() {
        // pre-exit2-stderr: the deny reason is the hook's own `[command]: stderr`.
        let combined = Combined {
            permission: Some((Permission::Deny, vec!["[cmd]: blocked\n".into()])),
            updated_input: Some(json!({"command": "x"})),
            context: vec![ContextPiece::Additional("C1".into()), ContextPiece::Additional("C2".into())],
            ..Combined::default()
        };
        assert_eq!(
            combined_json(&combined, HookEvent::PreToolUse),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                "permissionDecisionReason": "[cmd]: blocked\n", "additionalContext": "C1\nC2"}})
        );
        let allow = Combined {
            permission: Some((Permission::Allow, vec![])),
            updated_input: Some(json!({"command": "y"})),
            ..Combined::default()
        };
        assert_eq!(
            combined_json(&allow, HookEvent::PreToolUse),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "y"}}})
        );
        // Plain stdout on a tool event is never context.
        assert_eq!(encode_combined(&Combined::default(), HookEvent::PreToolUse), Encoded::default());
    }

    #[test]
    fn plain_context_stays_plain_when_it_is_all_there_is() {
        // ups-plain-stdout, ups-two-plain, ss-plain
        let plain = Combined {
            context: vec![ContextPiece::Plain("UPS-ONE\n".into()), ContextPiece::Plain("UPS-TWO\n".into())],
            ..Combined::default()
        };
        assert_eq!(encode_combined(&plain, HookEvent::UserPromptSubmit).stdout, "UPS-ONE\nUPS-TWO");
        let one = Combined { context: vec![ContextPiece::Plain("SS\n".into())], ..Combined::default() };
        assert_eq!(encode_combined(&one, HookEvent::SessionStart).stdout, "SS\n");
        // Next to JSON, plain text joins additionalContext, in configured order.
        let mixed = Combined {
            context: vec![ContextPiece::Plain("P\n".into()), ContextPiece::Additional("A".into())],
            system_messages: vec!["note".into()],
            ..Combined::default()
        };
        assert_eq!(
            combined_json(&mixed, HookEvent::UserPromptSubmit),
            json!({"systemMessage": "note", "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "P\nA"}})
        );
    }

    #[test]
    fn blocks_stops_and_notices() {
        // ups-exit2 and stop-block-once: one decision whose reason joins the messages.
        let blocks = Combined { blocks: vec!["[a]: one\n".into(), "two".into()], ..Combined::default() };
        assert_eq!(combined_json(&blocks, HookEvent::Stop), json!({"decision": "block", "reason": "[a]: one\n\ntwo"}));
        let stop =
            Combined { stop: Some(vec!["halt".into()]), notices: vec!["hook error".into()], ..Combined::default() };
        assert_eq!(
            combined_json(&stop, HookEvent::PreToolUse),
            json!({"continue": false, "stopReason": "halt", "systemMessage": "hook error"})
        );
        let exit_only = Combined { exit_blocks: vec!["[t]: failing tests".into()], ..Combined::default() };
        let encoded = encode_combined(&exit_only, HookEvent::TaskCompleted);
        assert_eq!(
            (encoded.exit_code, encoded.stderr.as_str(), encoded.stdout.as_str()),
            (2, "[t]: failing tests", "")
        );
        let worktree = Combined { worktree_path: Some("/tmp/wt".into()), ..Combined::default() };
        assert_eq!(encode_combined(&worktree, HookEvent::WorktreeCreate).stdout, "/tmp/wt\n");
    }
}
