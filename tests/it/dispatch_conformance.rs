//! Every shared conformance scenario, replayed offline through the real `hookmux dispatch`.
//!
//! A small stand-in for the host drives each scenario's scripted turn (SessionStart, the prompt,
//! each tool call's Pre/PostToolUse, Stop and its re-entry) through `dispatch --settings`, the way
//! Claude Code does, then checks what Claude Code 2.1.328 was recorded doing (`native.json`):
//! which hooks ran, which tool calls were blocked or rewritten, whether the turn was stopped, and
//! which of the hooks' own strings reached the model. The real host is checked by
//! `scripts/dropin-check.sh`.

use crate::common;

use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SESSION: &str = "11111111-2222-4333-8444-555555555555";

struct Turn {
    ran: String,
    blocked: Vec<bool>,
    tool_inputs: Vec<Value>,
    stopped: bool,
    prompt_blocked: bool,
    /// Every string the answers put in front of the model (systemMessage excluded: user-only).
    model_text: String,
}

fn dispatch(settings: &Path, project: &Path, dump: &Path, event: &Value) -> (String, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hookmux"))
        .args(["dispatch", "--settings"])
        .arg(settings)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DUMP", dump)
        .envs(common::folder_var("HOME", project))
        .env("CLAUDE_PROJECT_DIR", project)
        .envs(common::folder_var("TMPDIR", dump))
        .current_dir(project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hookmux");
    use std::io::Write;
    child.stdin.take().expect("stdin").write_all(event.to_string().as_bytes()).expect("write event");
    let out = child.wait_with_output().expect("dispatch");
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = if stdout.trim_start().starts_with('{') {
        serde_json::from_str(&stdout).expect("JSON answer")
    } else {
        Value::Null
    };
    (stdout, json)
}

/// What the model sees of one answer: plain stdout where the event reads it, else the JSON's
/// reasons and contexts.
fn visible(event: &str, stdout: &str, json: &Value) -> String {
    if json.is_null() {
        return if matches!(event, "UserPromptSubmit" | "SessionStart") { stdout.to_string() } else { String::new() };
    }
    let mut shown = json.clone();
    if let Some(object) = shown.as_object_mut() {
        object.remove("systemMessage");
        object.remove("stopReason");
        if let Some(Value::Object(specific)) = object.get_mut("hookSpecificOutput") {
            specific.remove("updatedInput");
        }
    }
    shown.to_string()
}

fn play(scenario: &Path) -> Turn {
    let work = tempfile::tempdir().expect("temp dir");
    let project = work.path().join("proj");
    let dump = work.path().join("dump");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&dump).unwrap();
    // The scenario's files, copied into the project as the real-host harness copies them.
    copy_tree(&scenario.join("files"), &project);
    let settings = scenario.join("settings.json");
    let script: Value = serde_json::from_str(&std::fs::read_to_string(scenario.join("script.json")).unwrap()).unwrap();
    let base = |name: &str| {
        json!({"session_id": SESSION, "transcript_path": project.join("t.jsonl"), "cwd": project,
               "permission_mode": "default", "hook_event_name": name})
    };
    let with = |name: &str, fields: Value| {
        let mut event = base(name);
        event.as_object_mut().unwrap().extend(fields.as_object().unwrap().clone());
        event
    };
    let mut turn = Turn {
        ran: String::new(),
        blocked: vec![],
        tool_inputs: vec![],
        stopped: false,
        prompt_blocked: false,
        model_text: String::new(),
    };
    let see = |event: &str, answer: &(String, Value)| visible(event, &answer.0, &answer.1);

    let mut model_text = String::new();
    let ss = dispatch(&settings, &project, &dump, &with("SessionStart", json!({"source": "startup"})));
    model_text += &see("SessionStart", &ss);
    let ups = dispatch(&settings, &project, &dump, &with("UserPromptSubmit", json!({"prompt": script["prompt"]})));
    model_text += &see("UserPromptSubmit", &ups);
    if ups.1["decision"] == "block" {
        turn.prompt_blocked = true;
    } else {
        for (i, call) in script["tool_calls"].as_array().cloned().unwrap_or_default().iter().enumerate() {
            let id = format!("toolu_mock_{i}");
            let tool = call["name"].clone();
            // `/PROJ` in a tool input is the project folder, as the harness has it.
            let input = call["input"].to_string().replace("/PROJ", &project.to_string_lossy());
            let input: Value = serde_json::from_str(&input).unwrap_or_else(|_| call["input"].clone());
            let pre = dispatch(
                &settings,
                &project,
                &dump,
                &with("PreToolUse", json!({"tool_name": tool, "tool_input": input, "tool_use_id": id})),
            );
            model_text += &see("PreToolUse", &pre);
            let specific = &pre.1["hookSpecificOutput"];
            let denied = specific["permissionDecision"] == "deny";
            turn.blocked.push(denied);
            let input = specific.get("updatedInput").cloned().unwrap_or_else(|| call["input"].clone());
            turn.tool_inputs.push(input.clone());
            if pre.1["continue"] == false {
                turn.stopped = true;
            }
            if denied {
                continue;
            }
            let failed = input["command"].as_str().is_some_and(|c| c.starts_with("exit "));
            let (name, fields) = if failed {
                (
                    "PostToolUseFailure",
                    json!({"tool_name": tool, "tool_input": input, "tool_use_id": id, "error": "Exit code 3"}),
                )
            } else {
                ("PostToolUse", json!({"tool_name": tool, "tool_input": input, "tool_use_id": id, "tool_response": {}}))
            };
            let post = dispatch(&settings, &project, &dump, &with(name, fields));
            model_text += &see(name, &post);
            if turn.stopped {
                break;
            }
        }
        if !turn.stopped {
            let mut active = false;
            for _ in 0..8 {
                let stop = dispatch(
                    &settings,
                    &project,
                    &dump,
                    &with("Stop", json!({"stop_hook_active": active, "last_assistant_message": "FINAL"})),
                );
                model_text += &see("Stop", &stop);
                let continues =
                    stop.1["decision"] == "block" || stop.1["hookSpecificOutput"]["additionalContext"].is_string();
                if !continues {
                    break;
                }
                active = true;
            }
        }
    }
    turn.model_text = without_previews(&model_text);
    turn.ran = std::fs::read_to_string(dump.join("ran.txt")).unwrap_or_default();
    turn
}

