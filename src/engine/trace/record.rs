//! One line of the trace: what one dispatch saw and did, in names, ids, decisions, sizes and
//! timings. What a prompt, a tool call or a hook said is in it only under [`TraceMode::Full`].
//!
//! The same types read the lines back (`hookmux log`): every field has a default, so that a line
//! written by another version of hookmux still reads.

use crate::engine::config::jsonpath::JsonPath;
use crate::engine::config::secrets::redact;
use crate::engine::config::settings::{FileState, SettingsFile, TraceMode};
use crate::engine::config::sources::Sources;
use crate::engine::execute::RawOutput;
use crate::engine::select::matcher::Verdict as MatchVerdict;
use crate::engine::select::plan::{Dropped, Plan, Planned, Runner};
use crate::engine::verdict::combine::{Combined, Permission};
use crate::engine::verdict::outcome::Outcome;
use crate::protocol::HookJson;
use hookmux_sdk::{Event, HookEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// The version of the line's shape.
pub const FORMAT: u32 = 1;

/// The most of one hook's stdout or stderr a full trace keeps, in bytes.
pub const FULL_OUTPUT_CAP: usize = 16 * 1024;

fn is_false(value: &bool) -> bool {
    !*value
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// One dispatch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Record {
    pub v: u32,
    /// When dispatch started: RFC 3339 in UTC, to the millisecond (`2026-12-01T14:02:11.204Z`).
    pub time: String,
    /// The host that sent the event (`claude`, `codex`, …).
    pub host: String,
    /// The Claude Code event name, as sent or as the host's event was mapped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// The value the matchers were tested against (a tool name, a session source, a file's
    /// name), when the event has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// How many Claude events the host's event stood for, when more than one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<usize>,
    /// The process's id, which tells concurrent dispatches apart.
    pub pid: u32,
    pub sources: Vec<SourceTrace>,
    /// Why hooks were switched off, when `disableAllHooks` or `allowManagedHooksOnly` did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<String>,
    pub groups: Vec<GroupTrace>,
    pub hooks: Vec<HookTrace>,
    /// Hooks of matching groups that were left out (an `if` rule, a handler that does not run on
    /// the event).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<SkippedTrace>,
    pub answer: AnswerTrace,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<String>,
    /// Why nothing ran at all (an event that is no hook event, one that could not be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// From the start of dispatch to the answer, in milliseconds.
    pub wall_ms: f64,
    /// Parts left out to keep the line within its bound.
    #[serde(skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// [`TraceMode::Full`] only: the event as the engine read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
}

/// One settings source that was looked for.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SourceTrace {
    pub path: String,
    pub scope: String,
    /// `loaded`, `missing`, `unreadable`, `invalid` or `untrusted`.
    pub state: String,
    /// Handlers read from it.
    pub hooks: usize,
    /// Problems found in it (`hookmux hooks validate` shows them).
    #[serde(skip_serializing_if = "is_usize_zero")]
    pub problems: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
}

fn is_usize_zero(value: &usize) -> bool {
    *value == 0
}

/// One matcher group of the event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GroupTrace {
    pub file: String,
    /// The group's JSON path in the file.
    pub at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    pub matched: bool,
    /// Why it did not match (or ran unchecked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// Its handlers.
    pub hooks: usize,
}

/// One handler that was planned.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HookTrace {
    /// A built-in's name, else the command or the URL (without its query).
    pub name: String,
    /// `builtin`, `command`, `http`, `async`, `prompt`, …
    pub kind: String,
    /// The file and JSON path that define it.
    pub origin: String,
    /// Its `if` rule, which this call passed.
    #[serde(rename = "if", skip_serializing_if = "Option::is_none")]
    pub if_rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<i32>,
    pub wall_ms: f64,
    /// What it decided: `allow`, `deny`, `ask`, `defer`, `block`, `stop`, `context`, `ok`,
    /// `error`, `refused`, `timeout`, `background` or `not run`.
    pub decision: String,
    #[serde(skip_serializing_if = "is_false")]
    pub timed_out: bool,
    /// It exited, but its stdout or stderr stayed open (a background child holding it).
    #[serde(skip_serializing_if = "is_false")]
    pub lingered: bool,
    #[serde(skip_serializing_if = "is_zero")]
    pub stdout_bytes: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub stderr_bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// [`TraceMode::Full`] only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stdout: Option<String>,
    /// [`TraceMode::Full`] only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
}

/// A handler of a matching group that did not run, and why.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkippedTrace {
    pub name: String,
    pub origin: String,
    #[serde(rename = "if", skip_serializing_if = "Option::is_none")]
    pub if_rule: Option<String>,
    pub why: String,
}

