//! Codex (0.169.0) as a host: its events mapped to Claude Code's before planning, and the one
//! verdict encoded in the form Codex honours.
//!
//! Codex already sends Claude's field names; what differs is the tools and the answers.
//!
//! **Tools.** Codex's shell is `Bash` with `{"command"}`, as in Claude Code. `apply_patch` (whose
//! input is the patch text) becomes one Claude edit per file it touches, as [`super::patch`]
//! maps them: `Write` for an added file and a move's destination, `Edit` for an updated, deleted
//! or moved-away one, each with `file_path` (absolute), `patch_op` and, where the patch says,
//! `content` or `old_string`/`new_string`; the patch stays in `command`. The hooks of every file
//! run, and their outcomes are combined as one event's (any deny wins).
//! A shell command that Codex turns into a patch itself (`apply_patch <<'EOF'`, after an optional
//! `cd DIR &&`) stays Bash and is that patch's edits as well.
//! `spawn_agent` becomes `Agent` with `prompt` (its `message`) and `subagent_type`. MCP tools
//! (`mcp__server__tool`) and anything else keep their names.
//!
//! **Answers** (Codex reads JSON only on exit 0, and refuses fields an event does not support):
//!
//! | Claude verdict | Codex answer |
//! |---|---|
//! | PreToolUse deny (exit 2, JSON, legacy block) | `permissionDecision: "deny"` with the reasons |
//! | PreToolUse ask | a deny whose reason says a hook asks for confirmation (Codex cannot ask) |
//! | PreToolUse allow | nothing: Codex has no allow without a rewrite; its own approval applies |
//! | `updatedInput` | `permissionDecision: "allow"` + the input in Codex's shape (`{"command"}`) |
//! | `continue: false` on PreToolUse, PostToolUse, PermissionRequest | Codex refuses it there: told to the user in `systemMessage` |
//! | PostToolUse block (exit 2, `decision: "block"`) | `additionalContext`: the tool's output stays and the reason reaches the model, as in Claude Code (Codex's own block would replace the output) |
//! | `updatedMCPToolOutput` | `decision: "block"` with the new output as the reason: Codex's block replaces the output |
//! | UserPromptSubmit block, `continue: false` | `decision: "block"` / `continue: false` |
//! | Stop or SubagentStop block or `additionalContext` | `decision: "block"` with the reasons and the context: Codex's continuation prompt |
//! | PreCompact block | `continue: false` with the reason |
//! | context on SessionStart, SubagentStart, UserPromptSubmit, PreToolUse, PostToolUse | `additionalContext` (plain stdout on SubagentStart) |
//! | notices (errors, timeouts) and `systemMessage` | `systemMessage` |

pub mod install;

use super::answer::Unhonoured;
use super::patch::{self, PatchFile};
use crate::engine::config::trust::{self, HostTrust};
use crate::engine::dispatch::{self, DispatchOptions, Verdict, World};
use crate::engine::verdict::combine::{Combined, Permission};
use crate::protocol::Encoded;
use hookmux_sdk::{Env, Event, HookEvent};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Codex's events as Claude events, plus what encoding the answer needs to know.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// One Claude event per file a patch touches; otherwise exactly one.
    pub events: Vec<Event>,
    /// The Codex tool the event is about, with the input as Codex sent it.
    pub tool: Option<CodexTool>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CodexTool {
    pub name: String,
    pub input: Value,
    /// The project-relative (or absolute) paths of an `apply_patch`, in patch order.
    pub patch_files: Vec<PatchFile>,
}

/// `hookmux dispatch --host codex`.
pub fn dispatch(stdin: Vec<u8>, world: &World, options: &DispatchOptions) -> Encoded {
    let event = Event::parse_bytes(stdin);
    // Codex's trust of the project: for an unreadable event, of the project around dispatch.
    let options = DispatchOptions { host_trust: codex_trust(world, &event), plugins: true, ..options.clone() };
    if let Some(error) = event.parse_error() {
        return super::answer::unreadable(error, world, &options);
    }
    let event = super::transcript::with_transcript(event, world);
    let decoded = decode(&event);
    match dispatch::dispatch(&decoded.events, world, &options) {
        Ok(verdict) => super::answer::with_notices(encode(&verdict, &decoded), &verdict.combined.notices),
        Err(why) => super::answer::not_run(&why),
    }
}

