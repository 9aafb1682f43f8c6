//! The plan: from an event and the loaded settings, the ordered, deduplicated list of handlers to
//! run, each with where it was defined, and for every group that does not apply, why.
//!
//! This is a pure function, with no I/O, so that `dry-run`, `hooks list` and tests can show it
//! without running anything.

use crate::engine::config::settings::{Group, HookKind, HookSpec, Scope, SettingsFile, MAX_TIMEOUT};
use crate::engine::config::sources::Sources;
use crate::engine::select::builtin::{self, BuiltinCall};
use crate::engine::select::matcher::{self, Verdict};
use crate::engine::select::rule::{IfVerdict, Rule};
use hookmux_sdk::{Event, HookEvent, Registry};
use std::path::PathBuf;
use std::time::Duration;

/// Inputs besides the event and the settings.
#[derive(Clone, Debug, Default)]
pub struct PlanOptions {
    pub project_root: PathBuf,
    pub home: Option<PathBuf>,
    /// `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`, when set.
    pub session_end_budget: Option<Duration>,
}

/// Which hooks the global switches let through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gate {
    All,
    ManagedOnly { because: String },
    Nothing { because: String },
}

/// Where a handler was written.
#[derive(Clone, Copy, Debug)]
pub struct Origin<'s> {
    pub file: &'s SettingsFile,
    pub spec: &'s HookSpec,
}

impl Origin<'_> {
    /// `path/to/settings.json at hooks.PreToolUse[0].hooks[1]`, after `plugin NAME@MARKET 1.0.0:`
    /// for a plugin's.
    pub fn describe(&self) -> String {
        match &self.file.plugin {
            Some(plugin) => format!("plugin {}: {} at {}", plugin.label(), self.file.path.display(), self.spec.path),
            None => format!("{} at {}", self.file.path.display(), self.spec.path),
        }
    }
}

/// A group of the event, and whether it applies.
#[derive(Clone, Debug)]
pub struct GroupReport<'s> {
    pub file: &'s SettingsFile,
    pub group: &'s Group,
    pub verdict: Verdict,
}

/// How a planned handler will run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Runner {
    /// A registered handler, called in-process.
    Builtin(BuiltinCall),
    /// A process, waited for.
    Spawn,
    /// `async: true`: started detached, not waited for.
    Detached,
    /// POSTed to a URL.
    Http,
    /// `prompt`, `agent`, `mcp_tool`: need the host's model or MCP client.
    NotRunnable(&'static str),
}

/// One handler to run.
#[derive(Clone, Debug)]
pub struct Planned<'s> {
    /// The definition that wins (the last one in source order).
    pub origin: Origin<'s>,
    /// Every other definition collapsed into this one, in order.
    pub duplicates: Vec<Origin<'s>>,
    pub timeout: Duration,
    pub runner: Runner,
}

/// A matching handler that will not run, and why.
#[derive(Clone, Debug)]
pub struct Dropped<'s> {
    pub origin: Origin<'s>,
    pub why: String,
}

#[derive(Clone, Debug)]
pub struct Plan<'s> {
    /// `hook_event_name` as sent.
    pub event_name: Option<String>,
    pub event: Option<HookEvent>,
    /// The value matchers were tested against.
    pub query: Option<String>,
    pub gate: Gate,
    pub groups: Vec<GroupReport<'s>>,
    pub handlers: Vec<Planned<'s>>,
    pub dropped: Vec<Dropped<'s>>,
    /// Why nothing could be planned (no event name, unknown event), if so.
    pub problem: Option<String>,
}

impl<'s> Plan<'s> {
    /// Claude Code's name for this occurrence in messages: `PreToolUse:Bash`, or just `Stop`.
    pub fn hook_name(&self) -> String {
        let event = self.event_name.as_deref().unwrap_or("hook");
        match (&self.query, self.event.map(HookEvent::match_field)) {
            (Some(query), Some(field)) if field != hookmux_sdk::MatchField::None => format!("{event}:{query}"),
            _ => event.to_string(),
        }
    }

    /// The plan with no handler waited for longer than `left`: a host that stops waiting for
    /// the answer at a fixed time (Cline kills a hook after 120 s) gets one in time, every
    /// handler past its share counting as timed out.
    pub fn within(&self, left: Duration) -> Plan<'s> {
        let mut plan = self.clone();
        for handler in &mut plan.handlers {
            handler.timeout = handler.timeout.min(left);
        }
        plan
    }
}

