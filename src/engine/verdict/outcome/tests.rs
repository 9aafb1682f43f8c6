//! The outcome table: every exit code against every shape of stdout, as Claude Code 2.1.328
//! treats them (spec §6 and the conformance scenarios named in each case).

use super::*;
use hookmux_sdk::HookEvent::{self, *};

fn raw(code: Option<i32>, stdout: &str, stderr: &str) -> RawOutput {
    RawOutput { stdout: stdout.into(), stderr: stderr.into(), exit_code: code, ..RawOutput::default() }
}

fn outcome(event: HookEvent, code: Option<i32>, stdout: &str, stderr: &str) -> Outcome {
    classify(&raw(code, stdout, stderr), event, "cmd", Duration::from_secs(600))
}

const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R1"}}"#;
const ALLOW: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
const CTX: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"C"}}"#;

fn answered_json(o: &Outcome) -> &HookJson {
    match o {
        Outcome::Answered { json: Some(json), .. } => json,
        other => panic!("expected answered JSON, got {other:?}"),
    }
}

#[test]
fn exit_0() {
    // pre-exit0-silent
    assert_eq!(outcome(PreToolUse, Some(0), "", ""), Outcome::Answered { json: None, plain: None });
    // pre-plain-stdout, ups-plain-stdout: plain text is kept; whether it is context is the event's business.
    assert_eq!(
        outcome(PreToolUse, Some(0), "PLAIN\n", ""),
        Outcome::Answered { json: None, plain: Some("PLAIN\n".into()) }
    );
    // pre-json-deny
    assert_eq!(
        answered_json(&outcome(PreToolUse, Some(0), DENY, "")).specific_str("permissionDecisionReason"),
        Some("R1")
    );
    // Leading whitespace before the object is fine; a JSON array or string is plain text.
    assert!(matches!(outcome(PreToolUse, Some(0), "  \n{}", ""), Outcome::Answered { json: Some(_), .. }));
    assert!(matches!(outcome(PreToolUse, Some(0), "[1,2]", ""), Outcome::Answered { plain: Some(_), .. }));
    assert!(matches!(outcome(PreToolUse, Some(0), "\"x\"", ""), Outcome::Answered { plain: Some(_), .. }));
}

