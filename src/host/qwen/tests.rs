use super::*;
use crate::engine::verdict::combine::{Combined, ContextPiece, Permission};
use serde_json::json;

/// A payload Qwen Code 0.24.4 sent, recorded in `fixtures/events/qwen/`.
fn recorded(name: &str) -> Event {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/events/qwen").join(format!("{name}.json"));
    Event::parse(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn only(decoded: &Decoded) -> &Event {
    assert_eq!(decoded.events.len(), 1, "{:?}", decoded.events);
    &decoded.events[0]
}

fn decoded(name: &str) -> Decoded {
    decode(&recorded(name))
}

fn answer_with(kind: HookEvent, combined: Combined, decoded: &Decoded, carried: &Carried) -> (Value, Answer) {
    answer_with_plain(kind, combined, vec![], decoded, carried)
}

fn answer_with_plain(
    kind: HookEvent,
    combined: Combined,
    plain: Vec<String>,
    decoded: &Decoded,
    carried: &Carried,
) -> (Value, Answer) {
    let answer = encode(&Verdict { kind, combined, plain, runs: vec![] }, decoded, carried);
    assert_eq!(answer.encoded.exit_code, 0, "Qwen reads JSON at exit 0; exit 2 would read stderr instead");
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
    decoded("PreToolUse-run_shell_command")
}

fn event(fields: Value) -> Event {
    Event::from_fields(fields.as_object().cloned().unwrap())
}

// Qwen → Claude: the events hooks see, on recorded payloads.

#[test]
fn every_recorded_payload_decodes_to_claude_names_ids_and_fields() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/events/qwen");
    let claude_tools = ["Bash", "Write", "Edit", "Read", "Agent", "Glob", "Grep", "WebFetch"];
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let event = Event::parse(&std::fs::read_to_string(&path).unwrap());
        let decoded = decode(&event);
        for mapped in &decoded.events {
            let kind = mapped.kind().unwrap_or_else(|| panic!("{}: {:?}", path.display(), mapped.name()));
            assert_eq!(mapped.name(), event.name(), "Qwen's event names are Claude's");
            if kind.is_tool_event() {
                assert!(claude_tools.contains(&mapped.tool_name().unwrap()), "{}", path.display());
                assert!(mapped.tool_use_id().is_some_and(|id| id.starts_with("call_mock_")), "{}", path.display());
                assert!(mapped.str("qwen_tool_use_id").is_some_and(|id| id.starts_with("toolu_")));
            }
            assert!(mapped.get("qwen_transcript_path").is_some(), "{}", path.display());
            assert!(mapped.transcript_path().is_none(), "hookmux's transcript is set by dispatch");
            assert_eq!(mapped.permission_mode(), Some("bypassPermissions"), "yolo: {}", path.display());
        }
    }
}

#[test]
fn events_only_the_user_sees_map_to_none() {
    assert!(decoded("MessageDisplay").events.is_empty());
    assert_eq!(only(&decoded("SessionStart")).source(), Some("startup"));
    assert_eq!(only(&decoded("InstructionsLoaded")).str("load_reason"), Some("session_start"));
    assert_eq!(only(&decoded("Notification-auth_success")).str("notification_type"), Some("auth_success"));
}