/// Builds the plan.
pub fn plan<'s>(event: &Event, sources: &'s Sources, options: &PlanOptions) -> Plan<'s> {
    let event_name = event.name().map(str::to_string);
    let mut plan = Plan {
        event_name: event_name.clone(),
        event: event.kind(),
        query: None,
        gate: gate(sources),
        groups: Vec::new(),
        handlers: Vec::new(),
        dropped: Vec::new(),
        problem: None,
    };
    let Some(kind) = event.kind() else {
        plan.problem = Some(match (&event_name, event.parse_error()) {
            (_, Some(error)) => format!("{error}; nothing to run"),
            (None, None) => "the event has no `hook_event_name`; nothing to run".to_string(),
            (Some(name), None) => format!(
                "`{name}` is not a hook event name (event names are PascalCase and case-sensitive, as `PreToolUse`); nothing to run"
            ),
        });
        return plan;
    };
    plan.query = event.match_query();

    // Collect matching handlers in source order, noting every group's verdict.
    let mut candidates: Vec<Origin<'s>> = Vec::new();
    for file in sources.files.iter().filter(|f| f.is_usable()) {
        let allowed = match &plan.gate {
            Gate::All => true,
            Gate::ManagedOnly { .. } => file.is_managed(),
            Gate::Nothing { .. } => false,
        };
        for group in file.groups(kind) {
            let verdict = if allowed {
                matcher::group_verdict(group.matcher.as_deref(), kind, plan.query.as_deref())
            } else {
                let because = match &plan.gate {
                    Gate::ManagedOnly { because } | Gate::Nothing { because } => because.clone(),
                    Gate::All => unreachable!("allowed"),
                };
                Verdict::NotMatched(format!("hooks from this file are off: {because}"))
            };
            if verdict.is_match() {
                candidates.extend(group.hooks.iter().map(|spec| Origin { file, spec }));
            }
            plan.groups.push(GroupReport { file, group, verdict });
        }
    }

    // Deduplicate: the first definition keeps its place, the last one's settings win. A plugin's
    // handlers are deduplicated among that plugin's own only.
    let mut merged: Vec<(Identity, Vec<Origin<'s>>)> = Vec::new();
    for origin in candidates {
        let key = identity(origin.file, origin.spec);
        match merged.iter_mut().find(|(k, _)| *k == key) {
            Some((_, origins)) => origins.push(origin),
            None => merged.push((key, vec![origin])),
        }
    }

    let registry = Registry::global().ok();
    for (_, mut origins) in merged {
        let winner = origins.pop().expect("at least one definition");
        if let Some(why) = drop_reason(winner.spec, kind, event, options) {
            plan.dropped.push(Dropped { origin: winner, why });
            continue;
        }
        let runner = runner(winner.spec, registry);
        plan.handlers.push(Planned { origin: winner, duplicates: origins, timeout: Duration::ZERO, runner });
    }
    assign_timeouts(&mut plan.handlers, kind, options);
    plan
}

pub(crate) fn gate(sources: &Sources) -> Gate {
    let usable = || sources.files.iter().filter(|f| f.is_usable());
    let managed_only = usable()
        .filter(|f| f.scope == Scope::Managed)
        .filter_map(|f| f.allow_managed_hooks_only.map(|v| (v, f)))
        .next_back();
    // Scalars: managed > --settings > local > project > user; within a tier, the later file wins.
    let disable = usable()
        .filter_map(|f| f.disable_all_hooks.map(|v| (v, f)))
        .max_by_key(|(_, f)| (f.scope.precedence(), sources.files.iter().position(|g| std::ptr::eq(g, *f))));
    if let Some((true, file)) = disable {
        let because = format!("disableAllHooks is true in {}", file.path.display());
        return if file.scope == Scope::Managed { Gate::Nothing { because } } else { Gate::ManagedOnly { because } };
    }
    if let Some((true, file)) = managed_only {
        return Gate::ManagedOnly { because: format!("allowManagedHooksOnly is true in {}", file.path.display()) };
    }
    Gate::All
}

/// Claude Code's identity of a handler: the same command (with its shell and `if`) defined twice
/// runs once; matcher, timeout and the rest are not part of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DedupKey {
    Command { shell: String, command: String, args: Option<Vec<String>>, if_rule: Option<String> },
    Http { url: String, if_rule: Option<String> },
    Prompt { kind: &'static str, prompt: String, if_rule: Option<String> },
    Mcp { server: String, tool: String, input: String, if_rule: Option<String> },
}

/// A handler's identity for deduplication: its [`DedupKey`], within its plugin. Claude Code runs
/// one command twice when a plugin and the settings (or two plugins) both define it, and once
/// when one plugin defines it twice.
pub(crate) type Identity = (Option<String>, DedupKey);

