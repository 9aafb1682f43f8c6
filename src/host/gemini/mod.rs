//! Gemini CLI (0.61.0) as a host: its hook events mapped to Claude Code's before planning, and
//! the one verdict encoded so that Gemini does what Claude Code would have done.
//!
//! **Events.** BeforeTool → PreToolUse; AfterTool → PostToolUse, or PostToolUseFailure when the
//! tool failed (an `error` in its response, or a shell command's `Exit Code:` other than 0);
//! BeforeAgent → UserPromptSubmit; AfterAgent → Stop (`prompt_response` is
//! `last_assistant_message`); SessionStart, SessionEnd (`exit` → `other`) and Notification
//! (`ToolPermission` → `permission_prompt`) keep their names. PreCompress is PreCompact only
//! when its `trigger` is `manual` (`/compress`): Gemini fires an `auto` PreCompress before every
//! model call, before it decides whether to compress, and the payload cannot tell the one time it
//! does. BeforeModel, AfterModel and BeforeToolSelection have no Claude counterpart; BeforeModel
//! carries out a `continue: false` a tool event asked for (below).
//!
//! **Tools.** `run_shell_command` → `Bash`, `write_file` → `Write`, `replace` → `Edit`,
//! `read_file` → `Read` (`start_line`/`end_line` → `offset`/`limit`), `invoke_agent` → `Agent`
//! (`agent_name` → `subagent_type`), `glob` → `Glob`, `grep_search` → `Grep` (`dir_path` →
//! `path`, `include` → `glob`), `google_web_search` → `WebSearch`, `web_fetch` → `WebFetch`,
//! `write_todos` → `TodoWrite`, an MCP tool (the event's `mcp_context`) → `mcp__server__tool`;
//! anything else keeps its name. `complete_task` (how a Gemini subagent hands back its result)
//! has no Claude counterpart and runs no hooks. A shell command's result becomes Claude's
//! `{stdout, stderr, interrupted, isImage}`; other tools' results stay as Gemini sends them.
//!
//! **Session fields.** Gemini's `transcript_path` is its own chat log, not Claude's transcript
//! format, so hooks get hookmux's transcript of the session (Gemini's path stays in
//! `gemini_transcript_path`). Gemini sends no `tool_use_id`: one is derived from the tool call.
//!
//! **Answers** (always exit 0 and one JSON object: Gemini reads stdout JSON at any exit code, and
//! reads only top-level `decision`/`reason`/`continue`/`stopReason`/`systemMessage` and
//! `hookSpecificOutput.tool_input`/`additionalContext`):
//!
//! | Claude verdict | Gemini answer |
//! |---|---|
//! | PreToolUse deny (exit 2, JSON, legacy block) | `decision: "deny"` with the reasons |
//! | PreToolUse ask | `decision: "ask"`: Gemini asks the user (without a user, as under `-p`, the tool does not run) |
//! | `updatedInput` | `hookSpecificOutput.tool_input` in the Gemini tool's shape (Gemini merges it into the input) |
//! | PreToolUse `additionalContext` | kept, and given with the tool's AfterTool (Gemini drops BeforeTool context) |
//! | `continue: false` on PreToolUse, PostToolUse | the tool runs and keeps its result; the next model call is stopped (BeforeModel `continue: false`) |
//! | PostToolUse block, context (also on failure) | `additionalContext`: appended to the tool's output, which stays, as in Claude Code |
//! | UserPromptSubmit block / `continue: false` / context | `decision: "block"` / `continue: false` / `additionalContext` |
//! | SessionStart context (plain stdout too) | `additionalContext` |
//! | Stop block or context | `decision: "block"`: Gemini sends the reason and continues the turn, at most 8 times in a row (Gemini alone would retry without limit) |
//! | Stop `continue: false` | `continue: false` |
//! | PreCompact block or instructions | cannot be expressed: told in `systemMessage` |
//! | notices (errors, timeouts) and `systemMessage` | `systemMessage` (Gemini shows it to the user) |

pub mod install;

use super::answer::{json_answer, stop_text};
use super::state;
use crate::engine::config::trust::{self, HostTrust};
use crate::engine::dispatch::{self, DispatchOptions, Verdict, World};
use crate::engine::verdict::combine::Permission;
use crate::protocol::Encoded;
use hookmux_sdk::{Event, HookEvent};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The lines Gemini writes after a shell command's output.
const TRAILER: &[&str] = &["Error:", "Exit Code:", "Signal:", "Background PIDs:", "Process Group PGID:"];

