//! The Cline CLI (3.0.65, `@cline/core` 0.0.86) as a host: its hook payloads mapped to Claude
//! Code's events, and the one verdict encoded in the only answer Cline reads.
//!
//! Cline's hooks are shaped nothing like Claude's. There is no settings entry: Cline runs every
//! file named after one of its events (`PreToolUse`, `PreToolUse.sh`, …) in four folders
//! (`~/Documents/Cline/Hooks/`, `$CLINE_DIR/hooks/` else `~/.cline/hooks/`, and the workspace's
//! `.clinerules/hooks/` and `.cline/hooks/`), so `hookmux install cline` writes one such file per
//! event, each running `hookmux dispatch --host cline` ([`install`]). Cline ignores a hook's exit
//! code and stderr and reads one JSON object on stdout: `cancel`, `contextModification`,
//! `errorMessage`, `overrideInput`. So this adapter always exits 0, and says everything in that
//! object or nowhere Cline looks.
//!
//! **Events.** TaskStart (`agent_start`) → SessionStart (`source: "startup"`), or SubagentStart
//! for a subagent (`parent_agent_id` set; `agent_type: "general-purpose"`, the kind of helper
//! `spawn_agent` starts); TaskResume (`agent_resume`) → SessionStart (`resume`); PreToolUse
//! (`tool_call`) → PreToolUse; PostToolUse (`tool_result`) → PostToolUse, or PostToolUseFailure
//! for a failed part; TaskComplete (`agent_end`) → Stop, or SubagentStop; UserPromptSubmit
//! (`prompt_submit`) → UserPromptSubmit; TaskError (`agent_error`) → StopFailure (not when a hook's
//! `cancel` stopped the run: Cline reports that as a `ControlledStopError`); SessionShutdown →
//! SessionEnd (`reason: "other"`). TaskCancel (a user's interrupt) has no Claude counterpart, and
//! Cline discovers PreCompact files but never runs them. The session is Cline's
//! `sessionContext.rootSessionId` (else `taskId`), which a subagent shares with its parent as in
//! Claude Code; the project (`cwd`, and so `CLAUDE_PROJECT_DIR` for the hooks) is
//! `workspaceInfo.rootPath`; hooks get hookmux's transcript of the session (Cline keeps its
//! own in `~/.cline/data/sessions/`, in a format of its own). The tools: [`tools`].
//!
//! **What Cline waits for** (measured): only PreToolUse and PostToolUse. Every other event is
//! started detached and its answer ignored, so nothing a hook answers there can happen; the hooks
//! still run. Cline kills a waited-for hook after 120 s, and a hook killed or answering
//! something Cline cannot parse counts as no answer: the tool runs. So dispatch answers within
//! [`ANSWER_WITHIN`]: no handler is waited for past it (one whose own `timeout` is longer is
//! stopped there and counts as timed out, a non-blocking error as in Claude Code), and the deny
//! of a faster guard still arrives.
//!
//! **Answers:**
//!
//! | Claude verdict | Cline answer |
//! |---|---|
//! | PreToolUse deny (exit 2, JSON, legacy block) | `cancel: true` with the reasons in `errorMessage`: the tool does not run and the whole run stops (Cline has no "deny this call and go on"; it writes `errorMessage` to its log) |
//! | PreToolUse ask | `cancel: true`: Cline's hooks cannot ask the user, and the call does not run unasked |
//! | PreToolUse allow | nothing: Cline's own approval still applies |
//! | `updatedInput` | `overrideInput`, the whole input in Cline's tool shape (each part's rewrite in its own item) |
//! | context on PreToolUse, PostToolUse, PostToolUseFailure | `contextModification`: a `<hook_context>` message the model reads after the tool's result |
//! | a PostToolUse block (exit 2, `decision: "block"`) | `contextModification` with the reason: the result stays, the model reads why, as in Claude Code |
//! | `continue: false` on PreToolUse | the tool runs; its PostToolUse answers `cancel: true`, so the run stops before the model goes on |
//! | `continue: false` on PostToolUse | `cancel: true` |
//! | anything on an event Cline does not wait for; `updatedToolOutput`; a rewrite Cline's tool cannot take | cannot be expressed: told, once per session |
//! | notices and `systemMessage` | stderr, which Cline discards, and the trace (`hookmux log`) |
//!
//! Cline shows a hook's words to no one but the model, except a cancelled run's `errorMessage`,
//! which goes to its log (`~/.cline/data/logs/cline.log`, measured: a warning "Agent loop caught
//! error" with the `errorMessage`; the user sees only `aborted by another client`). What Claude
//! Code would have done and Cline cannot is told once per session ([`Notice::Unexpressed`])
//! through the one text of Cline's that reaches anyone, `contextModification` ([`deliver`]): on
//! the event itself when Cline waits for it and the run goes on, else on the session's next such
//! event (a cancelled run's reason with it, for a session the user resumes); and on stderr and in
//! hookmux's trace, where `hookmux log` shows it.
//!
//! **Trust.** Cline runs the hook files of any workspace without asking and keeps no record of
//! trusted folders, so a project's own `.claude/settings*.json` runs under Cline only when
//! hookmux's trust list (`hookmux trust`) or `HOOKMUX_TRUST` covers it.