pub(crate) fn identity(file: &SettingsFile, spec: &HookSpec) -> Identity {
    (file.plugin.as_ref().map(|plugin| plugin.id.clone()), dedup_key(spec))
}

pub(crate) fn dedup_key(spec: &HookSpec) -> DedupKey {
    let if_rule = spec.if_rule.clone();
    match &spec.kind {
        HookKind::Command { command, args, shell, .. } => DedupKey::Command {
            shell: shell.clone().unwrap_or_else(|| "bash".to_string()),
            command: command.clone(),
            args: args.clone(),
            if_rule,
        },
        HookKind::Http { url, .. } => DedupKey::Http { url: url.clone(), if_rule },
        HookKind::Prompt { prompt, .. } => DedupKey::Prompt { kind: "prompt", prompt: prompt.clone(), if_rule },
        HookKind::Agent { prompt, .. } => DedupKey::Prompt { kind: "agent", prompt: prompt.clone(), if_rule },
        HookKind::McpTool { server, tool, input } => DedupKey::Mcp {
            server: server.clone(),
            tool: tool.clone(),
            input: input.as_ref().map(ToString::to_string).unwrap_or_default(),
            if_rule,
        },
    }
}

fn drop_reason(spec: &HookSpec, kind: HookEvent, event: &Event, options: &PlanOptions) -> Option<String> {
    if let Some(text) = &spec.if_rule {
        if !kind.is_tool_event() {
            return Some(format!("`if` is only evaluated on tool events; on {kind} a handler with `if` never runs"));
        }
        match Rule::parse(text) {
            Ok(rule) => {
                if let IfVerdict::Skip(why) = rule.verdict(event, &options.project_root, options.home.as_deref()) {
                    return Some(why);
                }
            }
            Err(error) => return Some(format!("`if` rule cannot be read: {error}")),
        }
    }
    if matches!(spec.kind, HookKind::Http { .. }) && matches!(kind, HookEvent::SessionStart | HookEvent::Setup) {
        return Some(format!("http handlers do not run on {kind}"));
    }
    None
}

fn runner(spec: &HookSpec, registry: Option<&Registry>) -> Runner {
    match &spec.kind {
        HookKind::Command { is_async: true, .. } | HookKind::Command { async_rewake: true, .. } => Runner::Detached,
        HookKind::Command { command, args, .. } => {
            match registry.and_then(|r| builtin::recognise(command, args.as_deref(), r)) {
                Some(call) => Runner::Builtin(call),
                None => Runner::Spawn,
            }
        }
        HookKind::Http { .. } => Runner::Http,
        other => Runner::NotRunnable(other.type_name()),
    }
}

/// Default timeouts (Claude Code's): 600 s for commands and http, 30 s on UserPromptSubmit,
/// 10 s on MessageDisplay, 30 s for prompt and 60 s for agent handlers. SessionEnd hooks share
/// one budget: 1.5 s, raised to the largest `timeout` among them, at most 60 s, unless
/// `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS` sets it.
pub(crate) fn default_timeout(spec: &HookSpec, event: HookEvent) -> Duration {
    match (&spec.kind, event) {
        (HookKind::Prompt { .. }, _) => Duration::from_secs(30),
        (HookKind::Agent { .. }, _) => Duration::from_secs(60),
        (_, HookEvent::UserPromptSubmit) => Duration::from_secs(30),
        (_, HookEvent::MessageDisplay) => Duration::from_secs(10),
        (_, HookEvent::SessionEnd) => Duration::from_millis(1500),
        _ => Duration::from_secs(600),
    }
}

fn assign_timeouts(handlers: &mut [Planned<'_>], kind: HookEvent, options: &PlanOptions) {
    let default = |spec: &HookSpec| default_timeout(spec, kind);
    let configured = |spec: &HookSpec| spec.wait();
    if kind == HookEvent::SessionEnd {
        let budget = options.session_end_budget.map(|budget| budget.min(MAX_TIMEOUT)).unwrap_or_else(|| {
            let largest = handlers.iter().filter_map(|h| configured(h.origin.spec)).max().unwrap_or_default();
            largest.clamp(Duration::from_millis(1500), Duration::from_secs(60))
        });
        for handler in handlers {
            handler.timeout = configured(handler.origin.spec).unwrap_or(budget).min(budget);
        }
        return;
    }
    for handler in handlers {
        handler.timeout = configured(handler.origin.spec).unwrap_or_else(|| default(handler.origin.spec));
    }
}

#[cfg(test)]
mod tests;