/// The tool a Gemini subagent calls to finish; no hook sees it.
const SUBAGENT_DONE: &str = "complete_task";

/// How many Stop blocks in a row continue a turn; the next one is not honoured.
pub const MAX_STOP_BLOCKS: u32 = 8;

/// Gemini's event as Claude events, plus what encoding the answer needs to know.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// Gemini's own event name (`BeforeTool`, …).
    pub gemini_event: String,
    /// Exactly one Claude event, or none when the Gemini event has no Claude counterpart.
    pub events: Vec<Event>,
    /// The Gemini tool the event is about, with the input as Gemini sent it.
    pub tool: Option<GeminiTool>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GeminiTool {
    pub name: String,
    pub input: Value,
    /// The Claude tool name hooks match against.
    pub claude: String,
}

/// What the encoder was told about this session's earlier events.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Carried {
    /// Stop blocks honoured in a row just before this AfterAgent.
    pub stop_blocks: u32,
    /// PreToolUse context waiting for this tool's AfterTool.
    pub pre_context: Option<String>,
}

/// The encoded answer, and what must be remembered for later events of the session.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    pub encoded: Encoded,
    /// `continue: false` to carry out before the next model call, with its reason.
    pub stop_later: Option<String>,
    /// PreToolUse context to give with the tool's AfterTool.
    pub context_later: Option<String>,
    /// The tool input Gemini will run (the merged rewrite), for `context_later`'s key.
    pub final_input: Option<Value>,
    /// A Stop block was honoured (it counts toward [`MAX_STOP_BLOCKS`]).
    pub stop_blocked: bool,
}

/// `hookmux dispatch --host gemini`.
pub fn dispatch(stdin: Vec<u8>, world: &World, options: &DispatchOptions) -> Encoded {
    let event = Event::parse_bytes(stdin);
    let options = DispatchOptions { host_trust: gemini_trust(world, &event), plugins: true, ..options.clone() };
    if let Some(error) = event.parse_error() {
        return super::answer::unreadable(error, world, &options);
    }
    let store = state::Store::open(world, "gemini", "Gemini", event.session_id());
    if event.name() == Some("BeforeModel") {
        // A tool event's `continue: false`: the tool ran; the turn ends before the model goes on.
        return match store.as_ref().and_then(state::Store::take_stop) {
            Some(reason) => json_answer(&json!({"continue": false, "stopReason": stop_text(&reason)})),
            None => Encoded::default(),
        };
    }
    let decoded = decode(&event);
    let Some(first) = decoded.events.first() else {
        return Encoded::default();
    };
    let first = super::transcript::record_transcript(first.clone(), world);
    let events: Vec<Event> = std::iter::once(first).chain(decoded.events.iter().skip(1).cloned()).collect();
    let decoded = Decoded { events, ..decoded };

    let mut carried = Carried::default();
    let kind = decoded.events[0].kind();
    if let Some(store) = &store {
        match kind {
            Some(HookEvent::Stop) if !decoded.events[0].stop_hook_active() => store.set_stop_blocks(0),
            Some(HookEvent::Stop) => carried.stop_blocks = store.stop_blocks(),
            Some(HookEvent::PostToolUse | HookEvent::PostToolUseFailure) => {
                if let Some(tool) = &decoded.tool {
                    carried.pre_context = store.take_context(&call_key(&tool.name, &tool.input));
                }
            }
            _ => {}
        }
    }
    match dispatch::dispatch(&decoded.events, world, &options) {
        Ok(verdict) => {
            let answer = encode(&verdict, &decoded, &carried);
            if let Some(store) = &store {
                remember(store, &answer, &decoded, kind);
            }
            super::answer::with_notices(answer.encoded, &verdict.combined.notices)
        }
        Err(why) => match carried.pre_context {
            // The tool's own hooks ran nothing; the PreToolUse context still reaches the model.
            Some(context) => json_answer(&json!({"hookSpecificOutput": {
                "hookEventName": decoded.gemini_event, "additionalContext": context}})),
            None => super::answer::not_run(&why),
        },
    }
}