pub mod install;
pub mod tools;

use super::session_state::{self, Store};
use crate::engine::config::trust::HostTrust;
use crate::engine::dispatch::{self, DispatchOptions, Verdict, World};
use crate::engine::notice::{Notice, Teller};
use crate::engine::verdict::combine::Permission;
use crate::protocol::Encoded;
use hookmux_sdk::{Event, HookEvent};
use serde_json::{json, Map, Value};
use std::time::Duration;

/// How long dispatch takes at most to answer an event Cline waits for: Cline kills the hook at
/// 120 s; the rest is for hookmux's own start, reading the settings and writing the answer on a
/// loaded machine.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(110);

/// What Cline's `agent_error` names a run that a hook's `cancel` stopped.
const HOOK_STOP_ERROR: &str = "ControlledStopError";

/// Cline's event as Claude events, plus what encoding the answer needs to know.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// Cline's `hookName`: `tool_call`, `tool_result`, `agent_start`, …
    pub hook_name: String,
    /// The Claude events, one per part of a tool call; none when the Cline event has no Claude
    /// counterpart.
    pub events: Vec<Event>,
    pub call: Option<Call>,
}

/// The tool call a PreToolUse or PostToolUse is about.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// Cline's id of the call (`call_…`): the same for its PreToolUse and PostToolUse.
    pub id: String,
    /// Cline's tool name (`run_commands`, …).
    pub tool: String,
    /// The input as Cline will run it.
    pub input: Value,
    /// The Claude calls it stands for.
    pub parts: Vec<tools::Part>,
}

impl Decoded {
    /// Whether Cline waits for the answer (and reads it).
    pub fn is_waited(&self) -> bool {
        matches!(self.hook_name.as_str(), "tool_call" | "tool_result")
    }

    /// Cline's own name for the event, as its hook file is named.
    fn cline_event(&self) -> &'static str {
        match self.hook_name.as_str() {
            "tool_call" => "PreToolUse",
            "tool_result" => "PostToolUse",
            "agent_start" => "TaskStart",
            "agent_resume" => "TaskResume",
            "agent_end" => "TaskComplete",
            "agent_error" => "TaskError",
            "prompt_submit" => "UserPromptSubmit",
            "session_shutdown" => "SessionShutdown",
            _ => "hook",
        }
    }
}

/// The answer, and what the session must remember or be told.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The JSON object Cline reads (empty: no effect).
    pub control: Map<String, Value>,
    /// A PreToolUse `continue: false`, to carry out at the call's PostToolUse.
    pub stop_later: Option<String>,
    /// What Claude Code would have done that Cline cannot: told once per session.
    pub unexpressed: Vec<String>,
}

impl Answer {
    /// The run stops: Cline's only way to refuse, with why in `errorMessage`.
    fn cancel(reason: String) -> Answer {
        let mut control = Map::new();
        control.insert("cancel".into(), true.into());
        control.insert("errorMessage".into(), reason.into());
        Answer { control, ..Answer::default() }
    }

