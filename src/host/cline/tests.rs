use super::*;
use crate::engine::verdict::combine::{Combined, ContextPiece, Permission};
use serde_json::json;
use std::path::Path;

/// A payload Cline CLI 3.0.65 sent a hook file, recorded in `fixtures/events/cline/`.
fn recorded(name: &str) -> Event {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/events/cline").join(format!("{name}.json"));
    let event = Event::parse(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
    assert!(event.parse_error().is_none(), "{}", path.display());
    event
}

fn decoded(name: &str) -> Decoded {
    decode(&recorded(name))
}

fn only(name: &str) -> Event {
    let decoded = decoded(name);
    assert_eq!(decoded.events.len(), 1, "{name}: {:?}", decoded.events);
    decoded.events[0].clone()
}

fn answer_for(kind: HookEvent, combined: Combined, decoded: &Decoded, carried: Option<String>) -> Answer {
    let answer = encode(&Verdict { kind, combined, plain: vec![], runs: vec![] }, decoded, carried);
    assert_eq!(answer.encoded().exit_code, 0, "Cline reads no exit code: hookmux never needs one");
    answer
}

fn control(kind: HookEvent, combined: Combined, decoded: &Decoded) -> Value {
    Value::Object(answer_for(kind, combined, decoded, None).control)
}

fn context(text: &str) -> Combined {
    Combined { context: vec![ContextPiece::Additional(text.into())], ..Combined::default() }
}

fn rewrite(inputs: Vec<Option<Value>>) -> Combined {
    Combined { updated_input: inputs.last().cloned().flatten(), updated_inputs: inputs, ..Combined::default() }
}

// Cline → Claude: the events hooks see, on recorded payloads.

#[test]
fn every_recorded_payload_reads_as_claude_events_of_the_session_and_workspace() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/events/cline");
    let claude_tools = ["Bash", "Write", "Edit", "Read", "Grep", "WebFetch", "Agent"];
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let event = Event::parse(&std::fs::read_to_string(&path).unwrap());
        let decoded = decode(&event);
        assert!(!decoded.events.is_empty(), "{}", path.display());
        let root = event.get("sessionContext").and_then(|c| c.get("rootSessionId")).and_then(Value::as_str);
        for mapped in &decoded.events {
            let kind = mapped.kind().unwrap_or_else(|| panic!("{}: {:?}", path.display(), mapped.name()));
            assert_eq!(mapped.session_id(), root, "{}", path.display());
            assert_eq!(mapped.cwd().as_deref(), Some(Path::new("/home/dev/acme")), "{}", path.display());
            if kind.is_tool_event() {
                let tool = mapped.tool_name().unwrap();
                assert!(claude_tools.contains(&tool) || tool.starts_with("mcp__"), "{}", path.display());
                assert!(mapped.tool_use_id().is_some_and(|id| id.starts_with("call_mock_")), "{}", path.display());
            }
            let subagent = event.str("parent_agent_id").is_some();
            assert_eq!(
                mapped.agent_id().is_some(),
                subagent,
                "an agent is named only in a subagent: {}",
                path.display()
            );
        }
    }
}

#[test]
fn task_events_are_session_and_subagent_events() {
    let start = only("TaskStart");
    assert_eq!((start.name(), start.source()), (Some("SessionStart"), Some("startup")));
    let sub = only("TaskStart-subagent");
    assert_eq!(sub.name(), Some("SubagentStart"));
    assert_eq!(sub.agent_type(), Some("general-purpose"));
    assert_eq!(sub.agent_id(), Some("agent_1796178885379_qjcxmx"));

    let stop = only("TaskComplete");
    assert_eq!(stop.name(), Some("Stop"));
    assert_eq!(stop.str("last_assistant_message"), Some("FINAL"));
    assert!(!stop.stop_hook_active());
    let sub_stop = only("TaskComplete-subagent");
    assert_eq!(sub_stop.name(), Some("SubagentStop"));
    assert_eq!(sub_stop.str("last_assistant_message"), Some("SUBAGENT-DONE"));

    let end = only("SessionShutdown");
    assert_eq!((end.name(), end.str("reason")), (Some("SessionEnd"), Some("other")));
}