/// Whether Codex itself trusts the project: its `config.toml` (in `$CODEX_HOME`, else `~/.codex`)
/// says `trust_level = "trusted"` for the project folder or a folder above it. Codex loads a
/// project's own configuration only then; hookmux reads the project's Claude settings on the same
/// terms, or when its own trust list says so.
fn codex_trust(world: &World, event: &Event) -> HostTrust {
    recorded_trust(&world.env, &trust::real(&dispatch::project_root_for(&world.env, event, &world.cwd)))
}

/// What Codex's `config.toml` records about `project` (a real path): see [`codex_trust`].
pub(crate) fn recorded_trust(env: &Env, project: &Path) -> HostTrust {
    let codex_home =
        env.path("CODEX_HOME").or_else(|| hookmux_platform::dirs::home(env).map(|home| home.join(".codex")));
    let Some(config) = codex_home
        .and_then(|dir| std::fs::read_to_string(dir.join("config.toml")).ok())
        .and_then(|text| text.parse::<toml_edit::DocumentMut>().ok())
    else {
        return HostTrust::Unknown;
    };
    let trusted = |folder: &Path| {
        config
            .get("projects")
            .and_then(|projects| projects.get(folder.to_string_lossy().as_ref()))
            .and_then(|p| p.get("trust_level"))
            .and_then(|level| level.as_str())
            == Some("trusted")
    };
    if project.ancestors().any(trusted) {
        HostTrust::Trusted
    } else {
        HostTrust::Unknown
    }
}

/// Maps a Codex event to the Claude events its hooks are planned for.
pub fn decode(event: &Event) -> Decoded {
    let (Some(name), true) = (event.tool_name(), event.kind().is_some_and(HookEvent::is_tool_event)) else {
        return Decoded { events: vec![event.clone()], tool: None };
    };
    let input = event.get("tool_input").cloned().unwrap_or_else(|| json!({}));
    let mut tool = CodexTool { name: name.to_string(), input: input.clone(), patch_files: Vec::new() };
    let events = match name {
        "apply_patch" => {
            let patch = input.get("command").and_then(Value::as_str).unwrap_or_default();
            tool.patch_files = patch::parse(patch);
            patch::claude_events(event, "command", patch, &tool.patch_files, &event.cwd().unwrap_or_default())
        }
        "spawn_agent" => {
            let mut agent = input.as_object().cloned().unwrap_or_default();
            let message = agent.get("message").cloned().unwrap_or_else(|| "".into());
            agent.insert("prompt".into(), message);
            agent.entry("description").or_insert_with(|| "".into());
            let kind = agent.get("agent_type").cloned().unwrap_or_else(|| "default".into());
            agent.entry("subagent_type").or_insert(kind);
            vec![with_tool(event, "Agent", Value::Object(agent), None)]
        }
        "Bash" => {
            // Claude Code's Bash result is an object; Codex sends the output text.
            let response = match (event.kind(), event.tool_response()) {
                (Some(HookEvent::PostToolUse), Some(Value::String(text))) => {
                    Some(json!({"stdout": text, "stderr": "", "interrupted": false, "isImage": false}))
                }
                _ => None,
            };
            let bash = with_tool(event, "Bash", input.clone(), response);
            let command = input.get("command").and_then(Value::as_str).unwrap_or_default();
            let mut events = match shell_patch(command, &event.cwd().unwrap_or_default()) {
                Some((dir, files)) => patch::claude_events(&bash, "command", command, &files, &dir),
                None => Vec::new(),
            };
            events.insert(0, bash);
            events
        }
        _ => vec![event.clone()],
    };
    Decoded { events, tool: Some(tool) }
}

/// The patch of a shell command that Codex applies itself rather than running (`apply_patch
/// <<'EOF'`, after an optional `cd DIR &&`), with the folder its paths are relative to. Read as
/// loosely as [`patch::parse`]: any command that names the tool and has a file header.
fn shell_patch(command: &str, cwd: &Path) -> Option<(PathBuf, Vec<PatchFile>)> {
    if !(command.contains("apply_patch") || command.contains("applypatch")) {
        return None;
    }
    let files = patch::parse(command);
    if files.is_empty() {
        return None;
    }
    let dir = command
        .trim_start()
        .strip_prefix("cd ")
        .and_then(|rest| rest.split_once("&&"))
        .map(|(dir, _)| dir.trim().trim_matches(|c| c == '\'' || c == '"'));
    Some((dir.map_or_else(|| cwd.to_path_buf(), |dir| cwd.join(dir)), files))
}

