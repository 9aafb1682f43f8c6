//! The one path from events to a verdict that every host takes: discover and load the settings,
//! plan each event, run the plans, classify and combine every result.
//!
//! dispatch never blocks the host because of its own trouble: an unreadable settings file or a
//! handler it cannot run becomes a [`Notice`] for the user; the hooks that can run still run.
//! What it cannot do at all (an event that is no hook event) is a [`NotRun`], which each host
//! answers in its own way.

use crate::engine::config::diagnostic::Diagnostic;
use crate::engine::config::settings::HookKind;
use crate::engine::config::settings::SettingsFile;
use crate::engine::config::sources::{self, Discovery, Sources};
use crate::engine::config::trust::HostTrust;
use crate::engine::execute::builtin::hook_cwd;
use crate::engine::execute::detached::{self, Records};
use crate::engine::execute::http::HttpPolicy;
use crate::engine::execute::process::{self, CAPTURE_CAP};
use crate::engine::execute::run::{self, Ran, RunContext, DISPATCH_CHAIN};
use crate::engine::notice::{Notice, Stream, Teller};
use crate::engine::select::builtin;
use crate::engine::select::plan::{self, Gate, Plan, PlanOptions};
use crate::engine::trace::record::HookTrace;
use crate::engine::trace::{self, Record, Recorder, TraceMode};
use crate::engine::verdict::combine::{self, Combined, Labelled};
use crate::engine::verdict::outcome::{self, Outcome};
use hookmux_sdk::{Env, Event, HookEvent, ProjectTrust, Registry};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// How long dispatch waits, after answering is ready, for detached (`async`) hooks to receive
/// their input.
const DETACHED_STDIN_WAIT: Duration = Duration::from_secs(1);

#[derive(Clone, Debug, Default)]
pub struct DispatchOptions {
    /// `--settings` files: when given, the only sources.
    pub settings: Vec<PathBuf>,
    /// `--installed`: the hooks behind the installed entries of the discovered settings.
    pub installed: bool,
    /// What the host says about the project's trust; the host adapter sets it. Unknown (left to
    /// hookmux's trust list) unless a host says otherwise.
    pub host_trust: HostTrust,
    /// Run the enabled Claude Code plugins' hooks too. Hosts other than Claude Code set it: Claude
    /// Code runs its plugins' hooks itself.
    pub plugins: bool,
    /// How long the host waits for the answer, where it stops waiting at a fixed time (Cline
    /// kills a hook after 120 s): no handler is waited for past it, so the one answer always
    /// arrives. `None`: every handler keeps its own timeout.
    pub answer_within: Option<Duration>,
    /// The host's name, as `--host` spells it: with the session id, it makes the session's mark
    /// on the detached hooks dispatch starts (see [`detached`]).
    pub host: &'static str,
}

/// The world dispatch runs in, gathered by the caller (the CLI: the process's own).
pub struct World {
    pub env: Env,
    pub cwd: PathBuf,
    /// The trace of the dispatch run in it: the engine fills it, the host writes it.
    pub trace: Recorder,
}

impl World {
    pub fn new(env: Env, cwd: PathBuf) -> World {
        World { env, cwd, trace: Recorder::default() }
    }
}

/// Why dispatch ran nothing at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotRun {
    /// The host adapter mapped its event to no Claude event.
    #[error("no hook event to run")]
    NoEvent,
    /// The event is not one hooks are configured for (`hook_event_name` missing or unknown).
    #[error("{0}")]
    NotAHookEvent(String),
}

/// How one planned handler went, for callers that show it (`dry-run --exec`).
#[derive(Clone, Debug)]
pub struct HandlerRun {
    /// `None`: not run, killed by a signal, or timed out.
    pub exit_code: Option<i32>,
    pub wall: Duration,
    /// `None` when the handler was not run or was started in the background (see `note`).
    pub outcome: Option<Outcome>,
    pub note: Option<String>,
}