#[test]
fn payloads_cline_sends_only_in_other_runs_map_as_its_source_shapes_them() {
    // Shapes from @cline/core 0.0.86 (the one-shot CLI never sent them while recording).
    let base = recorded("TaskStart").fields().clone();
    let with = |extra: Value| {
        let mut fields = base.clone();
        fields.remove("taskStart");
        fields.extend(extra.as_object().unwrap().clone());
        decode(&Event::from_fields(fields))
    };
    let prompt =
        with(json!({"hookName": "prompt_submit", "userPromptSubmit": {"prompt": "fix it", "attachments": []}}));
    assert_eq!(prompt.events[0].name(), Some("UserPromptSubmit"));
    assert_eq!(prompt.events[0].prompt(), Some("fix it"));

    let resume = with(json!({"hookName": "agent_resume", "taskResume": {"taskMetadata": {}, "previousState": {}}}));
    assert_eq!(resume.events[0].source(), Some("resume"));

    let failed =
        with(json!({"hookName": "agent_error", "error": {"name": "APIError", "message": "429 Too Many Requests"}}));
    assert_eq!(failed.events[0].name(), Some("StopFailure"));
    assert_eq!(failed.events[0].str("error_details"), Some("429 Too Many Requests"));
    // A hook's own `cancel` ends the run as a ControlledStopError: no failure of the model's.
    let stopped = with(json!({"hookName": "agent_error", "error": {"name": "ControlledStopError", "message": "x"}}));
    assert!(stopped.events.is_empty());
    // A user's interrupt: Claude Code fires nothing.
    assert!(with(json!({"hookName": "agent_abort", "reason": "aborted"})).events.is_empty());
}

#[test]
fn tool_calls_read_as_claude_calls() {
    let bash = only("PreToolUse-run_commands");
    assert_eq!(bash.name(), Some("PreToolUse"));
    assert_eq!(bash.tool_name(), Some("Bash"));
    assert_eq!(bash.get("tool_input"), Some(&json!({"command": "echo original-command"})));
    assert_eq!(bash.tool_use_id(), Some("call_mock_0"));

    let write = only("PreToolUse-editor-create");
    assert_eq!(write.tool_name(), Some("Write"));
    assert_eq!(write.get("tool_input"), Some(&json!({"file_path": "/home/dev/acme/a.txt", "content": "hello\n"})));

    let edit = only("PreToolUse-editor-edit");
    assert_eq!(edit.tool_name(), Some("Edit"));
    assert_eq!(
        edit.get("tool_input"),
        Some(
            &json!({"file_path": "/home/dev/acme/a.txt", "old_string": "hello", "new_string": "bye", "replace_all": false})
        )
    );
    let insert = only("PreToolUse-editor-insert");
    assert_eq!(insert.tool_name(), Some("Edit"));
    assert_eq!(insert.tool_input_str("old_string"), Some(""));
    assert_eq!(insert.get("tool_input").and_then(|i| i.get("insert_line")), Some(&json!(2)));

    let read = only("PreToolUse-read_files");
    assert_eq!(read.tool_name(), Some("Read"));
    assert_eq!(read.get("tool_input"), Some(&json!({"file_path": "/home/dev/acme/a.txt"})));
    assert_eq!(only("PreToolUse-search_codebase").get("tool_input"), Some(&json!({"pattern": "bye"})));
    let fetch = only("PreToolUse-fetch_web_content");
    assert_eq!(fetch.tool_name(), Some("WebFetch"));
    assert_eq!(fetch.tool_input_str("url"), Some("http://127.0.0.1:9/x"));
    let agent = only("PreToolUse-spawn_agent");
    assert_eq!(agent.tool_name(), Some("Agent"));
    assert_eq!(agent.tool_input_str("prompt"), Some("look around"));
    assert_eq!(agent.tool_input_str("subagent_type"), Some("general-purpose"));
}

