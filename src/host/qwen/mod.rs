//! Qwen Code (0.24.4) as a host: its hook events read as Claude Code's, and the one verdict
//! encoded so that Qwen does what Claude Code would have done.
//!
//! Qwen Code keeps Claude Code's hook layout and event names, but reads hooks only from its own
//! `.qwen/settings.json` files (`hookmux install qwen` puts hookmux's entries there), and its
//! runner differs from Claude's wherever an answer changes what happens. Where it differs, and
//! what hookmux does about it:
//!
//! **Events.** The names are Claude's and stay. UserPromptSubmit also fires before every request
//! that sends tool results back to the model (`prompt: ""`) and before the request that sends a
//! Stop hook's feedback (`prompt`: that feedback); the user's own prompt alone carries
//! `submitted_prompt`. Those other two run no hooks (Claude Code fires UserPromptSubmit only for
//! the user); the second is recognised by the feedback hookmux itself gave at the Stop before. A
//! prompt without `submitted_prompt` that is neither (tool results with text of their own) is
//! taken as the user's, so that a guard on prompts is never skipped by mistake. Any of them
//! without `submitted_prompt` is where a tool event's `continue: false` is carried out: it comes
//! before the request that would send the tool's result to the model. MessageDisplay,
//! SessionDelete, TodoCreated and TodoCompleted are not installed (no Claude hook sees them).
//!
//! **Tools.** `run_shell_command` → `Bash` (`is_background` → `run_in_background`), `write_file`
//! → `Write`, `edit` (and its old name `replace`) → `Edit`, `read_file` → `Read` (Qwen's
//! `offset` counts lines from 0, Claude's from 1), `glob` → `Glob`, `grep_search` (and
//! `search_file_content`) → `Grep`, `list_directory` → `LS`, `agent` (and `task`) → `Agent`,
//! `web_fetch` → `WebFetch`, `web_search` → `WebSearch`, `todo_write` → `TodoWrite`,
//! `notebook_edit` → `NotebookEdit`, `skill` → `Skill`, `ask_user_question` → `AskUserQuestion`,
//! `exit_plan_mode` → `ExitPlanMode`, `enter_plan_mode` → `EnterPlanMode`; MCP tools are already
//! `mcp__server__tool`; other names stay. A shell command's result becomes Claude's `{stdout,
//! stderr, interrupted, isImage}` (Qwen merges stderr into the output), and its failure's error
//! `Exit code N`; other tools' results stay as Qwen sends them (`{llmContent, returnDisplay}`).
//! PostToolBatch's calls get the same names, inputs and ids, and their output text.
//!
//! **Session fields.** `tool_use_id` is the model's call id (Qwen's `tool_call_id`, as Claude
//! Code's is the model's); Qwen's own id stays in `qwen_tool_use_id`. Qwen's `transcript_path`
//! is its own chat log (`~/.qwen/projects/<project>/chats/<session>.jsonl`, Gemini-style `parts`),
//! not Claude's format, so hooks get hookmux's transcript of the session and Qwen's path as
//! `qwen_transcript_path`. `permission_mode` `yolo` is `bypassPermissions`, `auto-edit`
//! `acceptEdits`; Stop's `crons` is `session_crons`.
//!
//! **Answers** (always exit 0 and one JSON object, which Qwen reads at any exit code; exit 2 with
//! nothing on stderr would block nothing under Qwen):
//!
//! | Claude verdict | Qwen answer |
//! |---|---|
//! | PreToolUse deny (exit 2 with or without stderr, JSON, legacy block) | `decision: "deny"` with the reasons (Qwen gives the model the bare reason) |
//! | PreToolUse ask | `decision: "ask"`: Qwen asks the user where it can, else the tool does not run |
//! | `updatedInput` that changes the input | cannot be expressed (Qwen applies no rewrite): the call is denied, the reason gives the model the input the hook allows so that it can call again with it, and the user is told once per session |
//! | PreToolUse `additionalContext` | kept, and given with the tool's PostToolUse or PostToolUseFailure (Qwen drops PreToolUse context) |
//! | `continue: false` on PreToolUse, PostToolUse(Failure), PostToolBatch | the tool runs and keeps its result; the request that would send it to the model is stopped (`continue: false` on the UserPromptSubmit Qwen fires before it) |
//! | PostToolUse(Failure) or PostToolBatch block, context | `additionalContext`, appended to the output, which stays |
//! | UserPromptSubmit block / `continue: false` / context | `decision: "block"` / `continue: false` / `additionalContext` |
//! | SessionStart, SubagentStart context | `additionalContext` |
//! | Stop block or context | `decision: "block"` with `Stop hook feedback: …`: the turn goes on with it (Qwen's own cap ends the turn at its 8th block in a row) |
//! | Stop or SubagentStop `continue: false` | nothing: the turn ends (Qwen would read `continue: false` there as a block and go on) |
//! | SubagentStop block or context | `decision: "block"` with the reasons: the subagent goes on |
//! | PermissionRequest decision | `hookSpecificOutput.decision`, a rewritten input in Qwen's shape |
//! | PreCompact context or plain stdout | `additionalContext`: Qwen adds it to the compaction instructions; a block cannot be expressed (told) |
//! | notices (errors, timeouts) and `systemMessage` | `systemMessage` (Qwen shows it with the hook's progress) |

