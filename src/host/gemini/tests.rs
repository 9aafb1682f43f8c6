use super::*;
use crate::engine::verdict::combine::{Combined, ContextPiece, Permission};
use serde_json::json;

/// A payload Gemini CLI 0.61.0 sent, recorded in `fixtures/events/gemini/`.
fn recorded(name: &str) -> Event {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/events/gemini").join(format!("{name}.json"));
    Event::parse(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn only(decoded: &Decoded) -> &Event {
    assert_eq!(decoded.events.len(), 1, "{:?}", decoded.events);
    &decoded.events[0]
}

fn answer_with(kind: HookEvent, combined: Combined, decoded: &Decoded, carried: &Carried) -> (Value, Answer) {
    let answer = encode(&Verdict { kind, combined, plain: vec![], runs: vec![] }, decoded, carried);
    assert_eq!(answer.encoded.exit_code, 0, "Gemini reads JSON at exit 0 too; hookmux never needs another");
    let value = if answer.encoded.stdout.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&answer.encoded.stdout).expect("one JSON object")
    };
    (value, answer)
}

fn answer(kind: HookEvent, combined: Combined, decoded: &Decoded) -> Value {
    answer_with(kind, combined, decoded, &Carried::default()).0
}

fn shell() -> Decoded {
    decode(&recorded("BeforeTool-run_shell_command-echo"))
}

// Gemini → Claude: the events hooks see, on recorded payloads.

#[test]
fn every_recorded_payload_decodes_to_claude_names() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/events/gemini");
    let claude_tools = ["Bash", "Write", "Edit", "Read", "Agent", "Glob", "Grep"];
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let event = Event::parse(&std::fs::read_to_string(&path).unwrap());
        let decoded = decode(&event);
        assert_eq!(decoded.gemini_event, event.name().unwrap());
        for mapped in &decoded.events {
            let kind = mapped.kind().unwrap_or_else(|| panic!("{}: {:?}", path.display(), mapped.name()));
            if kind.is_tool_event() {
                assert!(claude_tools.contains(&mapped.tool_name().unwrap()), "{}", path.display());
                assert!(mapped.tool_use_id().is_some_and(|id| id.starts_with("gemini_")));
            }
            assert!(mapped.get("gemini_transcript_path").is_some(), "{}", path.display());
            assert!(mapped.transcript_path().is_none(), "hookmux's transcript is set by dispatch");
        }
    }
}

#[test]
fn event_names_map_to_claude_events() {
    let name = |fixture: &str| decode(&recorded(fixture)).events.first().and_then(|e| e.name().map(str::to_string));
    assert_eq!(name("SessionStart").as_deref(), Some("SessionStart"));
    assert_eq!(name("BeforeAgent").as_deref(), Some("UserPromptSubmit"));
    assert_eq!(name("BeforeTool-write_file").as_deref(), Some("PreToolUse"));
    assert_eq!(name("AfterTool-write_file").as_deref(), Some("PostToolUse"));
    assert_eq!(name("AfterTool-run_shell_command-exit3").as_deref(), Some("PostToolUseFailure"));
    assert_eq!(name("AfterAgent").as_deref(), Some("Stop"));
    assert_eq!(name("SessionEnd").as_deref(), Some("SessionEnd"));
    // Fired before every model call, whether or not Gemini then compresses: not a compaction.
    assert_eq!(name("PreCompress"), None);
    assert_eq!(name("BeforeModel"), None);
    // A subagent's hand-back tool has no Claude counterpart.
    assert_eq!(name("BeforeTool-complete_task"), None);
    assert_eq!(name("AfterTool-complete_task"), None);
}

#[test]
fn a_manual_compress_is_a_compaction() {
    let mut fields = recorded("PreCompress").fields().clone();
    fields.insert("trigger".into(), "manual".into());
    let decoded = decode(&Event::from_fields(fields));
    let event = only(&decoded);
    assert_eq!(event.name(), Some("PreCompact"));
    assert_eq!(event.trigger(), Some("manual"));
}

