//! The combination table: several handlers' outcomes, folded in configured order.

use super::*;
use crate::engine::execute::RawOutput;
use crate::engine::verdict::outcome::classify;
use hookmux_sdk::HookEvent::{self, *};
use serde_json::json;
use std::time::Duration;

/// Outcomes from (exit code, stdout, stderr) triples, as if each came from a command `h<i>`.
fn fold(event: HookEvent, runs: &[(i32, &str, &str)]) -> Combined {
    let outcomes: Vec<(String, Outcome)> = runs
        .iter()
        .enumerate()
        .map(|(i, (code, stdout, stderr))| {
            let raw = RawOutput {
                stdout: stdout.to_string().into_bytes(),
                stderr: stderr.to_string().into_bytes(),
                exit_code: Some(*code),
                ..RawOutput::default()
            };
            let label = format!("h{}", i + 1);
            let outcome = classify(&raw, event, &label, Duration::from_secs(600));
            (label, outcome)
        })
        .collect();
    let labelled: Vec<Labelled<'_>> = outcomes.iter().map(|(label, outcome)| Labelled { label, outcome }).collect();
    combine(event, &format!("{event}:Bash"), &labelled)
}

fn pre(decision: &str, reason: &str) -> String {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision, "permissionDecisionReason": reason}}).to_string()
}

fn rewrite(command: &str) -> String {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": command}}}).to_string()
}

#[test]
fn most_restrictive_permission_wins() {
    // pre-allow-and-deny
    let c = fold(PreToolUse, &[(0, &pre("allow", "ok"), ""), (0, &pre("deny", "second hook denies"), "")]);
    assert_eq!(c.permission, Some((Permission::Deny, vec!["second hook denies".to_string()])));
    let c = fold(PreToolUse, &[(0, &pre("ask", "a"), ""), (0, &pre("defer", "d"), ""), (0, &pre("allow", "x"), "")]);
    assert_eq!(c.permission.map(|p| p.0), Some(Permission::Defer));
    let c = fold(PreToolUse, &[(0, &pre("allow", ""), ""), (0, &pre("ask", "confirm"), "")]);
    assert_eq!(c.permission, Some((Permission::Ask, vec!["confirm".to_string()])));
    // Every reason for the winning decision is kept, in order.
    let c = fold(PreToolUse, &[(0, &pre("deny", "one"), ""), (2, "", "two"), (0, &pre("allow", "x"), "")]);
    assert_eq!(c.permission, Some((Permission::Deny, vec!["one".to_string(), "[h2]: two".to_string()])));
}

#[test]
fn exit_2_blocks_even_when_its_json_allows() {
    let c = fold(PreToolUse, &[(2, &rewrite("echo x"), "no")]);
    assert_eq!(c.permission, Some((Permission::Deny, vec!["[h1]: no".to_string()])));
    assert_eq!(c.updated_input, None);
}

#[test]
fn legacy_top_level_decisions() {
    // pre-legacy-block
    let c = fold(PreToolUse, &[(0, r#"{"decision":"block","reason":"legacy block reason"}"#, "")]);
    assert_eq!(c.permission, Some((Permission::Deny, vec!["legacy block reason".to_string()])));
    let c = fold(PreToolUse, &[(0, r#"{"decision":"approve"}"#, "")]);
    assert_eq!(c.permission.map(|p| p.0), Some(Permission::Allow));
    // hookSpecificOutput overrides the top-level decision of the same output.
    let both = json!({"decision": "block", "reason": "r", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}).to_string();
    assert_eq!(fold(PreToolUse, &[(0, &both, "")]).permission.map(|p| p.0), Some(Permission::Allow));
}

#[test]
fn updated_input_is_the_last_in_configured_order() {
    // pre-two-updated-inputs: the host takes the last to finish; hookmux the last configured.
    let c = fold(PreToolUse, &[(0, &rewrite("echo first-rewrite"), ""), (0, &rewrite("echo second-rewrite"), "")]);
    assert_eq!(c.updated_input, Some(json!({"command": "echo second-rewrite"})));
    // A hook that denies contributes no input; a final deny drops every rewrite.
    let deny_with_input = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "updatedInput": {"command": "z"}}}).to_string();
    let c = fold(PreToolUse, &[(0, &rewrite("echo a"), ""), (0, &deny_with_input, "")]);
    assert_eq!(c.updated_input, None);
    // Without a decision of its own, a hook's input still counts.
    let bare =
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "b"}}}).to_string();
    let c = fold(PreToolUse, &[(0, &rewrite("echo a"), ""), (0, &bare, "")]);
    assert_eq!(c.updated_input, Some(json!({"command": "b"})));
}

#[test]
fn every_context_and_message_is_kept() {
    let ctx = |text: &str| {
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": text}, "systemMessage": format!("note {text}")}).to_string()
    };
    // ups-two-plain and a mix of plain and JSON.
    let c = fold(UserPromptSubmit, &[(0, "UPS-ONE\n", ""), (0, &ctx("A"), ""), (0, "UPS-TWO\n", "")]);
    assert_eq!(
        c.context,
        [
            ContextPiece::Plain("UPS-ONE\n".into()),
            ContextPiece::Additional("A".into()),
            ContextPiece::Plain("UPS-TWO\n".into())
        ]
    );
    assert_eq!(c.system_messages, ["note A"]);
    // Plain stdout is not context on tool events (pre-plain-stdout).
    assert!(fold(PreToolUse, &[(0, "PLAIN", "")]).context.is_empty());
}