pub mod install;
pub mod lint;

use super::answer::{json_answer, stop_text, Unhonoured};
use super::session_state;
use super::state::Store;
use crate::engine::config::trust::{self, HostTrust};
use crate::engine::dispatch::{self, DispatchOptions, Verdict, World};
use crate::engine::verdict::combine::Permission;
use crate::protocol::Encoded;
use hookmux_sdk::{Env, Event, HookEvent};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Qwen's event as Claude events, plus what encoding the answer needs to know.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// Exactly one Claude event, or none when the Qwen event has no Claude counterpart.
    pub events: Vec<Event>,
    /// The Qwen tool the event is about, with the input as Qwen sent it.
    pub tool: Option<QwenTool>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct QwenTool {
    /// Qwen's canonical name (`run_shell_command`, …).
    pub name: String,
    pub input: Value,
    /// The Claude tool name hooks match against.
    pub claude: String,
    /// The call's id, the same for all its events (`tool_use_id` as hooks see it).
    pub id: Option<String>,
}

/// What a UserPromptSubmit is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// The user's own (it carries `submitted_prompt`, or cannot be told from one).
    User,
    /// Qwen sends tool results back to the model (`prompt: ""`).
    ToolResults,
    /// Qwen sends this text without the user: a Stop hook's feedback, when hookmux gave it.
    Unsubmitted(String),
}

/// What the encoder was told about this session's earlier events.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Carried {
    /// PreToolUse context waiting for this tool's result.
    pub pre_context: Option<String>,
    /// The user was already told that Qwen applies no rewritten input.
    pub told_rewrite: bool,
}

/// The encoded answer, and what must be remembered for later events of the session.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    pub encoded: Encoded,
    /// `continue: false` to carry out before the next request to the model, with its reason.
    pub stop_later: Option<String>,
    /// PreToolUse context to give with the tool's result.
    pub context_later: Option<String>,
    /// The Stop feedback Qwen will send the model as a prompt of its own.
    pub stop_feedback: Option<String>,
    /// The user has now been told that Qwen applies no rewritten input.
    pub told_rewrite: bool,
}

/// Qwen's own session state names: the Stop feedback given, the notice given once.
const STOP_FEEDBACK: &str = "stop-feedback";
const TOLD_REWRITE: &str = "told-rewrite";