#[test]
fn exit_2_blocks_with_stderr_or_the_json_reason() {
    // pre-exit2-stderr: the message is `[command]: stderr`, stderr as written.
    assert_eq!(
        outcome(PreToolUse, Some(2), "", "blocked by policy X\n"),
        Outcome::Blocked { message: "[cmd]: blocked by policy X\n".into(), json: None }
    );
    // pre-exit2-no-stderr
    assert_eq!(
        outcome(PreToolUse, Some(2), "", ""),
        Outcome::Blocked { message: "[cmd]: No stderr output".into(), json: None }
    );
    // Exit 2 blocks even when the JSON says allow; the JSON's other fields are kept.
    match outcome(PreToolUse, Some(2), ALLOW, "nope") {
        Outcome::Blocked { message, json: Some(_) } => assert_eq!(message, "[cmd]: nope"),
        other => panic!("{other:?}"),
    }
    // The JSON's own blocking reason wins over stderr.
    match outcome(PreToolUse, Some(2), DENY, "stderr text") {
        Outcome::Blocked { message, .. } => assert_eq!(message, "R1"),
        other => panic!("{other:?}"),
    }
    match outcome(Stop, Some(2), r#"{"decision":"block","reason":"go on"}"#, "x") {
        Outcome::Blocked { message, .. } => assert_eq!(message, "go on"),
        other => panic!("{other:?}"),
    }
    // Exit 2 with JSON that fails validation still blocks, with stderr.
    match outcome(PreToolUse, Some(2), r#"{"continue": "no"}"#, "why") {
        Outcome::Blocked { message, json: None } => assert_eq!(message, "[cmd]: why"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn other_exit_codes() {
    // pre-exit1-stderr: a non-blocking error naming the first stderr line.
    assert_eq!(
        outcome(PreToolUse, Some(1), "", "soft failure\nmore\n"),
        Outcome::Failed { message: "Failed with non-blocking status code 1: soft failure".into() }
    );
    assert_eq!(
        outcome(PreToolUse, Some(127), "", ""),
        Outcome::Failed { message: "Failed with non-blocking status code 127: No stderr output".into() }
    );
    assert!(matches!(outcome(PreToolUse, None, "", ""), Outcome::Failed { message } if message.contains("signal")));
    // Valid JSON on any exit code is honoured as on exit 0 (a deny on exit 1 blocks).
    assert_eq!(answered_json(&outcome(PreToolUse, Some(1), DENY, "")).specific_str("permissionDecision"), Some("deny"));
    assert!(matches!(outcome(PreToolUse, Some(3), CTX, ""), Outcome::Answered { json: Some(_), .. }));
    // Plain stdout on a failure is not context.
    assert!(matches!(outcome(UserPromptSubmit, Some(1), "text", ""), Outcome::Failed { .. }));
}

#[test]
fn timeouts_give_no_decision() {
    // pre-timeout
    let timed_out = RawOutput { timed_out: true, stderr: b"late".to_vec(), exit_code: None, ..RawOutput::default() };
    assert_eq!(
        classify(&timed_out, PreToolUse, "cmd", Duration::from_secs(1)),
        Outcome::Cancelled { after: Duration::from_secs(1) }
    );
}

#[test]
fn invalid_json_is_reported_not_ignored() {
    match outcome(PreToolUse, Some(0), "{not json", "") {
        Outcome::Failed { message } => assert!(message.contains("looks like a JSON object but is not valid JSON")),
        other => panic!("{other:?}"),
    }
    // Two objects, as a noisy shell profile produces.
    assert!(matches!(outcome(PreToolUse, Some(0), "{}\n{}", ""), Outcome::Failed { .. }));
}

#[test]
fn validation() {
    let invalid = |event, json: &str| match outcome(event, Some(0), json, "") {
        Outcome::Failed { message } => message,
        other => panic!("{json}: {other:?}"),
    };
    assert_eq!(
        invalid(PreToolUse, r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}"#),
        "Hook returned incorrect event name: expected 'PreToolUse' but got 'PostToolUse'"
    );
    assert!(invalid(PreToolUse, r#"{"hookSpecificOutput":{"additionalContext":"x"}}"#).contains("hookEventName"));
    assert!(invalid(
        PreToolUse,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"block"}}"#
    )
    .contains("permissionDecision"));
    assert!(invalid(Stop, r#"{"decision":"deny"}"#).contains("decision"));
    assert!(invalid(Stop, r#"{"continue":"false"}"#).contains("`continue` must be a boolean"));
    assert!(invalid(Stop, r#"{"systemMessage":7}"#).contains("systemMessage"));
    assert!(invalid(Stop, r#"{"hookSpecificOutput":"Stop"}"#).contains("must be an object"));
    assert!(invalid(PreToolUse, r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":"x"}}"#)
        .contains("updatedInput"));
    assert!(invalid(
        PermissionRequest,
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"maybe"}}}"#
    )
    .contains("behavior"));
    // Unknown keys are ignored, as the host's validation does.
    let lenient = outcome(Stop, Some(0), r#"{"decision":"block","reason":"r","whatever":1}"#, "");
    assert_eq!(answered_json(&lenient).decision.as_deref(), Some("block"));
}

#[test]
fn blocking_reasons() {
    let json = |text: &str| match read_stdout(text, PreToolUse) {
        StdoutRead::Json(json) => json,
        other => panic!("{other:?}"),
    };
    assert_eq!(json(DENY).blocking_reason(PreToolUse).as_deref(), Some("R1"));
    assert_eq!(
        json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#)
            .blocking_reason(PreToolUse)
            .as_deref(),
        Some("Blocked by hook")
    );
    assert_eq!(json(ALLOW).blocking_reason(PreToolUse), None);
    assert_eq!(json(r#"{"decision":"block"}"#).blocking_reason(PreToolUse).as_deref(), Some("Blocked by hook"));
}
