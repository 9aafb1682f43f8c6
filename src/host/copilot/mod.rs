//! GitHub Copilot CLI (1.0.102) as a host: its events mapped to Claude Code's before planning,
//! and the one verdict encoded in the form Copilot honours.
//!
//! Copilot reads Claude Code's `.claude/settings.json` (and `settings.local.json`) hooks itself,
//! so the entry `hookmux install claude` leaves there (`hookmux dispatch --installed`) is the
//! entry Copilot runs too. A plain `hookmux dispatch` recognises Copilot by what it sends
//! ([`sent_by_copilot`]) and answers here; `--host copilot` says so explicitly.
//!
//! **Events.** For hooks in Claude's format Copilot sends Claude's field names and PascalCase
//! event names, with Claude's tool names (`Bash`, `Write`, `Read`, `Edit`, `Task`), but its own
//! tools' arguments and results; PermissionRequest comes camelCase (`hookName`, `toolName`,
//! `toolInput`) with Copilot's tool names.
//!
//! | Copilot | Claude |
//! |---|---|
//! | `Write` / `create` `{path, file_text}` | `Write` `{file_path, content}` |
//! | `Edit` / `edit` `{path, old_str, new_str}` | `Edit` `{file_path, old_string, new_string, replace_all}` (an `edit` with a `diff` creating a file: `Write`) |
//! | `Read` / `view` `{path, view_range}` | `Read` `{file_path, offset, limit}` |
//! | `Task` / `task` `{name, description, prompt, agent_type}` | `Agent` `{description, prompt, subagent_type}` |
//! | `bash`, `glob`, `grep`, `web_fetch` | `Bash`, `Glob`, `Grep`, `WebFetch` |
//! | an MCP server's tool `<server>-<tool>` (`probe-echo`) | `mcp__<server>__<tool>` (`mcp__probe__echo`), so that `mcp__…` matchers match it |
//! | PostToolUse `tool_result {result_type, text_result_for_llm}` | `tool_response` (Bash: `{stdout, stderr, interrupted, isImage}`) |
//! | PostToolUse of `Bash` ending `<shellId: N completed with exit code K>`, K ≠ 0 | PostToolUseFailure, `error: "Exit code K"`, as Claude Code reports a failing command |
//! | SessionStart `source: "new"` | `source: "startup"` |
//! | SubagentStart (no event name: `agentName`, `sessionId`, `transcriptPath`) | SubagentStart |
//! | UserPromptSubmit and Stop inside a subagent (`parent_agent_id`) | none: Claude Code fires neither there |
//! | `transcript_path` missing (every event but Stop) | hookmux's own transcript of the session |
//!
//! **Answers** (Copilot reads its own top-level fields on exit 0; of `hookSpecificOutput` it
//! reads only PreToolUse's, and it ignores `continue` and plain stdout everywhere):
//!
//! | Claude verdict | Copilot answer |
//! |---|---|
//! | PreToolUse deny (exit 2, JSON, legacy block) | `permissionDecision: "deny"` with the reasons |
//! | PreToolUse ask | `permissionDecision: "ask"`: Copilot asks, or denies when it cannot |
//! | PreToolUse allow | `permissionDecision: "allow"` |
//! | `updatedInput` | `modifiedArgs`, in Copilot's argument names |
//! | context on SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure | `additionalContext` |
//! | PostToolUse block (exit 2, `decision: "block"`) | `additionalContext`: the output stays and the reason reaches the model, as in Claude Code (Copilot's own block would replace the output) |
//! | `updatedMCPToolOutput` | `modifiedResult` |
//! | UserPromptSubmit block or `continue: false` | `decision: "block"` with the reason |
//! | Stop or SubagentStop block or `additionalContext` | `decision: "block"` with the reasons and the context: Copilot's continuation prompt |
//! | PermissionRequest decision | `behavior` (and `message`) |
//! | `continue: false` elsewhere | Copilot cannot stop a turn there: told on stderr |
//! | notices and `systemMessage` | stderr |
//!
//! An event that cannot be read is answered as for Claude Code: exit 2 with the reason when a
//! guard is configured, which Copilot honours as a denial of the tool.