/// `hookmux dispatch --host qwen`.
pub fn dispatch(stdin: Vec<u8>, world: &World, options: &DispatchOptions) -> Encoded {
    let event = Event::parse_bytes(stdin);
    // Qwen Code reads nothing of Claude Code's plugins: the plugins Claude Code's settings enable
    // are hookmux's to run here.
    let options = DispatchOptions { host_trust: qwen_trust(world, &event), plugins: true, ..options.clone() };
    if let Some(error) = event.parse_error() {
        return super::answer::unreadable(error, world, &options);
    }
    let store = Store::open(world, "qwen", "Qwen Code", event.session_id());
    if event.kind() == Some(HookEvent::UserPromptSubmit) {
        let prompt = prompt_kind(&event);
        // Before the request that sends tool results back to the model: a tool event's
        // `continue: false`.
        if prompt != Prompt::User {
            if let Some(reason) = store.as_ref().and_then(|store| store.take_stop()) {
                return json_answer(&json!({"continue": false, "stopReason": stop_text(&reason)}));
            }
        }
        match prompt {
            Prompt::ToolResults => return Encoded::default(),
            // A Stop hook's feedback, sent back as a prompt (merged with other Stop hooks' own).
            Prompt::Unsubmitted(text) if store.as_ref().is_some_and(|store| gave_feedback(store, &text)) => {
                return Encoded::default();
            }
            Prompt::Unsubmitted(_) | Prompt::User => {
                // A new prompt: what an interrupted turn left is not this one's.
                if let Some(store) = &store {
                    store.forget_stop();
                    store.remove(STOP_FEEDBACK);
                }
            }
        }
    }
    let decoded = decode(&event);
    let Some(first) = decoded.events.first() else {
        return Encoded::default();
    };
    let events = vec![super::transcript::record_transcript(first.clone(), world)];
    let decoded = Decoded { events, ..decoded };
    let kind = decoded.events[0].kind();
    let mut carried = Carried::default();
    if let Some(store) = &store {
        carried.told_rewrite = store.read(TOLD_REWRITE).is_some();
        if matches!(kind, Some(HookEvent::PostToolUse | HookEvent::PostToolUseFailure)) {
            if let Some(id) = decoded.tool.as_ref().and_then(|tool| tool.id.as_deref()) {
                carried.pre_context = store.take_context(&session_state::hashed(id));
            }
        }
    }
    match dispatch::dispatch(&decoded.events, world, &options) {
        Ok(verdict) => {
            let answer = encode(&verdict, &decoded, &carried);
            if let Some(store) = &store {
                remember(store, &answer, &decoded);
            }
            super::answer::with_notices(answer.encoded, &verdict.combined.notices)
        }
        Err(why) => match carried.pre_context {
            // The tool's own hooks ran nothing; the PreToolUse context still reaches the model.
            Some(context) => json_answer(&json!({"hookSpecificOutput": {
                "hookEventName": kind.map(HookEvent::as_str).unwrap_or_default(), "additionalContext": context}})),
            None => super::answer::not_run(&why),
        },
    }
}

fn remember(store: &Store, answer: &Answer, decoded: &Decoded) {
    if let Some(reason) = &answer.stop_later {
        store.put_stop(reason);
    }
    if let (Some(context), Some(id)) = (&answer.context_later, decoded.tool.as_ref().and_then(|t| t.id.as_deref())) {
        store.put_context(&session_state::hashed(id), context);
    }
    if let Some(feedback) = &answer.stop_feedback {
        store.put(STOP_FEEDBACK, feedback);
    }
    if answer.told_rewrite {
        store.put(TOLD_REWRITE, "");
    }
    if decoded.events.first().and_then(Event::kind) == Some(HookEvent::SessionEnd) {
        store.forget();
    }
}

/// Whether `prompt` holds the Stop feedback hookmux gave last in the session; given once.
fn gave_feedback(store: &Store, prompt: &str) -> bool {
    let given = store.read(STOP_FEEDBACK).is_some_and(|feedback| !feedback.is_empty() && prompt.contains(&feedback));
    if given {
        store.remove(STOP_FEEDBACK);
    }
    given
}

/// What a UserPromptSubmit from Qwen is ([`Prompt`]).
pub fn prompt_kind(event: &Event) -> Prompt {
    if event.str("submitted_prompt").is_some_and(|p| !p.trim().is_empty()) {
        return Prompt::User;
    }
    match event.prompt() {
        Some("") => Prompt::ToolResults,
        Some(text) => Prompt::Unsubmitted(text.to_string()),
        None => Prompt::User,
    }
}