#[test]
fn tool_inputs_read_as_claude_inputs() {
    let bash = shell();
    assert_eq!(only(&bash).tool_name(), Some("Bash"));
    assert_eq!(only(&bash).get("tool_input"), Some(&json!({"command": "echo hi", "description": "echo"})));
    assert_eq!(bash.tool.as_ref().unwrap().name, "run_shell_command");

    let write = decoded("PreToolUse-write_file");
    assert_eq!(only(&write).tool_name(), Some("Write"));
    assert_eq!(only(&write).tool_input_str("file_path"), Some("/home/dev/acme/a.txt"));
    assert_eq!(only(&write).tool_input_str("content"), Some("hello\nx\n"));

    let edit = decoded("PreToolUse-edit");
    assert_eq!(only(&edit).tool_name(), Some("Edit"));
    assert_eq!(
        only(&edit).get("tool_input"),
        Some(&json!({"file_path": "/home/dev/acme/a.txt", "old_string": "x", "new_string": "y", "replace_all": false}))
    );

    // Qwen counts lines from 0 (it read line 2 for offset 1), Claude from 1.
    let read = decoded("PreToolUse-read_file-range");
    assert_eq!(only(&read).tool_name(), Some("Read"));
    assert_eq!(only(&read).get("tool_input").unwrap()["offset"], 2);
    assert_eq!(only(&read).get("tool_input").unwrap()["limit"], 1);

    let agent = decoded("PreToolUse-agent");
    assert_eq!(only(&agent).tool_name(), Some("Agent"));
    assert_eq!(only(&agent).tool_input_str("subagent_type"), Some("general-purpose"));
    assert_eq!(only(&agent).tool_input_str("prompt"), Some("look around"));

    assert_eq!(only(&decoded("PreToolUse-glob")).tool_name(), Some("Glob"));
    assert_eq!(only(&decoded("PreToolUse-grep_search")).tool_input_str("glob"), Some("*.txt"));
    assert_eq!(only(&decoded("PreToolUse-web_fetch")).tool_name(), Some("WebFetch"));

    assert_eq!(
        claude_input("run_shell_command", &json!({"command": "make", "is_background": true})),
        json!({"command": "make", "run_in_background": true})
    );
    for (qwen, claude) in
        [("replace", "Edit"), ("task", "Agent"), ("search_file_content", "Grep"), ("list_directory", "LS")]
    {
        assert_eq!(claude_tool(qwen), claude);
    }
    assert_eq!(claude_tool("mcp__github__create_issue"), "mcp__github__create_issue");
}

#[test]
fn a_call_keeps_the_models_id_from_pre_to_post_and_batch() {
    let pre = decoded("PreToolUse-run_shell_command");
    let post = decoded("PostToolUse-run_shell_command");
    let batch = decoded("PostToolBatch-run_shell_command");
    assert_eq!(only(&pre).tool_use_id(), Some("call_mock_0"));
    assert_eq!(only(&post).tool_use_id(), only(&pre).tool_use_id());
    assert_eq!(only(&batch).get("tool_calls").unwrap()[0]["tool_use_id"], "call_mock_0");
    assert_eq!(pre.tool.unwrap().id.as_deref(), Some("call_mock_0"));
}

#[test]
fn a_shell_result_reads_as_claude_bash_output() {
    assert_eq!(
        only(&decoded("PostToolUse-run_shell_command")).tool_response(),
        Some(&json!({"stdout": "hi", "stderr": "", "interrupted": false, "isImage": false}))
    );
    // Qwen merges stderr into the output.
    assert_eq!(
        only(&decoded("PostToolUse-run_shell_command-two-lines")).tool_response().unwrap()["stdout"],
        "a\nb\nerr"
    );
    // Other tools' results as Qwen sent them.
    let read = decoded("PostToolUse-read_file-range");
    assert!(only(&read).tool_response().unwrap()["llmContent"].as_str().unwrap().ends_with("\nx"));
    // A command's own output may print Qwen's words; Qwen's lines come last.
    let printed = "Command: cat log\nDirectory: (root)\nOutput: Output: a\nError: disk\nExit Code: 1\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: 7";
    assert_eq!(shell_output(printed, "cat log"), "Output: a\nError: disk\nExit Code: 1");
    assert_eq!(shell_exit_code(printed), Some(0));
    assert_eq!(
        shell_output("Command timed out after 5ms before it could complete.", "x"),
        "Command timed out after 5ms before it could complete."
    );
}

#[test]
fn a_failed_command_reads_as_claude_exit_code_and_other_failures_keep_their_error() {
    let failed = decoded("PostToolUseFailure-run_shell_command-exit3");
    assert_eq!(only(&failed).str("error"), Some("Exit code 3"));
    assert_eq!(only(&failed).get("is_interrupt"), Some(&json!(false)));
    let missing = decoded("PostToolUseFailure-read_file-missing");
    assert_eq!(only(&missing).str("error"), Some("File not found: /home/dev/acme/missing.txt"));
    assert_eq!(only(&decoded("PostToolUseFailure-web_fetch")).tool_name(), Some("WebFetch"));
}