use super::answer::Unhonoured;
use crate::engine::config::entry;
use crate::engine::config::settings::{HookKind, Scope, SettingsFile};
use crate::engine::config::trust::{self, HostTrust};
use crate::engine::dispatch::{self, DispatchOptions, Verdict, World};
use crate::engine::verdict::combine::{Combined, Permission};
use crate::protocol::Encoded;
use hookmux_sdk::{Env, Event, HookEvent};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Copilot's events as Claude events, plus what encoding the answer needs to know.
#[derive(Clone, Debug)]
pub struct Decoded {
    pub events: Vec<Event>,
    /// The Copilot tool, as Copilot named it in the event, with its input as Copilot sent it.
    pub tool: Option<CopilotTool>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CopilotTool {
    /// The Claude tool it stands for (`Bash`, `Write`, …, or the name as sent).
    pub claude: String,
    pub input: Value,
}

/// Whether the event on stdin came from Copilot CLI: Copilot sets `COPILOT_CLI=1` for its hooks,
/// and its payloads carry a `timestamp` (Claude Code's have none). Both must hold, so that a
/// Claude Code started from a Copilot shell (which inherits the variable) stays Claude Code.
pub fn sent_by_copilot(env: &Env, stdin: &[u8]) -> bool {
    if env.get("COPILOT_CLI").map(|v| v.trim()) != Some("1") {
        return false;
    }
    serde_json::from_slice::<Value>(stdin)
        .ok()
        .and_then(|value| value.as_object().map(|fields| fields.contains_key("timestamp")))
        .unwrap_or(false)
}

/// `hookmux dispatch --host copilot`.
pub fn dispatch(stdin: Vec<u8>, world: &World, options: &DispatchOptions) -> Encoded {
    let event = Event::parse_bytes(stdin);
    // Copilot keeps plugins of its own (its `enabledPlugins` and install records, under
    // `~/.copilot`), and its bundle reads nothing of Claude Code's `~/.claude/plugins`: the
    // plugins Claude Code's settings enable are hookmux's to run here.
    let options =
        DispatchOptions { host_trust: copilot_trust(world, &event, options), plugins: true, ..options.clone() };
    if let Some(error) = event.parse_error() {
        return super::answer::unreadable(error, world, &options);
    }
    let decoded = decode(&event);
    let events: Vec<Event> =
        decoded.events.iter().cloned().map(|e| super::transcript::with_transcript(e, world)).collect();
    match dispatch::dispatch(&events, world, &options) {
        Ok(verdict) => super::answer::with_notices(encode(&verdict, &decoded), &verdict.combined.notices),
        Err(why) => super::answer::not_run(&why),
    }
}

/// Whether Copilot trusts the project. The installed entry runs only the hooks files of the
/// settings files that hold it, and Copilot runs a project's settings only in a folder it trusts
/// (its prompt, `--trust-folder`): that the project's entry ran is Copilot's trust, and a user
/// entry runs only the user's own hooks. Otherwise (`--host copilot` from Copilot's own hooks
/// files, which it runs in any folder): `COPILOT_ALLOW_ALL=true`, or the project or a folder above
/// it in `trustedFolders` of Copilot's `config.json` or `settings.json` (in `$COPILOT_HOME`, else
/// `~/.copilot`); else hookmux's trust list decides.
fn copilot_trust(world: &World, event: &Event, options: &DispatchOptions) -> HostTrust {
    // An installed entry that ran is the project's (or local) one, which Copilot runs only in a
    // folder it trusts, unless the user's own settings hold one too: Copilot may run that one in
    // any folder, so then Copilot's record of the folder decides, as for an explicit entry.
    if options.installed && !user_settings_hold_an_installed_entry(&world.env) {
        return HostTrust::Prompted;
    }
    if world.env.get("COPILOT_ALLOW_ALL").is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) {
        return HostTrust::Trusted;
    }
    recorded_trust(&world.env, &trust::real(&dispatch::project_root_for(&world.env, event, &world.cwd)))
}