/// Whether the project is one Qwen's own record trusts: in Qwen's `trustedFolders.json`
/// (`$QWEN_CODE_TRUSTED_FOLDERS_PATH`, else in Qwen's folder), the deepest rule over the project
/// (a `TRUST_FOLDER` folder, the folder of a `TRUST_PARENT` entry, a `DO_NOT_TRUST` folder; on a
/// tie, distrust) says trusted. Qwen itself runs every folder's hooks while its folder trust is
/// off, its default, and asks nothing: that is no trust, so then hookmux's own trust list
/// decides, as for hosts that keep none.
fn qwen_trust(world: &World, event: &Event) -> HostTrust {
    let file = world
        .env
        .path("QWEN_CODE_TRUSTED_FOLDERS_PATH")
        .filter(|p| !p.as_os_str().is_empty())
        .or_else(|| qwen_dir(&world.env).map(|dir| dir.join("trustedFolders.json")));
    let Some(rules) = file
        .and_then(|file| std::fs::read_to_string(file).ok())
        .and_then(|text| serde_json::from_str::<Map<String, Value>>(&text).ok())
    else {
        return HostTrust::Unknown;
    };
    let project = trust::real(&dispatch::project_root_for(&world.env, event, &world.cwd));
    let mut deepest: Option<(usize, bool)> = None;
    for (folder, level) in &rules {
        let folder = trust::real(Path::new(folder));
        let (covered, trusted) = match level.as_str() {
            Some("TRUST_FOLDER") => (Some(folder), true),
            Some("TRUST_PARENT") => (folder.parent().map(Path::to_path_buf), true),
            Some("DO_NOT_TRUST") => (Some(folder), false),
            _ => continue,
        };
        let Some(covered) = covered.filter(|covered| project.starts_with(covered)) else { continue };
        let depth = covered.components().count();
        deepest = match deepest {
            Some((best, _)) if best > depth => deepest,
            Some((best, false)) if best == depth => deepest,
            _ => Some((depth, trusted)),
        };
    }
    match deepest {
        Some((_, true)) => HostTrust::Trusted,
        _ => HostTrust::Unknown,
    }
}

/// Qwen Code's own folder: `$QWEN_HOME`, else `~/.qwen`.
pub fn qwen_dir(env: &Env) -> Option<PathBuf> {
    match env.path("QWEN_HOME").filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) if dir.is_absolute() => Some(dir),
        Some(dir) => match dir.strip_prefix("~") {
            Ok(rest) => env.path("HOME").map(|home| home.join(rest)),
            Err(_) => Some(dir),
        },
        None => env.path("HOME").map(|home| home.join(".qwen")),
    }
}