#[test]
fn tool_inputs_read_as_claude_inputs() {
    let bash = shell();
    assert_eq!(only(&bash).tool_name(), Some("Bash"));
    assert_eq!(only(&bash).get("tool_input"), Some(&json!({"command": "echo hi", "description": "echo"})));

    let write = decode(&recorded("BeforeTool-write_file"));
    assert_eq!(only(&write).tool_name(), Some("Write"));
    assert_eq!(only(&write).tool_input_str("content"), Some("hello\n"));

    let edit = decode(&recorded("BeforeTool-replace"));
    assert_eq!(only(&edit).tool_name(), Some("Edit"));
    assert_eq!(only(&edit).tool_input_str("old_string"), Some("x"));
    assert_eq!(only(&edit).tool_input_str("new_string"), Some("y"));

    let read = decode(&recorded("BeforeTool-read_file"));
    assert_eq!(only(&read).tool_name(), Some("Read"));
    assert_eq!(only(&read).tool_input_str("file_path"), Some("/home/dev/acme/a.txt"));

    let agent = decode(&recorded("BeforeTool-invoke_agent"));
    assert_eq!(only(&agent).tool_name(), Some("Agent"));
    assert_eq!(only(&agent).tool_input_str("prompt"), Some("look around"));
    assert_eq!(only(&agent).tool_input_str("subagent_type"), Some("generalist"));

    assert_eq!(only(&decode(&recorded("BeforeTool-glob"))).tool_name(), Some("Glob"));
    assert_eq!(only(&decode(&recorded("BeforeTool-grep_search"))).tool_name(), Some("Grep"));

    assert_eq!(
        claude_input("read_file", &json!({"file_path": "/a", "start_line": 10, "end_line": 19})),
        json!({"file_path": "/a", "offset": 10, "limit": 10})
    );
    assert_eq!(
        claude_input("grep_search", &json!({"pattern": "p", "dir_path": "src", "include": "*.rs"})),
        json!({"pattern": "p", "path": "src", "glob": "*.rs"})
    );
    assert_eq!(
        claude_tool("anything", Some(&json!({"server_name": "github", "tool_name": "create_issue"}))),
        "mcp__github__create_issue"
    );
    assert_eq!(claude_tool("list_directory", None), "list_directory");
}

#[test]
fn the_same_call_has_the_same_id_before_and_after() {
    let before = decode(&recorded("BeforeTool-run_shell_command-echo"));
    let after = decode(&recorded("AfterTool-run_shell_command-exit0"));
    assert_eq!(only(&before).tool_use_id(), only(&after).tool_use_id());
}

#[test]
fn a_shell_result_reads_as_claude_bash_output() {
    let ok = decode(&recorded("AfterTool-run_shell_command-exit0"));
    assert_eq!(only(&ok).name(), Some("PostToolUse"));
    assert_eq!(
        only(&ok).tool_response(),
        Some(&json!({"stdout": "hi", "stderr": "", "interrupted": false, "isImage": false}))
    );
    let failed = decode(&recorded("AfterTool-run_shell_command-exit3"));
    assert_eq!(only(&failed).name(), Some("PostToolUseFailure"));
    assert_eq!(only(&failed).str("error"), Some("Exit code 3"));
    assert!(only(&failed).tool_response().is_none());
    // A tool Gemini reports as failed.
    assert_eq!(
        tool_failure("write_file", &json!({"llmContent": "x", "error": {"message": "no space", "type": "t"}})),
        Some("no space".to_string())
    );
    assert_eq!(tool_failure("read_file", &json!({"llmContent": "Exit Code: 3"})), None);
    // The command's own output may print the words; Gemini's line comes last.
    let printed = json!({"llmContent": "<untrusted_context>\nOutput: a\nExit Code: 1\nb\nProcess Group PGID: 1\n</untrusted_context>"});
    assert_eq!(tool_failure("run_shell_command", &printed), None);
    assert_eq!(claude_response("run_shell_command", printed)["stdout"], "a\nExit Code: 1\nb");
}

