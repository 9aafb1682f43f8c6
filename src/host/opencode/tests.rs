use super::*;
use crate::engine::verdict::combine::{Combined, ContextPiece, Permission};
use hookmux_sdk::Env;
use serde_json::json;

fn world(state: &std::path::Path) -> World {
    let vars = [(hookmux_platform::dirs::variable(hookmux_platform::dirs::Folder::State), state.as_os_str())];
    World::new(vars.into_iter().collect::<Env>(), "/".into())
}

fn plugin(value: Value) -> PluginEvent {
    serde_json::from_value(value).expect("a plugin event")
}

// The tool-name table, both ways.

#[test]
fn tool_names_both_ways() {
    let none: Vec<String> = vec![];
    for (oc, claude) in [
        ("bash", "Bash"),
        ("read", "Read"),
        ("edit", "Edit"),
        ("write", "Write"),
        ("glob", "Glob"),
        ("grep", "Grep"),
        ("webfetch", "WebFetch"),
        ("task", "Agent"),
        ("todowrite", "TodoWrite"),
    ] {
        assert_eq!(claude_tool(oc, &none), claude, "{oc}");
        assert_eq!(opencode_tool(claude), oc, "{claude}");
    }
    // Unknown tools keep their id (no guessing at capitals, unlike a Title-Case rule).
    assert_eq!(claude_tool("lsp_goto_definition", &none), "lsp_goto_definition");
}

#[test]
fn mcp_tools_need_a_known_server() {
    let servers = vec!["github".to_string(), "git".to_string(), "my.db".to_string()];
    assert_eq!(claude_tool("github_create_issue", &servers), "mcp__github__create_issue");
    // The longest server name that fits wins.
    assert_eq!(claude_tool("git_status", &servers), "mcp__git__status");
    // OpenCode names a server's tools after the server with other characters made `_`.
    assert_eq!(claude_tool("my_db_query", &servers), "mcp__my_db__query");
    assert_eq!(claude_tool("github_create_issue", &[]), "github_create_issue");
    assert_eq!(claude_tool("github", &servers), "github");
    assert_eq!(opencode_tool("mcp__github__create_issue"), "github_create_issue");
}

// The argument table, both ways.

#[test]
fn arguments_both_ways() {
    let edit = json!({"filePath": "/p/a.rs", "oldString": "a", "newString": "b", "replaceAll": true});
    let claude = claude_args("edit", &edit);
    assert_eq!(claude, json!({"file_path": "/p/a.rs", "old_string": "a", "new_string": "b", "replace_all": true}));
    assert_eq!(opencode_args("edit", &claude, &edit), edit);
    // A key the hook added is camelCased; a key the call had keeps its spelling.
    let task = json!({"description": "d", "prompt": "p", "subagent_type": "general"});
    assert_eq!(claude_args("task", &task), task);
    assert_eq!(
        opencode_args(
            "task",
            &json!({"description": "d", "prompt": "q", "subagent_type": "explore", "task_id": "t"}),
            &task
        ),
        json!({"description": "d", "prompt": "q", "subagent_type": "explore", "taskId": "t"})
    );
    // Names that differ by more than case.
    assert_eq!(
        claude_args("grep", &json!({"pattern": "x", "include": "*.rs"})),
        json!({"pattern": "x", "glob": "*.rs"})
    );
    assert_eq!(
        opencode_args("grep", &json!({"pattern": "x", "glob": "*.rs"}), &json!({})),
        json!({"pattern": "x", "include": "*.rs"})
    );
    // MultiEdit's edits carry Edit's names.
    let multi = json!({"filePath": "/a", "edits": [{"oldString": "a", "newString": "b"}]});
    let claude = claude_args("multiedit", &multi);
    assert_eq!(claude["edits"], json!([{"old_string": "a", "new_string": "b"}]));
    assert_eq!(opencode_args("multiedit", &claude, &multi), multi);
    // MCP and other tools' arguments are theirs: untouched either way.
    let mcp = json!({"repoName": "x", "issue_number": 3});
    assert_eq!(claude_args("github_get_issue", &mcp), mcp);
    assert_eq!(opencode_args("github_get_issue", &mcp, &mcp), mcp);
}

#[test]
fn case_conversions() {
    assert_eq!(snake_case("filePath"), "file_path");
    assert_eq!(snake_case("replaceAll"), "replace_all");
    assert_eq!(snake_case("already_snake"), "already_snake");
    assert_eq!(camel_case("file_path"), "filePath");
    assert_eq!(camel_case("command"), "command");
}