/// Maps a Qwen event to the Claude event its hooks are planned for.
pub fn decode(event: &Event) -> Decoded {
    let name = event.name().unwrap_or_default();
    let none = Decoded { events: Vec::new(), tool: None };
    let mut fields = event.fields().clone();
    if let Some(path) = fields.remove("transcript_path").filter(|p| !p.is_null()) {
        fields.insert("qwen_transcript_path".into(), path);
    }
    if let Some(mode) = fields.get("permission_mode").and_then(Value::as_str).and_then(claude_mode) {
        fields.insert("permission_mode".into(), mode.into());
    }
    let mut tool = None;
    match name {
        // Qwen's own, or shown to the user only: no Claude hook sees them.
        "MessageDisplay" | "SessionDelete" | "TodoCreated" | "TodoCompleted" => return none,
        "PreToolUse" | "PostToolUse" | "PostToolUseFailure" | "PermissionRequest" | "PermissionDenied" => {
            let qwen = canonical(event.tool_name().unwrap_or_default()).to_string();
            let input = event.get("tool_input").cloned().unwrap_or_else(|| json!({}));
            let claude = claude_tool(&qwen);
            let id = call_id(&fields);
            fields.insert("tool_name".into(), claude.clone().into());
            fields.insert("tool_input".into(), claude_input(&qwen, &input));
            if let Some(own) = fields.remove("tool_use_id") {
                fields.insert("qwen_tool_use_id".into(), own);
            }
            if let Some(id) = &id {
                fields.insert("tool_use_id".into(), id.clone().into());
            }
            if name == "PostToolUse" {
                let response = fields.remove("tool_response").unwrap_or(Value::Null);
                fields.insert("tool_response".into(), claude_response(&qwen, &input, response));
            }
            if name == "PostToolUseFailure" {
                let error = fields.get("error").map(super::answer::as_text).unwrap_or_default();
                fields.insert("error".into(), claude_error(&qwen, &error).into());
            }
            tool = Some(QwenTool { name: qwen, input, claude, id });
        }
        "PostToolBatch" => {
            let calls = fields.get("tool_calls").and_then(Value::as_array).cloned().unwrap_or_default();
            fields.insert("tool_calls".into(), calls.iter().map(claude_batch_call).collect());
        }
        "Stop" => {
            if let Some(crons) = fields.remove("crons") {
                fields.entry("session_crons").or_insert(crons);
            }
        }
        _ => {}
    }
    Decoded { events: vec![event.with_fields(fields)], tool }
}

/// The model's id for the call (`tool_call_id`), else Qwen's own.
fn call_id(fields: &Map<String, Value>) -> Option<String> {
    ["tool_call_id", "tool_use_id"]
        .iter()
        .find_map(|key| fields.get(*key).and_then(Value::as_str).filter(|id| !id.is_empty()))
        .map(str::to_string)
}

/// Claude Code's name for a Qwen permission mode.
fn claude_mode(mode: &str) -> Option<&'static str> {
    match mode {
        "yolo" => Some("bypassPermissions"),
        "auto-edit" | "autoEdit" => Some("acceptEdits"),
        _ => None,
    }
}

/// Qwen's canonical name for a tool name it still accepts from older sessions.
fn canonical(name: &str) -> &str {
    match name {
        "replace" => "edit",
        "task" => "agent",
        "search_file_content" => "grep_search",
        other => other,
    }
}

/// The Claude Code name of a Qwen tool.
pub fn claude_tool(name: &str) -> String {
    match canonical(name) {
        "run_shell_command" => "Bash",
        "write_file" => "Write",
        "edit" => "Edit",
        "read_file" => "Read",
        "glob" => "Glob",
        "grep_search" => "Grep",
        "list_directory" => "LS",
        "agent" => "Agent",
        "web_fetch" => "WebFetch",
        "web_search" => "WebSearch",
        "todo_write" => "TodoWrite",
        "notebook_edit" => "NotebookEdit",
        "skill" => "Skill",
        "ask_user_question" => "AskUserQuestion",
        "exit_plan_mode" => "ExitPlanMode",
        "enter_plan_mode" => "EnterPlanMode",
        other => other,
    }
    .to_string()
}

/// A Qwen tool's input in the Claude tool's shape (fields Claude has no name for stay).
pub fn claude_input(tool: &str, input: &Value) -> Value {
    let Some(object) = input.as_object() else { return input.clone() };
    let mut out = object.clone();
    match canonical(tool) {
        "run_shell_command" => {
            if let Some(background) = out.remove("is_background") {
                out.insert("run_in_background".into(), background);
            }
        }
        "read_file" => {
            if let Some(offset) = out.get("offset").and_then(Value::as_u64) {
                out.insert("offset".into(), (offset + 1).into());
            }
        }
        "edit" => {
            out.entry("replace_all").or_insert(false.into());
        }
        _ => {}
    }
    Value::Object(out)
}