    fn encoded(&self) -> Encoded {
        let stdout =
            if self.control.is_empty() { String::new() } else { format!("{}\n", Value::Object(self.control.clone())) };
        Encoded { stdout, stderr: String::new(), exit_code: 0 }
    }
}

/// `hookmux dispatch --host cline`.
pub fn dispatch(stdin: Vec<u8>, world: &World, options: &DispatchOptions) -> Encoded {
    let event = Event::parse_bytes(stdin);
    let options = DispatchOptions { host_trust: HostTrust::Unknown, plugins: true, ..options.clone() };
    if let Some(error) = event.parse_error() {
        return unreadable(error, world, &options);
    }
    let decoded = decode(&event);
    if decoded.events.is_empty() {
        return Encoded::default();
    }
    let options = DispatchOptions { answer_within: decoded.is_waited().then_some(ANSWER_WITHIN), ..options };
    let events: Vec<Event> =
        decoded.events.iter().cloned().map(|e| super::transcript::record_transcript(e, world)).collect();
    let session = events[0].session_id().map(str::to_string);
    let store = Store::open(world, "cline", "Cline", session.as_deref());
    let stop_key = decoded.call.as_ref().map(|call| format!("stop-{}", session_state::hashed(&call.id)));
    let carried = match (&store, &stop_key) {
        (Some(store), Some(key)) if decoded.hook_name == "tool_result" => store.take(key),
        _ => None,
    };
    let (mut answer, mut notices) = match dispatch::dispatch(&events, world, &options) {
        Ok(verdict) => {
            let notices: Vec<String> =
                verdict.combined.notices.iter().chain(&verdict.combined.system_messages).cloned().collect();
            (encode(&verdict, &decoded, carried), notices)
        }
        Err(why) => match carried {
            Some(reason) => (Answer::cancel(stop_text("PostToolUse", &reason)), Vec::new()),
            None => return super::answer::not_run(&why),
        },
    };
    if let Some(reason) = answer.stop_later.take() {
        let kept = match (&store, &stop_key) {
            (Some(store), Some(key)) => store.put(key, &reason),
            _ => false,
        };
        if !kept {
            // It cannot wait for the PostToolUse: the run stops now, before the tool runs.
            answer = Answer { unexpressed: answer.unexpressed, ..Answer::cancel(stop_text("PreToolUse", &reason)) };
        }
    }
    if decoded.hook_name == "session_shutdown" {
        if let Some(store) = &store {
            store.forget();
        }
    }
    let teller = Teller::new(&world.env, session.as_deref(), false);
    let told: Vec<String> =
        answer.unexpressed.iter().filter_map(|text| teller.tell(&Notice::Unexpressed(text.clone()))).collect();
    world.trace.update(|record| record.notices.extend(told.iter().cloned()));
    deliver(&mut answer, &told, decoded.is_waited(), store.as_ref());
    notices.extend(told);
    super::answer::with_notices(answer.encoded(), &notices)
}

/// The session state's name for what is still to be told through `contextModification`.
const UNTOLD: &str = "untold";

/// Gives what the session must be told (`told`, and what earlier events kept) in the one text of
/// Cline's that reaches anyone: `contextModification`, which the model reads after the tool's
/// result. Cline reads it only on an event it waits for (`waited`) and when the run goes on; else
/// it is kept in the session for its next such event (a cancelled run's reason among it, for
/// when the user resumes the task), and given once.
pub fn deliver(answer: &mut Answer, told: &[String], waited: bool, store: Option<&Store>) {
    let cancelled = answer.control.contains_key("cancel");
    let mut untold: Vec<String> = told.to_vec();
    if let Some(Value::String(reason)) = answer.control.get("errorMessage").filter(|_| cancelled) {
        untold.push(format!("hookmux: the previous run was stopped by a hook: {reason}"));
    }
    if waited && !cancelled {
        let kept = store.and_then(|store| store.take(UNTOLD));
        let text: Vec<String> = kept.into_iter().chain(untold).filter(|t| !t.is_empty()).collect();
        if !text.is_empty() {
            let context = match answer.control.get("contextModification").and_then(Value::as_str) {
                Some(context) => format!("{context}\n\n{}", text.join("\n")),
                None => text.join("\n"),
            };
            answer.control.insert("contextModification".into(), context.into());
        }
    } else if let Some(store) = store.filter(|_| !untold.is_empty()) {
        let kept = store.read(UNTOLD).filter(|t| !t.is_empty());
        store.put(UNTOLD, &kept.into_iter().chain(untold).collect::<Vec<_>>().join("\n"));
    }
}

