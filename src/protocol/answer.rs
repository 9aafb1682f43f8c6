//! A handler's answer on the wire: stdout JSON (or plain text) and an exit code, as a standalone
//! Claude Code hook prints it.

use super::events::{blocks_with_decision, decides_permission, takes_additional_context};
use hookmux_sdk::{Answer, Decision, HookEvent};
use serde_json::{Map, Value};

/// What a hook process prints and how it exits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Encoded {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
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
        // PreToolUse and PreModelSwitch: a decision the event does not take (`defer` on a model
        // switch) is left out rather than sent for the host to refuse.
        (event, Some(decision)) if decides_permission(event) => {
            let decision = if decision == Decision::Block { Decision::Deny } else { decision };
            if event.spec().permission.contains(&decision.as_str()) {
                specific.insert("permissionDecision".into(), decision.as_str().into());
                if let Some(reason) = &answer.reason {
                    specific.insert("permissionDecisionReason".into(), reason.clone().into());
                }
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

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(
            json_of(&Answer::deny("pinned"), HookEvent::PreModelSwitch)["hookSpecificOutput"],
            json!({"hookEventName": "PreModelSwitch", "permissionDecision": "deny", "permissionDecisionReason": "pinned"})
        );
        let defer = Answer { decision: Some(Decision::Defer), ..Answer::default() };
        assert_eq!(json_of(&defer, HookEvent::PreModelSwitch), Value::Null);
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
