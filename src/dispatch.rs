//! `hookmux dispatch`: one event in, every matching handler run, one answer out.
//!
//! dispatch never blocks the host because of its own trouble: a malformed event, an unreadable
//! settings file or a handler it cannot run is reported on stderr and, so that the user sees it,
//! in `systemMessage` (which the host shows the user, never the model); the hooks that can run
//! still run.

use crate::combine::{self, Combined, Labelled};
use crate::host::claude::{self, Encoded};
use crate::host::Host;
use crate::http::HttpPolicy;
use crate::outcome::{self, Outcome};
use crate::plan::{self, Plan, PlanOptions};
use crate::run::{self, Ran, RunContext, DISPATCH_MARKER};
use crate::sources::{self, Discovery, Sources};
use hookmux_sdk::{Env, Event, HookEvent};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How long dispatch waits, after answering is ready, for detached (`async`) hooks to receive
/// their input.
const DETACHED_STDIN_WAIT: Duration = Duration::from_secs(1);

#[derive(Clone, Debug, Default)]
pub struct DispatchOptions {
    /// `--settings` files: when given, the only sources.
    pub settings: Vec<PathBuf>,
}

/// The world dispatch runs in, gathered by the caller (the CLI: the process's own).
pub struct World {
    pub env: Env,
    pub cwd: PathBuf,
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

/// Everything one dispatch did.
pub struct Dispatched {
    pub encoded: Encoded,
    /// One per planned handler, in plan order.
    pub runs: Vec<HandlerRun>,
}

/// Runs dispatch on raw stdin.
pub fn dispatch(stdin: &str, world: &World, options: &DispatchOptions) -> Encoded {
    let event = Event::parse(stdin);
    if let Some(error) = event.parse_error() {
        return Encoded { stderr: format!("hookmux dispatch: {error}; no hooks ran\n"), ..Encoded::default() };
    }
    if let Some(marker) = world.env.get(DISPATCH_MARKER) {
        if marker == event.session_id().unwrap_or("-") {
            return Encoded::default();
        }
    }
    let discovery = Discovery::new(&world.env, &event, options.settings.clone());
    let sources = Sources::load(&discovery);
    let project_root = sources::project_root(&world.env, &event).unwrap_or_else(|| world.cwd.clone());
    let plan_options = plan_options(world, project_root.clone());
    let plan = plan::plan(&event, &sources, &plan_options);
    run_and_answer(&event, &sources, &plan, world, project_root, false).encoded
}

/// Runs a plan and builds the answer (shared with `dry-run --exec`).
pub fn run_and_answer(
    event: &Event,
    sources: &Sources,
    plan: &Plan<'_>,
    world: &World,
    project_root: PathBuf,
    dry: bool,
) -> Dispatched {
    let Some(kind) = plan.event else {
        let problem = plan.problem.clone().unwrap_or_default();
        let encoded = Encoded { stderr: format!("hookmux dispatch: {problem}\n"), ..Encoded::default() };
        return Dispatched { encoded, runs: Vec::new() };
    };
    let mut run = Collected { dry, notices: source_notices(sources, world, event, dry), ..Collected::default() };
    run.collect(event, sources, plan, world, project_root);

    let labelled = run.labelled();
    let mut combined: Combined = combine::combine(kind, &plan.hook_name(), &labelled);
    combined.notices.splice(0..0, run.notices.clone());

    let mut encoded = claude::encode_combined(&combined, kind);
    encoded.stderr = notices_then(&combined.notices, &encoded.stderr);
    wait_for_detached(std::mem::take(&mut run.detached));
    Dispatched { encoded, runs: run.runs }
}

/// What the handlers of one or more plans gave, in plan order, before they are combined.
#[derive(Default)]
struct Collected {
    /// Built-ins write no state, and notices are not marked as told (a dry run writes nothing).
    dry: bool,
    labels: Vec<String>,
    runs: Vec<HandlerRun>,
    /// dispatch's own problems (settings, handlers it could not run), reported once per session.
    notices: Vec<String>,
    detached: Vec<std::thread::JoinHandle<()>>,
}

impl Collected {
    /// Runs one plan's handlers and appends their outcomes.
    fn collect(&mut self, event: &Event, sources: &Sources, plan: &Plan<'_>, world: &World, project_root: PathBuf) {
        let Some(kind) = plan.event else { return };
        if plan.handlers.is_empty() {
            return;
        }
        let cwd = crate::builtin::hook_cwd(event, Some(&project_root), &world.cwd);
        let cx =
            RunContext::new(Arc::new(event.clone()), &world.env, project_root, cwd, http_policy(sources), self.dry);
        let (results, writers) = run::run_plan(plan, &Arc::new(cx));
        self.detached.extend(writers);
        for (planned, ran) in plan.handlers.iter().zip(results) {
            let label = planned.origin.spec.kind.label();
            let run = match ran {
                Ran::Finished(raw) => {
                    for (stream, dropped) in [("stdout", raw.stdout_dropped), ("stderr", raw.stderr_dropped)] {
                        if dropped > 0 {
                            self.notices.push(format!(
                                "hookmux: [{label}] wrote {dropped} bytes of {stream} past the {} MiB kept; they were dropped",
                                crate::process::CAPTURE_CAP >> 20
                            ));
                        }
                    }
                    HandlerRun {
                        exit_code: raw.exit_code,
                        wall: raw.wall,
                        outcome: Some(outcome::classify(&raw, kind, &label, planned.timeout)),
                        note: None,
                    }
                }
                Ran::Detached => HandlerRun {
                    exit_code: None,
                    wall: Duration::ZERO,
                    outcome: None,
                    note: Some("started in the background; not waited for".to_string()),
                },
                Ran::Skipped(why) => {
                    let text = format!("hookmux: [{label}] ({}) was not run: {why}", planned.origin.describe());
                    if self.dry || first_report(&world.env, event.session_id(), &text) {
                        self.notices.push(text);
                    }
                    HandlerRun {
                        exit_code: None,
                        wall: Duration::ZERO,
                        outcome: None,
                        note: Some(format!("not run: {why}")),
                    }
                }
            };
            self.labels.push(label);
            self.runs.push(run);
        }
    }