fn remember(store: &state::Store, answer: &Answer, decoded: &Decoded, kind: Option<HookEvent>) {
    if let Some(reason) = &answer.stop_later {
        store.put_stop(reason);
    }
    if let (Some(context), Some(tool)) = (&answer.context_later, &decoded.tool) {
        let input = answer.final_input.as_ref().unwrap_or(&tool.input);
        store.put_context(&call_key(&tool.name, input), context);
    }
    if kind == Some(HookEvent::Stop) {
        store.set_stop_blocks(if answer.stop_blocked { store.stop_blocks() + 1 } else { 0 });
    }
    if kind == Some(HookEvent::SessionEnd) {
        store.forget();
    }
}

/// Whether Gemini itself trusts the project: `trustedFolders.json` (in
/// `$GEMINI_CLI_TRUSTED_FOLDERS_PATH`, else `~/.gemini/`, `$GEMINI_CLI_HOME` standing for `~`)
/// says `TRUST_FOLDER` for the project or a folder above it, or `TRUST_PARENT` for a folder in
/// the project's parent. Gemini runs a project's own hooks only then; hookmux reads the project's
/// Claude settings on the same terms, or when its own trust list says so.
fn gemini_trust(world: &World, event: &Event) -> HostTrust {
    let file = world
        .env
        .path("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
        .or_else(|| gemini_home(&world.env).map(|home| home.join(".gemini").join("trustedFolders.json")));
    let Some(rules) = file
        .and_then(|file| std::fs::read_to_string(file).ok())
        .and_then(|text| serde_json::from_str::<Map<String, Value>>(&text).ok())
    else {
        return HostTrust::Unknown;
    };
    let project = trust::real(&dispatch::project_root_for(&world.env, event, &world.cwd));
    let trusted = rules.iter().any(|(folder, level)| {
        let folder = Path::new(folder);
        match level.as_str() {
            Some("TRUST_FOLDER") => project.starts_with(trust::real(folder)),
            // The parent's real path: the folder itself need not exist, and when it does not, its
            // own path cannot be resolved through a link (macOS's /tmp and /var are links).
            Some("TRUST_PARENT") => folder.parent().is_some_and(|parent| project.starts_with(trust::real(parent))),
            _ => false,
        }
    });
    let distrusted = rules.iter().any(|(folder, level)| {
        level.as_str() == Some("DO_NOT_TRUST") && project.starts_with(trust::real(Path::new(folder)))
    });
    if trusted && !distrusted {
        HostTrust::Trusted
    } else {
        HostTrust::Unknown
    }
}

/// The folder Gemini takes for `~`: `$GEMINI_CLI_HOME`, else `$HOME`.
pub fn gemini_home(env: &hookmux_sdk::Env) -> Option<PathBuf> {
    env.path("GEMINI_CLI_HOME").filter(|p| !p.as_os_str().is_empty()).or_else(|| hookmux_platform::dirs::home(env))
}

/// Maps a Gemini event to the Claude event its hooks are planned for.
pub fn decode(event: &Event) -> Decoded {
    let gemini_event = event.name().unwrap_or_default().to_string();
    let none = |tool| Decoded { gemini_event: gemini_event.clone(), events: Vec::new(), tool };
    let mut fields = event.fields().clone();
    if let Some(path) = fields.remove("transcript_path").filter(|p| !p.is_null()) {
        fields.insert("gemini_transcript_path".into(), path);
    }
    let mut tool = None;
    let claude = match gemini_event.as_str() {
        // A subagent's way to hand its result back: Claude Code's subagents have no such tool.
        "BeforeTool" | "AfterTool" if event.tool_name() == Some(SUBAGENT_DONE) => return none(None),
        "BeforeTool" | "AfterTool" => {
            let name = event.tool_name().unwrap_or_default().to_string();
            let input = event.get("tool_input").cloned().unwrap_or_else(|| json!({}));
            let claude = claude_tool(&name, event.get("mcp_context"));
            fields.insert("tool_name".into(), claude.clone().into());
            fields.insert("tool_input".into(), claude_input(&name, &input));
            fields.insert("tool_use_id".into(), tool_use_id(&name, &input).into());
            let kind = if gemini_event == "BeforeTool" {
                "PreToolUse"
            } else {
                let response = event.tool_response().cloned().unwrap_or(Value::Null);
                match tool_failure(&name, &response) {
                    Some(error) => {
                        fields.remove("tool_response");
                        fields.insert("error".into(), error.into());
                        fields.insert("is_interrupt".into(), false.into());
                        "PostToolUseFailure"
                    }
                    None => {
                        fields.insert("tool_response".into(), claude_response(&name, response));
                        "PostToolUse"
                    }
                }
            };
            tool = Some(GeminiTool { name, input, claude });
            kind
        }
        "BeforeAgent" => "UserPromptSubmit",
        "AfterAgent" => {
            let response = fields.get("prompt_response").cloned().unwrap_or_else(|| "".into());
            fields.insert("last_assistant_message".into(), response);
            fields.entry("stop_hook_active").or_insert(false.into());
            "Stop"
        }
        "SessionStart" | "Notification" => {
            if fields.get("notification_type").and_then(Value::as_str) == Some("ToolPermission") {
                fields.insert("notification_type".into(), "permission_prompt".into());
            }
            gemini_event.as_str()
        }
        "SessionEnd" => {
            if fields.get("reason").and_then(Value::as_str) == Some("exit") {
                fields.insert("reason".into(), "other".into());
            }
            "SessionEnd"
        }
        "PreCompress" if event.trigger() == Some("manual") => {
            fields.entry("custom_instructions").or_insert_with(|| "".into());
            "PreCompact"
        }
        "PreCompress" | "BeforeModel" | "AfterModel" | "BeforeToolSelection" => return none(None),
        // Not a Gemini event: dispatch says what it is.
        _ => return Decoded { gemini_event: gemini_event.clone(), events: vec![event.clone()], tool: None },
    };
    fields.insert("hook_event_name".into(), claude.into());
    Decoded { gemini_event: gemini_event.clone(), events: vec![event.with_fields(fields)], tool }
}

/// The Claude Code name of a Gemini tool.
pub fn claude_tool(name: &str, mcp: Option<&Value>) -> String {
    let mcp_name = mcp.and_then(|m| Some((m.get("server_name")?.as_str()?, m.get("tool_name")?.as_str()?)));
    if let Some((server, tool)) = mcp_name {
        return format!("mcp__{server}__{tool}");
    }
    match name {
        "run_shell_command" => "Bash",
        "write_file" => "Write",
        "replace" => "Edit",
        "read_file" => "Read",
        "invoke_agent" => "Agent",
        "glob" => "Glob",
        "grep_search" => "Grep",
        "google_web_search" => "WebSearch",
        "web_fetch" => "WebFetch",
        "write_todos" => "TodoWrite",
        other => other,
    }
    .to_string()
}

/// Gemini's input field → Claude's, per tool (fields not named keep their names).
fn renames(tool: &str) -> &'static [(&'static str, &'static str)] {
    match tool {
        "invoke_agent" => &[("agent_name", "subagent_type")],
        "glob" => &[("dir_path", "path")],
        "grep_search" => &[("dir_path", "path"), ("include", "glob")],
        _ => &[],
    }
}

