use super::*;
use crate::engine::verdict::combine::{Combined, ContextPiece, Permission};
use serde_json::json;

/// A payload Copilot CLI 1.0.102 sent a hook, as recorded in `fixtures/events/copilot/`.
fn recorded(name: &str) -> Event {
    let path = format!("{}/fixtures/events/copilot/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let event = Event::parse(&text);
    assert!(event.parse_error().is_none(), "{path}");
    event
}

fn decoded(name: &str) -> Decoded {
    decode(&recorded(name))
}

fn one(name: &str) -> Event {
    let decoded = decoded(name);
    assert_eq!(decoded.events.len(), 1, "{name}");
    decoded.events[0].clone()
}

fn answer(kind: HookEvent, combined: Combined, decoded: &Decoded) -> Value {
    let encoded = encode(&Verdict { kind, combined, plain: vec![], runs: vec![] }, decoded);
    assert_eq!(encoded.exit_code, 0, "Copilot reads JSON only on exit 0");
    if encoded.stdout.is_empty() {
        return Value::Null;
    }
    serde_json::from_str(&encoded.stdout).expect("one JSON object")
}

fn env(vars: &[(&str, &str)]) -> Env {
    let mut env = Env::empty();
    for (name, value) in vars {
        env.set(*name, *value);
    }
    env
}

// Recognising Copilot in a plain `hookmux dispatch`.

#[test]
fn copilot_is_recognised_by_its_variable_and_its_payload() {
    let copilot = env(&[("COPILOT_CLI", "1")]);
    for name in ["PreToolUse-Bash", "SessionStart", "PermissionRequest-bash", "SubagentStart"] {
        assert!(sent_by_copilot(&copilot, recorded(name).raw().as_bytes()), "{name}");
    }
    // Claude Code's payloads have no `timestamp`: a Claude Code started from a Copilot shell.
    let claude = std::fs::read(format!("{}/fixtures/events/PreToolUse-Bash.json", env!("CARGO_MANIFEST_DIR")))
        .expect("Claude fixture");
    assert!(!sent_by_copilot(&copilot, &claude));
    // Copilot's payload without Copilot's variable, and what cannot be read, are not Copilot's.
    assert!(!sent_by_copilot(&env(&[]), recorded("PreToolUse-Bash").raw().as_bytes()));
    assert!(!sent_by_copilot(&copilot, b"{not json"));
    assert!(!sent_by_copilot(&copilot, b"[1]"));
}

// Copilot → Claude: the events hooks see.

#[test]
fn copilot_arguments_read_as_claude_arguments() {
    let write = one("PreToolUse-Write");
    assert_eq!(write.tool_name(), Some("Write"));
    assert_eq!(write.tool_input_str("file_path"), Some("/home/dev/proj/a.txt"));
    assert_eq!(write.tool_input_str("content"), Some("hello\n"));
    assert!(write.tool_input().is_some_and(|i| !i.contains_key("path") && !i.contains_key("file_text")));

    let edit = one("PreToolUse-Edit");
    assert_eq!(edit.tool_name(), Some("Edit"));
    assert_eq!(edit.tool_input_str("file_path"), Some("/home/dev/proj/b.txt"));
    assert_eq!(edit.tool_input_str("old_string"), Some("two"));
    assert_eq!(edit.tool_input_str("new_string"), Some("TWO"));
    assert_eq!(edit.tool_input().and_then(|i| i.get("replace_all")), Some(&json!(false)));

    let read = one("PreToolUse-Read-range");
    assert_eq!(read.tool_name(), Some("Read"));
    assert_eq!(read.tool_input_str("file_path"), Some("/home/dev/proj/b.txt"));
    assert_eq!(read.tool_input().and_then(|i| i.get("offset")), Some(&json!(2)));
    assert_eq!(read.tool_input().and_then(|i| i.get("limit")), Some(&json!(1)));

    let agent = one("PreToolUse-Agent");
    assert_eq!(agent.tool_name(), Some("Agent"));
    assert_eq!(agent.tool_input_str("prompt"), Some("say hi"));
    assert_eq!(agent.tool_input_str("subagent_type"), Some("explore"));

    let bash = one("PreToolUse-Bash");
    assert_eq!(bash.tool_name(), Some("Bash"));
    assert_eq!(bash.tool_input_str("command"), Some("echo out; echo err >&2; exit 3"));
}

#[test]
fn tool_results_read_as_claude_responses() {
    let bash = one("PostToolUse-Bash");
    assert_eq!(bash.kind(), Some(HookEvent::PostToolUse));
    assert_eq!(
        bash.tool_response(),
        Some(&json!({"stdout": "ok", "stderr": "", "interrupted": false, "isImage": false}))
    );

    let write = one("PostToolUse-Write");
    assert_eq!(write.tool_response().and_then(|r| r.get("filePath")), Some(&json!("/home/dev/proj/a.txt")));
    assert_eq!(one("PostToolUse-Read").tool_response(), Some(&json!("TWO")));
}

#[test]
fn a_command_that_exits_non_zero_is_a_failed_tool_call_as_in_claude_code() {
    let failed = one("PostToolUse-Bash-exit3");
    assert_eq!(failed.kind(), Some(HookEvent::PostToolUseFailure));
    assert_eq!(failed.str("error"), Some("Exit code 3"));
    assert_eq!(failed.tool_name(), Some("Bash"));
    // Copilot's own failure event stays one.
    let read = one("PostToolUseFailure-Read");
    assert_eq!(read.kind(), Some(HookEvent::PostToolUseFailure));
    assert_eq!(read.tool_input_str("file_path"), Some("/home/dev/proj/missing.txt"));
}

#[test]
fn session_and_subagent_events_read_as_claude_s() {
    assert_eq!(one("SessionStart").source(), Some("startup"));
    assert_eq!(one("UserPromptSubmit").prompt(), Some("please run the probe"));
    assert_eq!(one("Stop").kind(), Some(HookEvent::Stop));
    assert_eq!(one("SessionEnd").kind(), Some(HookEvent::SessionEnd));
    let start = one("SubagentStart");
    assert_eq!(start.kind(), Some(HookEvent::SubagentStart));
    assert_eq!(start.agent_type(), Some("explore"));
    assert_eq!(start.session_id(), Some("47d0d28f-f3a1-4606-8039-08330db8bf26"));
    assert_eq!(one("SubagentStop").kind(), Some(HookEvent::SubagentStop));
    // Inside a subagent Copilot fires UserPromptSubmit and Stop; Claude Code does not.
    assert!(decoded("UserPromptSubmit-subagent").events.is_empty());
    assert!(decoded("Stop-subagent").events.is_empty());
}

#[test]
fn permission_requests_come_camel_case_with_copilot_tool_names() {
    let bash = one("PermissionRequest-bash");
    assert_eq!(bash.kind(), Some(HookEvent::PermissionRequest));
    assert_eq!(bash.tool_name(), Some("Bash"));
    assert_eq!(bash.session_id(), Some("c138ebdd-d635-4023-a1cf-128ade115d0b"));
    assert_eq!(one("PermissionRequest-edit").tool_name(), Some("Write"), "an edit that creates a file");
    assert_eq!(one("PermissionRequest-edit-update").tool_name(), Some("Edit"));
}

// Claude → Copilot: the answers.

#[test]
fn a_denial_is_copilot_s_permission_decision() {
    let combined =
        Combined { permission: Some((Permission::Deny, vec!["blocked by policy X".into()])), ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PreToolUse, combined, &decoded("PreToolUse-Bash")),
        json!({"permissionDecision": "deny", "permissionDecisionReason": "blocked by policy X"})
    );
    let silent = Combined { permission: Some((Permission::Deny, vec![])), ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PreToolUse, silent, &decoded("PreToolUse-Bash"))["permissionDecisionReason"],
        "Blocked by hook"
    );
    let ask = Combined { permission: Some((Permission::Ask, vec!["sure?".into()])), ..Combined::default() };
    assert_eq!(answer(HookEvent::PreToolUse, ask, &decoded("PreToolUse-Bash"))["permissionDecision"], "ask");
}