/// The one verdict for a host event, in Claude Code's terms, for a host encoder to translate.
pub struct Verdict {
    /// The Claude event the host event was mapped to (the first, when there were several).
    pub kind: HookEvent,
    /// Every handler's outcome folded into one; `notices` starts with dispatch's own.
    pub combined: Combined,
    /// Plain stdout of every handler that answered with text, in configured order: hosts that
    /// read it where Claude Code drops it from the model (PreCompact instructions) need it.
    pub plain: Vec<String>,
    /// One per planned handler, in plan order.
    pub runs: Vec<HandlerRun>,
}

/// The settings and the project one dispatch works with, found from its first event.
pub struct Setup {
    pub sources: Sources,
    pub project_root: PathBuf,
    pub plan_options: PlanOptions,
    /// Files whose hooks were left out: a dispatch of this session that a hook started already
    /// reads them (a loop).
    pub re_entered: Vec<PathBuf>,
    /// Whether the project is trusted: what decided whether its settings run, handed to the
    /// built-ins, which read project files too. Untrusted unless discovery decided.
    pub project_trust: ProjectTrust,
    /// [`DISPATCH_CHAIN`] for the handlers this dispatch starts.
    chain: String,
    /// When the host stops waiting for the answer ([`DispatchOptions::answer_within`]).
    pub deadline: Option<Instant>,
    /// The session's mark on the detached hooks this dispatch starts, and whose detached hooks
    /// its SessionEnd ends; `None` without a session id.
    pub session_mark: Option<String>,
}

impl Setup {
    /// Discovers and loads the settings for `event`.
    pub fn discover(event: &Event, world: &World, options: &DispatchOptions) -> Setup {
        let mut discovery = Discovery::new(&world.env, event, options.settings.clone())
            .for_host(options.host_trust, &world.env)
            .with_plugins(options.plugins);
        if options.installed {
            discovery = discovery.installed_only();
        }
        let sources = Sources::load(&discovery);
        let project_trust = discovery.project_trust;
        let project_root = project_root_for(&world.env, event, &world.cwd);
        let plan_options = PlanOptions {
            project_root: project_root.clone(),
            home: hookmux_platform::dirs::home(&world.env),
            session_end_budget: world
                .env
                .get("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
                .and_then(|ms| ms.trim().parse::<u64>().ok())
                .map(Duration::from_millis),
        };
        let session_mark =
            event.session_id().filter(|id| !id.is_empty()).map(|id| detached::session_mark(options.host, id));
        Setup {
            project_trust,
            session_mark,
            ..Setup::new(sources, project_root, plan_options, &world.env, event.session_id())
        }
    }

    /// Leaves out the hooks of files that the dispatches which led to this one (for the same
    /// session) already read, and notes this dispatch's files for the handlers it starts.
    pub fn new(
        mut sources: Sources,
        project_root: PathBuf,
        plan_options: PlanOptions,
        env: &Env,
        session: Option<&str>,
    ) -> Setup {
        let mut chain = Chain::from_env(env, session);
        let outer = chain.files.len();
        let mut re_entered = Vec::new();
        for file in sources.files.iter_mut().filter(|f| f.is_usable() && !f.hooks.is_empty()) {
            let real = hookmux_platform::fs::canonicalize(&file.path).unwrap_or_else(|_| file.path.clone());
            if chain.files[..outer].contains(&real) {
                file.hooks.clear();
                re_entered.push(file.path.clone());
            } else if !chain.files.contains(&real) {
                chain.files.push(real);
            }
        }
        Setup {
            sources,
            project_root,
            plan_options,
            re_entered,
            project_trust: ProjectTrust::Untrusted,
            chain: chain.to_env(),
            deadline: None,
            session_mark: None,
        }
    }
}

/// The settings files that the dispatches of one session which led here read: a hook of theirs
/// started this one.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct Chain {
    session: String,
    files: Vec<PathBuf>,
}