/// A Gemini tool's input in the Claude tool's shape.
pub fn claude_input(tool: &str, input: &Value) -> Value {
    let Some(object) = input.as_object() else { return input.clone() };
    let mut out = Map::new();
    for (key, value) in object {
        let key = renames(tool).iter().find(|(g, _)| g == key).map_or(key.as_str(), |(_, c)| c);
        out.insert(key.to_string(), value.clone());
    }
    match tool {
        "read_file" => {
            let start = out.remove("start_line").and_then(|v| v.as_u64());
            let end = out.remove("end_line").and_then(|v| v.as_u64());
            if let Some(start) = start {
                out.insert("offset".into(), start.into());
            }
            if let Some(end) = end {
                out.insert("limit".into(), (end + 1).saturating_sub(start.unwrap_or(1)).into());
            }
        }
        "invoke_agent" => {
            out.entry("description").or_insert_with(|| "".into());
            out.entry("subagent_type").or_insert_with(|| "generalist".into());
        }
        _ => {}
    }
    Value::Object(out)
}

/// A hook's rewritten input (Claude's shape) as the keys Gemini merges into the tool's input:
/// renamed back, and without Claude-only fields the Gemini tool does not take.
pub fn gemini_input(tool: &GeminiTool, updated: &Value) -> Result<Map<String, Value>, String> {
    let Some(updated) = updated.as_object() else {
        return Err("`updatedInput` is not an object".to_string());
    };
    let original = tool.input.as_object().cloned().unwrap_or_default();
    let known = claude_input(&tool.name, &tool.input);
    let mut out = Map::new();
    for (key, value) in updated {
        if let Some((gemini, _)) = renames(&tool.name).iter().find(|(_, c)| c == key) {
            out.insert((*gemini).to_string(), value.clone());
            continue;
        }
        match (tool.name.as_str(), key.as_str()) {
            ("read_file", "offset" | "limit") => {}
            ("invoke_agent", "description") => {}
            _ if original.contains_key(key) || is_tool_field(&tool.name, key) => {
                out.insert(key.clone(), value.clone());
            }
            // A Claude-only field, which the Gemini tool does not take.
            _ => {}
        }
    }
    if tool.name == "read_file" {
        let offset = updated.get("offset").and_then(Value::as_u64);
        let limit = updated.get("limit").and_then(Value::as_u64);
        if offset != known.get("offset").and_then(Value::as_u64) || limit != known.get("limit").and_then(Value::as_u64)
        {
            let start = offset.unwrap_or(1).max(1);
            out.insert("start_line".into(), start.into());
            if let Some(limit) = limit {
                out.insert("end_line".into(), (start + limit.max(1) - 1).into());
            }
        }
    }
    if tool.name == "run_shell_command" && !out.get("command").is_some_and(Value::is_string) {
        return Err("Bash needs a `command` string".to_string());
    }
    Ok(out)
}