#[test]
fn a_rewritten_input_goes_back_in_copilot_s_argument_names() {
    let rewrite = |name: &str, input: Value| {
        let combined = Combined { updated_input: Some(input), ..Combined::default() };
        answer(HookEvent::PreToolUse, combined, &decoded(name))
    };
    assert_eq!(
        rewrite("PreToolUse-Bash", json!({"command": "echo rewritten-command"})),
        json!({"modifiedArgs": {"command": "echo rewritten-command"}})
    );
    assert_eq!(
        rewrite("PreToolUse-Write", json!({"file_path": "/home/dev/proj/b.txt", "content": "x"}))["modifiedArgs"],
        json!({"path": "/home/dev/proj/b.txt", "file_text": "x"})
    );
    assert_eq!(
        rewrite(
            "PreToolUse-Edit",
            json!({"file_path": "/p/c", "old_string": "a", "new_string": "b", "replace_all": false})
        )["modifiedArgs"],
        json!({"path": "/p/c", "old_str": "a", "new_str": "b"})
    );
    assert_eq!(
        rewrite("PreToolUse-Read-range", json!({"file_path": "/p/c", "offset": 3, "limit": 2}))["modifiedArgs"],
        json!({"path": "/p/c", "view_range": [3, 4]})
    );
    // A Bash rewrite without a command cannot run: said on stderr, the original runs.
    let combined = Combined { updated_input: Some(json!({"cmd": 1})), ..Combined::default() };
    let encoded = encode(
        &Verdict { kind: HookEvent::PreToolUse, combined, plain: vec![], runs: vec![] },
        &decoded("PreToolUse-Bash"),
    );
    assert!(encoded.stdout.is_empty());
    assert!(encoded.stderr.contains("updatedInput was not applied"), "{}", encoded.stderr);
}

