use super::*;
use crate::engine::verdict::combine::{Combined, ContextPiece, Permission};
use serde_json::json;

fn event(fields: Value) -> Event {
    let mut base = json!({"session_id": "s", "turn_id": "t", "transcript_path": null, "cwd": "/p", "model": "gpt-5.5"});
    base.as_object_mut().unwrap().extend(fields.as_object().unwrap().clone());
    Event::from_fields(base.as_object().unwrap().clone())
}

fn bash(kind: &str) -> Decoded {
    decode(&event(
        json!({"hook_event_name": kind, "tool_name": "Bash", "tool_input": {"command": "echo hi"}, "tool_use_id": "c1"}),
    ))
}

fn answer(kind: HookEvent, combined: Combined, decoded: &Decoded) -> Value {
    let encoded = encode(&Verdict { kind, combined, plain: vec![], runs: vec![] }, decoded);
    assert_eq!(encoded.exit_code, 0, "Codex reads JSON only on exit 0");
    if encoded.stdout.is_empty() {
        return Value::Null;
    }
    serde_json::from_str(&encoded.stdout).expect("one JSON object")
}

/// `parts` joined onto the event's `cwd` as the OS joins them: `/p/a.txt` on Unix, `/p\a.txt`
/// on Windows.
fn at(parts: &[&str]) -> String {
    parts.iter().fold(std::path::PathBuf::from("/p"), |path, part| path.join(part)).to_str().unwrap().to_owned()
}

fn no_tool() -> Decoded {
    Decoded { events: vec![], tool: None }
}

// Codex → Claude: the events hooks see.

#[test]
fn codex_tools_read_as_claude_tools() {
    let pre = |name: &str, input: Value| {
        decode(&event(
            json!({"hook_event_name": "PreToolUse", "tool_name": name, "tool_input": input, "tool_use_id": "c"}),
        ))
    };
    let bash = pre("Bash", json!({"command": "ls"}));
    assert_eq!(bash.events[0].tool_name(), Some("Bash"));
    assert_eq!(bash.events[0].tool_input_str("command"), Some("ls"));

    let agent = pre("spawn_agent", json!({"message": "sub task"}));
    assert_eq!(agent.events[0].tool_name(), Some("Agent"));
    assert_eq!(agent.events[0].tool_input_str("prompt"), Some("sub task"));
    assert_eq!(agent.events[0].tool_input_str("subagent_type"), Some("default"));

    let mcp = pre("mcp__github__create_issue", json!({"title": "t"}));
    assert_eq!(mcp.events[0].tool_name(), Some("mcp__github__create_issue"));
    // Codex glues the namespace on; there is no Claude counterpart, so it stays as it is.
    assert_eq!(pre("multi_agent_v1wait_agent", json!({})).events[0].tool_name(), Some("multi_agent_v1wait_agent"));
}

#[test]
fn a_patch_is_one_claude_edit_per_file() {
    let patch = "*** Begin Patch\n*** Add File: hello.txt\n+hello\n+world\n*** Update File: src/a.rs\n@@\n-old line\n+new line\n keep\n*** Delete File: gone.txt\n*** End Patch\n";
    let decoded = decode(&event(
        json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "tool_input": {"command": patch}, "tool_use_id": "c"}),
    ));
    let summary: Vec<(Option<&str>, Option<&str>)> =
        decoded.events.iter().map(|e| (e.tool_name(), e.tool_input_str("file_path"))).collect();
    assert_eq!(
        summary,
        [
            (Some("Write"), Some(at(&["hello.txt"]).as_str())),
            (Some("Edit"), Some(at(&["src/a.rs"]).as_str())),
            (Some("Edit"), Some(at(&["gone.txt"]).as_str()))
        ]
    );
    assert_eq!(decoded.events[0].tool_input_str("content"), Some("hello\nworld\n"));
    assert_eq!(decoded.events[1].tool_input_str("old_string"), Some("old line\nkeep"));
    assert_eq!(decoded.events[1].tool_input_str("new_string"), Some("new line\nkeep"));
    // Hooks written for Codex still find the patch where Codex puts it.
    assert!(decoded.events.iter().all(|e| e.tool_input_str("command") == Some(patch)));
}

#[test]
fn an_unreadable_patch_is_still_an_edit() {
    let decoded = decode(&event(
        json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "tool_input": {"command": "garbage"}}),
    ));
    assert_eq!(decoded.events.len(), 1);
    assert_eq!(decoded.events[0].tool_name(), Some("Edit"));
    // Hooks still see what Codex was asked to run, and no path they could wrongly pass.
    assert_eq!(decoded.events[0].tool_input_str("command"), Some("garbage"));
    assert_eq!(decoded.events[0].tool_input_str("file_path"), None);
}