/// What Copilot's `trustedFolders` record about `project` (a real path): see [`copilot_trust`].
pub(crate) fn recorded_trust(env: &Env, project: &Path) -> HostTrust {
    let Some(home) = env.path("COPILOT_HOME").or_else(|| hookmux_platform::dirs::home(env).map(|h| h.join(".copilot")))
    else {
        return HostTrust::Unknown;
    };
    let trusted: Vec<PathBuf> = ["config.json", "settings.json"]
        .iter()
        .filter_map(|file| std::fs::read_to_string(home.join(file)).ok())
        .filter_map(|text| serde_json::from_str::<Value>(&text).ok())
        .filter_map(|config| config.get("trustedFolders").and_then(Value::as_array).cloned())
        .flatten()
        .filter_map(|folder| folder.as_str().map(|f| trust::real(Path::new(f))))
        .collect();
    if project.ancestors().any(|folder| trusted.iter().any(|t| t == folder)) {
        HostTrust::Trusted
    } else {
        HostTrust::Unknown
    }
}

/// Whether the user's Claude Code settings (`$CLAUDE_CONFIG_DIR/settings.json`, else
/// `~/.claude/settings.json`) hold a `hookmux dispatch --installed` entry.
fn user_settings_hold_an_installed_entry(env: &Env) -> bool {
    let Some(dir) =
        env.path("CLAUDE_CONFIG_DIR").or_else(|| hookmux_platform::dirs::home(env).map(|home| home.join(".claude")))
    else {
        return false;
    };
    let file = SettingsFile::load(&dir.join("settings.json"), Scope::User);
    file.hooks.iter().flat_map(|(_, groups)| groups).flat_map(|group| &group.hooks).any(|spec| match &spec.kind {
        HookKind::Command { command, args, .. } => {
            entry::recognise(command, args.as_deref(), &entry::Places::default())
                == Some(entry::DispatchEntry::Installed)
        }
        _ => false,
    })
}

/// The Claude tool a Copilot tool name stands for.
pub(crate) fn claude_tool(name: &str, input: &Value) -> String {
    let creates = input.get("diff").and_then(Value::as_str).is_some_and(|d| d.contains("create file mode"));
    match name {
        "bash" => "Bash",
        "create" => "Write",
        "edit" if creates => "Write",
        "edit" | "str_replace" => "Edit",
        "view" => "Read",
        "task" | "Task" => "Agent",
        "glob" => "Glob",
        "grep" => "Grep",
        "web_fetch" => "WebFetch",
        other => return claude_mcp_name(other).unwrap_or_else(|| other.to_string()),
    }
    .to_string()
}

/// Copilot names an MCP server's tool `<server>-<tool>` (`probe-echo`), where Claude Code, and so
/// the matchers users write (`mcp__.*`, `mcp__probe__.*`), name it `mcp__<server>__<tool>`. Copilot's
/// own tools have no `-` in their names. The event does not say where the server's name ends:
/// it is taken to end at the first `-`.
fn claude_mcp_name(name: &str) -> Option<String> {
    if name.starts_with("mcp__") {
        return None;
    }
    let (server, tool) = name.split_once('-')?;
    (!server.is_empty() && !tool.is_empty()).then(|| format!("mcp__{server}__{tool}"))
}