#[test]
fn a_batch_lists_claude_calls_with_their_output() {
    let batch = decoded("PostToolBatch-run_shell_command");
    assert_eq!(
        only(&batch).get("tool_calls"),
        Some(&json!([{"tool_name": "Bash", "tool_input": {"command": "echo hi", "description": "echo"},
            "tool_use_id": "call_mock_0", "tool_response": "hi"}]))
    );
    let failed = decoded("PostToolBatch-run_shell_command-exit3");
    assert_eq!(only(&failed).get("tool_calls").unwrap()[0]["tool_response"], "Exit code 3");
    let agent = decoded("PostToolBatch-agent");
    assert_eq!(only(&agent).get("tool_calls").unwrap()[0]["tool_response"], "SUBAGENT-DONE");
}

#[test]
fn only_the_users_own_prompt_is_one() {
    assert_eq!(prompt_kind(&recorded("UserPromptSubmit")), Prompt::User);
    assert_eq!(prompt_kind(&recorded("UserPromptSubmit-tool-continuation")), Prompt::ToolResults);
    assert_eq!(prompt_kind(&recorded("UserPromptSubmit-stop-continuation")), Prompt::Unsubmitted("keep going".into()));
    // No `submitted_prompt` and no way to tell: the user's, so that a guard on prompts runs.
    assert_eq!(prompt_kind(&event(json!({"hook_event_name": "UserPromptSubmit"}))), Prompt::User);
}

#[test]
fn stop_and_subagent_events_keep_claudes_fields() {
    let stop = decoded("Stop");
    assert_eq!(only(&stop).str("last_assistant_message"), Some("FINAL"));
    assert!(!only(&stop).stop_hook_active());
    assert_eq!(only(&stop).get("session_crons"), Some(&json!([])));
    assert!(only(&decoded("Stop-stop_hook_active")).stop_hook_active());
    let start = decoded("SubagentStart");
    assert_eq!(only(&start).agent_type(), Some("general-purpose"));
    let end = decoded("SubagentStop");
    assert_eq!(only(&end).str("last_assistant_message"), Some("SUBAGENT-DONE"));
    assert!(only(&end).str("agent_transcript_path").is_some());
}

// Claude → Qwen: the answers.

#[test]
fn a_deny_is_qwen_deny_with_the_reason_even_without_one() {
    let combined =
        Combined { permission: Some((Permission::Deny, vec!["blocked by policy X".into()])), ..Default::default() };
    assert_eq!(
        answer(HookEvent::PreToolUse, combined, &shell()),
        json!({"decision": "deny", "reason": "blocked by policy X"})
    );
    // Exit 2 with nothing on stderr: Qwen itself would block nothing.
    let silent = Combined { permission: Some((Permission::Deny, vec![])), ..Default::default() };
    assert_eq!(answer(HookEvent::PreToolUse, silent, &shell())["reason"], "Blocked by hook");
}

#[test]
fn an_ask_is_qwen_ask_and_an_allow_says_nothing() {
    let combined = Combined { permission: Some((Permission::Ask, vec!["sure?".into()])), ..Default::default() };
    assert_eq!(answer(HookEvent::PreToolUse, combined, &shell()), json!({"decision": "ask", "reason": "sure?"}));
    let allow = Combined { permission: Some((Permission::Allow, vec![])), ..Default::default() };
    assert_eq!(answer(HookEvent::PreToolUse, allow, &shell()), Value::Null);
}