/// A Claude-shaped input (a hook's rewrite) as the Qwen tool takes it: [`claude_input`] undone,
/// and no `replace_all: false` that the call did not have.
pub fn qwen_input(tool: &QwenTool, claude: &Value) -> Value {
    let Some(object) = claude.as_object() else { return claude.clone() };
    let mut out = object.clone();
    match tool.name.as_str() {
        "run_shell_command" => {
            if let Some(background) = out.remove("run_in_background") {
                out.insert("is_background".into(), background);
            }
        }
        "read_file" => {
            if let Some(offset) = out.get("offset").and_then(Value::as_u64) {
                out.insert("offset".into(), offset.saturating_sub(1).into());
            }
        }
        "edit" if tool.input.get("replace_all").is_none() && out.get("replace_all") == Some(&Value::Bool(false)) => {
            out.remove("replace_all");
        }
        _ => {}
    }
    Value::Object(out)
}

/// Whether a rewritten input changes the call: a field the hook gave differs from the call's.
/// One that only leaves fields out changes nothing that runs differently enough to refuse the
/// call over, and a hook that always answers with (part of) the input it got would otherwise
/// refuse every call.
fn changes(rewrite: &Value, input: &Value) -> bool {
    match (rewrite.as_object(), input.as_object()) {
        (Some(rewrite), Some(input)) => rewrite.iter().any(|(key, value)| input.get(key) != Some(value)),
        _ => rewrite != input,
    }
}

/// The tool result as Claude Code gives it for a shell command; other tools' as Qwen sent it.
pub fn claude_response(tool: &str, input: &Value, response: Value) -> Value {
    if canonical(tool) != "run_shell_command" {
        return response;
    }
    let text = match response.get("llmContent") {
        Some(Value::String(text)) => text.clone(),
        _ => return response,
    };
    let command = input.get("command").and_then(Value::as_str).unwrap_or_default();
    json!({"stdout": shell_output(&text, command), "stderr": "", "interrupted": false, "isImage": false})
}

/// A failed call's error as Claude Code words it: `Exit code N` for a shell command that exited
/// non-zero, Qwen's own text otherwise.
pub fn claude_error(tool: &str, error: &str) -> String {
    match (canonical(tool), shell_exit_code(error)) {
        ("run_shell_command", Some(code)) if code != 0 => format!("Exit code {code}"),
        _ => error.to_string(),
    }
}

/// One call of a PostToolBatch as Claude Code lists it: `tool_name`, `tool_input`,
/// `tool_use_id`, and the output as text.
fn claude_batch_call(call: &Value) -> Value {
    let qwen = canonical(call.get("tool_name").and_then(Value::as_str).unwrap_or_default()).to_string();
    let input = call.get("tool_input").cloned().unwrap_or_else(|| json!({}));
    let id = call.as_object().and_then(call_id);
    let parts = call.pointer("/tool_response/response_parts").and_then(Value::as_array).cloned().unwrap_or_default();
    let field = |key: &str| -> Option<String> {
        let texts: Vec<String> = parts
            .iter()
            .filter_map(|part| part.pointer("/functionResponse/response")?.get(key).map(super::answer::as_text))
            .collect();
        (!texts.is_empty()).then(|| texts.join("\n"))
    };
    let command = input.get("command").and_then(Value::as_str).unwrap_or_default();
    let output = match (field("error"), field("output")) {
        (Some(error), _) => claude_error(&qwen, &error),
        (None, Some(output)) if qwen == "run_shell_command" => shell_output(&output, command),
        (None, output) => output.unwrap_or_default(),
    };
    json!({
        "tool_name": claude_tool(&qwen),
        "tool_input": claude_input(&qwen, &input),
        "tool_use_id": id,
        "tool_response": output,
    })
}

/// The lines Qwen writes after a shell command's output, in order.
const TRAILER: &[&str] = &["Error: ", "Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: "];