/// Maps a Copilot event to the Claude event its hooks are planned for.
pub fn decode(event: &Event) -> Decoded {
    let mut fields = event.fields().clone();
    // camelCase payloads (PermissionRequest): Claude's names.
    for (from, to) in [("hookName", "hook_event_name"), ("sessionId", "session_id"), ("toolName", "tool_name")] {
        if let Some(value) = fields.remove(from) {
            fields.entry(to).or_insert(value);
        }
    }
    if let Some(input) = fields.remove("toolInput") {
        fields.entry("tool_input").or_insert(input);
    }
    if let Some(path) = fields.remove("transcriptPath") {
        fields.entry("transcript_path").or_insert(path);
    }
    // SubagentStart comes with no event name at all: the only payload naming its agent this way.
    if !fields.contains_key("hook_event_name") && fields.contains_key("agentName") {
        fields.insert("hook_event_name".into(), HookEvent::SubagentStart.as_str().into());
    }
    if let Some(Value::String(name)) = fields.get("hook_event_name") {
        if let Some(kind) = HookEvent::named(name).or_else(|| pascal_event(name)) {
            fields.insert("hook_event_name".into(), kind.as_str().into());
        }
    }
    let kind = fields.get("hook_event_name").and_then(Value::as_str).and_then(HookEvent::named);
    // Copilot fires UserPromptSubmit and Stop inside a subagent too; Claude Code fires neither
    // there (its subagents have SubagentStart and SubagentStop, which Copilot sends as well).
    if matches!(kind, Some(HookEvent::UserPromptSubmit | HookEvent::Stop)) && fields.contains_key("parent_agent_id") {
        return Decoded { events: Vec::new(), tool: None };
    }
    if kind == Some(HookEvent::SessionStart) && fields.get("source").and_then(Value::as_str) == Some("new") {
        fields.insert("source".into(), "startup".into());
    }
    let name = fields.get("tool_name").and_then(Value::as_str).map(str::to_string);
    let (Some(name), true) = (name, kind.is_some_and(HookEvent::is_tool_event)) else {
        return Decoded { events: vec![event.with_fields(fields)], tool: None };
    };
    let input = fields.get("tool_input").cloned().unwrap_or_else(|| json!({}));
    let claude = claude_tool(&name, &input);
    fields.insert("tool_name".into(), claude.clone().into());
    fields.insert("tool_input".into(), claude_input(&claude, &input));
    if let Some(result) = fields.get("tool_result").cloned() {
        let text = result.get("text_result_for_llm").and_then(Value::as_str).unwrap_or_default().to_string();
        let (output, exit) = shell_exit(&text);
        if claude == "Bash" && kind == Some(HookEvent::PostToolUse) && exit.is_some_and(|code| code != 0) {
            // Claude Code reports a command that exits non-zero as a failed tool call.
            fields.insert("hook_event_name".into(), HookEvent::PostToolUseFailure.as_str().into());
            fields.insert("error".into(), format!("Exit code {}", exit.unwrap_or_default()).into());
            fields.insert("is_interrupt".into(), false.into());
        } else {
            fields.insert("tool_response".into(), claude_response(&claude, &fields, output));
        }
    }
    let tool = CopilotTool { claude, input };
    Decoded { events: vec![event.with_fields(fields)], tool: Some(tool) }
}

/// `preToolUse` → `PreToolUse`, for the camelCase names Copilot gives its own hooks.
fn pascal_event(name: &str) -> Option<HookEvent> {
    let mut chars = name.chars();
    let first = chars.next()?;
    let pascal: String = first.to_uppercase().chain(chars).collect();
    match pascal.as_str() {
        "UserPromptSubmitted" => Some(HookEvent::UserPromptSubmit),
        "AgentStop" => Some(HookEvent::Stop),
        other => HookEvent::named(other),
    }
}

/// The output of a Copilot shell result and the exit code it reports at its end.
fn shell_exit(text: &str) -> (String, Option<i64>) {
    let trimmed = text.trim_end();
    let Some(start) = trimmed.rfind("<shellId:") else { return (text.to_string(), None) };
    let tag = &trimmed[start..];
    let code = tag
        .strip_suffix('>')
        .and_then(|t| t.rsplit_once("exit code "))
        .and_then(|(_, code)| code.trim().parse::<i64>().ok());
    (trimmed[..start].trim_end_matches('\n').to_string(), code)
}

fn claude_response(claude: &str, fields: &Map<String, Value>, output: String) -> Value {
    let input = fields.get("tool_input").cloned().unwrap_or_default();
    match claude {
        "Bash" => json!({"stdout": output, "stderr": "", "interrupted": false, "isImage": false}),
        "Write" => json!({
            "type": "create",
            "filePath": input.get("file_path").cloned().unwrap_or_default(),
            "content": input.get("content").cloned().unwrap_or_default(),
            "structuredPatch": [],
            "originalFile": null,
        }),
        _ => output.into(),
    }
}

/// Copilot's arguments in Claude's names; the arguments Claude has no name for stay as they are.
fn claude_input(claude: &str, input: &Value) -> Value {
    let Some(copilot) = input.as_object() else { return input.clone() };
    let mut out = copilot.clone();
    let rename = |out: &mut Map<String, Value>, from: &str, to: &str| {
        if let Some(value) = out.remove(from) {
            out.insert(to.to_string(), value);
        }
    };
    match claude {
        "Write" => {
            rename(&mut out, "path", "file_path");
            rename(&mut out, "file_text", "content");
        }
        "Edit" => {
            rename(&mut out, "path", "file_path");
            rename(&mut out, "old_str", "old_string");
            rename(&mut out, "new_str", "new_string");
            out.entry("replace_all").or_insert(false.into());
        }
        "Read" => {
            rename(&mut out, "path", "file_path");
            if let Some(Value::Array(range)) = out.remove("view_range") {
                let (start, end) = (range.first().and_then(Value::as_i64), range.get(1).and_then(Value::as_i64));
                if let Some(start) = start {
                    out.insert("offset".into(), start.into());
                    if let Some(end) = end.filter(|end| *end >= start) {
                        out.insert("limit".into(), (end - start + 1).into());
                    }
                }
            }
        }
        "Agent" => {
            out.remove("name");
            rename(&mut out, "agent_type", "subagent_type");
        }
        "Glob" | "Grep" => rename(&mut out, "paths", "path"),
        _ => {}
    }
    Value::Object(out)
}