#[test]
fn a_rewrite_is_refused_with_the_input_to_call_again_and_told_once() {
    let rewrite = || Combined {
        permission: Some((Permission::Allow, vec![])),
        updated_input: Some(json!({"command": "echo rewritten-command", "description": "echo"})),
        ..Default::default()
    };
    let (value, out) = answer_with(HookEvent::PreToolUse, rewrite(), &shell(), &Carried::default());
    assert_eq!(value["decision"], "deny", "Qwen would run the original input: {value}");
    let reason = value["reason"].as_str().unwrap();
    assert!(reason.contains("call run_shell_command again with this input"), "{reason}");
    assert!(reason.contains(r#""command":"echo rewritten-command""#), "{reason}");
    assert!(value["systemMessage"].as_str().unwrap().contains("updatedInput was not applied"), "{value}");
    assert!(out.told_rewrite);
    let told = Carried { told_rewrite: true, ..Default::default() };
    let (value, out) = answer_with(HookEvent::PreToolUse, rewrite(), &shell(), &told);
    assert_eq!(value["decision"], "deny");
    assert!(value.get("systemMessage").is_none(), "once per session: {value}");
    assert!(!out.told_rewrite);

    // The call made again with the hook's input (or a hook that gives back what it got) runs.
    let same = Combined { updated_input: Some(json!({"command": "echo hi"})), ..Default::default() };
    assert_eq!(answer(HookEvent::PreToolUse, same, &shell()), Value::Null);
    // Claude's names go back to Qwen's.
    let read = decoded("PreToolUse-read_file-range");
    let tool = read.tool.clone().unwrap();
    assert_eq!(qwen_input(&tool, &claude_input(&tool.name, &tool.input)), tool.input);
    let unchanged = Combined { updated_input: Some(json!({"offset": 2, "limit": 1})), ..Default::default() };
    assert_eq!(answer(HookEvent::PreToolUse, unchanged, &read), Value::Null);
}

#[test]
fn pre_tool_context_waits_for_the_tool_result() {
    let combined = Combined { context: vec![ContextPiece::Additional("CTX-PRE".into())], ..Default::default() };
    let (value, out) = answer_with(HookEvent::PreToolUse, combined, &shell(), &Carried::default());
    assert_eq!(value, Value::Null, "Qwen drops PreToolUse context");
    assert_eq!(out.context_later.as_deref(), Some("PreToolUse:Bash hook additional context: CTX-PRE"));

    let after = decoded("PostToolUse-run_shell_command");
    let carried = Carried { pre_context: out.context_later.clone(), ..Default::default() };
    let (value, _) = answer_with(HookEvent::PostToolUse, Combined::default(), &after, &carried);
    assert_eq!(value["hookSpecificOutput"]["additionalContext"], "PreToolUse:Bash hook additional context: CTX-PRE");

    let denied = Combined {
        permission: Some((Permission::Deny, vec!["no".into()])),
        context: vec![ContextPiece::Additional("why".into())],
        ..Default::default()
    };
    let (value, out) = answer_with(HookEvent::PreToolUse, denied, &shell(), &Carried::default());
    assert_eq!(value["reason"], "no\n\nPreToolUse:Bash hook additional context: why");
    assert_eq!(out.context_later, None);
}

#[test]
fn continue_false_on_a_tool_event_lets_the_tool_run_and_stops_the_next_request() {
    let combined = Combined { stop: Some(vec!["halt everything".into()]), ..Default::default() };
    let (value, out) = answer_with(HookEvent::PreToolUse, combined, &shell(), &Carried::default());
    assert_eq!(value, Value::Null, "Qwen's own stop on PreToolUse would not run the tool");
    assert_eq!(out.stop_later.as_deref(), Some("halt everything"));

    for (kind, fixture) in [
        (HookEvent::PostToolUse, "PostToolUse-run_shell_command"),
        (HookEvent::PostToolUseFailure, "PostToolUseFailure-run_shell_command-exit3"),
        (HookEvent::PostToolBatch, "PostToolBatch-run_shell_command"),
    ] {
        let combined = Combined { stop: Some(vec![]), ..Default::default() };
        let (value, out) = answer_with(kind, combined, &decoded(fixture), &Carried::default());
        assert_eq!(value, Value::Null, "{kind}: Qwen's own stop would replace the output");
        assert_eq!(out.stop_later.as_deref(), Some(""));
    }
}

#[test]
fn post_tool_blocks_and_context_are_appended_to_the_output() {
    let after = decoded("PostToolUse-run_shell_command");
    let combined = Combined {
        blocks: vec!["post complaint".into()],
        context: vec![ContextPiece::Additional("POST-CTX".into())],
        ..Default::default()
    };
    assert_eq!(
        answer(HookEvent::PostToolUse, combined, &after),
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext":
            "PostToolUse:Bash hook blocking error: post complaint\n\nPostToolUse:Bash hook additional context: POST-CTX"}})
    );
    let failed = decoded("PostToolUseFailure-run_shell_command-exit3");
    let combined = Combined { context: vec![ContextPiece::Additional("FAIL-CTX".into())], ..Default::default() };
    assert_eq!(
        answer(HookEvent::PostToolUseFailure, combined, &failed)["hookSpecificOutput"]["additionalContext"],
        "PostToolUseFailure:Bash hook additional context: FAIL-CTX"
    );
    let batch = decoded("PostToolBatch-run_shell_command");
    let combined = Combined { blocks: vec!["too many".into()], ..Default::default() };
    assert_eq!(
        answer(HookEvent::PostToolBatch, combined, &batch)["hookSpecificOutput"]["additionalContext"],
        "PostToolBatch hook blocking error: too many"
    );
}