#[test]
fn after_agent_is_stop_with_the_last_message() {
    let stop = decode(&recorded("AfterAgent"));
    assert_eq!(only(&stop).str("last_assistant_message"), Some("FINAL"));
    assert!(!only(&stop).stop_hook_active());
    let again = decode(&recorded("AfterAgent-stop_hook_active"));
    assert!(only(&again).stop_hook_active());
}

#[test]
fn session_end_and_notification_reasons_read_as_claude_ones() {
    assert_eq!(only(&decode(&recorded("SessionEnd"))).str("reason"), Some("other"));
    let note = decode(&Event::from_fields(
        json!({"session_id": "s", "hook_event_name": "Notification", "notification_type": "ToolPermission", "message": "m"})
            .as_object()
            .cloned()
            .unwrap(),
    ));
    assert_eq!(only(&note).str("notification_type"), Some("permission_prompt"));
}

// Claude → Gemini: the answers.

#[test]
fn a_deny_is_gemini_deny_with_the_reason() {
    let combined =
        Combined { permission: Some((Permission::Deny, vec!["blocked by policy X".into()])), ..Default::default() };
    assert_eq!(
        answer(HookEvent::PreToolUse, combined, &shell()),
        json!({"decision": "deny", "reason": "blocked by policy X"})
    );
    let silent = Combined { permission: Some((Permission::Deny, vec![])), ..Default::default() };
    assert_eq!(answer(HookEvent::PreToolUse, silent, &shell())["reason"], "Blocked by hook");
}

#[test]
fn an_ask_is_gemini_ask() {
    let combined = Combined { permission: Some((Permission::Ask, vec!["sure?".into()])), ..Default::default() };
    assert_eq!(answer(HookEvent::PreToolUse, combined, &shell()), json!({"decision": "ask", "reason": "sure?"}));
}

#[test]
fn an_allow_alone_says_nothing() {
    let combined = Combined { permission: Some((Permission::Allow, vec![])), ..Default::default() };
    assert_eq!(answer(HookEvent::PreToolUse, combined, &shell()), Value::Null);
}

#[test]
fn a_rewrite_goes_back_in_the_gemini_tool_shape() {
    let combined = Combined {
        updated_input: Some(json!({"command": "echo rewritten", "description": "echo", "timeout": 5})),
        ..Default::default()
    };
    let (value, out) = answer_with(HookEvent::PreToolUse, combined, &shell(), &Carried::default());
    assert_eq!(
        value,
        json!({"hookSpecificOutput": {"hookEventName": "BeforeTool",
            "tool_input": {"command": "echo rewritten", "description": "echo"}}})
    );
    assert_eq!(out.final_input, Some(json!({"command": "echo rewritten", "description": "echo"})));

    let agent = decode(&recorded("BeforeTool-invoke_agent"));
    let tool = agent.tool.clone().unwrap();
    assert_eq!(
        gemini_input(&tool, &json!({"prompt": "better", "subagent_type": "generalist", "description": ""})),
        Ok(json!({"prompt": "better", "agent_name": "generalist"}).as_object().cloned().unwrap())
    );
    let read = decode(&recorded("BeforeTool-read_file")).tool.unwrap();
    assert_eq!(
        gemini_input(&read, &json!({"file_path": "/x", "offset": 5, "limit": 2})),
        Ok(json!({"file_path": "/x", "start_line": 5, "end_line": 6}).as_object().cloned().unwrap())
    );
    let bad = Combined { updated_input: Some(json!({"description": "no command"})), ..Default::default() };
    let value = answer(HookEvent::PreToolUse, bad, &shell());
    assert!(value["systemMessage"].as_str().unwrap().contains("updatedInput was not applied"), "{value}");
    assert!(value.get("hookSpecificOutput").is_none());
}