/// An event that cannot be read: the guards deny it (`cancel`, since Cline reads no exit code),
/// every other hook is skipped with a notice on stderr.
fn unreadable(error: &str, world: &World, options: &DispatchOptions) -> Encoded {
    let super::answer::Unread { notice, deny } = super::answer::unread(error, world, options);
    let answer = deny.map(Answer::cancel).unwrap_or_default();
    let notices: Vec<String> = notice.into_iter().collect();
    super::answer::with_notices(answer.encoded(), &notices)
}

/// Maps a Cline payload to the Claude events its hooks are planned for.
pub fn decode(event: &Event) -> Decoded {
    let hook_name = event.str("hookName").unwrap_or_default().to_string();
    let none = |hook_name: String| Decoded { hook_name, events: Vec::new(), call: None };
    let mut base = event.fields().clone();
    let root = event.get("sessionContext").and_then(|c| c.get("rootSessionId")).and_then(Value::as_str);
    if let Some(session) = root.or_else(|| event.str("taskId")).filter(|s| !s.is_empty()) {
        base.insert("session_id".into(), session.into());
    }
    let workspace = event.get("workspaceInfo").and_then(|w| w.get("rootPath")).and_then(Value::as_str).or_else(|| {
        event.get("workspaceRoots").and_then(Value::as_array).and_then(|r| r.first()).and_then(Value::as_str)
    });
    if let Some(cwd) = workspace.filter(|w| !w.is_empty()) {
        base.insert("cwd".into(), cwd.into());
    }
    let subagent = event.str("parent_agent_id").is_some_and(|p| !p.is_empty());
    if subagent {
        base.insert("agent_type".into(), "general-purpose".into());
    } else if let Some(id) = base.remove("agent_id") {
        // Claude Code names an agent only inside a subagent.
        base.insert("cline_agent_id".into(), id);
    }
    let named = |mut fields: Map<String, Value>, kind: HookEvent| {
        fields.insert("hook_event_name".into(), kind.as_str().into());
        event.with_fields(fields)
    };
    let events = match hook_name.as_str() {
        "tool_call" | "tool_result" => return decode_call(event, hook_name, base),
        "agent_start" | "agent_resume" if subagent => vec![named(base, HookEvent::SubagentStart)],
        "agent_start" | "agent_resume" => {
            let source = if hook_name == "agent_start" { "startup" } else { "resume" };
            base.insert("source".into(), source.into());
            vec![named(base, HookEvent::SessionStart)]
        }
        "agent_end" => {
            let said = event.get("turn").and_then(|t| t.get("outputText")).cloned().unwrap_or_else(|| "".into());
            base.insert("last_assistant_message".into(), said);
            base.insert("stop_hook_active".into(), false.into());
            vec![named(base, if subagent { HookEvent::SubagentStop } else { HookEvent::Stop })]
        }
        "agent_error" => {
            let error = event.get("error");
            let name = error.and_then(|e| e.get("name")).and_then(Value::as_str);
            if subagent || name == Some(HOOK_STOP_ERROR) {
                return none(hook_name);
            }
            let message = error.and_then(|e| e.get("message")).cloned().unwrap_or_else(|| "".into());
            base.insert("error".into(), "unknown".into());
            base.insert("error_details".into(), message.clone());
            base.insert("last_assistant_message".into(), message);
            vec![named(base, HookEvent::StopFailure)]
        }
        "prompt_submit" if subagent => return none(hook_name),
        "prompt_submit" => {
            let prompt = event.get("userPromptSubmit").and_then(|u| u.get("prompt")).cloned();
            base.insert("prompt".into(), prompt.unwrap_or_else(|| "".into()));
            vec![named(base, HookEvent::UserPromptSubmit)]
        }
        "session_shutdown" => {
            base.insert("reason".into(), "other".into());
            vec![named(base, HookEvent::SessionEnd)]
        }
        // A user's interrupt: Claude Code fires nothing for it.
        "agent_abort" => return none(hook_name),
        // Not a Cline payload: dispatch says what it is.
        _ => vec![event.clone()],
    };
    Decoded { hook_name, events, call: None }
}