#[test]
fn context_is_copilot_s_top_level_additional_context() {
    let context = |kind: HookEvent, name: &str| {
        let combined = Combined {
            context: vec![ContextPiece::Plain("CTX-A\n".into()), ContextPiece::Additional("CTX-B".into())],
            ..Combined::default()
        };
        answer(kind, combined, &decoded(name))
    };
    for (kind, name) in [
        (HookEvent::SessionStart, "SessionStart"),
        (HookEvent::UserPromptSubmit, "UserPromptSubmit"),
        (HookEvent::PreToolUse, "PreToolUse-Bash"),
        (HookEvent::PostToolUse, "PostToolUse-Bash"),
        (HookEvent::PostToolUseFailure, "PostToolUse-Bash-exit3"),
    ] {
        assert_eq!(context(kind, name), json!({"additionalContext": "CTX-A\nCTX-B"}), "{kind}");
    }
    // Copilot reads no context from Stop: there it continues the turn, as in Claude Code.
    assert_eq!(context(HookEvent::Stop, "Stop"), json!({"decision": "block", "reason": "CTX-A\nCTX-B"}));
}

#[test]
fn a_post_tool_use_block_keeps_the_output_and_tells_the_model() {
    let combined = Combined { blocks: vec!["post complaint\n".into()], ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PostToolUse, combined, &decoded("PostToolUse-Bash")),
        json!({"additionalContext": "post complaint"})
    );
}

#[test]
fn prompt_and_stop_blocks_are_copilot_decisions() {
    let block = Combined { blocks: vec!["no".into()], ..Combined::default() };
    assert_eq!(
        answer(HookEvent::UserPromptSubmit, block.clone(), &decoded("UserPromptSubmit")),
        json!({"decision": "block", "reason": "no"})
    );
    let stop = Combined { stop: Some(vec!["halt".into()]), ..Combined::default() };
    assert_eq!(
        answer(HookEvent::UserPromptSubmit, stop, &decoded("UserPromptSubmit")),
        json!({"decision": "block", "reason": "halt"})
    );
    assert_eq!(
        answer(
            HookEvent::Stop,
            Combined { blocks: vec!["keep going".into()], ..Combined::default() },
            &decoded("Stop")
        ),
        json!({"decision": "block", "reason": "keep going"})
    );
    // `continue: false` at Stop ends the turn, which is ending anyway.
    let stop = Combined { blocks: vec!["x".into()], stop: Some(vec![]), ..Combined::default() };
    assert_eq!(answer(HookEvent::Stop, stop, &decoded("Stop")), Value::Null);
}

#[test]
fn what_copilot_cannot_do_is_said_on_stderr() {
    let combined = Combined { stop: Some(vec!["enough".into()]), ..Combined::default() };
    let encoded = encode(
        &Verdict { kind: HookEvent::PreToolUse, combined, plain: vec![], runs: vec![] },
        &decoded("PreToolUse-Bash"),
    );
    assert!(encoded.stdout.is_empty());
    assert!(encoded.stderr.contains("Copilot cannot stop a turn from PreToolUse"), "{}", encoded.stderr);
}

#[test]
fn permission_request_decisions_are_copilot_s_behavior() {
    let mut deny = Map::new();
    deny.insert("behavior".into(), "deny".into());
    deny.insert("message".into(), "no".into());
    let combined = Combined { permission_request: Some(deny), ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PermissionRequest, combined, &decoded("PermissionRequest-bash")),
        json!({"behavior": "deny", "message": "no"})
    );
    let mut allow = Map::new();
    allow.insert("behavior".into(), "allow".into());
    let combined = Combined { permission_request: Some(allow), ..Combined::default() };
    assert_eq!(
        answer(HookEvent::PermissionRequest, combined, &decoded("PermissionRequest-bash")),
        json!({"behavior": "allow"})
    );
}