fn patch_event(patch: &str) -> Decoded {
    decode(&event(
        json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "tool_input": {"command": patch}, "tool_use_id": "c"}),
    ))
}

fn files(decoded: &Decoded) -> Vec<(&str, &str)> {
    decoded.events.iter().map(|e| (e.tool_name().unwrap_or(""), e.tool_input_str("file_path").unwrap_or(""))).collect()
}

#[test]
fn a_move_is_checked_where_the_file_goes_and_where_it_leaves() {
    let decoded =
        patch_event("*** Begin Patch\n*** Update File: a.txt\n*** Move to: .env\n@@\n-a\n+b\n*** End Patch\n");
    assert_eq!(files(&decoded), [("Edit", at(&["a.txt"]).as_str()), ("Write", at(&[".env"]).as_str())]);
    assert_eq!(decoded.events[0].tool_input_str("patch_op"), Some("move_from"));
    assert_eq!(decoded.events[1].tool_input_str("patch_op"), Some("move_to"));
    assert_eq!(decoded.events[0].tool_input_str("old_string"), Some("a"));
}

#[test]
fn every_header_codex_reads_is_a_file_for_hooks() {
    // Codex trims a hunk's first line, so an indented header still adds the file.
    let indented = patch_event("*** Begin Patch\n  *** Add File: .env\n+SECRET=1\n*** End Patch\n");
    assert_eq!(files(&indented), [("Write", at(&[".env"]).as_str())]);
    let crlf = patch_event("*** Begin Patch\r\n*** Delete File: a b.txt\r\n*** Update File: /etc/hosts\r\n@@\r\n-x\r\n+y\r\n*** End of File\r\n*** Update File: sub/../.env\r\n*** Move to: ../out.txt\r\n@@\r\n-1\r\n+2\r\n*** End Patch\r\n");
    assert_eq!(
        files(&crlf),
        [
            ("Edit", at(&["a b.txt"]).as_str()),
            ("Edit", "/etc/hosts"),
            ("Edit", at(&["sub/../.env"]).as_str()),
            ("Write", at(&["../out.txt"]).as_str())
        ]
    );
    assert_eq!(crlf.events[0].tool_input_str("patch_op"), Some("delete"));
    assert_eq!(crlf.events[1].tool_input_str("old_string"), Some("x"));
    assert_eq!(crlf.events[1].tool_input_str("new_string"), Some("y"));
    // A heredoc around the patch, as Codex also accepts.
    let heredoc = patch_event("<<'EOF'\n*** Begin Patch\n*** Add File: x.txt\n+x\n*** End Patch\nEOF\n");
    assert_eq!(files(&heredoc), [("Write", at(&["x.txt"]).as_str())]);
}

#[test]
fn a_patch_codex_applies_from_the_shell_is_seen_as_one_too() {
    // Codex 0.169.0 runs `apply_patch <<'EOF'` itself, with or without `cd DIR &&` in front,
    // and its hooks see only Bash.
    let pre = |command: &str| {
        decode(&event(
            json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "c"}),
        ))
    };
    let heredoc = "cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: c.txt\n*** Move to: ../.env\n@@\n-c\n+d\n*** End Patch\nEOF\n";
    let decoded = pre(heredoc);
    assert_eq!(
        files(&decoded),
        [("Bash", ""), ("Edit", at(&["sub", "c.txt"]).as_str()), ("Write", at(&["sub", "../.env"]).as_str())]
    );
    assert_eq!(decoded.events[0].tool_input_str("command"), Some(heredoc));
    let quoted = pre("cd 'my dir' && applypatch <<EOF\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF");
    assert_eq!(files(&quoted), [("Bash", ""), ("Edit", at(&["my dir", "x"]).as_str())]);
    // Any other command is Bash alone.
    assert_eq!(files(&pre("echo '*** Add File: x'")), [("Bash", "")]);
}