#[test]
fn prompt_blocks_stops_and_context() {
    let prompt = decoded("UserPromptSubmit");
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
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "UPS-ONE\nUPS-TWO"}})
    );
}

#[test]
fn session_and_subagent_start_context() {
    let combined = || Combined { context: vec![ContextPiece::Plain("SS-PLAIN-CTX\n".into())], ..Default::default() };
    assert_eq!(
        answer(HookEvent::SessionStart, combined(), &decoded("SessionStart")),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "SS-PLAIN-CTX"}})
    );
    assert_eq!(
        answer(HookEvent::SubagentStart, combined(), &decoded("SubagentStart"))["hookSpecificOutput"]
            ["additionalContext"],
        "SS-PLAIN-CTX"
    );
}

#[test]
fn a_stop_block_or_context_continues_the_turn_and_continue_false_ends_it() {
    let stop = decoded("Stop");
    let block = Combined { blocks: vec!["keep going: run tests".into()], ..Default::default() };
    let (value, out) = answer_with(HookEvent::Stop, block, &stop, &Carried::default());
    assert_eq!(value, json!({"decision": "block", "reason": "Stop hook feedback:\nkeep going: run tests"}));
    assert_eq!(out.stop_feedback.as_deref(), Some("Stop hook feedback:\nkeep going: run tests"));

    let context =
        Combined { context: vec![ContextPiece::Additional("STOP-CTX run the linter".into())], ..Default::default() };
    assert_eq!(answer(HookEvent::Stop, context, &stop)["reason"], "Stop hook feedback:\nSTOP-CTX run the linter");
    // Qwen reads continue: false on Stop as a block: saying nothing ends the turn.
    let both = Combined { blocks: vec!["b".into()], stop: Some(vec!["done".into()]), ..Default::default() };
    let (value, out) = answer_with(HookEvent::Stop, both, &stop, &Carried::default());
    assert_eq!((value, out.stop_feedback), (Value::Null, None));

    let subagent = decoded("SubagentStop");
    let block = Combined { blocks: vec!["not yet".into()], ..Default::default() };
    let (value, out) = answer_with(HookEvent::SubagentStop, block, &subagent, &Carried::default());
    assert_eq!(value, json!({"decision": "block", "reason": "not yet"}));
    assert_eq!(out.stop_feedback, None, "no prompt of the main turn follows a subagent's");
}

#[test]
fn a_permission_request_decision_is_qwens_with_a_rewrite_in_qwens_shape() {
    let request = decode(&event(json!({"session_id": "s", "hook_event_name": "PermissionRequest",
        "tool_name": "read_file", "tool_input": {"file_path": "/a", "offset": 0}, "permission_mode": "default"})));
    assert_eq!(only(&request).tool_name(), Some("Read"));
    let mut decision = Map::new();
    decision.insert("behavior".into(), "allow".into());
    decision.insert("updatedInput".into(), json!({"file_path": "/b", "offset": 10}));
    decision.insert("updatedPermissions".into(), json!([{"type": "addRules"}]));
    let value = answer(
        HookEvent::PermissionRequest,
        Combined { permission_request: Some(decision), ..Default::default() },
        &request,
    );
    assert_eq!(
        value["hookSpecificOutput"]["decision"],
        json!({"behavior": "allow", "updatedInput": {"file_path": "/b", "offset": 9}})
    );
    assert!(value["systemMessage"].as_str().unwrap().contains("updatedPermissions"), "{value}");
}