/// A hook's rewritten input (in Claude's shape) as the Copilot tool takes it: Claude's names back
/// to Copilot's.
pub fn copilot_input(updated: &Value, decoded: &Decoded) -> Result<Value, String> {
    let Some(claude) = updated.as_object() else { return Err("updatedInput is not an object".to_string()) };
    let Some(tool) = &decoded.tool else { return Ok(updated.clone()) };
    // Claude Code runs the hook's input as it is, in place of the original: so does Copilot.
    let mut out = Map::new();
    let back: &[(&str, &str)] = match tool.claude.as_str() {
        "Write" => &[("file_path", "path"), ("content", "file_text")],
        "Edit" => &[("file_path", "path"), ("old_string", "old_str"), ("new_string", "new_str")],
        "Read" => &[("file_path", "path")],
        "Agent" => &[("subagent_type", "agent_type")],
        "Glob" | "Grep" => &[("path", "paths")],
        _ => &[],
    };
    for (key, value) in claude {
        if matches!((tool.claude.as_str(), key.as_str()), ("Edit", "replace_all") | ("Read", "offset" | "limit")) {
            continue;
        }
        let name = back.iter().find(|(from, _)| from == key).map_or(key.as_str(), |(_, to)| to);
        out.insert(name.to_string(), value.clone());
    }
    if tool.claude == "Read" {
        if let Some(offset) = claude.get("offset").and_then(Value::as_i64) {
            let end = claude.get("limit").and_then(Value::as_i64).map_or(-1, |limit| offset + limit - 1);
            out.insert("view_range".into(), json!([offset, end]));
        }
    }
    if tool.claude == "Bash" && out.get("command").and_then(Value::as_str).is_none() {
        return Err("Bash needs a `command` string".to_string());
    }
    Ok(Value::Object(out))
}

/// Encodes the verdict as Copilot 1.0.102 honours it: exit 0 and one JSON object of Copilot's
/// top-level fields (or nothing); what Copilot cannot carry out on stderr.
pub fn encode(verdict: &Verdict, decoded: &Decoded) -> Encoded {
    let combined = &verdict.combined;
    let kind = verdict.kind;
    let mut out = Map::new();
    let mut messages: Vec<String> = combined.system_messages.clone();
    let mut context: Vec<String> =
        combined.context.iter().map(|piece| piece.text().trim_end_matches('\n').to_string()).collect();
    let stop_reason = combined.stop.as_ref().map(|reasons| reasons.join("\n"));
    let mut stop_unhonoured = true;

    match kind {
        HookEvent::PreToolUse => pre_tool_use(combined, decoded, &mut out, &mut messages),
        HookEvent::PermissionRequest => {
            if let Some(decision) = &combined.permission_request {
                permission_request(decision, &mut out, &mut messages);
            }
        }
        HookEvent::PostToolUse | HookEvent::PostToolUseFailure => {
            // Copilot's block replaces the tool's output; Claude Code keeps it and shows the reason.
            context.extend(combined.blocks.iter().map(|b| b.trim_end_matches('\n').to_string()));
            if let Some(output) = combined.extra.get("updatedMCPToolOutput").filter(|_| is_mcp(decoded)) {
                out.insert(
                    "modifiedResult".into(),
                    json!({"textResultForLlm": super::answer::as_text(output), "resultType": "success"}),
                );
            }
        }
        HookEvent::UserPromptSubmit => {
            let reasons: Vec<String> = combined.blocks.iter().cloned().chain(stop_reason.clone()).collect();
            if !combined.blocks.is_empty() || stop_reason.is_some() {
                out.insert("decision".into(), "block".into());
                out.insert("reason".into(), super::answer::non_empty_reason(reasons.join("\n")).into());
                stop_unhonoured = false;
            }
        }
        HookEvent::Stop | HookEvent::SubagentStop => {
            // Claude Code continues the turn with a Stop hook's context too; Copilot only with a block.
            if stop_reason.is_none() {
                let mut reasons: Vec<String> =
                    combined.blocks.iter().map(|b| b.trim_end_matches('\n').to_string()).collect();
                reasons.append(&mut context);
                if !reasons.is_empty() {
                    out.insert("decision".into(), "block".into());
                    out.insert("reason".into(), super::answer::non_empty_reason(reasons.join("\n")).into());
                }
            }
            // The turn is ending anyway: `continue: false` there is Claude Code's stop as well.
            stop_unhonoured = false;
        }
        HookEvent::SessionEnd => stop_unhonoured = false,
        _ => {}
    }
    if let (Some(reason), true) = (&stop_reason, stop_unhonoured) {
        let reason = if reason.is_empty() { String::new() } else { format!(" ({reason})") };
        messages.push(format!(
            "hookmux: a {kind} hook asked to stop the turn{reason}; Copilot cannot stop a turn from {kind}, so it goes on"
        ));
    }

    let takes_context = matches!(
        kind,
        HookEvent::SessionStart
            | HookEvent::UserPromptSubmit
            | HookEvent::PreToolUse
            | HookEvent::PostToolUse
            | HookEvent::PostToolUseFailure
    );
    let context = context.into_iter().filter(|c| !c.is_empty()).collect::<Vec<_>>().join("\n");
    if !context.is_empty() && takes_context {
        out.insert("additionalContext".into(), context.into());
    }
    let stdout = if out.is_empty() { String::new() } else { format!("{}\n", Value::Object(out)) };
    let stderr = messages.iter().map(|m| format!("{m}\n")).collect();
    Encoded { stdout, stderr, exit_code: 0 }
}