#[test]
fn post_tool_use_bash_output_takes_claudes_shape() {
    let decoded = decode(&event(
        json!({"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "echo hi"}, "tool_response": "hi\n", "tool_use_id": "c"}),
    ));
    assert_eq!(
        decoded.events[0].tool_response(),
        Some(&json!({"stdout": "hi\n", "stderr": "", "interrupted": false, "isImage": false}))
    );
}

#[test]
fn every_captured_codex_payload_decodes() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/events/codex");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let event = Event::parse(&std::fs::read_to_string(&path).unwrap());
        let decoded = decode(&event);
        assert!(!decoded.events.is_empty(), "{}", path.display());
        for mapped in &decoded.events {
            assert_eq!(mapped.name(), event.name(), "{}", path.display());
            if let Some(tool) = mapped.tool_name() {
                assert!(!["apply_patch", "spawn_agent"].contains(&tool), "{}: {tool}", path.display());
            }
        }
    }
}

// Claude → Codex: a rewritten input in the shape the Codex tool takes.

#[test]
fn rewritten_inputs_go_back_in_codex_shape() {
    let updated = json!({"command": "echo rewritten", "description": "probe"});
    assert_eq!(codex_input(&updated, &bash("PreToolUse")), Ok(json!({"command": "echo rewritten"})));
    assert!(codex_input(&json!({"description": "x"}), &bash("PreToolUse")).is_err());

    let add = decode(&event(json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch",
        "tool_input": {"command": "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"}})));
    assert_eq!(
        codex_input(&json!({"file_path": "/p/a.txt", "content": "b\nc\n"}), &add),
        Ok(json!({"command": "*** Begin Patch\n*** Add File: a.txt\n+b\n+c\n*** End Patch\n"}))
    );
    let whole = "*** Begin Patch\n*** Add File: z.txt\n+z\n*** End Patch\n";
    assert_eq!(codex_input(&json!({"command": whole}), &add), Ok(json!({"command": whole})));
    let update = decode(&event(json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch",
        "tool_input": {"command": "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch\n"}})));
    assert!(codex_input(&json!({"old_string": "a", "new_string": "c"}), &update).is_err());

    let agent = decode(&event(
        json!({"hook_event_name": "PreToolUse", "tool_name": "spawn_agent", "tool_input": {"message": "m", "agent_type": "explorer"}}),
    ));
    assert_eq!(
        codex_input(&json!({"prompt": "better"}), &agent),
        Ok(json!({"message": "better", "agent_type": "explorer"}))
    );
}

// The answer, for every combination Codex treats differently from Claude Code.

#[test]
fn deny_is_a_json_deny_with_a_reason() {
    let deny = Combined {
        permission: Some((Permission::Deny, vec!["[cmd]: No stderr output".into()])),
        ..Combined::default()
    };
    assert_eq!(
        answer(HookEvent::PreToolUse, deny, &bash("PreToolUse")),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "[cmd]: No stderr output"}})
    );
    // Codex refuses a deny without a non-empty reason.
    let bare = Combined { permission: Some((Permission::Deny, vec![])), ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PreToolUse, bare, &bash("PreToolUse"))["hookSpecificOutput"]["permissionDecisionReason"],
        "Blocked by hook"
    );
}

#[test]
fn ask_is_a_deny_that_says_why() {
    let ask = Combined { permission: Some((Permission::Ask, vec!["touches prod".into()])), ..Combined::default() };
    let out = answer(HookEvent::PreToolUse, ask, &bash("PreToolUse"));
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = out["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.starts_with("touches prod (") && reason.contains("cannot ask"), "{reason}");
}

#[test]
fn allow_says_nothing_and_a_rewrite_is_an_allow() {
    let allow = Combined { permission: Some((Permission::Allow, vec![])), ..Combined::default() };
    assert_eq!(answer(HookEvent::PreToolUse, allow, &bash("PreToolUse")), Value::Null);
    let rewrite = Combined {
        permission: Some((Permission::Allow, vec![])),
        updated_input: Some(json!({"command": "echo second-rewrite", "description": "probe"})),
        ..Combined::default()
    };
    assert_eq!(
        answer(HookEvent::PreToolUse, rewrite, &bash("PreToolUse")),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo second-rewrite"}}})
    );
    // A rewrite with no decision still needs Codex's allow.
    let bare = Combined { updated_input: Some(json!({"command": "x"})), ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PreToolUse, bare, &bash("PreToolUse"))["hookSpecificOutput"]["permissionDecision"],
        "allow"
    );
    // One Codex cannot apply is dropped, and the user is told.
    let bad = Combined { updated_input: Some(json!({"cmd": "x"})), ..Combined::default() };
    let out = answer(HookEvent::PreToolUse, bad, &bash("PreToolUse"));
    assert!(out.get("hookSpecificOutput").is_none());
    assert!(out["systemMessage"].as_str().unwrap().contains("updatedInput was not applied"));
}

#[test]
fn context_on_tool_events_is_additional_context() {
    let context = Combined { context: vec![ContextPiece::Additional("CTX-PRE-123".into())], ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PreToolUse, context.clone(), &bash("PreToolUse")),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-PRE-123"}})
    );
    assert_eq!(
        answer(HookEvent::PostToolUse, context, &bash("PostToolUse"))["hookSpecificOutput"]["additionalContext"],
        "CTX-PRE-123"
    );
}

