//! Claude Code's hook protocol: an answer becomes stdout JSON (or plain text) and an exit code.

use crate::combine::{blocks_with_decision, Combined, ContextPiece, Permission};
use hookmux_sdk::{Answer, Decision, HookEvent};
use serde_json::{Map, Value};

/// What a hook process prints and how it exits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Encoded {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
}

/// Events whose `hookSpecificOutput` takes `additionalContext`.
fn takes_additional_context(event: HookEvent) -> bool {
    use HookEvent::*;
    matches!(
        event,
        SessionStart
            | Setup
            | SubagentStart
            | UserPromptSubmit
            | UserPromptExpansion
            | PreToolUse
            | PostToolUse
            | PostToolUseFailure
            | PostToolBatch
            | Stop
            | SubagentStop
    )
}

/// Encodes a handler's answer as a standalone Claude Code hook would answer.
///
/// - PreToolUse verdicts become `hookSpecificOutput.permissionDecision` (a `Block` is a deny);
///   PermissionRequest verdicts become `hookSpecificOutput.decision.behavior`.
/// - `Deny`/`Block` on events with a top-level decision become `decision: "block"` + `reason`;
///   on TaskCompleted and TeammateIdle, which block only by exit code, exit 2 with the reason
///   on stderr.
/// - Plain `output` is printed as is when the answer has nothing else; next to JSON fields it is
///   added to the additional context where the host reads plain stdout as context.
pub fn encode_answer(answer: &Answer, event: HookEvent) -> Encoded {
    let mut top = Map::new();
    let mut specific = Map::new();
    let mut encoded = Encoded::default();

    if let Some(flag) = answer.continue_ {
        top.insert("continue".into(), Value::Bool(flag));
    }
    if let Some(reason) = &answer.stop_reason {
        top.insert("stopReason".into(), reason.clone().into());
    }
    if let Some(message) = &answer.system_message {
        top.insert("systemMessage".into(), message.clone().into());
    }

    match (event, answer.decision) {
        (_, None) => {}
        (HookEvent::PreToolUse, Some(decision)) => {
            let decision = if decision == Decision::Block { Decision::Deny } else { decision };
            specific.insert("permissionDecision".into(), decision.as_str().into());
            if let Some(reason) = &answer.reason {
                specific.insert("permissionDecisionReason".into(), reason.clone().into());
            }
        }
        (HookEvent::PermissionRequest, Some(decision)) => {
            let mut verdict = Map::new();
            match decision {
                Decision::Allow => {
                    verdict.insert("behavior".into(), "allow".into());
                    if let Some(input) = &answer.updated_input {
                        verdict.insert("updatedInput".into(), input.clone());
                    }
                }
                Decision::Deny | Decision::Block => {
                    verdict.insert("behavior".into(), "deny".into());
                    if let Some(reason) = &answer.reason {
                        verdict.insert("message".into(), reason.clone().into());
                    }
                }
                Decision::Ask | Decision::Defer => {}
            }
            if !verdict.is_empty() {
                specific.insert("decision".into(), Value::Object(verdict));
            }
        }
        (event, Some(Decision::Deny | Decision::Block)) if blocks_with_decision(event) => {
            top.insert("decision".into(), "block".into());
            if let Some(reason) = &answer.reason {
                top.insert("reason".into(), reason.clone().into());
            }
        }
        (HookEvent::TaskCompleted | HookEvent::TeammateIdle, Some(Decision::Deny | Decision::Block)) => {
            encoded.exit_code = 2;
            encoded.stderr = answer.reason.clone().unwrap_or_else(|| "Blocked by hook".to_string());
        }
        (_, Some(_)) => {}
    }

    if event == HookEvent::PreToolUse {
        if let Some(input) = &answer.updated_input {
            specific.insert("updatedInput".into(), input.clone());
        }
    }

    let mut context = answer.additional_context.clone();
    let structured = !top.is_empty() || !specific.is_empty() || context.is_some() || !answer.extra.is_empty();
    if let (true, Some(text)) = (structured, &answer.output) {
        if event.plain_stdout_is_context() {
            context = Some(match context {
                Some(existing) => format!("{existing}\n{text}"),
                None => text.clone(),
            });
        }
    }
    if let Some(text) = context {
        if takes_additional_context(event) {
            specific.insert("additionalContext".into(), text.into());
        }
    }
    for (key, value) in &answer.extra {
        specific.insert(key.clone(), value.clone());
    }
    if !specific.is_empty() {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), event.as_str().into());
        with_name.extend(specific);
        top.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }

    if !top.is_empty() {
        encoded.stdout = format!("{}\n", Value::Object(top));
    } else if let Some(text) = &answer.output {
        encoded.stdout = text.clone();
    }
    encoded
}

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
    use crate::combine::{Combined, ContextPiece, Permission};
    use serde_json::json;

    fn json_of(answer: &Answer, event: HookEvent) -> Value {
        let encoded = encode_answer(answer, event);
        assert_eq!(encoded.exit_code, 0);
        if encoded.stdout.is_empty() {
            return Value::Null;
        }
        serde_json::from_str(&encoded.stdout).unwrap()
    }

    #[test]
    fn nothing_says_nothing() {
        assert_eq!(encode_answer(&Answer::none(), HookEvent::PreToolUse), Encoded::default());
    }

    #[test]
    fn pre_tool_use_decisions() {
        assert_eq!(
            json_of(&Answer::deny("no"), HookEvent::PreToolUse),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}})
        );
        assert_eq!(
            json_of(&Answer::block("no"), HookEvent::PreToolUse)["hookSpecificOutput"]["permissionDecision"],
            "deny"
        );
        let allow = Answer {
            decision: Some(Decision::Allow),
            updated_input: Some(json!({"command": "x"})),
            ..Answer::default()
        };
        assert_eq!(
            json_of(&allow, HookEvent::PreToolUse),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "x"}}})
        );
    }

    #[test]
    fn block_events_and_context() {
        let answer = Answer::block("keep going").with_context("more");
        assert_eq!(
            json_of(&answer, HookEvent::Stop),
            json!({"decision": "block", "reason": "keep going", "hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "more"}})
        );
        let answer = Answer::context("c").with_system_message("s");
        assert_eq!(
            json_of(&answer, HookEvent::SessionStart),
            json!({"systemMessage": "s", "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "c"}})
        );
        let stop = Answer { continue_: Some(false), stop_reason: Some("halt".into()), ..Answer::default() };
        assert_eq!(json_of(&stop, HookEvent::PreToolUse), json!({"continue": false, "stopReason": "halt"}));
        assert_eq!(
            json_of(&Answer { continue_: Some(true), ..Answer::default() }, HookEvent::PreCompact),
            json!({"continue": true})
        );
    }

    #[test]
    fn plain_text_and_exit_code_blocks() {
        let encoded = encode_answer(&Answer::text("hello\n"), HookEvent::UserPromptSubmit);
        assert_eq!(encoded.stdout, "hello\n");
        let encoded = encode_answer(&Answer::block("not done"), HookEvent::TaskCompleted);
        assert_eq!((encoded.exit_code, encoded.stderr.as_str(), encoded.stdout.as_str()), (2, "not done", ""));
        // Context on an event without hookSpecificOutput is not encoded into invalid JSON.
        assert_eq!(json_of(&Answer::context("x"), HookEvent::Notification), Value::Null);
    }

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

    #[test]
    fn permission_request() {
        let allow = Answer { decision: Some(Decision::Allow), ..Answer::default() };
        assert_eq!(
            json_of(&allow, HookEvent::PermissionRequest),
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}})
        );
        assert_eq!(
            json_of(&Answer::deny("n"), HookEvent::PermissionRequest)["hookSpecificOutput"]["decision"],
            json!({"behavior": "deny", "message": "n"})
        );
    }
}