fn copy_tree(from: &Path, to: &Path) {
    let Ok(entries) = std::fs::read_dir(from) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The text with the previews of saved hook texts left out. The real-host record keeps the lines
/// of a hook's text up to its first blank line, and a saved text's preview follows one, so no
/// preview is in `native.json`; here it is left out the same way (in plain text, and in a JSON
/// answer's escaped strings).
fn without_previews(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    loop {
        let start = ["\n\nPreview (first ", "\\n\\nPreview (first "].iter().filter_map(|p| rest.find(p)).min();
        let Some(start) = start else { break };
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        rest = &rest[rest.find("</persisted-output>").unwrap_or(rest.len())..];
    }
    out.push_str(rest);
    out
}

/// The hooks' own strings: echo'd words and JSON string values, as the real-host check takes them.
fn markers(settings: &Value, script: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for groups in settings["hooks"].as_object().unwrap().values() {
        for group in groups.as_array().unwrap() {
            for hook in group["hooks"].as_array().unwrap() {
                let command = hook["command"].as_str().unwrap_or_default();
                for (i, _) in command.match_indices("echo '") {
                    let rest = &command[i + 6..];
                    if let Some(end) = rest.find('\'') {
                        out.insert(rest[..end].to_string());
                    }
                }
                if let Some(start) = command.find("printf '%s' '") {
                    let rest = &command[start + 13..];
                    if let Some(end) = rest.rfind("}'") {
                        if let Ok(json) = serde_json::from_str::<Value>(&rest[..=end]) {
                            collect_strings(&json, &mut out);
                        }
                    }
                }
            }
        }
    }
    out.into_iter().filter(|m| m.len() > 3 && !script.contains(m.as_str())).collect()
}

fn collect_strings(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                match value {
                    Value::String(s)
                        if !matches!(key.as_str(), "hookEventName" | "permissionDecision" | "decision") =>
                    {
                        out.insert(s.clone());
                    }
                    other => collect_strings(other, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

fn native_visible(native: &Value) -> String {
    let mut parts: Vec<String> = native["tool_results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["content"].as_str().map(str::to_string).unwrap_or_else(|| t["content"].to_string()))
        .collect();
    parts.extend(
        native["model_saw"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .filter(|l| !l.starts_with("- "))
            .map(str::to_string),
    );
    parts.push(native["result"]["result"].as_str().unwrap_or_default().to_string());
    parts.join("\n")
}

fn scenarios(folder: &str) -> Vec<PathBuf> {
    let root = common::fixture(folder);
    let mut all: Vec<PathBuf> =
        std::fs::read_dir(root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    all.sort();
    all
}

/// hookmux's own scenarios that this stand-in host can drive: not those needing the loopback
/// hook server, an environment of their own (auto-compaction), subagents or background hooks.
/// `processes` picks those whose hooks watch processes through Linux's own tools (the
/// util-linux `setsid` command, `/proc`), as they were recorded, or the others.
fn own_scenarios(processes: bool) -> Vec<PathBuf> {
    scenarios("conformance/hookmux")
        .into_iter()
        .filter(|scenario| {
            let settings = std::fs::read_to_string(scenario.join("settings.json")).unwrap();
            let script = std::fs::read_to_string(scenario.join("script.json")).unwrap();
            !scenario.join("env").exists()
                && !settings.contains("HOOK_PORT")
                && !settings.contains("\"async\"")
                && !script.contains("\"Agent\"")
                && (settings.contains("/proc/") || settings.contains("setsid ")) == processes
        })
        .collect()
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn every_shared_scenario_behaves_as_claude_code_recorded() {
    let all = scenarios("conformance/claude-code-2.1.328");
    assert_eq!(all.len(), 33);
    check(&all);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn hookmux_scenarios_behave_as_claude_code_recorded() {
    let own = own_scenarios(false);
    assert!(own.len() >= 35, "{} scenarios", own.len());
    check(&own);
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "recorded with util-linux's setsid and /proc, which macOS lacks; dispatch's process tests cover the same there"
)]
fn hookmux_process_scenarios_behave_as_claude_code_recorded() {
    let own = own_scenarios(true);
    assert_eq!(own.len(), 3, "the procs-* scenarios: {own:?}");
    check(&own);
}

fn check(all: &[PathBuf]) {
    let mut failures = Vec::new();
    for scenario in all {
        let name = scenario.file_name().unwrap().to_string_lossy().into_owned();
        let native: Value =
            serde_json::from_str(&std::fs::read_to_string(scenario.join("native.json")).unwrap()).unwrap();
        let settings: Value =
            serde_json::from_str(&std::fs::read_to_string(scenario.join("settings.json")).unwrap()).unwrap();
        let script_text = std::fs::read_to_string(scenario.join("script.json")).unwrap();
        let turn = play(scenario);

        let mut problems = Vec::new();
        let native_ran = native["events"]["ran.txt"].as_str().unwrap_or_default();
        let sorted = |text: &str| {
            let mut lines: Vec<&str> = text.lines().collect();
            lines.sort();
            lines.join(" ")
        };
        if sorted(&turn.ran) != sorted(native_ran) {
            problems.push(format!("ran {:?}, native ran {native_ran:?}", turn.ran));
        }
        let native_results = native["tool_results"].as_array().unwrap();
        let tool_count = script_text.matches("\"name\"").count();
        if tool_count > 0 && native_results.len() == turn.blocked.len() {
            let native_blocked: Vec<bool> = native_results
                .iter()
                .map(|t| t["is_error"] == true && t["content"].as_str().is_some_and(|c| c.contains("hook error")))
                .collect();
            if native_blocked != turn.blocked {
                problems.push(format!("blocked {:?}, native {native_blocked:?}", turn.blocked));
            }
            for (result, input) in native_results.iter().zip(&turn.tool_inputs) {
                let command = input["command"].as_str().unwrap_or_default();
                if let (Some(text), Some(echoed)) = (result["content"].as_str(), command.strip_prefix("echo ")) {
                    if result["is_error"] == false && text.trim() != echoed {
                        problems.push(format!("tool ran `{command}`, native output {text:?}"));
                    }
                }
            }
        }
        let native_terminal = native["result"]["terminal_reason"].as_str().unwrap_or_default();
        if (native_terminal == "hook_stopped") != turn.stopped {
            problems.push(format!("stopped {}, native terminal_reason {native_terminal:?}", turn.stopped));
        }
        let native_prompt_blocked =
            native["result"]["result"].as_str().is_some_and(|r| r.contains("operation blocked by hook"));
        if native_prompt_blocked != turn.prompt_blocked {
            problems.push(format!("prompt blocked {}, native {native_prompt_blocked}", turn.prompt_blocked));
        }
        let native_text = native_visible(&native);
        for marker in markers(&settings, &script_text) {
            let natively_seen = native_text.contains(&marker);
            let seen = turn.model_text.contains(&marker);
            if natively_seen != seen {
                problems.push(format!("marker {marker:?}: native saw it {natively_seen}, dispatch shows it {seen}"));
            }
        }
        if !problems.is_empty() {
            failures.push(format!("{name}: {}", problems.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{} scenario(s) differ:\n{}", failures.len(), failures.join("\n"));
}