    fn labelled(&self) -> Vec<Labelled<'_>> {
        self.labels
            .iter()
            .zip(&self.runs)
            .filter_map(|(label, run)| run.outcome.as_ref().map(|outcome| Labelled { label, outcome }))
            .collect()
    }
}

/// Problems with the settings files, each told once per session (every time in a dry run, which
/// writes no markers).
fn source_notices(sources: &Sources, world: &World, event: &Event, dry: bool) -> Vec<String> {
    sources
        .diagnostics()
        .map(|diagnostic| format!("hookmux: {diagnostic}"))
        .filter(|text| dry || first_report(&world.env, event.session_id(), text))
        .collect()
}

/// The notices, one a line, then the encoder's own stderr.
fn notices_then(notices: &[String], encoder_stderr: &str) -> String {
    let mut stderr: String = notices.iter().map(|n| format!("{n}\n")).collect();
    if !encoder_stderr.is_empty() {
        stderr.push_str(encoder_stderr);
        stderr.push('\n');
    }
    stderr
}

/// The one verdict for a host event, in Claude Code's terms, for a host encoder to translate.
pub struct HostVerdict {
    /// The Claude event the host event was mapped to.
    pub kind: HookEvent,
    pub combined: Combined,
    /// Plain stdout of every handler that answered with text, in configured order: hosts that
    /// read it where Claude Code drops it from the model (PreCompact instructions) need it.
    pub plain: Vec<String>,
}