#[test]
fn a_call_of_several_items_is_one_claude_call_per_item() {
    let commands = decoded("PreToolUse-run_commands-two");
    let inputs: Vec<_> = commands.events.iter().map(|e| e.tool_input_str("command").unwrap().to_string()).collect();
    assert_eq!(inputs, ["echo one", "echo two >&2; exit 4"]);
    let ids: Vec<_> = commands.events.iter().map(|e| e.tool_use_id().unwrap().to_string()).collect();
    assert_eq!(ids, ["call_mock_0#1", "call_mock_0#2"]);

    let files = decoded("PreToolUse-read_files-two");
    assert_eq!(files.events.len(), 2);
    assert_eq!(
        files.events[0].get("tool_input"),
        Some(&json!({"file_path": "/home/dev/acme/b.txt", "offset": 2, "limit": 2})),
        "lines 2 to 3"
    );
    assert_eq!(files.events[1].tool_input_str("file_path"), Some("/home/dev/acme/nope.txt"));
}

#[test]
fn results_read_as_claude_results_and_failures() {
    let ok = only("PostToolUse-run_commands");
    assert_eq!(ok.name(), Some("PostToolUse"));
    assert_eq!(
        ok.tool_response(),
        Some(&json!({"stdout": "original-command\n", "stderr": "", "interrupted": false, "isImage": false}))
    );
    let failed = only("PostToolUse-run_commands-exit3");
    assert_eq!(failed.name(), Some("PostToolUseFailure"));
    assert_eq!(failed.str("error"), Some("Exit code 3"));

    let two = decoded("PostToolUse-run_commands-two");
    let names: Vec<_> = two.events.iter().map(|e| e.name().unwrap().to_string()).collect();
    assert_eq!(names, ["PostToolUse", "PostToolUseFailure"]);
    assert_eq!(two.events[1].str("error"), Some("Exit code 4"));

    let missing = only("PostToolUse-read_files-missing");
    assert_eq!(missing.name(), Some("PostToolUseFailure"));
    assert!(missing.str("error").unwrap().contains("ENOENT"), "{:?}", missing.str("error"));
    let read = only("PostToolUse-read_files");
    assert_eq!(read.tool_response().and_then(|r| r.pointer("/file/content")), Some(&json!("1 | bye")));

    let write = only("PostToolUse-editor-create");
    assert_eq!(write.tool_response().and_then(|r| r.get("type")), Some(&json!("create")));
    assert_eq!(only("PostToolUse-editor-edit").tool_name(), Some("Edit"));
    assert_eq!(only("PostToolUse-fetch_web_content").name(), Some("PostToolUseFailure"));
    let agent = only("PostToolUse-spawn_agent");
    assert_eq!(agent.tool_response().and_then(|r| r.pointer("/content/0/text")), Some(&json!("SUBAGENT-DONE")));
}

#[test]
fn a_shell_result_splits_into_exit_code_stdout_and_stderr() {
    assert_eq!(tools::shell_output("out\n"), (None, "out\n".into(), "".into()));
    assert_eq!(
        tools::shell_output("[Command exited with code 4]\n\n[stderr]\ntwo\n"),
        (Some(4), "".into(), "two\n".into())
    );
    assert_eq!(tools::shell_output("a\n[stderr]\nb"), (None, "a".into(), "b".into()));
}

// Claude → Cline: the one answer.

#[test]
fn a_deny_stops_the_run_with_the_reason() {
    let call = decoded("PreToolUse-run_commands");
    let deny =
        Combined { permission: Some((Permission::Deny, vec!["blocked by policy X".into()])), ..Combined::default() };
    let answer = answer_for(HookEvent::PreToolUse, deny, &call, None);
    assert_eq!(answer.control["cancel"], true);
    let reason = answer.control["errorMessage"].as_str().unwrap();
    assert!(reason.starts_with("PreToolUse:Bash hook denied the call: blocked by policy X"), "{reason}");
    assert_eq!(answer.unexpressed, [DENY_STOPS_THE_RUN]);
    assert!(!answer.control.contains_key("contextModification"), "Cline drops context when it cancels");

    let ask = Combined { permission: Some((Permission::Ask, vec![])), ..Combined::default() };
    let answer = answer_for(HookEvent::PreToolUse, ask, &call, None);
    assert_eq!(answer.control["cancel"], true, "an ask Cline cannot put to the user does not run the call");
    assert_eq!(answer.unexpressed, [ASK_STOPS_THE_RUN]);

    let allow = Combined { permission: Some((Permission::Allow, vec![])), ..Combined::default() };
    let answer = answer_for(HookEvent::PreToolUse, allow, &call, None);
    assert!(answer.control.is_empty());
    assert_eq!(answer.unexpressed, [ALLOW_IS_NOT_APPROVAL]);
}