/// The output of a Qwen shell result (`Command: …`, `Directory: …`, `Output: …`, then
/// [`TRAILER`]): read between the known head and the trailer found from the end, so that output
/// which prints the same words is not taken for either. Text of another shape (a timeout's, a
/// cancellation's) is returned as it is.
fn shell_output(text: &str, command: &str) -> String {
    let rest = text.strip_prefix(&format!("Command: {command}\n")).unwrap_or(text);
    let Some(rest) = rest.strip_prefix("Directory: ") else { return text.to_string() };
    let Some((_, rest)) = rest.split_once('\n') else { return text.to_string() };
    let Some(rest) = rest.strip_prefix("Output: ") else { return text.to_string() };
    let output = rest.rfind("\nError: ").map_or(rest, |end| &rest[..end]);
    if output == "(empty)" {
        String::new()
    } else {
        output.to_string()
    }
}

/// The `Exit Code:` of a Qwen shell result, read from its trailer.
fn shell_exit_code(text: &str) -> Option<i64> {
    let trailer = &text[text.rfind("\nError: ")?..];
    trailer.lines().find_map(|line| line.strip_prefix(TRAILER[1]))?.trim().parse().ok()
}

/// Encodes the verdict as Qwen Code 0.24.4 honours it: exit 0 and one JSON object (or nothing).
pub fn encode(verdict: &Verdict, decoded: &Decoded, carried: &Carried) -> Answer {
    let combined = &verdict.combined;
    let kind = verdict.kind;
    let mut answer = Answer::default();
    let mut top = Map::new();
    let mut specific = Map::new();
    let mut messages: Vec<String> = combined.system_messages.iter().chain(&combined.notices).cloned().collect();
    let hook = match &decoded.tool {
        Some(tool) if kind.is_tool_event() => format!("{kind}:{}", tool.claude),
        _ => kind.as_str().to_string(),
    };
    let context = super::answer::joined(&combined.context);
    let labelled = |label: &str, text: &str| format!("{hook} hook {label}: {}", text.trim_end_matches('\n'));
    let stop_reason = combined.stop.as_ref().map(|reasons| reasons.join("\n"));

    match kind {
        HookEvent::PreToolUse => {
            let context = (!context.is_empty()).then(|| labelled("additional context", &context));
            let (permission, reasons) = match &combined.permission {
                Some((permission, reasons)) => (Some(*permission), reasons.join("\n")),
                None => (None, String::new()),
            };
            let rewrite = match (&combined.updated_input, &decoded.tool) {
                (Some(updated), Some(tool)) => {
                    Some(qwen_input(tool, updated)).filter(|input| changes(input, &tool.input))
                }
                _ => None,
            };
            let deny = match (permission, &rewrite, &decoded.tool) {
                (Some(Permission::Deny), _, _) => Some(super::answer::non_empty_reason(reasons.clone())),
                (_, Some(rewrite), Some(tool)) => {
                    if !carried.told_rewrite {
                        messages.push(
                            Unhonoured::UpdatedInput {
                                why: "Qwen Code runs a tool only with the input the model gave it, so hookmux denies a call a hook rewrote and tells the model the input the hook allows".to_string(),
                            }
                            .to_string(),
                        );
                        answer.told_rewrite = true;
                    }
                    Some(format!(
                        "{hook} hook rewrote this call's input, which Qwen Code cannot apply, so it did not run. To run it as the hook allows, call {} again with this input: {rewrite}",
                        tool.name
                    ))
                }
                _ => None,
            };
            match (deny, permission) {
                (Some(reason), _) => {
                    let reason = match &context {
                        Some(context) => format!("{}\n\n{context}", reason.trim_end()),
                        None => reason,
                    };
                    top.insert("decision".into(), "deny".into());
                    top.insert("reason".into(), reason.into());
                }
                (None, Some(Permission::Ask)) => {
                    top.insert("decision".into(), "ask".into());
                    if !reasons.trim().is_empty() {
                        top.insert("reason".into(), reasons.into());
                    }
                    answer.context_later = context;
                }
                (None, _) => answer.context_later = context,
            }
            // Denied or not, the turn ends before the model is asked again.
            answer.stop_later = stop_reason;
        }
        HookEvent::PostToolUse | HookEvent::PostToolUseFailure | HookEvent::PostToolBatch => {
            let appended =
                super::answer::appended_to_result(carried.pre_context.as_deref(), combined, &context, labelled);
            if let Some(appended) = appended {
                specific.insert("additionalContext".into(), appended.into());
            }
            messages.extend(super::answer::unreplaced_outputs(combined, &hook, "Qwen Code"));
            answer.stop_later = stop_reason;
        }
        HookEvent::UserPromptSubmit => {
            if !combined.blocks.is_empty() {
                top.insert("decision".into(), "block".into());
                top.insert("reason".into(), super::answer::non_empty_reason(combined.blocks.join("\n")).into());
            }
            stop(&mut top, stop_reason.as_deref());
            if !context.is_empty() {
                specific.insert("additionalContext".into(), context.into());
            }
        }
        HookEvent::SessionStart | HookEvent::SubagentStart if !context.is_empty() => {
            specific.insert("additionalContext".into(), context.into());
        }
        HookEvent::Stop | HookEvent::SubagentStop => {
            let mut reasons: Vec<String> =
                combined.blocks.iter().map(|b| b.trim_end_matches('\n').to_string()).collect();
            if !context.is_empty() {
                reasons.push(context);
            }
            // Claude Code: continue: false wins over a Stop hook's block, and ends the turn,
            // which is what Qwen does at a Stop that nothing blocks.
            if stop_reason.is_none() && !reasons.is_empty() {
                let reason = if kind == HookEvent::Stop {
                    format!("Stop hook feedback:\n{}", reasons.join("\n"))
                } else {
                    reasons.join("\n")
                };
                top.insert("decision".into(), "block".into());
                top.insert("reason".into(), reason.clone().into());
                if kind == HookEvent::Stop {
                    answer.stop_feedback = Some(reason);
                }
            }
        }
        HookEvent::PermissionRequest => {
            if let Some(decision) = &combined.permission_request {
                permission_request(decision, decoded, &mut specific, &mut messages);
            }
        }
        HookEvent::PreCompact => {
            if !combined.blocks.is_empty() || combined.stop.is_some() {
                messages.push(
                    "hookmux: a PreCompact hook asked to block compaction, which Qwen Code cannot do".to_string(),
                );
            }
            let instructions: Vec<String> = verdict
                .plain
                .iter()
                .map(|text| text.trim_end_matches('\n').to_string())
                .chain((!context.is_empty()).then_some(context))
                .filter(|text| !text.is_empty())
                .collect();
            if !instructions.is_empty() {
                specific.insert("additionalContext".into(), instructions.join("\n").into());
            }
        }
        _ => {}
    }

    if !messages.is_empty() {
        top.insert("systemMessage".into(), messages.join("\n").into());
    }
    if !specific.is_empty() {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), kind.as_str().into());
        with_name.extend(specific);
        top.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }
    if !top.is_empty() {
        answer.encoded = json_answer(&Value::Object(top));
    }
    answer
}

/// A PermissionRequest decision as Qwen reads it: `behavior`, a rewritten input in the Qwen
/// tool's shape, `message` and `interrupt`; `updatedPermissions` Qwen does not take.
fn permission_request(
    decision: &Map<String, Value>,
    decoded: &Decoded,
    specific: &mut Map<String, Value>,
    messages: &mut Vec<String>,
) {
    let mut out = decision.clone();
    if let (Some(updated), Some(tool)) = (out.get("updatedInput").cloned(), &decoded.tool) {
        out.insert("updatedInput".into(), qwen_input(tool, &updated));
    }
    if out.remove("updatedPermissions").is_some() {
        messages.push(
            "hookmux: a PermissionRequest hook's updatedPermissions were dropped: Qwen Code does not take them"
                .to_string(),
        );
    }
    specific.insert("decision".into(), Value::Object(out));
}

fn stop(top: &mut Map<String, Value>, reason: Option<&str>) {
    if let Some(reason) = reason {
        top.insert("continue".into(), false.into());
        top.insert("stopReason".into(), stop_text(reason).into());
    }
}

#[cfg(test)]
mod tests;
