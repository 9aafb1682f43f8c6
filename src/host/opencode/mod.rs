//! OpenCode as a host, through the plugin in `integrations/opencode/hookmux.js`.
//!
//! The plugin hands each OpenCode hook it wires to `hookmux dispatch --host opencode` as one JSON
//! object, [`PluginEvent`]; hookmux maps it to the Claude event, runs the Claude hooks found in
//! the usual sources with Claude Code's rules, and answers with one [`PluginAnswer`] that the
//! plugin applies. Both shapes are documented in `docs/src/hosts/opencode.md` ("Run your Claude Code hooks under
//! OpenCode").
//!
//! | OpenCode hook | Claude event |
//! |---|---|
//! | `tool.execute.before` | PreToolUse |
//! | `tool.execute.after` | PostToolUse (PostToolUseFailure for a shell command that exits non-zero) |
//! | `chat.message` | UserPromptSubmit |
//! | `command.execute.before` | UserPromptExpansion |
//! | `session.created` | SessionStart (SubagentStart for a child session) |
//! | `session.idle` | Stop (SubagentStop for a child session) |
//! | `experimental.session.compacting` | PreCompact |
//! | `session.compacted` | PostCompact |
//! | `session.deleted` | SessionEnd |
//!
//! OpenCode's `apply_patch` (its edit tool for GPT models, `{patchText}`) is one Claude `Write` or
//! `Edit` per file the patch changes, as [`super::patch`] maps them for Codex too, with the patch
//! in `patch_text`; the hooks of every file run and any deny blocks the whole call.
//!
//! OpenCode keeps no transcript a hook could read, and older OpenCode versions call
//! `tool.execute.after` without the arguments: hookmux records a transcript per session and
//! caches each call's input (the `transcript` built-ins) so that `transcript_path` and
//! PostToolUse's `tool_input` are real.

use super::answer::Unhonoured;
use super::patch;
use crate::engine::dispatch::{self, DispatchOptions, Verdict, World};
use crate::engine::verdict::combine::{ContextPiece, Permission};
use crate::protocol::Encoded;
use hookmux_handlers::transcript::ToolInputCache;
use hookmux_sdk::{Event, HookEvent};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::time::SystemTime;

/// What the plugin sends: the OpenCode hook's name, its `input` and `output` objects as OpenCode
/// gave them, and what the plugin knows besides.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct PluginEvent {
    /// `tool.execute.before`, `chat.message`, `session.idle`, …
    pub hook: String,
    #[serde(default)]
    pub input: Value,
    #[serde(default)]
    pub output: Value,
    /// The project folder (the plugin's `directory`): the hooks' cwd and project root.
    #[serde(default)]
    pub directory: Option<String>,
    /// The session's parent, for a child (subagent) session.
    #[serde(default, rename = "parentID")]
    pub parent_id: Option<String>,
    /// Stop: true when the session is already continuing because of a Stop hook.
    #[serde(default)]
    pub stop_hook_active: bool,
    /// Stop: the assistant's last message, when the plugin has it.
    #[serde(default)]
    pub last_assistant_message: Option<String>,
    /// The MCP servers in OpenCode's config, so that `server_tool` reads as `mcp__server__tool`.
    #[serde(default)]
    pub mcp_servers: Vec<String>,
    /// SessionStart's `source` (`startup` unless the plugin knows better: `compact`).
    #[serde(default)]
    pub source: Option<String>,
    /// PreCompact/PostCompact's `trigger` (`auto` unless the plugin knows it was `/compact`).
    #[serde(default)]
    pub trigger: Option<String>,
}