#[test]
fn a_rewrite_is_the_whole_input_in_cline_s_shape() {
    let bash = decoded("PreToolUse-run_commands");
    let answer =
        control(HookEvent::PreToolUse, rewrite(vec![Some(json!({"command": "echo rewritten-command"}))]), &bash);
    assert_eq!(answer, json!({"overrideInput": {"commands": ["echo rewritten-command"]}}));

    // Each part's rewrite goes to its own item; the others stay.
    let two = decoded("PreToolUse-run_commands-two");
    let answer = control(HookEvent::PreToolUse, rewrite(vec![None, Some(json!({"command": "echo safe"}))]), &two);
    assert_eq!(answer, json!({"overrideInput": {"commands": ["echo one", "echo safe"]}}));

    let write = decoded("PreToolUse-editor-create");
    let answer = control(
        HookEvent::PreToolUse,
        rewrite(vec![Some(json!({"file_path": "/home/dev/acme/c.txt", "content": "x"}))]),
        &write,
    );
    assert_eq!(answer["overrideInput"], json!({"path": "/home/dev/acme/c.txt", "new_text": "x"}));
    let edit = decoded("PreToolUse-editor-edit");
    let new_edit =
        json!({"file_path": "/home/dev/acme/a.txt", "old_string": "hello", "new_string": "hi", "replace_all": false});
    let answer = control(HookEvent::PreToolUse, rewrite(vec![Some(new_edit)]), &edit);
    assert_eq!(answer["overrideInput"], json!({"path": "/home/dev/acme/a.txt", "old_text": "hello", "new_text": "hi"}));
    let files = decoded("PreToolUse-read_files-two");
    let answer = control(
        HookEvent::PreToolUse,
        rewrite(vec![Some(json!({"file_path": "/home/dev/acme/b.txt", "offset": 1, "limit": 1})), None]),
        &files,
    );
    assert_eq!(
        answer["overrideInput"],
        json!({"files": [{"path": "/home/dev/acme/b.txt", "start_line": 1, "end_line": 1}, {"path": "/home/dev/acme/nope.txt"}]})
    );
}

#[test]
fn a_rewrite_cline_s_tool_cannot_take_is_told_not_applied() {
    let edit = decoded("PreToolUse-editor-edit");
    let all = json!({"file_path": "/home/dev/acme/a.txt", "old_string": "l", "new_string": "L", "replace_all": true});
    let answer = answer_for(HookEvent::PreToolUse, rewrite(vec![Some(all)]), &edit, None);
    assert!(answer.control.is_empty());
    assert!(answer.unexpressed[0].contains("replace_all"), "{:?}", answer.unexpressed);
    let bash = decoded("PreToolUse-run_commands");
    let answer = answer_for(HookEvent::PreToolUse, rewrite(vec![Some(json!({"cmd": 1}))]), &bash, None);
    assert!(answer.unexpressed[0].contains("Bash needs a `command` string"), "{:?}", answer.unexpressed);
}

#[test]
fn context_reaches_the_model_after_the_tool() {
    let call = decoded("PreToolUse-run_commands");
    assert_eq!(
        control(HookEvent::PreToolUse, context("CTX-PRE-123"), &call),
        json!({"contextModification": "CTX-PRE-123"})
    );
    let result = decoded("PostToolUse-run_commands");
    let block = Combined { blocks: vec!["[check]: post complaint\n".into()], ..context("POST-CTX") };
    assert_eq!(
        control(HookEvent::PostToolUse, block, &result),
        json!({"contextModification": "PostToolUse:Bash hook blocking error: [check]: post complaint\n\nPOST-CTX"})
    );
}