fn with_tool(event: &Event, name: &str, input: Value, response: Option<Value>) -> Event {
    let mut fields = event.fields().clone();
    fields.insert("tool_name".into(), name.into());
    fields.insert("tool_input".into(), input);
    if let Some(response) = response {
        fields.insert("tool_response".into(), response);
    }
    event.with_fields(fields)
}

/// Encodes the verdict as Codex 0.169.0 honours it: exit 0 and one JSON object with only the
/// fields Codex accepts for the event (or nothing).
pub fn encode(verdict: &Verdict, decoded: &Decoded) -> Encoded {
    let combined = &verdict.combined;
    let kind = verdict.kind;
    let mut top = Map::new();
    let mut specific = Map::new();
    let mut messages: Vec<String> = combined.system_messages.iter().chain(&combined.notices).cloned().collect();
    let mut context: Vec<String> =
        combined.context.iter().map(|piece| piece.text().trim_end_matches('\n').to_string()).collect();
    let stop_reason = combined.stop.as_ref().map(|reasons| reasons.join("\n"));

    match kind {
        HookEvent::PreToolUse => {
            pre_tool_use(combined, decoded, &mut specific, &mut messages);
            if let Some(reason) = &stop_reason {
                messages.push(Unhonoured::Stop { event: kind, reason: reason.to_string() }.to_string());
            }
        }
        HookEvent::PermissionRequest => {
            if let Some(decision) = permission_request(combined, &mut messages) {
                specific.insert("decision".into(), decision);
            }
            if let Some(reason) = &stop_reason {
                messages.push(Unhonoured::Stop { event: kind, reason: reason.to_string() }.to_string());
            }
        }
        HookEvent::PostToolUse => {
            // Codex's block replaces the tool's output; Claude Code keeps it and shows the reason.
            context.extend(combined.blocks.iter().map(|b| b.trim_end_matches('\n').to_string()));
            if let Some(output) = combined.extra.get("updatedMCPToolOutput").filter(|_| is_mcp(decoded)) {
                top.insert("decision".into(), "block".into());
                top.insert("reason".into(), super::answer::as_text(output).into());
            }
            if let Some(reason) = &stop_reason {
                messages.push(Unhonoured::Stop { event: kind, reason: reason.to_string() }.to_string());
            }
        }
        HookEvent::UserPromptSubmit => {
            if !combined.blocks.is_empty() {
                top.insert("decision".into(), "block".into());
                top.insert("reason".into(), super::answer::non_empty_reason(combined.blocks.join("\n")).into());
            }
            stop(&mut top, stop_reason.as_deref());
        }
        HookEvent::Stop | HookEvent::SubagentStop => {
            // Claude Code continues the turn with a Stop hook's context, too; Codex only with a block.
            let mut reasons: Vec<String> =
                combined.blocks.iter().map(|b| b.trim_end_matches('\n').to_string()).collect();
            reasons.append(&mut context);
            if !reasons.is_empty() {
                top.insert("decision".into(), "block".into());
                top.insert("reason".into(), super::answer::non_empty_reason(reasons.join("\n")).into());
            }
            stop(&mut top, stop_reason.as_deref());
        }
        HookEvent::PreCompact => {
            let reasons = stop_reason.into_iter().chain(combined.blocks.iter().cloned()).collect::<Vec<_>>();
            if combined.stop.is_some() || !combined.blocks.is_empty() {
                stop(&mut top, Some(&reasons.join("\n")));
            }
        }
        HookEvent::SessionStart | HookEvent::SubagentStart | HookEvent::PostCompact => {
            stop(&mut top, stop_reason.as_deref());
        }
        _ => {}
    }

    let takes_context = matches!(
        kind,
        HookEvent::SessionStart | HookEvent::UserPromptSubmit | HookEvent::PreToolUse | HookEvent::PostToolUse
    );
    let context = context.into_iter().filter(|c| !c.is_empty()).collect::<Vec<_>>().join("\n");
    if !context.is_empty() && takes_context {
        specific.insert("additionalContext".into(), context.clone().into());
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
    let stdout = if !top.is_empty() {
        format!("{}\n", Value::Object(top))
    } else if kind == HookEvent::SubagentStart && !context.is_empty() {
        // Codex reads SubagentStart's plain stdout as context.
        format!("{context}\n")
    } else {
        String::new()
    };
    Encoded { stdout, stderr: String::new(), exit_code: 0 }
}

fn pre_tool_use(combined: &Combined, decoded: &Decoded, specific: &mut Map<String, Value>, messages: &mut Vec<String>) {
    let (permission, reasons) = match &combined.permission {
        Some((permission, reasons)) => (Some(*permission), reasons.join("\n")),
        None => (None, String::new()),
    };
    match permission {
        Some(Permission::Deny) => {
            specific.insert("permissionDecision".into(), "deny".into());
            specific.insert("permissionDecisionReason".into(), super::answer::non_empty_reason(reasons).into());
        }
        Some(Permission::Ask) => {
            let why =
                "a hook asks for confirmation before this runs, and a Codex hook cannot ask, so hookmux blocks it";
            let reason =
                if reasons.trim().is_empty() { format!("{why}.") } else { format!("{} ({why})", reasons.trim_end()) };
            specific.insert("permissionDecision".into(), "deny".into());
            specific.insert("permissionDecisionReason".into(), reason.into());
        }
        // Codex takes no allow without a rewrite, and defer has no Codex meaning: its own
        // approval decides, as without the hook.
        Some(Permission::Allow | Permission::Defer) | None => {
            if let Some(input) = &combined.updated_input {
                match codex_input(input, decoded) {
                    Ok(input) => {
                        specific.insert("permissionDecision".into(), "allow".into());
                        specific.insert("updatedInput".into(), input);
                    }
                    Err(why) => messages.push(Unhonoured::UpdatedInput { why }.to_string()),
                }
            }
        }
    }
}

/// A hook's rewritten input (in Claude's shape) as the Codex tool takes it.
pub fn codex_input(updated: &Value, decoded: &Decoded) -> Result<Value, String> {
    let Some(tool) = &decoded.tool else { return Ok(updated.clone()) };
    let command = updated.get("command").and_then(Value::as_str);
    match tool.name.as_str() {
        "Bash" => command.map(|c| json!({"command": c})).ok_or_else(|| "Bash needs a `command` string".to_string()),
        "apply_patch" => {
            let original = tool.input.get("command").and_then(Value::as_str).unwrap_or_default();
            patch::rewritten(updated, "command", original, &tool.patch_files).map(|patch| json!({"command": patch}))
        }
        "spawn_agent" => {
            let mut input = tool.input.as_object().cloned().unwrap_or_default();
            if let Some(prompt) = updated.get("prompt") {
                input.insert("message".into(), prompt.clone());
            }
            Ok(Value::Object(input))
        }
        _ => Ok(updated.clone()),
    }
}

fn permission_request(combined: &Combined, messages: &mut Vec<String>) -> Option<Value> {
    let decision = combined.permission_request.as_ref()?;
    match decision.get("behavior").and_then(Value::as_str) {
        Some("deny") => {
            let mut out = Map::new();
            out.insert("behavior".into(), "deny".into());
            if let Some(message) = decision.get("message") {
                out.insert("message".into(), message.clone());
            }
            Some(Value::Object(out))
        }
        Some("allow") if decision.contains_key("updatedInput") => {
            // Codex cannot run the rewritten input; allowing the original would run what the
            // hook replaced, so the request goes to Codex's own approval instead.
            messages.push(Unhonoured::RewrittenPermission.to_string());
            None
        }
        Some("allow") => {
            if decision.contains_key("updatedPermissions") {
                messages.push(Unhonoured::UpdatedPermissions.to_string());
            }
            Some(json!({"behavior": "allow"}))
        }
        _ => None,
    }
}

fn stop(top: &mut Map<String, Value>, reason: Option<&str>) {
    if let Some(reason) = reason {
        top.insert("continue".into(), false.into());
        if !reason.is_empty() {
            top.insert("stopReason".into(), reason.into());
        }
    }
}

fn is_mcp(decoded: &Decoded) -> bool {
    decoded.tool.as_ref().is_some_and(|t| t.name.starts_with("mcp__"))
}

#[cfg(test)]
mod tests;