impl Chain {
    /// The chain this dispatch inherits: none from another session (a host a hook started has a
    /// session of its own), or from a value that does not read.
    fn from_env(env: &Env, session: Option<&str>) -> Chain {
        let session = session.unwrap_or_default();
        env.get(DISPATCH_CHAIN)
            .and_then(|text| serde_json::from_str::<Chain>(text).ok())
            .filter(|chain| chain.session == session)
            .unwrap_or_else(|| Chain { session: session.to_string(), files: Vec::new() })
    }

    fn to_env(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Runs the Claude hooks for the events a host mapped from one host event, and folds every
/// outcome into one verdict. One host event may stand for several Claude ones (a Codex patch that
/// touches three files is three Claude edits); all are planned with the same settings, and their
/// outcomes are combined as if they were one event's handlers, so that any deny wins.
pub fn dispatch(events: &[Event], world: &World, options: &DispatchOptions) -> Result<Verdict, NotRun> {
    let started = (SystemTime::now(), Instant::now());
    let first = events.first().ok_or(NotRun::NoEvent)?;
    let mut setup = Setup::discover(first, world, options);
    setup.deadline = options.answer_within.map(|within| started.1 + within);
    start_trace(world, &setup, first, started);
    world.trace.update(|record| record.events = (events.len() > 1).then_some(events.len()));
    let plans: Vec<Plan<'_>> =
        events.iter().map(|event| plan::plan(event, &setup.sources, &setup.plan_options)).collect();
    let planned: Vec<(&Event, &Plan<'_>)> = events.iter().zip(&plans).collect();
    let result = run_plans(&planned, &setup, world, false);
    if let Err(why) = &result {
        world.trace.update(|record| record.problem = Some(why.to_string()));
    }
    result
}

/// Starts the trace of a dispatch (see [`trace`]), when the settings and the environment want one.
fn start_trace(world: &World, setup: &Setup, first: &Event, started: (SystemTime, Instant)) {
    let mode = trace::mode(&world.env, &setup.sources);
    if mode == TraceMode::Off {
        return;
    }
    let mut record = Record::for_event(first, mode);
    record.add_sources(&setup.sources);
    world.trace.start(&world.env, mode, record, started);
}

/// Runs plans already made (by [`dispatch`], or by `dry-run --exec`, which shows them first)
/// and folds their outcomes into one verdict. `dry`: built-ins write no state, and every notice
/// is told (a dry run writes no markers). Either way, a few notices are told in full and the
/// rest counted.
pub fn run_plans(planned: &[(&Event, &Plan<'_>)], setup: &Setup, world: &World, dry: bool) -> Result<Verdict, NotRun> {
    let (first, _) = planned.first().ok_or(NotRun::NoEvent)?;
    if let Some((_, plan)) = planned.iter().find(|(_, plan)| plan.event.is_none()) {
        return Err(NotRun::NotAHookEvent(plan.problem.clone().unwrap_or_default()));
    }
    let teller = Teller::new(&world.env, first.session_id(), dry);
    let first_kind = planned.first().and_then(|(_, plan)| plan.event);
    let mut run = Collected {
        dry,
        notices: setup.sources.diagnostics().filter_map(|d| teller.tell(&source_notice(&setup.sources, d))).collect(),
        ..Collected::default()
    };
    if let Some((project, files)) = &setup.sources.untrusted {
        run.notices.extend(teller.tell(&Notice::Untrusted { project: project.clone(), files: files.clone() }));
    }
    if !setup.re_entered.is_empty() {
        run.notices.extend(teller.tell(&Notice::Loop { files: setup.re_entered.clone() }));
    }
    if let Some(why) = world.trace.problem().filter(|_| !dry) {
        run.notices.extend(teller.tell(&Notice::TraceUnwritable { why }));
    }
    run.trace = world.trace.mode();
    // The session ends: its detached hooks that still run are ended first, as Claude Code ends
    // its own before it runs the SessionEnd hooks. The time that takes comes out of the SessionEnd
    // hooks' budget, which is the host's for this whole dispatch.
    let mut ending_took = None;
    if let Some(mark) = setup.session_mark.as_deref().filter(|_| !dry && first_kind == Some(HookEvent::SessionEnd)) {
        if let Some(records) = Records::open(&world.env, mark) {
            let ending = Instant::now();
            if records.end_all(mark) > 0 {
                ending_took = Some(ending.elapsed());
            }
        }
    }
    let mut kind = None;
    let mut hook_name = String::new();
    // Where each event's handlers end among the runs, for its own `updatedInput`.
    let mut ends = Vec::with_capacity(planned.len());
    for (event, plan) in planned {
        kind = kind.or(plan.event);
        if hook_name.is_empty() {
            hook_name = plan.hook_name();
        }
        // The plans run one after another: each gets what is left before the host's deadline,
        // less what ending a hook that overran takes.
        let bounded = setup.deadline.map(|at| {
            let left = at.saturating_duration_since(Instant::now());
            plan.within(left.saturating_sub(process::KILL_GRACE + process::QUIET_WINDOW))
        });
        let plan = bounded.as_ref().unwrap_or(plan);
        let shortened = ending_took.filter(|_| plan.event == Some(HookEvent::SessionEnd)).map(|took| {
            let budget = plan.handlers.iter().map(|handler| handler.timeout).max().unwrap_or_default();
            plan.within(budget.saturating_sub(took))
        });
        let plan = shortened.as_ref().unwrap_or(plan);
        run.notices.extend(Notice::unchecked_matchers(plan).filter_map(|notice| teller.tell(&notice)));
        world.trace.update(|record| record.add_plan(plan));
        run.collect(event, plan, setup, world, &teller);
        ends.push(run.runs.len());
    }
    run.notices.extend(teller.summary());
    run.notices.extend(teller.ledger_refused());
    let kind = kind.ok_or(NotRun::NoEvent)?;
    let updated_inputs = if planned.len() > 1 {
        let starts = std::iter::once(0).chain(ends.iter().copied());
        starts
            .zip(&ends)
            .zip(planned)
            .map(|((start, end), (_, plan))| {
                let own = run.labelled_in(start..*end);
                combine::combine(plan.event.unwrap_or(kind), &plan.hook_name(), &own).updated_input
            })
            .collect()
    } else {
        Vec::new()
    };
    let labelled = run.labelled();
    let mut combined = combine::combine(kind, &hook_name, &labelled);
    combined.notices.splice(0..0, run.notices.clone());
    let plain = labelled
        .iter()
        .filter_map(|l| match l.outcome {
            Outcome::Answered { plain: Some(text), .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    world.trace.update(|record| {
        record.hooks.append(&mut run.traces);
        record.set_combined(&combined);
    });
    wait_for_detached(std::mem::take(&mut run.detached));
    combined.updated_inputs =
        if updated_inputs.is_empty() { vec![combined.updated_input.clone()] } else { updated_inputs };
    Ok(Verdict { kind, combined, plain, runs: run.runs })
}

/// A problem of the settings as a notice: one that switches named hooks off is told on every event.
fn source_notice(sources: &Sources, diagnostic: &Diagnostic) -> Notice {
    if sources.switches_hooks_off(diagnostic) {
        Notice::HooksOff(diagnostic.clone())
    } else {
        Notice::Settings(diagnostic.clone())
    }
}

/// What the handlers of one or more plans gave, in plan order, before they are combined.
#[derive(Default)]
struct Collected {
    dry: bool,
    labels: Vec<String>,
    runs: Vec<HandlerRun>,
    /// dispatch's own notices, as told.
    notices: Vec<String>,
    detached: Vec<std::thread::JoinHandle<()>>,
    /// The trace's mode, when this dispatch is traced, and each handler's line of it.
    trace: Option<TraceMode>,
    traces: Vec<HookTrace>,
}

impl Collected {
    /// Runs one plan's handlers and appends their outcomes.
    fn collect(&mut self, event: &Event, plan: &Plan<'_>, setup: &Setup, world: &World, teller: &Teller) {
        let Some(kind) = plan.event else { return };
        if plan.handlers.is_empty() {
            return;
        }
        let cwd = hook_cwd(event, Some(&setup.project_root), &world.cwd);
        let mut cx = RunContext::new(
            Arc::new(event.clone()),
            &world.env,
            setup.project_root.clone(),
            cwd,
            http_policy(&setup.sources),
            &setup.chain,
            self.dry,
        );
        cx.project_trust = setup.project_trust;
        cx.session_mark = setup.session_mark.clone();
        cx.records =
            setup.session_mark.as_deref().filter(|_| !self.dry).and_then(|mark| Records::open(&world.env, mark));
        let (results, started) = run::run_plan(plan, &Arc::new(cx));
        self.detached.extend(started.into_iter().map(|hook| hook.writer));
        for (planned, ran) in plan.handlers.iter().zip(results) {
            let label = planned.origin.spec.kind.label();
            let mut traced = self.trace.map(|_| HookTrace::planned(planned));
            let run = match ran {
                Ran::Finished(raw) => {
                    for (stream, bytes) in [(Stream::Stdout, raw.stdout_dropped), (Stream::Stderr, raw.stderr_dropped)]
                    {
                        if bytes > 0 {
                            let notice = Notice::OutputDropped {
                                label: label.clone(),
                                stream,
                                bytes,
                                kept_mib: CAPTURE_CAP >> 20,
                            };
                            self.notices.extend(teller.tell(&notice));
                        }
                    }
                    let outcome = outcome::classify(&raw, kind, &label, planned.timeout);
                    if let Some(traced) = traced.as_mut() {
                        traced.ran(&raw, &outcome, kind, self.trace == Some(TraceMode::Full));
                    }
                    HandlerRun { exit_code: raw.exit_code, wall: raw.wall, outcome: Some(outcome), note: None }
                }
                Ran::Detached => HandlerRun {
                    exit_code: None,
                    wall: Duration::ZERO,
                    outcome: None,
                    note: Some("started in the background; not waited for".to_string()),
                },
                Ran::Skipped(why) => {
                    let notice =
                        Notice::NotRun { label: label.clone(), origin: planned.origin.describe(), why: why.clone() };
                    self.notices.extend(teller.tell(&notice));
                    HandlerRun {
                        exit_code: None,
                        wall: Duration::ZERO,
                        outcome: None,
                        note: Some(format!("not run: {why}")),
                    }
                }
            };
            if let Some(mut traced) = traced {
                if run.outcome.is_none() {
                    traced.decision =
                        if matches!(planned.runner, plan::Runner::Detached) { "background" } else { "not run" }
                            .to_string();
                    traced.note =
                        run.note.as_deref().map(|note| crate::engine::config::secrets::redact(note).into_owned());
                }
                self.traces.push(traced);
            }
            self.labels.push(label);
            self.runs.push(run);
        }
    }

    fn labelled(&self) -> Vec<Labelled<'_>> {
        self.labelled_in(0..self.runs.len())
    }

    /// The outcomes of the handlers `range` covers, with their labels.
    fn labelled_in(&self, range: std::ops::Range<usize>) -> Vec<Labelled<'_>> {
        self.labels[range.clone()]
            .iter()
            .zip(&self.runs[range])
            .filter_map(|(label, run)| run.outcome.as_ref().map(|outcome| Labelled { label, outcome }))
            .collect()
    }
}

/// The project root dispatch uses for `event`: `$CLAUDE_PROJECT_DIR`, else the event's `cwd`,
/// else `cwd`.
pub fn project_root_for(env: &Env, event: &Event, cwd: &Path) -> PathBuf {
    sources::project_root(env, event).unwrap_or_else(|| cwd.to_path_buf())
}

fn http_policy(sources: &Sources) -> HttpPolicy {
    let merge = |pick: fn(&SettingsFile) -> Option<&Vec<String>>| {
        let lists: Vec<&Vec<String>> = sources.files.iter().filter(|f| f.is_usable()).filter_map(pick).collect();
        if lists.is_empty() {
            return None;
        }
        let mut merged: Vec<String> = Vec::new();
        for item in lists.into_iter().flatten() {
            if !merged.contains(item) {
                merged.push(item.clone());
            }
        }
        Some(merged)
    };
    HttpPolicy {
        allowed_urls: merge(|f| f.allowed_http_hook_urls.as_ref()),
        allowed_env_vars: merge(|f| f.http_hook_allowed_env_vars.as_ref()),
    }
}

fn wait_for_detached(writers: Vec<std::thread::JoinHandle<()>>) {
    if writers.is_empty() {
        return;
    }
    let deadline = std::time::Instant::now() + DETACHED_STDIN_WAIT;
    for writer in writers {
        while !writer.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// The hooks of an event dispatch cannot read (not JSON, cut off): with no event name or tool to
/// match, no hook can be matched to it, so none runs. A guard (see `Handler::guards`) cannot
/// approve what it cannot read: every guard the settings configure, for any event, denies it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Unreadable {
    /// The guards' names, once each, in settings order.
    pub guards: Vec<&'static str>,
    /// The other hooks, skipped.
    pub skipped: usize,
}

impl Unreadable {
    /// The guards' reason for denying an event that cannot be read (`error` says why), or `None`
    /// when there are no guards.
    pub fn denial(&self, error: &str) -> Option<String> {
        let guards: Vec<String> = self.guards.iter().map(|name| format!("`{name}`")).collect();
        let deny = match guards.as_slice() {
            [] => return None,
            [one] => format!("{one} denies"),
            many => format!("{} deny", many.join(", ")),
        };
        Some(format!(
            "hookmux: the event could not be read ({error}), so {deny} it: a guard cannot approve what it \
             cannot read. Retry; if it persists, the host sent an event that is not JSON."
        ))
    }
}

/// What the settings would have run for an event that cannot be read.
pub fn unreadable(world: &World, options: &DispatchOptions) -> Unreadable {
    let started = (SystemTime::now(), Instant::now());
    // The event names no project: the one the host started dispatch in (`$CLAUDE_PROJECT_DIR`
    // first, else the current folder, where the hosts that set no variable run their hooks), so
    // that a project's guards deny it too.
    let cwd = world.cwd.to_string_lossy().into_owned();
    let event = Event::from_fields(serde_json::Map::from_iter([("cwd".to_string(), cwd.into())]));
    let setup = Setup::discover(&event, world, options);
    start_trace(world, &setup, &event, started);
    world.trace.update(|record| record.problem = Some("the event could not be read".to_string()));
    let registry = Registry::global().ok();
    let gate = plan::gate(&setup.sources);
    let mut found = Unreadable::default();
    // A hook found twice for one event (one file read as two scopes) runs once, as in a plan.
    let mut seen = Vec::new();
    for file in setup.sources.files.iter().filter(|f| f.is_usable()) {
        let allowed = match gate {
            Gate::All => true,
            Gate::ManagedOnly { .. } => file.is_managed(),
            Gate::Nothing { .. } => false,
        };
        let specs = file
            .hooks
            .iter()
            .flat_map(|(event, groups)| groups.iter().flat_map(|g| &g.hooks).map(move |s| (*event, s)));
        for (event, spec) in specs.filter(|_| allowed) {
            let key = (event, plan::identity(file, spec));
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let guard = match (&spec.kind, registry) {
                (HookKind::Command { command, args, .. }, Some(registry)) => {
                    builtin::recognise(command, args.as_deref(), registry)
                        .and_then(|call| registry.get(&call.name))
                        .filter(|handler| handler.guards())
                }
                _ => None,
            };
            match guard {
                Some(handler) if !found.guards.contains(&handler.info().name) => found.guards.push(handler.info().name),
                Some(_) => {}
                None => found.skipped += 1,
            }
        }
    }
    let decision = if found.guards.is_empty() { "none" } else { "deny" };
    world.trace.update(|record| record.answer.decision = decision.to_string());
    found
}