#[test]
fn continue_false_never_reaches_pre_tool_use() {
    let stop = Combined { stop: Some(vec!["halt everything".into()]), ..Combined::default() };
    let out = answer(HookEvent::PreToolUse, stop.clone(), &bash("PreToolUse"));
    assert!(out.get("continue").is_none() && out.get("stopReason").is_none(), "{out}");
    assert!(out["systemMessage"].as_str().unwrap().contains("halt everything"));
    // Nor PostToolUse, where Codex would replace the tool's output with the reason.
    let out = answer(HookEvent::PostToolUse, stop.clone(), &bash("PostToolUse"));
    assert!(out.get("continue").is_none(), "{out}");
    // Where Codex takes it, it goes as it is.
    assert_eq!(
        answer(HookEvent::UserPromptSubmit, stop.clone(), &no_tool()),
        json!({"continue": false, "stopReason": "halt everything"})
    );
    assert_eq!(answer(HookEvent::Stop, stop, &no_tool()), json!({"continue": false, "stopReason": "halt everything"}));
}

#[test]
fn a_post_tool_use_block_keeps_the_output() {
    let block = Combined { blocks: vec!["[cmd]: post complaint\n".into()], ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PostToolUse, block, &bash("PostToolUse")),
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "[cmd]: post complaint"}})
    );
}

#[test]
fn an_mcp_output_rewrite_is_codexs_block() {
    let mcp = decode(&event(
        json!({"hook_event_name": "PostToolUse", "tool_name": "mcp__db__query", "tool_input": {}, "tool_response": "rows"}),
    ));
    let mut extra = Map::new();
    extra.insert("updatedMCPToolOutput".into(), json!({"rows": 0}));
    let rewrite = Combined { extra, ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PostToolUse, rewrite.clone(), &mcp),
        json!({"decision": "block", "reason": "{\"rows\":0}"})
    );
    // Claude Code only rewrites MCP tools' output.
    assert_eq!(answer(HookEvent::PostToolUse, rewrite, &bash("PostToolUse")), Value::Null);
}

#[test]
fn prompt_blocks_and_context() {
    let block = Combined { blocks: vec!["[cmd]: prompt rejected\n".into()], ..Combined::default() };
    assert_eq!(
        answer(HookEvent::UserPromptSubmit, block, &no_tool()),
        json!({"decision": "block", "reason": "[cmd]: prompt rejected\n"})
    );
    let plain = Combined {
        context: vec![ContextPiece::Plain("UPS-ONE\n".into()), ContextPiece::Plain("UPS-TWO\n".into())],
        ..Combined::default()
    };
    assert_eq!(
        answer(HookEvent::UserPromptSubmit, plain, &no_tool()),
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "UPS-ONE\nUPS-TWO"}})
    );
}

#[test]
fn stop_context_and_blocks_continue_the_turn() {
    let context =
        Combined { context: vec![ContextPiece::Additional("STOP-CTX run the linter".into())], ..Combined::default() };
    assert_eq!(
        answer(HookEvent::Stop, context, &no_tool()),
        json!({"decision": "block", "reason": "STOP-CTX run the linter"})
    );
    let both = Combined {
        blocks: vec!["keep going: run tests".into()],
        context: vec![ContextPiece::Additional("and lint".into())],
        ..Combined::default()
    };
    assert_eq!(
        answer(HookEvent::SubagentStop, both, &no_tool()),
        json!({"decision": "block", "reason": "keep going: run tests\nand lint"})
    );
    // Stop must answer JSON or nothing: plain text would fail the hook.
    let encoded = encode(
        &Verdict { kind: HookEvent::Stop, combined: Combined::default(), plain: vec!["x".into()], runs: vec![] },
        &no_tool(),
    );
    assert_eq!(encoded.stdout, "");
    // continue: false wins over the continuation, and both are said.
    let stop = Combined { blocks: vec!["more".into()], stop: Some(vec![]), ..Combined::default() };
    assert_eq!(
        answer(HookEvent::Stop, stop, &no_tool()),
        json!({"decision": "block", "reason": "more", "continue": false})
    );
}