/// The one answer the host got.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnswerTrace {
    /// `deny`, `ask`, `defer`, `allow`, `block`, `stop`, `context` or `none`.
    pub decision: String,
    pub exit: i32,
    #[serde(skip_serializing_if = "is_zero")]
    pub stdout_bytes: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub stderr_bytes: u64,
    /// Pieces of context for the model, and messages for the user.
    #[serde(skip_serializing_if = "is_usize_zero")]
    pub context: usize,
    #[serde(skip_serializing_if = "is_usize_zero")]
    pub system_messages: usize,
    /// [`TraceMode::Full`] only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stdout: Option<String>,
    /// [`TraceMode::Full`] only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
}

impl Record {
    /// What the first event says about itself: names and ids only, and the event itself in full.
    pub fn for_event(event: &Event, mode: TraceMode) -> Record {
        Record {
            v: FORMAT,
            event: event.name().map(str::to_string),
            session: event.session_id().filter(|s| !s.is_empty()).map(str::to_string),
            tool: event.tool_name().map(str::to_string),
            tool_use_id: event.tool_use_id().map(str::to_string),
            pid: std::process::id(),
            input: (mode == TraceMode::Full).then(|| Value::Object(event.fields().clone())),
            ..Record::default()
        }
    }

    /// The sources that were looked for.
    pub fn add_sources(&mut self, sources: &Sources) {
        self.sources = sources.files.iter().map(source).collect();
    }

    /// A plan's groups and the handlers it left out.
    pub fn add_plan(&mut self, plan: &Plan<'_>) {
        if self.query.is_none() {
            self.query.clone_from(&plan.query);
        }
        if self.gate.is_none() {
            self.gate = match &plan.gate {
                crate::engine::select::plan::Gate::All => None,
                crate::engine::select::plan::Gate::ManagedOnly { because }
                | crate::engine::select::plan::Gate::Nothing { because } => Some(because.clone()),
            };
        }
        for report in &plan.groups {
            let (matched, why) = match &report.verdict {
                MatchVerdict::Matched => (true, None),
                MatchVerdict::NotMatched(why) => (false, Some(why.clone())),
                MatchVerdict::Unchecked(why) => (true, Some(format!("ran unchecked: {why}"))),
            };
            // `to_string_lossy` is what `display` writes, without the formatter (a dispatch
            // traces every group of every file).
            self.groups.push(GroupTrace {
                file: report.file.path.to_string_lossy().into_owned(),
                at: path_text(&report.group.path),
                matcher: report.group.matcher.clone(),
                matched,
                why,
                hooks: report.group.hooks.len(),
            });
        }
        self.skipped.extend(plan.dropped.iter().map(skipped));
    }

    /// The combined answer, before the host encodes it.
    pub fn set_combined(&mut self, combined: &Combined) {
        self.answer.decision = combined_decision(combined).to_string();
        self.answer.context = combined.context.len();
        self.answer.system_messages = combined.system_messages.len();
        // A notice quotes hooks by their commands: credentials in them are masked here too.
        self.notices = combined.notices.iter().map(|notice| redact(notice).into_owned()).collect();
    }
}

/// A group's JSON path as text, in a string that holds a usual path (`hooks.PreToolUse[12]`)
/// without growing: `to_string` starts empty and reallocates three times on the way.
fn path_text(path: &JsonPath) -> String {
    use std::fmt::Write;
    let mut text = String::with_capacity(32);
    let _ = write!(text, "{path}");
    text
}

fn source(file: &SettingsFile) -> SourceTrace {
    let state = match file.state {
        FileState::Missing => "missing",
        FileState::Loaded => "loaded",
        FileState::Unreadable(_) => "unreadable",
        FileState::Invalid(_) => "invalid",
        FileState::Untrusted => "untrusted",
    };
    SourceTrace {
        path: file.path.display().to_string(),
        scope: file.scope.as_str().to_string(),
        state: state.to_string(),
        hooks: file.hooks.iter().flat_map(|(_, groups)| groups).map(|g| g.hooks.len()).sum(),
        problems: file.diagnostics.len(),
        plugin: file.plugin.as_ref().map(|p| p.label()),
    }
}

/// A handler's name for people: a built-in's own, else its command, else its URL without the
/// query and without a user name or password (either may carry a token). A credential written
/// out in a command (`curl -H 'x-api-key: sk-ant-…'`) is masked, as `hooks validate` shows it.
pub fn hook_name(planned_runner: Option<&Runner>, spec: &crate::engine::config::settings::HookSpec) -> String {
    use crate::engine::config::settings::HookKind;
    if let Some(Runner::Builtin(call)) = planned_runner {
        return call.name.clone();
    }
    let name = match &spec.kind {
        HookKind::Http { url, .. } => {
            let bare = url.split(['?', '#']).next().unwrap_or(url);
            let bare = match bare.split_once("://") {
                Some((scheme, rest)) => match rest.split('/').next().and_then(|host| host.rsplit_once('@')) {
                    Some((_, host)) => format!("{scheme}://{host}{}", &rest[rest.find('/').unwrap_or(rest.len())..]),
                    None => bare.to_string(),
                },
                None => bare.to_string(),
            };
            format!("POST {bare}")
        }
        HookKind::Prompt { .. } => "prompt".to_string(),
        HookKind::Agent { .. } => "agent".to_string(),
        kind => kind.label(),
    };
    redact(&name).into_owned()
}