#[test]
fn pre_tool_context_waits_for_the_tool_result() {
    let combined = Combined { context: vec![ContextPiece::Additional("CTX-PRE".into())], ..Default::default() };
    let (value, out) = answer_with(HookEvent::PreToolUse, combined, &shell(), &Carried::default());
    assert_eq!(value, Value::Null, "Gemini drops BeforeTool context");
    assert_eq!(out.context_later.as_deref(), Some("PreToolUse:Bash hook additional context: CTX-PRE"));

    let after = decode(&recorded("AfterTool-run_shell_command-exit0"));
    let carried = Carried { pre_context: out.context_later.clone(), ..Default::default() };
    let (value, _) = answer_with(HookEvent::PostToolUse, Combined::default(), &after, &carried);
    assert_eq!(value["hookSpecificOutput"]["additionalContext"], "PreToolUse:Bash hook additional context: CTX-PRE");
    // Keyed by the call: the AfterTool of the same call finds it.
    let before_tool = shell().tool.unwrap();
    let after_tool = after.tool.unwrap();
    assert_eq!(call_key(&before_tool.name, &before_tool.input), call_key(&after_tool.name, &after_tool.input));
}

#[test]
fn a_deny_carries_its_context_in_the_reason() {
    let combined = Combined {
        permission: Some((Permission::Deny, vec!["no".into()])),
        context: vec![ContextPiece::Additional("why".into())],
        ..Default::default()
    };
    let (value, out) = answer_with(HookEvent::PreToolUse, combined, &shell(), &Carried::default());
    assert_eq!(value["reason"], "no\n\nPreToolUse:Bash hook additional context: why");
    assert_eq!(out.context_later, None);
}

#[test]
fn a_deny_with_continue_false_also_ends_the_turn() {
    let combined = Combined {
        permission: Some((Permission::Deny, vec!["no".into()])),
        stop: Some(vec!["halt".into()]),
        ..Default::default()
    };
    let (value, out) = answer_with(HookEvent::PreToolUse, combined, &shell(), &Carried::default());
    assert_eq!(value["decision"], "deny");
    assert_eq!(out.stop_later.as_deref(), Some("halt"));
}

#[test]
fn continue_false_on_a_tool_event_stops_before_the_next_model_call() {
    let combined = Combined { stop: Some(vec!["halt everything".into()]), ..Default::default() };
    let (value, out) = answer_with(HookEvent::PreToolUse, combined, &shell(), &Carried::default());
    assert_eq!(value, Value::Null, "Gemini's own stop on BeforeTool would not run the tool");
    assert_eq!(out.stop_later.as_deref(), Some("halt everything"));

    let after = decode(&recorded("AfterTool-run_shell_command-exit0"));
    let combined = Combined { stop: Some(vec![]), ..Default::default() };
    let (value, out) = answer_with(HookEvent::PostToolUse, combined, &after, &Carried::default());
    assert_eq!(value, Value::Null, "Gemini's own stop on AfterTool would replace the output");
    assert_eq!(out.stop_later.as_deref(), Some(""));
}

#[test]
fn post_tool_blocks_and_context_are_appended_to_the_output() {
    let after = decode(&recorded("AfterTool-run_shell_command-exit0"));
    let combined = Combined {
        blocks: vec!["post complaint".into()],
        context: vec![ContextPiece::Additional("POST-CTX".into())],
        ..Default::default()
    };
    assert_eq!(
        answer(HookEvent::PostToolUse, combined, &after),
        json!({"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext":
            "PostToolUse:Bash hook blocking error: post complaint\n\nPostToolUse:Bash hook additional context: POST-CTX"}})
    );
    let failed = decode(&recorded("AfterTool-run_shell_command-exit3"));
    let combined = Combined { context: vec![ContextPiece::Additional("FAIL-CTX".into())], ..Default::default() };
    assert_eq!(
        answer(HookEvent::PostToolUseFailure, combined, &failed)["hookSpecificOutput"]["additionalContext"],
        "PostToolUseFailure:Bash hook additional context: FAIL-CTX"
    );
}