/// What the plugin applies. Every field is optional; `{}` means "carry on as if no hook ran".
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PluginAnswer {
    /// The Claude event the hook was mapped to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_event_name: Option<String>,
    /// Block: throw with this text (a tool call, a prompt, a command).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
    /// `tool.execute.before`: the tool's arguments to use instead, in OpenCode's names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Value>,
    /// Text for the model: a synthetic part of the prompt (`chat.message`, `command.execute.before`),
    /// the system prompt (`session.created`), or, on `tool.execute.before`, text to add to the
    /// tool's result (or to the error when the call is blocked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// `tool.execute.after`: text to add to the tool's output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub append_output: Option<String>,
    /// `tool.execute.after`: the tool's output to use instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_output: Option<String>,
    /// `session.idle`: send this as a new prompt, so that the model carries on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub continue_prompt: Option<String>,
    /// `experimental.session.compacting`: strings to push onto `output.context`.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub compaction_context: Vec<String>,
    /// A hook said `continue: false`: end the turn, and tell the user this reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<String>,
    /// For the user, never the model: `systemMessage`s, hook errors, timeouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
}

/// OpenCode's tool ids and Claude Code's tool names.
pub const TOOL_NAMES: &[(&str, &str)] = &[
    ("bash", "Bash"),
    ("read", "Read"),
    ("edit", "Edit"),
    ("write", "Write"),
    ("glob", "Glob"),
    ("grep", "Grep"),
    ("webfetch", "WebFetch"),
    ("websearch", "WebSearch"),
    ("task", "Agent"),
    ("todowrite", "TodoWrite"),
    ("multiedit", "MultiEdit"),
    ("list", "LS"),
    ("skill", "Skill"),
    ("question", "AskUserQuestion"),
];

/// Arguments whose names differ by more than case convention: (OpenCode tool, OpenCode, Claude).
const ARG_RENAMES: &[(&str, &str, &str)] = &[("grep", "include", "glob")];

/// The Claude name of an OpenCode tool: the table above, `mcp__server__tool` for a tool of a
/// known MCP server (OpenCode names them `server_tool`), else the id unchanged.
pub fn claude_tool(id: &str, mcp_servers: &[String]) -> String {
    if let Some((_, claude)) = TOOL_NAMES.iter().find(|(oc, _)| *oc == id) {
        return claude.to_string();
    }
    let server = mcp_servers
        .iter()
        .map(|name| sanitize(name))
        .filter(|name| id.len() > name.len() + 1 && id.starts_with(name.as_str()) && id.as_bytes()[name.len()] == b'_')
        .max_by_key(String::len);
    match server {
        Some(server) => format!("mcp__{server}__{}", &id[server.len() + 1..]),
        None => id.to_string(),
    }
}

/// The OpenCode id of a Claude tool name (the reverse of [`claude_tool`]).
pub fn opencode_tool(claude: &str) -> String {
    if let Some((oc, _)) = TOOL_NAMES.iter().find(|(_, c)| *c == claude) {
        return oc.to_string();
    }
    match claude.strip_prefix("mcp__").and_then(|rest| rest.split_once("__")) {
        Some((server, tool)) => format!("{server}_{tool}"),
        None => claude.to_string(),
    }
}

/// OpenCode names an MCP server's tools after the server with every character outside
/// `[A-Za-z0-9_-]` replaced by `_`.
fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

fn is_builtin(tool: &str) -> bool {
    TOOL_NAMES.iter().any(|(oc, _)| *oc == tool)
}

/// OpenCode's arguments as Claude's `tool_input`: for OpenCode's own tools, camelCase names
/// become snake_case (`filePath` → `file_path`) and the few that differ are renamed; MCP and
/// other tools keep their arguments as they are.
pub fn claude_args(tool: &str, args: &Value) -> Value {
    let Some(object) = args.as_object() else { return args.clone() };
    if !is_builtin(tool) {
        return args.clone();
    }
    let renamed = object.iter().map(|(key, value)| (claude_key(tool, key), nested_to_claude(value)));
    Value::Object(renamed.collect())
}

/// The Claude name of an argument of OpenCode's own tool `tool`.
fn claude_key(tool: &str, key: &str) -> String {
    ARG_RENAMES
        .iter()
        .find(|(t, oc, _)| *t == tool && *oc == key)
        .map(|(_, _, claude)| claude.to_string())
        .unwrap_or_else(|| snake_case(key))
}