fn runner_kind(runner: &Runner) -> &'static str {
    match runner {
        Runner::Builtin(_) => "builtin",
        Runner::Spawn => "command",
        Runner::Detached => "async",
        Runner::Http => "http",
        Runner::NotRunnable(kind) => kind,
    }
}

fn skipped(dropped: &Dropped<'_>) -> SkippedTrace {
    SkippedTrace {
        name: hook_name(None, dropped.origin.spec),
        origin: dropped.origin.describe(),
        if_rule: dropped.origin.spec.if_rule.clone(),
        why: dropped.why.clone(),
    }
}

impl HookTrace {
    /// A planned handler, before it runs.
    pub fn planned(planned: &Planned<'_>) -> HookTrace {
        HookTrace {
            name: hook_name(Some(&planned.runner), planned.origin.spec),
            kind: runner_kind(&planned.runner).to_string(),
            origin: planned.origin.describe(),
            if_rule: planned.origin.spec.if_rule.clone(),
            ..HookTrace::default()
        }
    }

    /// How it ran; under [`TraceMode::Full`] (`full`), with its stdout and stderr.
    pub fn ran(&mut self, raw: &RawOutput, outcome: &Outcome, event: HookEvent, full: bool) {
        self.exit = raw.exit_code;
        self.wall_ms = millis(raw.wall);
        self.decision = outcome_decision(outcome, event).to_string();
        self.timed_out = matches!(outcome, Outcome::Cancelled { .. });
        self.lingered = raw.unterminated;
        self.stdout_bytes = raw.stdout.len() as u64 + raw.stdout_dropped;
        self.stderr_bytes = raw.stderr.len() as u64 + raw.stderr_dropped;
        if full {
            self.stdout = Some(capped(&raw.stdout));
            self.stderr = Some(capped(&raw.stderr));
        }
    }
}

/// A duration in milliseconds, to the microsecond.
pub fn millis(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

/// Output as text, at most [`FULL_OUTPUT_CAP`] bytes of it (see [`cut`]).
pub fn capped(bytes: &[u8]) -> String {
    let mut text = String::from_utf8_lossy(bytes).into_owned();
    cut(&mut text, FULL_OUTPUT_CAP);
    text
}

/// Cuts `text` to its first `max` bytes (at a character boundary) when it is longer, and says so
/// at the cut: `… [N more bytes]`.
pub fn cut(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let more = text.len() - end;
    text.truncate(end);
    text.push_str(&format!("… [{more} more bytes]"));
}

/// What one handler decided, in one word.
pub fn outcome_decision(outcome: &Outcome, event: HookEvent) -> &'static str {
    match outcome {
        Outcome::Answered { json: Some(json), .. } => json_decision(json).unwrap_or("ok"),
        Outcome::Answered { json: None, plain: Some(_) } => "context",
        Outcome::Answered { json: None, plain: None } => "ok",
        Outcome::Blocked { .. } if crate::protocol::events::decides_permission(event) => "deny",
        Outcome::Blocked { .. } => "block",
        Outcome::Failed { .. } => "error",
        Outcome::Refused { .. } => "refused",
        Outcome::Cancelled { .. } => "timeout",
    }
}

fn json_decision(json: &HookJson) -> Option<&'static str> {
    if json.continue_ == Some(false) {
        return Some("stop");
    }
    if let Some(permission) = json.specific_str("permissionDecision").and_then(Permission::parse) {
        return Some(permission.as_str());
    }
    match json.decision.as_deref() {
        Some("block") => return Some("block"),
        Some("approve") => return Some("allow"),
        _ => {}
    }
    if let Some(Value::Object(decision)) = json.specific.get("decision") {
        return match decision.get("behavior").and_then(Value::as_str) {
            Some("allow") => Some("allow"),
            Some("deny") => Some("deny"),
            _ => None,
        };
    }
    json.specific.contains_key("additionalContext").then_some("context")
}

/// The combined answer in one word: the strongest thing it does.
pub fn combined_decision(combined: &Combined) -> &'static str {
    if let Some((permission, _)) = &combined.permission {
        if *permission != Permission::Allow {
            return permission.as_str();
        }
    }
    if !combined.blocks.is_empty() || !combined.exit_blocks.is_empty() {
        return "block";
    }
    if combined.stop.is_some() {
        return "stop";
    }
    if let Some(request) = &combined.permission_request {
        if let Some(behavior) = request.get("behavior").and_then(Value::as_str) {
            return if behavior == "deny" { "deny" } else { "allow" };
        }
    }
    if combined.permission.is_some() {
        return "allow";
    }
    if !combined.context.is_empty() {
        return "context";
    }
    "none"
}