#[test]
fn prompt_blocks_stops_and_context() {
    let prompt = decode(&recorded("BeforeAgent"));
    let block = Combined { blocks: vec!["prompt rejected".into()], ..Default::default() };
    assert_eq!(
        answer(HookEvent::UserPromptSubmit, block, &prompt),
        json!({"decision": "block", "reason": "prompt rejected"})
    );
    let halt = Combined { stop: Some(vec!["enough".into()]), ..Default::default() };
    assert_eq!(answer(HookEvent::UserPromptSubmit, halt, &prompt), json!({"continue": false, "stopReason": "enough"}));
    let context = Combined {
        context: vec![ContextPiece::Plain("UPS-ONE\n".into()), ContextPiece::Plain("UPS-TWO\n".into())],
        ..Default::default()
    };
    assert_eq!(
        answer(HookEvent::UserPromptSubmit, context, &prompt),
        json!({"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "UPS-ONE\nUPS-TWO"}})
    );
}

#[test]
fn session_start_plain_stdout_is_context() {
    let start = decode(&recorded("SessionStart"));
    let combined = Combined { context: vec![ContextPiece::Plain("SS-PLAIN-CTX\n".into())], ..Default::default() };
    assert_eq!(
        answer(HookEvent::SessionStart, combined, &start),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "SS-PLAIN-CTX"}})
    );
}

#[test]
fn a_stop_block_continues_the_turn_at_most_eight_times_in_a_row() {
    let stop = decode(&recorded("AfterAgent"));
    let block = || Combined { blocks: vec!["keep going: run tests".into()], ..Default::default() };
    let (value, out) = answer_with(HookEvent::Stop, block(), &stop, &Carried::default());
    assert_eq!(value, json!({"decision": "block", "reason": "Stop hook feedback:\nkeep going: run tests"}));
    assert!(out.stop_blocked);

    let seventh = Carried { stop_blocks: MAX_STOP_BLOCKS - 1, ..Default::default() };
    assert_eq!(answer_with(HookEvent::Stop, block(), &stop, &seventh).0["decision"], "block");
    let ninth = Carried { stop_blocks: MAX_STOP_BLOCKS, ..Default::default() };
    let (value, out) = answer_with(HookEvent::Stop, block(), &stop, &ninth);
    assert!(value.get("decision").is_none(), "{value}");
    assert!(value["systemMessage"].as_str().unwrap().contains("8 times in a row"));
    assert!(!out.stop_blocked);
}

#[test]
fn stop_context_continues_the_turn_and_continue_false_wins() {
    let stop = decode(&recorded("AfterAgent"));
    let context =
        Combined { context: vec![ContextPiece::Additional("STOP-CTX run the linter".into())], ..Default::default() };
    assert_eq!(
        answer(HookEvent::Stop, context, &stop),
        json!({"decision": "block", "reason": "Stop hook feedback:\nSTOP-CTX run the linter"})
    );
    let both = Combined { blocks: vec!["b".into()], stop: Some(vec!["done".into()]), ..Default::default() };
    assert_eq!(answer(HookEvent::Stop, both, &stop), json!({"continue": false, "stopReason": "done"}));
}

#[test]
fn what_gemini_cannot_do_is_told_not_dropped() {
    let mut fields = recorded("PreCompress").fields().clone();
    fields.insert("trigger".into(), "manual".into());
    let compact = decode(&Event::from_fields(fields));
    let combined = Combined { blocks: vec!["not now".into()], ..Default::default() };
    let value = answer(HookEvent::PreCompact, combined, &compact);
    assert!(value["systemMessage"].as_str().unwrap().contains("cannot"), "{value}");

    let after = decode(&recorded("AfterTool-run_shell_command-exit0"));
    let mut extra = Map::new();
    extra.insert("updatedMCPToolOutput".into(), json!("x"));
    let value = answer(HookEvent::PostToolUse, Combined { extra, ..Default::default() }, &after);
    assert!(value["systemMessage"].as_str().unwrap().contains("updatedMCPToolOutput"), "{value}");

    let notices = Combined { notices: vec!["hook timed out".into()], ..Default::default() };
    assert_eq!(
        answer(HookEvent::SessionEnd, notices, &decode(&recorded("SessionEnd"))),
        json!({"systemMessage": "hook timed out"})
    );
}