/// A `tool_call` or `tool_result`: one Claude event per part of the call.
fn decode_call(event: &Event, hook_name: String, base: Map<String, Value>) -> Decoded {
    let pre = hook_name == "tool_call";
    let record = event.get(if pre { "tool_call" } else { "tool_result" }).cloned().unwrap_or(Value::Null);
    let text = |name: &str| record.get(name).and_then(Value::as_str).unwrap_or_default().to_string();
    let (id, tool) = (text("id"), text("name"));
    let input = record.get("input").cloned().unwrap_or_else(|| json!({}));
    let parts = tools::parts(&tool, &input);
    let results = if pre {
        Vec::new()
    } else {
        let error = record.get("error").and_then(Value::as_str);
        tools::results(&tool, &parts, record.get("output").unwrap_or(&Value::Null), error)
    };
    let several = parts.len() > 1;
    let events = parts
        .iter()
        .enumerate()
        .map(|(at, part)| {
            let mut fields = base.clone();
            fields.insert("tool_name".into(), part.claude.clone().into());
            fields.insert("tool_input".into(), part.input.clone());
            let use_id = if several { format!("{id}#{}", at + 1) } else { id.clone() };
            fields.insert("tool_use_id".into(), use_id.into());
            let kind = match results.get(at) {
                None => HookEvent::PreToolUse,
                Some(tools::Result::Done(response)) => {
                    fields.insert("tool_response".into(), response.clone());
                    HookEvent::PostToolUse
                }
                Some(tools::Result::Failed(error)) => {
                    fields.insert("error".into(), error.clone().into());
                    fields.insert("is_interrupt".into(), false.into());
                    HookEvent::PostToolUseFailure
                }
            };
            fields.insert("hook_event_name".into(), kind.as_str().into());
            event.with_fields(fields)
        })
        .collect();
    Decoded { hook_name, events, call: Some(Call { id, tool, input, parts }) }
}