#[test]
fn compaction_instructions_are_qwens_and_a_block_is_told() {
    let compact = decode(&event(json!({"session_id": "s", "hook_event_name": "PreCompact", "trigger": "manual",
        "custom_instructions": ""})));
    let (value, _) = answer_with_plain(
        HookEvent::PreCompact,
        Combined { blocks: vec!["not now".into()], ..Default::default() },
        vec!["keep the test names\n".into()],
        &compact,
        &Carried::default(),
    );
    assert_eq!(value["hookSpecificOutput"]["additionalContext"], "keep the test names");
    assert!(value["systemMessage"].as_str().unwrap().contains("cannot"), "{value}");
}

#[test]
fn what_qwen_cannot_do_and_notices_are_told_not_dropped() {
    let after = decoded("PostToolUse-run_shell_command");
    let mut extra = Map::new();
    extra.insert("updatedMCPToolOutput".into(), json!("x"));
    let value = answer(HookEvent::PostToolUse, Combined { extra, ..Default::default() }, &after);
    assert!(value["systemMessage"].as_str().unwrap().contains("updatedMCPToolOutput"), "{value}");
    let notices = Combined { notices: vec!["hook timed out".into()], ..Default::default() };
    assert_eq!(
        answer(HookEvent::Notification, notices, &decoded("Notification-auth_success")),
        json!({"systemMessage": "hook timed out"})
    );
}

#[test]
fn the_deepest_rule_of_qwens_trusted_folders_decides() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("work/app");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let trust_with = |rules: Value| {
        let file = dir.path().join("trustedFolders.json");
        std::fs::write(&file, rules.to_string()).unwrap();
        let env: Env = [("QWEN_CODE_TRUSTED_FOLDERS_PATH", file.as_os_str())].into_iter().collect();
        let world = World::new(env, project.clone());
        qwen_trust(&world, &event(json!({"cwd": project.to_str().unwrap()})))
    };
    let (work, app) = (dir.path().join("work"), project.to_str().unwrap().to_string());
    let work = work.to_str().unwrap();
    assert_eq!(trust_with(json!({})), HostTrust::Unknown);
    assert_eq!(trust_with(json!({work: "TRUST_FOLDER"})), HostTrust::Trusted);
    assert_eq!(trust_with(json!({work: "TRUST_FOLDER", &app: "DO_NOT_TRUST"})), HostTrust::Unknown);
    assert_eq!(trust_with(json!({work: "DO_NOT_TRUST", &app: "TRUST_FOLDER"})), HostTrust::Trusted, "the deepest wins");
    assert_eq!(trust_with(json!({format!("{work}/sibling"): "TRUST_PARENT"})), HostTrust::Trusted);
    assert_eq!(
        trust_with(json!({format!("{work}/sibling"): "TRUST_PARENT", work: "DO_NOT_TRUST"})),
        HostTrust::Unknown,
        "a tie distrusts"
    );
    assert_eq!(trust_with(json!({format!("{app}-evil"): "TRUST_FOLDER"})), HostTrust::Unknown);
}

#[test]
fn qwens_folder_is_qwen_home_or_dot_qwen() {
    // The home the platform layer reads: `HOME`, or `USERPROFILE` on Windows.
    let home = hookmux_platform::dirs::variable(hookmux_platform::dirs::Folder::Home);
    let env: Env = [(home, "/h")].into_iter().collect();
    assert_eq!(qwen_dir(&env), Some(Path::new("/h").join(".qwen")));
    let env: Env = [(home, "/h"), ("QWEN_HOME", "~/q")].into_iter().collect();
    assert_eq!(qwen_dir(&env), Some(Path::new("/h").join("q")));
    let env: Env = [(home, "/h"), ("QWEN_HOME", "/elsewhere")].into_iter().collect();
    assert_eq!(qwen_dir(&env), Some(PathBuf::from("/elsewhere")));
}