#[test]
fn shell_results_split_into_output_and_exit_code() {
    assert_eq!(shell_exit("out\nerr\n<shellId: 0 completed with exit code 3>"), ("out\nerr".to_string(), Some(3)));
    assert_eq!(shell_exit("plain text"), ("plain text".to_string(), None));
    assert_eq!(shell_exit("<shellId: 1 completed with exit code x>"), (String::new(), None));
}

#[test]
fn copilot_s_trust_of_the_project() {
    let root = tempfile::tempdir().expect("a temporary folder");
    let (home, project) = (root.path().join("home"), root.path().join("proj"));
    std::fs::create_dir_all(home.join(".copilot")).expect("mkdir");
    std::fs::create_dir_all(&project).expect("mkdir");
    let event = Event::parse(&format!(r#"{{"hook_event_name":"SessionStart","cwd":{:?},"timestamp":"t"}}"#, project));
    let world = |vars: &[(&str, &str)]| {
        let mut env = env(vars);
        env.set(hookmux_platform::dirs::variable(hookmux_platform::dirs::Folder::Home), &home);
        World::new(env, project.clone())
    };
    let explicit = DispatchOptions::default();
    let installed = DispatchOptions { installed: true, ..DispatchOptions::default() };
    // The project's installed entry ran: Copilot trusted the folder.
    assert_eq!(copilot_trust(&world(&[]), &event, &installed), HostTrust::Prompted);
    // From Copilot's own hooks files: its record, or hookmux's trust list.
    assert_eq!(copilot_trust(&world(&[]), &event, &explicit), HostTrust::Unknown);
    assert_eq!(copilot_trust(&world(&[("COPILOT_ALLOW_ALL", "true")]), &event, &explicit), HostTrust::Trusted);
    let config = json!({"trustedFolders": [root.path()]});
    std::fs::write(home.join(".copilot/config.json"), config.to_string()).expect("write");
    assert_eq!(copilot_trust(&world(&[]), &event, &explicit), HostTrust::Trusted);
    std::fs::write(home.join(".copilot/config.json"), "{not json").expect("write");
    assert_eq!(copilot_trust(&world(&[]), &event, &explicit), HostTrust::Unknown);
    // With an installed entry in the user's own settings, which Copilot may run in any folder,
    // the entry running says nothing of the folder: Copilot's record decides.
    std::fs::create_dir_all(home.join(".claude")).expect("mkdir");
    let user =
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "hookmux dispatch --installed"}]}]}});
    std::fs::write(home.join(".claude/settings.json"), user.to_string()).expect("write");
    assert_eq!(copilot_trust(&world(&[]), &event, &installed), HostTrust::Unknown);
    let config = json!({"trustedFolders": [project]});
    std::fs::write(home.join(".copilot/config.json"), config.to_string()).expect("write");
    assert_eq!(copilot_trust(&world(&[]), &event, &installed), HostTrust::Trusted);
}

#[test]
fn an_mcp_tool_is_named_as_claude_code_names_it() {
    // Copilot names an MCP server's tool `<server>-<tool>` (recorded: `probe-echo`); the matchers
    // users write for Claude Code say `mcp__<server>__<tool>`.
    for name in ["PreToolUse-mcp", "PostToolUse-mcp"] {
        let event = one(name);
        assert_eq!(event.tool_name(), Some("mcp__probe__echo"), "{name}");
        assert_eq!(event.tool_input_str("text"), Some("hi"), "{name}");
        let matched =
            crate::engine::select::matcher::group_verdict(Some("mcp__.*"), HookEvent::PreToolUse, event.tool_name());
        assert!(matched.is_match(), "{name}");
    }
    assert!(is_mcp(&decoded("PostToolUse-mcp")));
    // Copilot's own tools have no `-`: their names stay.
    for own in ["report_intent", "read_bash", "fetch_copilot_cli_documentation"] {
        assert_eq!(claude_tool(own, &json!({})), own);
    }
    // A name already in Claude's form, or that names no tool after its server, stays too.
    for kept in ["mcp__probe__echo", "probe-", "-echo"] {
        assert_eq!(claude_tool(kept, &json!({})), kept);
    }
}