/// Encodes the verdict as Cline 3.0.65 honours it: at most `cancel` (with `errorMessage`),
/// `contextModification` and `overrideInput`, and what it cannot do for the session to be told.
/// `carried`: a `continue: false` of the call's PreToolUse, carried out at its PostToolUse.
pub fn encode(verdict: &Verdict, decoded: &Decoded, carried: Option<String>) -> Answer {
    let combined = &verdict.combined;
    let kind = verdict.kind;
    let hook = match &decoded.call {
        Some(call) if kind.is_tool_event() => {
            let mut names: Vec<&str> = call.parts.iter().map(|p| p.claude.as_str()).collect();
            names.dedup();
            format!("{kind}:{}", names.join(","))
        }
        _ => kind.as_str().to_string(),
    };
    let context = super::answer::joined(&combined.context);
    let stop = carried.or_else(|| combined.stop.as_ref().map(|reasons| reasons.join("\n")));
    let mut answer = Answer::default();
    match kind {
        HookEvent::PreToolUse => {
            if let Some((permission, reasons)) = &combined.permission {
                let reasons = reasons.join("\n");
                match permission {
                    Permission::Deny => {
                        let reason = super::answer::non_empty_reason(reasons);
                        let mut answer = Answer::cancel(format!(
                            "{hook} hook denied the call: {}\n(Cline cannot refuse one call and go on, so the run was stopped)",
                            reason.trim_end()
                        ));
                        answer.unexpressed.push(DENY_STOPS_THE_RUN.to_string());
                        return answer;
                    }
                    Permission::Ask => {
                        let why =
                            if reasons.trim().is_empty() { String::new() } else { format!(": {}", reasons.trim_end()) };
                        let mut answer = Answer::cancel(format!(
                            "{hook} hook asked for the user's approval{why}\n(Cline's hooks cannot ask the user, so the run was stopped before the call)"
                        ));
                        answer.unexpressed.push(ASK_STOPS_THE_RUN.to_string());
                        return answer;
                    }
                    Permission::Allow => answer.unexpressed.push(ALLOW_IS_NOT_APPROVAL.to_string()),
                    Permission::Defer => {}
                }
            }
            if let Some(call) = decoded.call.as_ref().filter(|_| combined.updated_inputs.iter().any(Option::is_some)) {
                match tools::cline_input(&call.tool, &call.input, &call.parts, &combined.updated_inputs) {
                    Ok(input) => {
                        answer.control.insert("overrideInput".into(), input);
                    }
                    Err(why) => answer.unexpressed.push(super::answer::Unhonoured::UpdatedInput { why }.to_string()),
                }
            }
            if !context.is_empty() {
                answer.control.insert("contextModification".into(), context.into());
            }
            answer.stop_later = stop;
        }
        HookEvent::PostToolUse | HookEvent::PostToolUseFailure => {
            if let Some(reason) = stop {
                return Answer::cancel(stop_text(&hook, &reason));
            }
            let mut pieces: Vec<String> = combined
                .blocks
                .iter()
                .map(|b| format!("{hook} hook blocking error: {}", b.trim_end_matches('\n')))
                .collect();
            if !context.is_empty() {
                pieces.push(context);
            }
            if !pieces.is_empty() {
                answer.control.insert("contextModification".into(), pieces.join("\n\n").into());
            }
            for key in ["updatedToolOutput", "updatedMCPToolOutput"] {
                if combined.extra.contains_key(key) {
                    answer.unexpressed.push(format!(
                        "hookmux: a PostToolUse hook's {key} was not applied: Cline's hooks cannot replace a tool's output"
                    ));
                }
            }
        }
        _ => {
            let cline = decoded.cline_event();
            let ignored = |what: &str| {
                format!("hookmux: {what}: Cline does not wait for its {cline} hooks and ignores what they answer")
            };
            let has_context = !context.is_empty() || !verdict.plain.is_empty() && kind.plain_stdout_is_context();
            let blocked = !combined.blocks.is_empty() || !combined.exit_blocks.is_empty();
            if has_context && kind != HookEvent::StopFailure {
                answer.unexpressed.push(ignored(&format!("a {kind} hook's context did not reach the model")));
            }
            match kind {
                HookEvent::UserPromptSubmit if blocked => {
                    answer.unexpressed.push(ignored("a UserPromptSubmit hook's block did not stop the prompt"))
                }
                HookEvent::Stop | HookEvent::SubagentStop if blocked => {
                    answer.unexpressed.push(ignored(&format!("a {kind} hook asked to continue, and the task ended")))
                }
                _ => {}
            }
            let stops =
                matches!(kind, HookEvent::SessionStart | HookEvent::SubagentStart | HookEvent::UserPromptSubmit);
            if stop.is_some() && stops {
                answer
                    .unexpressed
                    .push(ignored(&format!("a {kind} hook asked to stop (`continue: false`), and Cline went on")));
            }
        }
    }
    answer
}

/// Told once per session: a deny stops the run.
const DENY_STOPS_THE_RUN: &str =
    "hookmux: Cline cannot refuse one tool call and let the turn go on: a PreToolUse deny \
    stops the whole run (the reason is in Cline's log, ~/.cline/data/logs/cline.log, and in `hookmux log`)";

/// Told once per session: an ask stops the run.
const ASK_STOPS_THE_RUN: &str = "hookmux: Cline's hooks cannot ask the user to approve a call: a PreToolUse `ask` \
    stops the run before the call";

/// Told once per session: an allow approves nothing.
const ALLOW_IS_NOT_APPROVAL: &str = "hookmux: a PreToolUse `allow` does not approve the call in Cline: Cline's hooks \
    cannot approve, so Cline's own approval settings still apply";

/// `errorMessage` for a `continue: false`.
fn stop_text(hook: &str, reason: &str) -> String {
    if reason.trim().is_empty() {
        format!("{hook} hook stopped the run (continue: false)")
    } else {
        format!("{hook} hook stopped the run: {}", reason.trim_end())
    }
}

#[cfg(test)]
mod tests;