/// Claude's `tool_input` back in OpenCode's names: a key the call already had keeps that
/// spelling (so `subagent_type` stays as the task tool wants it), a new key is camelCased.
pub fn opencode_args(tool: &str, updated: &Value, original: &Value) -> Value {
    let Some(object) = updated.as_object() else { return updated.clone() };
    if !is_builtin(tool) {
        return updated.clone();
    }
    let original_keys: Vec<&String> = original.as_object().map(|o| o.keys().collect()).unwrap_or_default();
    let renamed = object.iter().map(|(key, value)| {
        let oc = ARG_RENAMES
            .iter()
            .find(|(t, _, claude)| *t == tool && claude == key)
            .map(|(_, oc, _)| oc.to_string())
            .or_else(|| original_keys.iter().find(|k| snake_case(k) == *key).map(|k| k.to_string()))
            .unwrap_or_else(|| camel_case(key));
        (oc, nested_to_opencode(value))
    });
    Value::Object(renamed.collect())
}

/// MultiEdit's `edits` are objects with the same names as Edit's arguments.
fn nested_to_claude(value: &Value) -> Value {
    match value {
        Value::Array(items) if items.iter().all(Value::is_object) => Value::Array(
            items
                .iter()
                .map(|item| {
                    Value::Object(
                        item.as_object().into_iter().flatten().map(|(k, v)| (snake_case(k), v.clone())).collect(),
                    )
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

fn nested_to_opencode(value: &Value) -> Value {
    match value {
        Value::Array(items) if items.iter().all(Value::is_object) => Value::Array(
            items
                .iter()
                .map(|item| {
                    Value::Object(
                        item.as_object().into_iter().flatten().map(|(k, v)| (camel_case(k), v.clone())).collect(),
                    )
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `filePath` → `file_path`; names already in snake_case are unchanged.
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `file_path` → `filePath`.
pub fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' && !out.is_empty() {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The Claude event for a plugin event, or why there is none.
pub fn decode(plugin: &PluginEvent, world: &World) -> Result<Event, String> {
    let session = session_id(plugin)
        .ok_or_else(|| format!("the `{}` event names no session (`input.sessionID`)", plugin.hook))?;
    let cwd =
        plugin.directory.clone().filter(|d| !d.is_empty()).unwrap_or_else(|| world.cwd.to_string_lossy().into_owned());
    let mut fields = Map::new();
    fields.insert("session_id".into(), session.clone().into());
    fields.insert("transcript_path".into(), Value::Null);
    fields.insert("cwd".into(), cwd.into());
    fields.insert("permission_mode".into(), "default".into());
    let input = &plugin.input;
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
    let event_name: HookEvent = match plugin.hook.as_str() {
        "tool.execute.before" | "tool.execute.after" => {
            let tool = text(input, "tool");
            let call = text(input, "callID");
            let before = plugin.hook == "tool.execute.before";
            let args = if before { plugin.output.get("args") } else { input.get("args") };
            let claude_input = match args {
                Some(args) if !args.is_null() => claude_args(&tool, args),
                _ if !before => cached_input(world, &session, &call).unwrap_or_else(|| json!({})),
                _ => json!({}),
            };
            if before {
                cache_input(world, &session, &call, &claude_input);
            }
            fields.insert("tool_name".into(), claude_tool(&tool, &plugin.mcp_servers).into());
            fields.insert("tool_input".into(), claude_input);
            let failure = if before { None } else { shell_failure(&tool, &plugin.output) };
            match (&failure, before) {
                (_, true) => {}
                (None, false) => {
                    fields.insert("tool_response".into(), tool_response(&tool, &plugin.output));
                }
                (Some(error), false) => {
                    fields.insert("error".into(), error.clone().into());
                    fields.insert("is_interrupt".into(), false.into());
                }
            }
            fields.insert("tool_use_id".into(), call.into());
            match (before, failure) {
                (true, _) => HookEvent::PreToolUse,
                (false, None) => HookEvent::PostToolUse,
                (false, Some(_)) => HookEvent::PostToolUseFailure,
            }
        }
        "chat.message" => {
            let prompt = prompt_text(&plugin.output);
            if prompt.is_empty() {
                return Err("the message has no text of the user's: nothing to run".to_string());
            }
            fields.insert("prompt".into(), prompt.into());
            HookEvent::UserPromptSubmit
        }
        "command.execute.before" => {
            let command = text(input, "command");
            let arguments = text(input, "arguments");
            fields.insert("expansion_type".into(), "slash_command".into());
            fields.insert("command_name".into(), command.clone().into());
            fields.insert("command_args".into(), arguments.clone().into());
            fields.insert("command_source".into(), "project".into());
            fields.insert("prompt".into(), format!("/{command} {arguments}").trim_end().into());
            HookEvent::UserPromptExpansion
        }
        "session.created" => match &plugin.parent_id {
            Some(_) => {
                fields.insert("agent_id".into(), session.clone().into());
                fields.insert("agent_type".into(), agent_type(input).into());
                HookEvent::SubagentStart
            }
            None => {
                fields.insert("source".into(), plugin.source.clone().unwrap_or_else(|| "startup".into()).into());
                HookEvent::SessionStart
            }
        },
        "session.idle" => {
            fields.insert("stop_hook_active".into(), plugin.stop_hook_active.into());
            fields.insert(
                "last_assistant_message".into(),
                plugin.last_assistant_message.clone().map(Value::from).unwrap_or(Value::Null),
            );
            match &plugin.parent_id {
                Some(_) => {
                    fields.insert("agent_id".into(), session.clone().into());
                    fields.insert("agent_type".into(), agent_type(input).into());
                    HookEvent::SubagentStop
                }
                None => HookEvent::Stop,
            }
        }
        "experimental.session.compacting" => {
            fields.insert("trigger".into(), plugin.trigger.clone().unwrap_or_else(|| "auto".into()).into());
            fields.insert("custom_instructions".into(), Value::Null);
            HookEvent::PreCompact
        }
        "session.compacted" => {
            fields.insert("trigger".into(), plugin.trigger.clone().unwrap_or_else(|| "auto".into()).into());
            HookEvent::PostCompact
        }
        "session.deleted" => {
            fields.insert("reason".into(), "other".into());
            HookEvent::SessionEnd
        }
        other => return Err(format!("`{other}` is not an OpenCode hook hookmux maps to a Claude event")),
    };
    // Claude Code's field order: the event name after the common fields.
    let mut ordered = Map::new();
    for key in ["session_id", "transcript_path", "cwd", "permission_mode"] {
        if let Some(value) = fields.remove(key) {
            ordered.insert(key.into(), value);
        }
    }
    ordered.insert("hook_event_name".into(), event_name.as_str().into());
    ordered.extend(fields);
    let event = Event::from_fields(ordered);
    Ok(super::transcript::record_transcript(event, world))
}

/// OpenCode's tool for a patch (given to GPT models instead of edit and write), its argument, and
/// the argument's name in the Claude inputs hooks see.
const PATCH_TOOL: &str = "apply_patch";
const PATCH_ARG: &str = "patchText";
const PATCH_FIELD: &str = "patch_text";

/// The Claude events for a plugin event: [`decode`]'s one, or one per file for an `apply_patch`
/// call (see [`super::patch`]), so that the hooks of `Edit|Write` see every file it changes.
pub fn decode_events(plugin: &PluginEvent, world: &World) -> Result<Vec<Event>, String> {
    let event = decode(plugin, world)?;
    if event.tool_name() != Some(PATCH_TOOL) || plugin.input.get("tool").and_then(Value::as_str) != Some(PATCH_TOOL) {
        return Ok(vec![event]);
    }
    let patch =
        event.get("tool_input").and_then(|input| input.get(PATCH_ARG)).and_then(Value::as_str).unwrap_or_default();
    let cwd = event.cwd().unwrap_or_default();
    Ok(patch::claude_events(&event, PATCH_FIELD, patch, &patch::parse(patch), &cwd))
}

fn session_id(plugin: &PluginEvent) -> Option<String> {
    let input = &plugin.input;
    input
        .get("sessionID")
        .and_then(Value::as_str)
        .or_else(|| input.pointer("/info/id").and_then(Value::as_str))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

fn agent_type(input: &Value) -> String {
    input.pointer("/info/agent").and_then(Value::as_str).unwrap_or("general").to_string()
}

/// The user's own text: every text part that OpenCode did not add itself.
fn prompt_text(output: &Value) -> String {
    let parts = output.get("parts").and_then(Value::as_array).cloned().unwrap_or_default();
    parts
        .iter()
        .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
        .filter(|p| {
            p.get("synthetic").and_then(Value::as_bool) != Some(true)
                && p.get("ignored").and_then(Value::as_bool) != Some(true)
        })
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

/// OpenCode reports a shell command that exits non-zero as a completed call; Claude Code reports
/// it as a failure (`Exit code 3`, then the output) and runs PostToolUseFailure, not PostToolUse.
fn shell_failure(tool: &str, output: &Value) -> Option<String> {
    let code = output.pointer("/metadata/exit").and_then(Value::as_i64).filter(|code| *code != 0);
    let (true, Some(code)) = (tool == "bash", code) else { return None };
    let text = output.get("output").and_then(Value::as_str).unwrap_or_default().trim_end();
    Some(if text.is_empty() || text == "(no output)" {
        format!("Exit code {code}")
    } else {
        format!("Exit code {code}\n{text}")
    })
}

/// A tool's result in Claude's shape where Claude's is known (Bash), else OpenCode's.
fn tool_response(tool: &str, output: &Value) -> Value {
    let text = output.get("output").and_then(Value::as_str).unwrap_or_default();
    if tool == "bash" {
        return json!({
            "stdout": text,
            "stderr": "",
            "interrupted": false,
            "isImage": false,
            "exit_code": output.pointer("/metadata/exit").cloned().unwrap_or(Value::Null),
        });
    }
    json!({"output": text, "title": output.get("title").cloned().unwrap_or(Value::Null), "metadata": output.get("metadata").cloned().unwrap_or(Value::Null)})
}

fn cache_input(world: &World, session: &str, call: &str, input: &Value) {
    if call.is_empty() {
        return;
    }
    if let Some(cache) = ToolInputCache::in_state_dir(&world.env) {
        if let Err(err) = cache.put(session, call, input, SystemTime::now()) {
            eprintln!("hookmux: cannot cache the tool's input: {err}");
        }
    }
}

fn cached_input(world: &World, session: &str, call: &str) -> Option<Value> {
    ToolInputCache::in_state_dir(&world.env)?.take(session, call, SystemTime::now())
}

/// `hookmux dispatch --host opencode`: always one JSON object on stdout and exit 0, so that the
/// plugin has one thing to read; dispatch's own trouble goes to `systemMessage` and stderr.
pub fn dispatch(stdin: Vec<u8>, world: &World, options: &DispatchOptions) -> Encoded {
    // OpenCode does not run Claude Code plugins: dispatch runs the enabled ones' hooks.
    let options = &DispatchOptions { plugins: true, ..options.clone() };
    // Read as an Event first: its reader takes any depth, where serde_json stops at 128 levels.
    let received = Event::parse_bytes(stdin);
    let plugin = match received.parse_error() {
        Some(error) => Err(error.to_string()),
        None => serde_json::from_value::<PluginEvent>(Value::Object(received.fields().clone()))
            .map_err(|err| err.to_string()),
    }
    .map_err(|error| format!("the OpenCode event is not valid JSON of the plugin's shape: {error}"));
    let plugin = match plugin {
        Ok(plugin) => plugin,
        Err(error) => return answer_unread(super::answer::unread(&error, world, options)),
    };
    let events = match decode_events(&plugin, world) {
        // A patch split per file carries no deep values (its text is one string); any other
        // call gets back the values too deep for the fields, under their Claude names.
        Ok(events) if events.len() == 1 => {
            let moves = deep_moves(&plugin);
            let moves: Vec<(&str, &str)> = moves.iter().map(|(from, to)| (from.as_str(), to.as_str())).collect();
            events.iter().map(|event| received.translated(event.fields().clone(), &moves)).collect()
        }
        Ok(events) => events,
        Err(why) => {
            return Encoded { stdout: "{}\n".into(), stderr: format!("hookmux dispatch: {why}\n"), exit_code: 0 }
        }
    };
    match dispatch::dispatch(&events, world, options) {
        Ok(verdict) => {
            let answer = encode(&verdict, &plugin);
            let stdout = format!("{}\n", serde_json::to_string(&answer).unwrap_or_else(|_| "{}".into()));
            super::answer::with_notices(
                Encoded { stdout, stderr: String::new(), exit_code: 0 },
                &verdict.combined.notices,
            )
        }
        Err(why) => Encoded { stdout: "{}\n".into(), ..super::answer::not_run(&why) },
    }
}

/// Where the plugin event's values too deep for the fields go in the Claude event: a tool's
/// arguments become `tool_input`, under the names `claude_args` gives them.
fn deep_moves(plugin: &PluginEvent) -> Vec<(String, String)> {
    let from = match plugin.hook.as_str() {
        "tool.execute.before" => "/output/args",
        "tool.execute.after" => "/input/args",
        _ => return Vec::new(),
    };
    let tool = plugin.input.get("tool").and_then(Value::as_str).unwrap_or_default();
    let args = if from == "/output/args" { plugin.output.get("args") } else { plugin.input.get("args") };
    match (args, is_builtin(tool)) {
        (Some(Value::Object(args)), true) => args
            .keys()
            .map(|key| {
                let claude = claude_key(tool, key);
                (format!("{from}/{}", pointer_token(key)), format!("/tool_input/{}", pointer_token(&claude)))
            })
            .collect(),
        _ => vec![(from.to_string(), "/tool_input".to_string())],
    }
}

fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// A guard's denial of an event that cannot be read is a block, whatever the hook: the plugin
/// throws it.
fn answer_unread(unread: super::answer::Unread) -> Encoded {
    let lines: String = unread.notice.iter().chain(&unread.deny).map(|line| format!("{line}\n")).collect();
    let answer = PluginAnswer { block: unread.deny, system_message: unread.notice, ..PluginAnswer::default() };
    Encoded {
        stdout: format!("{}\n", serde_json::to_string(&answer).unwrap_or_else(|_| "{}".into())),
        stderr: lines,
        exit_code: 0,
    }
}

/// The verdict as the plugin applies it.
pub fn encode(verdict: &Verdict, plugin: &PluginEvent) -> PluginAnswer {
    let combined = &verdict.combined;
    let kind = verdict.kind;
    let mut answer = PluginAnswer { hook_event_name: Some(kind.as_str().to_string()), ..PluginAnswer::default() };
    let mut own_message = None;
    let hook = match kind {
        e if e.is_tool_event() => {
            let tool = plugin.input.get("tool").and_then(Value::as_str).unwrap_or_default();
            format!("{kind}:{}", claude_tool(tool, &plugin.mcp_servers))
        }
        e => e.as_str().to_string(),
    };
    let context = super::answer::joined(&combined.context);
    let labelled = |label: &str, text: &str| format!("{hook} hook {label}: {}", text.trim_end_matches('\n'));
    let stop_reason = combined.stop.as_ref().map(|reasons| {
        let joined = reasons.join("\n");
        if joined.is_empty() {
            "Stopped by a hook (continue: false)".to_string()
        } else {
            joined
        }
    });

    match kind {
        HookEvent::PreToolUse => {
            match &combined.permission {
                Some((Permission::Deny, reasons)) => {
                    answer.block = Some(super::answer::non_empty_reason(reasons.join("\n")))
                }
                Some((Permission::Ask, reasons)) => {
                    let why = "a hook asks for confirmation before this runs, and an OpenCode plugin cannot ask, so hookmux blocks it";
                    let reasons = reasons.join("\n");
                    answer.block = Some(if reasons.trim().is_empty() {
                        format!("{why}.")
                    } else {
                        format!("{} ({why})", reasons.trim_end())
                    });
                }
                _ => {
                    if let Some(updated) = &combined.updated_input {
                        let tool = plugin.input.get("tool").and_then(Value::as_str).unwrap_or_default();
                        let original = plugin.output.get("args").cloned().unwrap_or(Value::Null);
                        match rewritten_args(tool, updated, &original) {
                            Ok(args) => answer.args = Some(args),
                            Err(why) => own_message = Some(Unhonoured::UpdatedInput { why }.to_string()),
                        }
                    }
                }
            }
            if !context.is_empty() {
                answer.context = Some(labelled("additional context", &context));
            }
            answer.stop = stop_reason;
        }
        HookEvent::PostToolUse | HookEvent::PostToolUseFailure => {
            let mut appended: Vec<String> = combined.blocks.iter().map(|b| labelled("blocking error", b)).collect();
            if !context.is_empty() {
                appended.push(labelled("additional context", &context));
            }
            if !appended.is_empty() {
                answer.append_output = Some(appended.join("\n\n"));
            }
            let replaced =
                combined.extra.get("updatedToolOutput").or_else(|| combined.extra.get("updatedMCPToolOutput"));
            answer.replace_output = replaced.map(|v| match v {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            });
            answer.stop = stop_reason;
        }
        HookEvent::UserPromptSubmit | HookEvent::UserPromptExpansion => {
            if !combined.blocks.is_empty() {
                answer.block = Some(format!("{kind} operation blocked by hook:\n{}", combined.blocks.join("\n")));
            } else if let Some(reason) = stop_reason {
                answer.block = Some(reason);
            }
            if !context.is_empty() {
                answer.context = Some(context);
            }
        }
        HookEvent::SessionStart | HookEvent::SubagentStart if !context.is_empty() => answer.context = Some(context),
        HookEvent::Stop | HookEvent::SubagentStop => {
            let mut reasons: Vec<String> =
                combined.blocks.iter().map(|b| b.trim_end_matches('\n').to_string()).collect();
            if !context.is_empty() {
                reasons.push(context);
            }
            match stop_reason {
                // Claude Code: continue: false wins over a Stop hook's block.
                Some(reason) => answer.stop = Some(reason),
                None if !reasons.is_empty() => answer.continue_prompt = Some(reasons.join("\n")),
                None => {}
            }
        }
        HookEvent::PreCompact => {
            // Claude Code appends its PreCompact hooks' output to the compaction instructions.
            answer.compaction_context = verdict
                .plain
                .iter()
                .map(|text| text.trim().to_string())
                .chain(
                    combined
                        .context
                        .iter()
                        .filter(|p| matches!(p, ContextPiece::Additional(_)))
                        .map(|p| p.text().trim().to_string()),
                )
                .filter(|text| !text.is_empty())
                .collect();
            if !combined.blocks.is_empty() || combined.stop.is_some() {
                own_message = Some(Unhonoured::CompactionBlock.to_string());
            }
        }
        _ => {}
    }

    let messages: Vec<&str> = combined
        .system_messages
        .iter()
        .chain(&combined.notices)
        .map(String::as_str)
        .chain(own_message.as_deref())
        .collect();
    answer.system_message = (!messages.is_empty()).then(|| messages.join("\n"));
    answer
}

/// A hook's `updatedInput` as the OpenCode tool's arguments. A patch's hooks saw one file each,
/// so their rewrite goes back only as a whole patch (see [`patch::rewritten`]).
fn rewritten_args(tool: &str, updated: &Value, original: &Value) -> Result<Value, String> {
    if tool != PATCH_TOOL {
        return Ok(opencode_args(tool, updated, original));
    }
    let patch = original.get(PATCH_ARG).and_then(Value::as_str).unwrap_or_default();
    let rewritten = patch::rewritten(updated, PATCH_FIELD, patch, &patch::parse(patch))?;
    let mut args = original.as_object().cloned().unwrap_or_default();
    args.insert(PATCH_ARG.into(), rewritten.into());
    Ok(Value::Object(args))
}

#[cfg(test)]
mod tests;