fn pre_tool_use(combined: &Combined, decoded: &Decoded, out: &mut Map<String, Value>, messages: &mut Vec<String>) {
    let (permission, reasons) = match &combined.permission {
        Some((permission, reasons)) => (Some(*permission), reasons.join("\n")),
        None => (None, String::new()),
    };
    let decision = match permission {
        Some(Permission::Deny) => Some("deny"),
        Some(Permission::Ask) => Some("ask"),
        Some(Permission::Allow) => Some("allow"),
        Some(Permission::Defer) | None => None,
    };
    if let Some(decision) = decision {
        out.insert("permissionDecision".into(), decision.into());
        if decision != "allow" {
            out.insert("permissionDecisionReason".into(), super::answer::non_empty_reason(reasons).into());
        } else if !reasons.trim().is_empty() {
            out.insert("permissionDecisionReason".into(), reasons.into());
        }
    }
    if permission == Some(Permission::Deny) {
        return;
    }
    if let Some(input) = &combined.updated_input {
        match copilot_input(input, decoded) {
            Ok(input) => {
                out.insert("modifiedArgs".into(), input);
            }
            Err(why) => messages.push(Unhonoured::UpdatedInput { why }.to_string()),
        }
    }
}

fn permission_request(decision: &Map<String, Value>, out: &mut Map<String, Value>, messages: &mut Vec<String>) {
    match decision.get("behavior").and_then(Value::as_str) {
        Some("deny") => {
            out.insert("behavior".into(), "deny".into());
            if let Some(message) = decision.get("message") {
                out.insert("message".into(), message.clone());
            }
        }
        Some("allow") if decision.contains_key("updatedInput") => {
            // Copilot cannot run the rewritten input here; allowing the original would run what
            // the hook replaced, so Copilot's own approval decides.
            messages.push(
                "hookmux: a PermissionRequest hook allowed a rewritten input, which Copilot cannot apply; Copilot decides as without the hook"
                    .to_string(),
            );
        }
        Some("allow") => {
            if decision.contains_key("updatedPermissions") {
                messages.push(
                    "hookmux: a PermissionRequest hook's updatedPermissions were dropped: Copilot does not take them"
                        .to_string(),
                );
            }
            out.insert("behavior".into(), "allow".into());
        }
        _ => {}
    }
}

fn is_mcp(decoded: &Decoded) -> bool {
    decoded.tool.as_ref().is_some_and(|t| t.claude.starts_with("mcp__") || t.claude.contains('/'))
}

#[cfg(test)]
mod tests;