/// Runs the Claude hooks for events a host adapter mapped from one host event, and folds every
/// outcome into one verdict. One host event may stand for several Claude ones (a Codex patch that
/// touches three files is three Claude edits); all are planned with the same settings, and their
/// outcomes are combined as if they were one event's handlers, so that any deny wins.
///
/// `Err` carries what to print when there is nothing to run: a malformed event, an event that
/// is not a hook event, or a dispatch started by a hook of a dispatch for the same session.
pub fn run_for_host(events: &[Event], world: &World, options: &DispatchOptions) -> Result<HostVerdict, Encoded> {
    let Some(first) = events.first() else { return Err(Encoded::default()) };
    if let Some(marker) = world.env.get(DISPATCH_MARKER) {
        if marker == first.session_id().unwrap_or("-") {
            return Err(Encoded::default());
        }
    }
    let discovery = Discovery::new(&world.env, first, options.settings.clone());
    let sources = Sources::load(&discovery);
    let project_root = sources::project_root(&world.env, first).unwrap_or_else(|| world.cwd.clone());
    let plan_options = plan_options(world, project_root.clone());
    let mut run = Collected { notices: source_notices(&sources, world, first, false), ..Collected::default() };
    let mut kind = None;
    let mut hook_name = String::new();
    for event in events {
        let plan = plan::plan(event, &sources, &plan_options);
        let Some(this) = plan.event else {
            let problem = plan.problem.clone().unwrap_or_default();
            return Err(Encoded { stderr: format!("hookmux dispatch: {problem}\n"), ..Encoded::default() });
        };
        kind.get_or_insert(this);
        if hook_name.is_empty() {
            hook_name = plan.hook_name();
        }
        run.collect(event, &sources, &plan, world, project_root.clone());
    }
    let Some(kind) = kind else { return Err(Encoded::default()) };
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
    wait_for_detached(std::mem::take(&mut run.detached));
    Ok(HostVerdict { kind, combined, plain })
}

/// Runs dispatch for `host`: Claude Code's own protocol, or a host adapter's.
pub fn dispatch_for(host: Host, stdin: &str, world: &World, options: &DispatchOptions) -> Encoded {
    match host {
        Host::Claude => dispatch(stdin, world, options),
        Host::Codex => crate::host::codex::dispatch(stdin, world, options),
        Host::Opencode => crate::host::opencode::dispatch(stdin, world, options),
    }
}

/// Adds dispatch's notices (and the encoder's own stderr) to a host's answer, as for Claude Code.
pub fn with_notices(mut encoded: Encoded, notices: &[String]) -> Encoded {
    encoded.stderr = notices_then(notices, &encoded.stderr);
    encoded
}

fn plan_options(world: &World, project_root: PathBuf) -> PlanOptions {
    PlanOptions {
        project_root,
        home: world.env.path("HOME"),
        session_end_budget: world
            .env
            .get("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
            .and_then(|ms| ms.trim().parse::<u64>().ok())
            .map(Duration::from_millis),
    }
}

fn http_policy(sources: &Sources) -> HttpPolicy {
    let merge = |pick: fn(&crate::settings::SettingsFile) -> Option<&Vec<String>>| {
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

/// How long a once-per-session marker is kept: a session resumed later is told again.
const NOTICE_MARKER_AGE: Duration = Duration::from_secs(7 * 24 * 3600);

/// Reports a problem of dispatch's own once per session rather than on every event: a marker
/// file per (session, message) under `$TMPDIR/hookmux-notices-<uid>/`. Without a session, or
/// when the marker cannot be written, it is always reported. Each new marker clears the
/// folder of markers older than [`NOTICE_MARKER_AGE`], so it stays as small as the problems of
/// the last week.
fn first_report(env: &Env, session: Option<&str>, text: &str) -> bool {
    let Some(session) = session.filter(|s| !s.is_empty()) else { return true };
    let safe_session: String = session.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(64).collect();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let tmp = env.path("TMPDIR").unwrap_or_else(|| PathBuf::from("/tmp"));
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let dir = tmp.join(format!("hookmux-notices-{uid}"));
    let marker = dir.join(format!("{safe_session}-{:016x}", hasher.finish()));
    if std::fs::create_dir_all(&dir).is_err() {
        return true;
    }
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&marker) {
        Ok(_) => {
            prune_markers(&dir, &marker);
            true
        }
        Err(err) => err.kind() != std::io::ErrorKind::AlreadyExists,
    }
}

/// Removes the markers in `dir` last changed more than [`NOTICE_MARKER_AGE`] ago, except `keep`.
/// Best effort: a marker that cannot be read or removed stays.
fn prune_markers(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let path = entry.path();
        let old = entry
            .metadata()
            .and_then(|metadata| metadata.modified())
            .is_ok_and(|modified| now.duration_since(modified).is_ok_and(|age| age > NOTICE_MARKER_AGE));
        if old && path != keep {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// For tests and tools: the project root dispatch would use.
pub fn project_root_for(env: &Env, event: &Event, cwd: &Path) -> PathBuf {
    sources::project_root(env, event).unwrap_or_else(|| cwd.to_path_buf())
}