// OpenCode hooks → Claude events.

#[test]
fn tool_execute_before_is_pre_tool_use() {
    let state = tempfile::tempdir().unwrap();
    let event = decode(
        &plugin(json!({"hook": "tool.execute.before", "directory": "/proj",
            "input": {"tool": "edit", "sessionID": "ses_1", "callID": "toolu_1"},
            "output": {"args": {"filePath": "/proj/a.rs", "oldString": "a", "newString": "b"}}})),
        &world(state.path()),
    )
    .unwrap();
    assert_eq!(event.name(), Some("PreToolUse"));
    assert_eq!(event.session_id(), Some("ses_1"));
    assert_eq!(event.cwd(), Some("/proj".into()));
    assert_eq!(event.tool_name(), Some("Edit"));
    assert_eq!(event.tool_use_id(), Some("toolu_1"));
    assert_eq!(event.tool_input_str("file_path"), Some("/proj/a.rs"));
    // Claude Code's key order: the common fields, then the event's.
    let keys: Vec<&str> = event.fields().keys().map(String::as_str).take(5).collect();
    assert_eq!(keys, ["session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name"]);
    // transcript_path names a real file, with the tool use in it.
    let transcript = std::fs::read_to_string(event.transcript_path().unwrap()).unwrap();
    assert!(transcript.contains(r#""name":"Edit""#), "{transcript}");
}

#[test]
fn tool_execute_after_gets_the_cached_input_when_opencode_sends_none() {
    let state = tempfile::tempdir().unwrap();
    let world = world(state.path());
    let before = json!({"hook": "tool.execute.before", "input": {"tool": "bash", "sessionID": "s", "callID": "c1"},
        "output": {"args": {"command": "ls", "description": "list"}}});
    decode(&plugin(before), &world).unwrap();
    let after = decode(
        &plugin(json!({"hook": "tool.execute.after", "input": {"tool": "bash", "sessionID": "s", "callID": "c1"},
            "output": {"title": "ls", "output": "a\n", "metadata": {"exit": 0}}})),
        &world,
    )
    .unwrap();
    assert_eq!(after.name(), Some("PostToolUse"));
    assert_eq!(after.tool_input_str("command"), Some("ls"));
    assert_eq!(
        after.tool_response(),
        Some(&json!({"stdout": "a\n", "stderr": "", "interrupted": false, "isImage": false, "exit_code": 0}))
    );
    // The cache gives an input once; a call it never saw gets an empty one.
    let again = decode(&plugin(json!({"hook": "tool.execute.after", "input": {"tool": "bash", "sessionID": "s", "callID": "c1"}, "output": {}})), &world).unwrap();
    assert_eq!(again.get("tool_input"), Some(&json!({})));
}

#[test]
fn chat_message_is_user_prompt_submit_with_the_users_text_only() {
    let state = tempfile::tempdir().unwrap();
    let event = decode(
        &plugin(json!({"hook": "chat.message", "input": {"sessionID": "s"}, "output": {"parts": [
            {"type": "text", "text": "fix the build"},
            {"type": "text", "text": "<system-reminder>x</system-reminder>", "synthetic": true},
            {"type": "file", "url": "data:..."},
            {"type": "text", "text": "and test it"}]}})),
        &world(state.path()),
    )
    .unwrap();
    assert_eq!(event.name(), Some("UserPromptSubmit"));
    assert_eq!(event.prompt(), Some("fix the build\nand test it"));
    let nothing = decode(
        &plugin(
            json!({"hook": "chat.message", "input": {"sessionID": "s"}, "output": {"parts": [{"type": "text", "text": "x", "synthetic": true}]}}),
        ),
        &world(state.path()),
    );
    assert!(nothing.is_err());
}

#[test]
fn session_events() {
    let state = tempfile::tempdir().unwrap();
    let world = world(state.path());
    let created =
        decode(&plugin(json!({"hook": "session.created", "input": {"sessionID": "s", "info": {"id": "s"}}})), &world)
            .unwrap();
    assert_eq!((created.name(), created.source()), (Some("SessionStart"), Some("startup")));
    let compact =
        decode(&plugin(json!({"hook": "session.created", "input": {"sessionID": "s"}, "source": "compact"})), &world)
            .unwrap();
    assert_eq!(compact.source(), Some("compact"));
    let child =
        decode(&plugin(json!({"hook": "session.created", "input": {"sessionID": "c"}, "parentID": "s"})), &world)
            .unwrap();
    assert_eq!((child.name(), child.agent_id()), (Some("SubagentStart"), Some("c")));
    let idle =
        decode(&plugin(json!({"hook": "session.idle", "input": {"sessionID": "s"}, "stop_hook_active": true})), &world)
            .unwrap();
    assert_eq!(idle.name(), Some("Stop"));
    assert!(idle.stop_hook_active());
    let child_idle =
        decode(&plugin(json!({"hook": "session.idle", "input": {"sessionID": "c"}, "parentID": "s"})), &world).unwrap();
    assert_eq!(child_idle.name(), Some("SubagentStop"));
    let compacting =
        decode(&plugin(json!({"hook": "experimental.session.compacting", "input": {"sessionID": "s"}})), &world)
            .unwrap();
    assert_eq!((compacting.name(), compacting.trigger()), (Some("PreCompact"), Some("auto")));
    let deleted = decode(&plugin(json!({"hook": "session.deleted", "input": {"sessionID": "s"}})), &world).unwrap();
    assert_eq!((deleted.name(), deleted.str("reason")), (Some("SessionEnd"), Some("other")));
    let command = decode(&plugin(json!({"hook": "command.execute.before", "input": {"sessionID": "s", "command": "review", "arguments": "now"}})), &world).unwrap();
    assert_eq!((command.name(), command.str("command_name")), (Some("UserPromptExpansion"), Some("review")));
}

#[test]
fn bad_plugin_events_are_refused_with_the_reason() {
    let state = tempfile::tempdir().unwrap();
    let world = world(state.path());
    let err = decode(&plugin(json!({"hook": "tool.execute.before", "input": {"tool": "bash"}})), &world).unwrap_err();
    assert!(err.contains("names no session"), "{err}");
    let err = decode(&plugin(json!({"hook": "file.edited", "input": {"sessionID": "s"}})), &world).unwrap_err();
    assert!(err.contains("`file.edited`"), "{err}");
    let encoded = dispatch(b"{not json".to_vec(), &world, &DispatchOptions::default());
    assert_eq!(encoded.exit_code, 0);
    let answer: PluginAnswer = serde_json::from_str(&encoded.stdout).unwrap();
    assert!(answer.system_message.unwrap().contains("not valid JSON"));
}

// Claude verdicts → the plugin's answer.

fn answer(kind: HookEvent, combined: Combined, event: Value) -> PluginAnswer {
    encode(&Verdict { kind, combined, plain: vec![], runs: vec![] }, &plugin(event))
}

fn bash_before() -> Value {
    json!({"hook": "tool.execute.before", "input": {"tool": "bash", "sessionID": "s", "callID": "c"}, "output": {"args": {"command": "echo original-command", "description": "probe"}}})
}

#[test]
fn pre_tool_use_answers() {
    let deny = Combined {
        permission: Some((Permission::Deny, vec!["deny reason R1".into()])),
        context: vec![ContextPiece::Additional("CTX".into())],
        ..Combined::default()
    };
    let out = answer(HookEvent::PreToolUse, deny, bash_before());
    assert_eq!(out.block.as_deref(), Some("deny reason R1"));
    assert_eq!(out.context.as_deref(), Some("PreToolUse:Bash hook additional context: CTX"));
    let ask = Combined { permission: Some((Permission::Ask, vec![])), ..Combined::default() };
    assert!(answer(HookEvent::PreToolUse, ask, bash_before()).block.unwrap().contains("cannot ask"));
    let rewrite = Combined {
        permission: Some((Permission::Allow, vec![])),
        updated_input: Some(json!({"command": "echo rewritten-command", "description": "probe"})),
        ..Combined::default()
    };
    let out = answer(HookEvent::PreToolUse, rewrite, bash_before());
    assert_eq!(out.args, Some(json!({"command": "echo rewritten-command", "description": "probe"})));
    assert_eq!(out.block, None);
    let stop = Combined { stop: Some(vec!["halt everything".into()]), ..Combined::default() };
    assert_eq!(answer(HookEvent::PreToolUse, stop, bash_before()).stop.as_deref(), Some("halt everything"));
    // Nothing to say is an empty answer but for the event's name.
    let nothing = answer(HookEvent::PreToolUse, Combined::default(), bash_before());
    assert_eq!(serde_json::to_value(&nothing).unwrap(), json!({"hookEventName": "PreToolUse"}));
}

fn patch_before(patch: &str) -> Value {
    json!({"hook": "tool.execute.before", "directory": "/proj", "input": {"tool": "apply_patch", "sessionID": "s", "callID": "c"},
        "output": {"args": {"patchText": patch}}})
}

#[test]
fn a_patch_rewrite_goes_back_whole_or_is_told_to_the_user() {
    let rewrite = |updated: Value, patch: &str| {
        let combined = Combined { updated_input: Some(updated), ..Combined::default() };
        answer(HookEvent::PreToolUse, combined, patch_before(patch))
    };
    let add = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n";
    let out = rewrite(json!({"file_path": "/proj/a.txt", "content": "b\n", "patch_text": add}), add);
    assert_eq!(out.args, Some(json!({"patchText": "*** Begin Patch\n*** Add File: a.txt\n+b\n*** End Patch\n"})));
    let whole = "*** Begin Patch\n*** Delete File: z.txt\n*** End Patch\n";
    assert_eq!(rewrite(json!({"patch_text": whole}), add).args, Some(json!({"patchText": whole})));
    // One file's new strings cannot be put back into a patch of two: the call runs as it was,
    // and the user hears why.
    let two = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Update File: b.txt\n@@\n-x\n+y\n*** End Patch\n";
    let out =
        rewrite(json!({"file_path": "/proj/b.txt", "old_string": "x", "new_string": "z", "patch_text": two}), two);
    assert_eq!(out.args, None);
    assert!(out.system_message.unwrap().contains("updatedInput was not applied"));
}

#[test]
fn a_patch_is_one_claude_call_per_file_before_and_after() {
    let state = tempfile::tempdir().unwrap();
    let world = world(state.path());
    let patch = "*** Begin Patch\n*** Delete File: old.txt\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch";
    let before = decode_events(&plugin(patch_before(patch)), &world).unwrap();
    let files: Vec<(Option<&str>, Option<&str>)> =
        before.iter().map(|e| (e.tool_name(), e.tool_input_str("file_path"))).collect();
    // The patch's names joined onto the project as the OS joins them (`/proj\old.txt` on Windows).
    let at = |name: &str| std::path::Path::new("/proj").join(name).to_str().unwrap().to_owned();
    assert_eq!(files, [(Some("Edit"), Some(at("old.txt").as_str())), (Some("Edit"), Some(at("a.txt").as_str()))]);
    assert_eq!(before[1].tool_input_str("new_string"), Some("y"));
    // OpenCode's after-hook may come without the arguments: the cached patch is split the same way.
    let after = decode_events(
        &plugin(json!({"hook": "tool.execute.after", "directory": "/proj", "input": {"tool": "apply_patch", "sessionID": "s", "callID": "c"},
            "output": {"title": "", "output": "Success. Updated the following files:\nD old.txt\nM a.txt", "metadata": {}}})),
        &world,
    )
    .unwrap();
    assert_eq!(after.iter().map(|e| e.name()).collect::<Vec<_>>(), [Some("PostToolUse"), Some("PostToolUse")]);
    assert_eq!(after[0].tool_input_str("patch_op"), Some("delete"));
    // A patch that names no file changes none in OpenCode either; hooks still see the call.
    let garbage = decode_events(&plugin(patch_before("not a patch")), &world).unwrap();
    assert_eq!(garbage.len(), 1);
    assert_eq!((garbage[0].tool_name(), garbage[0].tool_input_str("patch_text")), (Some("Edit"), Some("not a patch")));
    // Any other tool is decode's one event.
    let bash = decode_events(&plugin(bash_before()), &world).unwrap();
    assert_eq!(bash.len(), 1);
}

#[test]
fn post_tool_use_answers() {
    let after = json!({"hook": "tool.execute.after", "input": {"tool": "bash", "sessionID": "s", "callID": "c"}});
    let combined = Combined {
        blocks: vec!["[cmd]: post complaint\n".into()],
        context: vec![ContextPiece::Additional("POST-CTX".into())],
        ..Combined::default()
    };
    let out = answer(HookEvent::PostToolUse, combined, after.clone());
    assert_eq!(
        out.append_output.as_deref(),
        Some("PostToolUse:Bash hook blocking error: [cmd]: post complaint\n\nPostToolUse:Bash hook additional context: POST-CTX")
    );
    let mut extra = Map::new();
    extra.insert("updatedToolOutput".into(), json!("redacted"));
    let out = answer(HookEvent::PostToolUse, Combined { extra, ..Combined::default() }, after);
    assert_eq!(out.replace_output.as_deref(), Some("redacted"));
}

#[test]
fn prompt_and_session_answers() {
    let ups = json!({"hook": "chat.message", "input": {"sessionID": "s"}});
    let block = Combined { blocks: vec!["[cmd]: prompt rejected\n".into()], ..Combined::default() };
    assert_eq!(
        answer(HookEvent::UserPromptSubmit, block, ups.clone()).block.as_deref(),
        Some("UserPromptSubmit operation blocked by hook:\n[cmd]: prompt rejected\n")
    );
    let plain = Combined {
        context: vec![ContextPiece::Plain("UPS-ONE\n".into()), ContextPiece::Plain("UPS-TWO\n".into())],
        ..Combined::default()
    };
    assert_eq!(answer(HookEvent::UserPromptSubmit, plain.clone(), ups).context.as_deref(), Some("UPS-ONE\nUPS-TWO"));
    let start = json!({"hook": "session.created", "input": {"sessionID": "s"}});
    assert_eq!(answer(HookEvent::SessionStart, plain, start).context.as_deref(), Some("UPS-ONE\nUPS-TWO"));
}

#[test]
fn stop_answers() {
    let idle = json!({"hook": "session.idle", "input": {"sessionID": "s"}});
    let both = Combined {
        blocks: vec!["keep going: run tests".into()],
        context: vec![ContextPiece::Additional("STOP-CTX run the linter".into())],
        ..Combined::default()
    };
    assert_eq!(
        answer(HookEvent::Stop, both.clone(), idle.clone()).continue_prompt.as_deref(),
        Some("keep going: run tests\nSTOP-CTX run the linter")
    );
    // continue: false wins over a Stop block, as in Claude Code.
    let stopped = Combined { stop: Some(vec![]), ..both };
    let out = answer(HookEvent::Stop, stopped, idle);
    assert_eq!((out.continue_prompt, out.stop.is_some()), (None, true));
}

#[test]
fn pre_compact_answers_with_the_hooks_output() {
    let compacting = plugin(json!({"hook": "experimental.session.compacting", "input": {"sessionID": "s"}}));
    let combined = Combined {
        context: vec![ContextPiece::Additional("keep the API notes".into())],
        blocks: vec!["no".into()],
        ..Combined::default()
    };
    let out = encode(
        &Verdict { kind: HookEvent::PreCompact, combined, plain: vec!["focus on tests\n".into()], runs: vec![] },
        &compacting,
    );
    assert_eq!(out.compaction_context, ["focus on tests", "keep the API notes"]);
    assert!(out.system_message.unwrap().contains("cannot"));
}

#[test]
fn a_failing_shell_command_is_post_tool_use_failure() {
    let state = tempfile::tempdir().unwrap();
    let after = |exit: Value, output: &str| {
        decode(
            &plugin(json!({"hook": "tool.execute.after", "input": {"tool": "bash", "sessionID": "s", "callID": "c", "args": {"command": "exit 3"}},
                "output": {"title": "exit 3", "output": output, "metadata": {"exit": exit}}})),
            &world(state.path()),
        )
        .unwrap()
    };
    let failed = after(json!(3), "(no output)");
    assert_eq!(failed.name(), Some("PostToolUseFailure"));
    assert_eq!(failed.str("error"), Some("Exit code 3"));
    assert_eq!(failed.get("is_interrupt"), Some(&json!(false)));
    assert_eq!(failed.tool_response(), None);
    assert_eq!(after(json!(1), "boom\n").str("error"), Some("Exit code 1\nboom"));
    assert_eq!(after(json!(0), "ok").name(), Some("PostToolUse"));
    assert_eq!(after(Value::Null, "killed").name(), Some("PostToolUse"));
    let context = Combined { context: vec![ContextPiece::Additional("FAIL-CTX".into())], ..Combined::default() };
    let out = answer(
        HookEvent::PostToolUseFailure,
        context,
        json!({"hook": "tool.execute.after", "input": {"tool": "bash"}}),
    );
    assert_eq!(out.append_output.as_deref(), Some("PostToolUseFailure:Bash hook additional context: FAIL-CTX"));
}