#[test]
fn any_continue_false_stops_with_its_reason() {
    // pre-continue-false
    let c = fold(
        PreToolUse,
        &[(0, r#"{"continue": false, "stopReason": "halt everything"}"#, ""), (0, &pre("allow", ""), "")],
    );
    assert_eq!(c.stop, Some(vec!["halt everything".to_string()]));
    let c = fold(Stop, &[(0, r#"{"continue": false}"#, ""), (0, r#"{"decision":"block","reason":"more"}"#, "")]);
    assert_eq!(c.stop, Some(vec![]));
    assert_eq!(c.blocks, ["more"]);
    assert_eq!(fold(Stop, &[(0, r#"{"continue": true}"#, "")]).stop, None);
}

#[test]
fn blocks_per_event() {
    // stop-block-once, ups-exit2, post-exit2
    assert_eq!(fold(Stop, &[(0, r#"{"decision":"block","reason":"keep going"}"#, "")]).blocks, ["keep going"]);
    assert_eq!(fold(UserPromptSubmit, &[(2, "", "prompt rejected\n")]).blocks, ["[h1]: prompt rejected\n"]);
    assert_eq!(fold(PostToolUse, &[(2, "", "post complaint\n")]).blocks, ["[h1]: post complaint\n"]);
    // Events that block only by exit code.
    assert_eq!(fold(TaskCompleted, &[(2, "", "tests fail")]).exit_blocks, ["[h1]: tests fail"]);
    // Exit 2 on SessionStart cannot block: the user is told.
    let c = fold(SessionStart, &[(2, "", "oops")]);
    assert!(c.blocks.is_empty() && c.exit_blocks.is_empty());
    assert_eq!(c.notices, ["SessionStart:Bash hook error: [h1]: oops"]);
    // PermissionRequest ignores exit 2.
    assert_eq!(fold(PermissionRequest, &[(2, "", "x")]), Combined::default());
}

#[test]
fn failures_and_timeouts_are_notices_only() {
    // pre-exit1-stderr
    let c = fold(PreToolUse, &[(1, "", "soft failure")]);
    assert_eq!(c.permission, None);
    assert_eq!(c.notices, ["PreToolUse:Bash hook error: [h1]: Failed with non-blocking status code 1: soft failure"]);
    let cancelled = Outcome::Cancelled { after: Duration::from_millis(1500) };
    let c = combine(PreToolUse, "PreToolUse:Bash", &[Labelled { label: "slow", outcome: &cancelled }]);
    assert_eq!(c.notices, ["PreToolUse:Bash hook [slow] timed out after 1.5 s; it gives no decision"]);
    // WorktreeCreate fails on any non-zero exit.
    assert_eq!(fold(WorktreeCreate, &[(1, "", "no")]).exit_blocks.len(), 1);
}

#[test]
fn permission_requests() {
    let decide = |decision: serde_json::Value| {
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}).to_string()
    };
    let allow = decide(
        json!({"behavior": "allow", "updatedInput": {"command": "ls"}, "updatedPermissions": [{"type": "setMode", "mode": "plan"}]}),
    );
    let allow2 =
        decide(json!({"behavior": "allow", "updatedPermissions": [{"type": "addDirectories", "directories": ["/x"]}]}));
    let c = fold(PermissionRequest, &[(0, &allow, ""), (0, &allow2, "")]);
    let merged = c.permission_request.unwrap();
    assert_eq!(merged["behavior"], "allow");
    assert_eq!(merged["updatedInput"], json!({"command": "ls"}));
    assert_eq!(merged["updatedPermissions"].as_array().unwrap().len(), 2);
    let deny = decide(json!({"behavior": "deny", "message": "no", "interrupt": true}));
    let c = fold(PermissionRequest, &[(0, &allow, ""), (0, &deny, ""), (0, &allow2, "")]);
    assert_eq!(
        Value::Object(c.permission_request.unwrap()),
        json!({"behavior": "deny", "message": "no", "interrupt": true})
    );
}

#[test]
fn other_specific_fields_pass_through() {
    let ss = |fields: serde_json::Value| {
        let mut specific = json!({"hookEventName": "SessionStart"});
        specific.as_object_mut().unwrap().extend(fields.as_object().unwrap().clone());
        json!({"hookSpecificOutput": specific}).to_string()
    };
    let c = fold(
        SessionStart,
        &[
            (0, &ss(json!({"sessionTitle": "a", "watchPaths": ["/1"]})), ""),
            (0, &ss(json!({"sessionTitle": "b", "watchPaths": ["/2"]})), ""),
        ],
    );
    assert_eq!(c.extra["sessionTitle"], "b");
    assert_eq!(c.extra["watchPaths"], json!(["/1", "/2"]));
    // WorktreeCreate: the first path printed wins.
    let c = fold(WorktreeCreate, &[(0, "log line\n/tmp/wt-a\n", ""), (0, "/tmp/wt-b\n", "")]);
    assert_eq!(c.worktree_path.as_deref(), Some("/tmp/wt-a"));
}