#[test]
fn session_start_and_subagent_start_context() {
    let context = Combined { context: vec![ContextPiece::Plain("SS-PLAIN-CTX\n".into())], ..Combined::default() };
    assert_eq!(
        answer(HookEvent::SessionStart, context.clone(), &no_tool()),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "SS-PLAIN-CTX"}})
    );
    let encoded =
        encode(&Verdict { kind: HookEvent::SubagentStart, combined: context, plain: vec![], runs: vec![] }, &no_tool());
    assert_eq!(encoded.stdout, "SS-PLAIN-CTX\n");
}

#[test]
fn permission_requests() {
    let request =
        |decision: Value| Combined { permission_request: decision.as_object().cloned(), ..Combined::default() };
    let specific = |out: Value| out["hookSpecificOutput"]["decision"].clone();
    let decoded = bash("PermissionRequest");
    assert_eq!(
        specific(answer(
            HookEvent::PermissionRequest,
            request(json!({"behavior": "deny", "message": "no", "interrupt": true})),
            &decoded
        )),
        json!({"behavior": "deny", "message": "no"})
    );
    assert_eq!(
        specific(answer(HookEvent::PermissionRequest, request(json!({"behavior": "allow"})), &decoded)),
        json!({"behavior": "allow"})
    );
    let out = answer(
        HookEvent::PermissionRequest,
        request(json!({"behavior": "allow", "updatedPermissions": [{"type": "x"}]})),
        &decoded,
    );
    assert_eq!(specific(out.clone()), json!({"behavior": "allow"}));
    assert!(out["systemMessage"].as_str().unwrap().contains("updatedPermissions"));
    // Allowing a rewrite Codex cannot apply would run the original: no decision instead.
    let out = answer(
        HookEvent::PermissionRequest,
        request(json!({"behavior": "allow", "updatedInput": {"command": "y"}})),
        &decoded,
    );
    assert!(out.get("hookSpecificOutput").is_none());
}

#[test]
fn pre_compact_blocks_stop_and_notices_are_system_messages() {
    let block = Combined { blocks: vec!["not now".into()], ..Combined::default() };
    assert_eq!(answer(HookEvent::PreCompact, block, &no_tool()), json!({"continue": false, "stopReason": "not now"}));
    let notices =
        Combined { notices: vec!["hook timed out".into()], system_messages: vec!["hi".into()], ..Combined::default() };
    assert_eq!(answer(HookEvent::SessionEnd, notices, &no_tool()), json!({"systemMessage": "hi\nhook timed out"}));
}

#[test]
fn codex_refuses_nothing_hookmux_sends() {
    // Every field in an answer is one Codex 0.169.0 accepts for that event.
    let allowed_top = |kind: HookEvent| -> &'static [&'static str] {
        match kind {
            HookEvent::PreToolUse | HookEvent::PermissionRequest => &["systemMessage", "hookSpecificOutput"],
            HookEvent::PostToolUse | HookEvent::UserPromptSubmit => {
                &["continue", "stopReason", "systemMessage", "decision", "reason", "hookSpecificOutput"]
            }
            HookEvent::Stop | HookEvent::SubagentStop => {
                &["continue", "stopReason", "systemMessage", "decision", "reason"]
            }
            _ => &["continue", "stopReason", "systemMessage", "hookSpecificOutput"],
        }
    };
    let everything = Combined {
        permission: Some((Permission::Deny, vec!["r".into()])),
        blocks: vec!["b".into()],
        context: vec![ContextPiece::Additional("c".into())],
        system_messages: vec!["m".into()],
        stop: Some(vec!["s".into()]),
        ..Combined::default()
    };
    for kind in [
        HookEvent::SessionStart,
        HookEvent::UserPromptSubmit,
        HookEvent::PreToolUse,
        HookEvent::PermissionRequest,
        HookEvent::PostToolUse,
        HookEvent::PreCompact,
        HookEvent::PostCompact,
        HookEvent::Stop,
        HookEvent::SubagentStart,
        HookEvent::SubagentStop,
        HookEvent::SessionEnd,
    ] {
        let out = answer(kind, everything.clone(), &bash(kind.as_str()));
        for key in out.as_object().unwrap().keys() {
            assert!(allowed_top(kind).contains(&key.as_str()), "{kind}: {key} in {out}");
        }
        if out.get("decision").is_some() {
            assert!(!out["reason"].as_str().unwrap().trim().is_empty(), "{kind}: a block needs a reason");
        }
    }
}