#[test]
fn continue_false_lets_the_tool_run_then_stops_the_run() {
    let call = decoded("PreToolUse-run_commands");
    let stop = Combined { stop: Some(vec!["halt everything".into()]), ..Combined::default() };
    let answer = answer_for(HookEvent::PreToolUse, stop.clone(), &call, None);
    assert!(answer.control.is_empty(), "the tool runs");
    assert_eq!(answer.stop_later.as_deref(), Some("halt everything"));

    let result = decoded("PostToolUse-run_commands");
    let answer = answer_for(HookEvent::PostToolUse, Combined::default(), &result, Some("halt everything".into()));
    assert_eq!(
        Value::Object(answer.control),
        json!({"cancel": true, "errorMessage": "PostToolUse:Bash hook stopped the run: halt everything"})
    );
    let answer = answer_for(HookEvent::PostToolUse, stop, &result, None);
    assert_eq!(answer.control["cancel"], true);
}

#[test]
fn what_cline_does_not_wait_for_is_told_not_dropped_silently() {
    let start = decoded("TaskStart");
    let answer = answer_for(HookEvent::SessionStart, context("SS-JSON-CTX"), &start, None);
    assert!(answer.control.is_empty());
    assert_eq!(
        answer.unexpressed,
        ["hookmux: a SessionStart hook's context did not reach the model: Cline does not wait for its TaskStart hooks and ignores what they answer"]
    );
    let stop = decoded("TaskComplete");
    let block = Combined { blocks: vec!["keep going: run tests".into()], ..Combined::default() };
    let answer = answer_for(HookEvent::Stop, block, &stop, None);
    assert!(answer.control.is_empty());
    assert!(answer.unexpressed[0].contains("a Stop hook asked to continue"), "{:?}", answer.unexpressed);
    // Nothing to tell when the hooks asked for nothing.
    assert!(answer_for(HookEvent::Stop, Combined::default(), &stop, None).unexpressed.is_empty());
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_hook_slower_than_the_answer_is_cut_and_a_faster_deny_still_arrives() {
    let dir = tempfile::tempdir().unwrap();
    let settings = dir.path().join("settings.json");
    let hooks = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "sleep 30", "timeout": 300},
        {"type": "command", "command": "echo 'no shell today' >&2; exit 2"}
    ]}]}});
    std::fs::write(&settings, hooks.to_string()).unwrap();
    let env: hookmux_sdk::Env =
        [("HOME", dir.path().as_os_str()), ("HOOKMUX_TRACE", "0".as_ref()), ("TMPDIR", dir.path().as_os_str())]
            .into_iter()
            .collect();
    let world = World::new(env, dir.path().to_path_buf());
    let options = DispatchOptions {
        settings: vec![settings],
        answer_within: Some(Duration::from_secs(2)),
        ..DispatchOptions::default()
    };
    let events = decoded("PreToolUse-run_commands").events;
    let verdict = dispatch::dispatch(&events, &world, &options).expect("a verdict");
    assert!(
        verdict.combined.notices.iter().any(|n| n.contains("[sleep 30] timed out")),
        "{:?}",
        verdict.combined.notices
    );
    assert!(matches!(verdict.combined.permission, Some((Permission::Deny, _))));
}

// What the session is told reaches it through `contextModification`, once.

/// A folder of its own for a session's state and notices, with `hooks` as the only settings.
struct Session {
    dir: tempfile::TempDir,
    world: World,
    options: DispatchOptions,
}

impl Session {
    fn new(hooks: Value) -> Session {
        let dir = tempfile::tempdir().unwrap();
        let settings = dir.path().join("settings.json");
        std::fs::write(&settings, hooks.to_string()).unwrap();
        let env: hookmux_sdk::Env = [
            ("HOME", dir.path().as_os_str()),
            ("XDG_STATE_HOME", dir.path().join("state").as_os_str()),
            ("HOOKMUX_TRACE", "0".as_ref()),
            ("TMPDIR", dir.path().as_os_str()),
        ]
        .into_iter()
        .collect();
        let world = World::new(env, dir.path().to_path_buf());
        let options = DispatchOptions { settings: vec![settings], ..DispatchOptions::default() };
        Session { dir, world, options }
    }