/// Fields a Gemini tool takes that its call may not have sent.
fn is_tool_field(tool: &str, key: &str) -> bool {
    let fields: &[&str] = match tool {
        "run_shell_command" => &["command", "description", "dir_path"],
        "write_file" => &["file_path", "content"],
        "replace" => &["file_path", "old_string", "new_string", "instruction"],
        "read_file" => &["file_path"],
        "invoke_agent" => &["prompt"],
        "glob" | "grep_search" => &["pattern"],
        _ => return true,
    };
    fields.contains(&key)
}

/// The Gemini tool's input once Gemini has merged the rewrite into it.
fn merged(input: &Value, rewrite: &Map<String, Value>) -> Value {
    let mut merged = input.as_object().cloned().unwrap_or_default();
    merged.extend(rewrite.clone());
    Value::Object(merged)
}

/// A stable id for a tool call (Gemini sends none): the same for its BeforeTool and AfterTool.
pub(crate) fn tool_use_id(name: &str, input: &Value) -> String {
    format!("gemini_{}", &call_key(name, input)[..24])
}

fn call_key(name: &str, input: &Value) -> String {
    let digest = Sha256::digest(format!("{name}\0{input}").as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The error text when a Gemini tool result is a failure: an `error` in the response, or a shell
/// command that exited non-zero.
pub fn tool_failure(tool: &str, response: &Value) -> Option<String> {
    if let Some(error) = response.get("error").filter(|e| !e.is_null()) {
        let message = error.get("message").and_then(Value::as_str).map(str::to_string);
        return Some(message.unwrap_or_else(|| error.to_string()));
    }
    if tool != "run_shell_command" {
        return None;
    }
    let text = llm_text(response);
    let (_, trailer) = shell_parts(&text);
    let code = trailer.iter().find_map(|line| line.strip_prefix("Exit Code:"))?.trim().parse::<i64>().ok()?;
    (code != 0).then(|| format!("Exit code {code}"))
}

/// The tool result as Claude Code gives it for a shell command; other tools as Gemini sent it.
pub fn claude_response(tool: &str, response: Value) -> Value {
    if tool != "run_shell_command" {
        return response;
    }
    let (stdout, _) = shell_parts(&llm_text(&response));
    json!({"stdout": stdout, "stderr": "", "interrupted": false, "isImage": false})
}

/// A shell result's text as (the command's output, Gemini's own lines after it). The trailer is
/// read from the end, so that output which prints the same words is not taken for it.
fn shell_parts(text: &str) -> (String, Vec<&str>) {
    let lines: Vec<&str> = text.lines().collect();
    let is_trailer = |line: &str| {
        let line = line.trim();
        line.is_empty() || line == "</untrusted_context>" || TRAILER.iter().any(|t| line.starts_with(t))
    };
    let body_end = lines.iter().rposition(|line| !is_trailer(line)).map_or(0, |i| i + 1);
    let trailer = lines[body_end..].iter().map(|l| l.trim()).filter(|l| !l.is_empty()).collect();
    let body = lines[..body_end].join("\n");
    let body = body.trim().trim_start_matches("<untrusted_context>").trim_start();
    let output = body.strip_prefix("Output:").unwrap_or(body).trim();
    let output = if output == "(empty)" { "" } else { output };
    (output.to_string(), trailer)
}

fn llm_text(response: &Value) -> String {
    match response.get("llmContent") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => {
            parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("")
        }
        _ => String::new(),
    }
}

/// Encodes the verdict as Gemini CLI 0.61.0 honours it: exit 0 and one JSON object (or nothing).
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
            match permission {
                Some(Permission::Deny) => {
                    let reason = super::answer::non_empty_reason(reasons);
                    let reason = match &context {
                        Some(context) => format!("{}\n\n{context}", reason.trim_end()),
                        None => reason,
                    };
                    top.insert("decision".into(), "deny".into());
                    top.insert("reason".into(), reason.into());
                }
                Some(Permission::Ask) => {
                    top.insert("decision".into(), "ask".into());
                    if !reasons.trim().is_empty() {
                        top.insert("reason".into(), reasons.into());
                    }
                }
                Some(Permission::Allow | Permission::Defer) | None => {}
            }
            if !matches!(permission, Some(Permission::Deny)) {
                if let (Some(updated), Some(tool)) = (&combined.updated_input, &decoded.tool) {
                    match gemini_input(tool, updated) {
                        Ok(rewrite) => {
                            answer.final_input = Some(merged(&tool.input, &rewrite));
                            specific.insert("tool_input".into(), Value::Object(rewrite));
                        }
                        Err(why) => messages.push(format!("hookmux: a hook's updatedInput was not applied: {why}")),
                    }
                }
                answer.context_later = context;
            }
            // Denied or not, the turn ends before the model is asked again.
            answer.stop_later = stop_reason;
        }
        HookEvent::PostToolUse | HookEvent::PostToolUseFailure => {
            let appended =
                super::answer::appended_to_result(carried.pre_context.as_deref(), combined, &context, labelled);
            if let Some(appended) = appended {
                specific.insert("additionalContext".into(), appended.into());
            }
            messages.extend(super::answer::unreplaced_outputs(combined, &hook, "Gemini CLI"));
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
        HookEvent::SessionStart => {
            stop(&mut top, stop_reason.as_deref());
            if !context.is_empty() {
                specific.insert("additionalContext".into(), context.into());
            }
        }
        HookEvent::Stop => {
            let mut reasons: Vec<String> =
                combined.blocks.iter().map(|b| b.trim_end_matches('\n').to_string()).collect();
            if !context.is_empty() {
                reasons.push(context);
            }
            if stop_reason.is_some() {
                // Claude Code: continue: false wins over a Stop hook's block.
                stop(&mut top, stop_reason.as_deref());
            } else if !reasons.is_empty() && carried.stop_blocks >= MAX_STOP_BLOCKS {
                messages.push(format!(
                    "hookmux: Stop hooks blocked {MAX_STOP_BLOCKS} times in a row; the turn ends here, as in Claude Code"
                ));
            } else if !reasons.is_empty() {
                top.insert("decision".into(), "block".into());
                top.insert("reason".into(), format!("Stop hook feedback:\n{}", reasons.join("\n")).into());
                answer.stop_blocked = true;
            }
        }
        HookEvent::PreCompact => {
            if !combined.blocks.is_empty() || combined.stop.is_some() {
                messages.push(
                    "hookmux: a PreCompact hook asked to block compaction, which Gemini CLI cannot do".to_string(),
                );
            }
            if !context.is_empty() || !verdict.plain.is_empty() {
                messages.push(
                    "hookmux: a PreCompact hook's compaction instructions were dropped: Gemini CLI's compression takes none"
                        .to_string(),
                );
            }
        }
        _ => {}
    }

    if !messages.is_empty() {
        top.insert("systemMessage".into(), messages.join("\n").into());
    }
    if !specific.is_empty() {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), decoded.gemini_event.clone().into());
        with_name.extend(specific);
        top.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }
    if !top.is_empty() {
        answer.encoded = json_answer(&Value::Object(top));
    }
    answer
}

fn stop(top: &mut Map<String, Value>, reason: Option<&str>) {
    if let Some(reason) = reason {
        top.insert("continue".into(), false.into());
        top.insert("stopReason".into(), stop_text(reason).into());
    }
}

#[cfg(test)]
mod tests;