    /// What hookmux prints to Cline for the recorded payload `name`, as JSON (`null`: nothing).
    fn answer(&self, name: &str) -> Value {
        let path = self.dir.path().join("payload.json");
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/events/cline").join(format!("{name}.json")),
        )
        .unwrap();
        std::fs::write(&path, &text).unwrap();
        let encoded = dispatch(text.into_bytes(), &self.world, &self.options);
        assert_eq!(encoded.exit_code, 0);
        if encoded.stdout.trim().is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&encoded.stdout).unwrap()
        }
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn what_an_event_cline_does_not_wait_for_could_not_do_reaches_the_model_at_the_next_tool_once() {
    let session = Session::new(json!({"hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"SessionStart\", \"additionalContext\": \"SS-CTX\"}}'"}]}]
    }}));
    assert_eq!(session.answer("TaskStart"), Value::Null, "Cline ignores what a TaskStart hook answers");
    let first = session.answer("PreToolUse-run_commands");
    let told = first["contextModification"].as_str().unwrap_or_else(|| panic!("{first}"));
    assert!(told.contains("a SessionStart hook's context did not reach the model"), "{told}");
    assert!(first.get("cancel").is_none(), "{first}");
    assert_eq!(session.answer("PostToolUse-run_commands"), Value::Null, "told once, not on every tool event");
    assert_eq!(session.answer("PreToolUse-read_files"), Value::Null);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_hook_s_own_context_and_the_notice_arrive_together() {
    let session = Session::new(json!({"hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"SessionStart\", \"additionalContext\": \"SS-CTX\"}}'"}]}],
        "PreToolUse": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"additionalContext\": \"PRE-CTX\"}}'"}]}]
    }}));
    session.answer("TaskStart");
    let answer = session.answer("PreToolUse-run_commands");
    let context = answer["contextModification"].as_str().unwrap_or_else(|| panic!("{answer}"));
    assert!(context.starts_with("PRE-CTX"), "the hook's own context first: {context}");
    assert!(context.contains("a SessionStart hook's context did not reach the model"), "{context}");
    assert_eq!(session.answer("PreToolUse-read_files")["contextModification"], "PRE-CTX");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_cancelled_run_s_reason_reaches_the_model_when_the_session_goes_on() {
    let session = Session::new(json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo 'no shell today' >&2; exit 2"}]}]
    }}));
    let denied = session.answer("PreToolUse-run_commands");
    assert_eq!(denied["cancel"], true, "{denied}");
    assert!(denied.get("contextModification").is_none(), "Cline reads no context from a cancelled run: {denied}");
    let next = session.answer("PreToolUse-read_files");
    let told = next["contextModification"].as_str().unwrap_or_else(|| panic!("{next}"));
    assert!(told.contains("the previous run was stopped by a hook: PreToolUse:Bash hook denied the call"), "{told}");
    assert!(told.contains("no shell today"), "{told}");
    assert!(told.contains("Cline cannot refuse one tool call and let the turn go on"), "{told}");
    assert_eq!(session.answer("PostToolUse-read_files"), Value::Null, "given once");
}

#[test]
fn an_mcp_tool_is_named_as_claude_code_names_it() {
    // Cline names an MCP server's tool `<server>__<tool>` (recorded: `probe__echo`); the matchers
    // users write for Claude Code say `mcp__<server>__<tool>`.
    for name in ["PreToolUse-mcp", "PostToolUse-mcp"] {
        let event = only(name);
        assert_eq!(event.tool_name(), Some("mcp__probe__echo"), "{name}");
        assert_eq!(event.get("tool_input"), Some(&json!({"text": "hi"})), "{name}");
        let matched =
            crate::engine::select::matcher::group_verdict(Some("mcp__.*"), HookEvent::PreToolUse, event.tool_name());
        assert!(matched.is_match(), "{name}");
    }
    // Cline's own tools keep their names.
    for own in ["ask_question", "team_spawn_teammate"] {
        assert_eq!(tools::parts(own, &json!({}))[0].claude, own);
    }
    assert_eq!(tools::parts("mcp__probe__echo", &json!({}))[0].claude, "mcp__probe__echo");
}
