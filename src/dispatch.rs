//! `hookmux dispatch`: one event in, every matching handler run, one answer out.
//!
//! dispatch never blocks the host because of its own trouble: a malformed event, an unreadable
//! settings file or a handler it cannot run is reported on stderr and, so that the user sees it,
//! in `systemMessage` (which the host shows the user, never the model); the hooks that can run
//! still run.

use crate::combine::{self, Combined, Labelled};
use crate::host::claude::{self, Encoded};
use crate::http::HttpPolicy;
use crate::outcome::{self, Outcome};
use crate::plan::{self, Plan, PlanOptions};
use crate::run::{self, Ran, RunContext, DISPATCH_MARKER};
use crate::settings::HookKind;
use crate::sources::{self, Discovery, Sources};
use hookmux_sdk::{Env, Event};
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
    let plan_options = PlanOptions {
        project_root: project_root.clone(),
        home: world.env.path("HOME"),
        session_end_budget: world
            .env
            .get("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
            .and_then(|ms| ms.trim().parse::<u64>().ok())
            .map(Duration::from_millis),
    };
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
    let mut own_notices: Vec<String> = Vec::new();
    // A dry run writes nothing, the once-per-session markers included: it always reports.
    let first_report = |env: &Env, session: Option<&str>, text: &str| dry || first_report(env, session, text);
    for diagnostic in sources.diagnostics() {
        let text = format!("hookmux: {diagnostic}");
        if first_report(&world.env, event.session_id(), &text) {
            own_notices.push(text);
        }
    }
    let Some(kind) = plan.event else {
        let problem = plan.problem.clone().unwrap_or_default();
        let encoded = Encoded { stderr: format!("hookmux dispatch: {problem}\n"), ..Encoded::default() };
        return Dispatched { encoded, runs: Vec::new() };
    };

    let mut runs: Vec<HandlerRun> = Vec::new();
    let mut detached = Vec::new();
    if !plan.handlers.is_empty() {
        let cwd = crate::builtin::hook_cwd(event, Some(&project_root), &world.cwd);
        let cx = RunContext::new(Arc::new(event.clone()), &world.env, project_root, cwd, http_policy(sources), dry);
        let (results, writers) = run::run_plan(plan, &Arc::new(cx));
        detached = writers;
        for (planned, ran) in plan.handlers.iter().zip(results) {
            let label = planned.origin.spec.kind.label();
            if let Ran::Finished(raw) = &ran {
                for (stream, dropped) in [("stdout", raw.stdout_dropped), ("stderr", raw.stderr_dropped)] {
                    if dropped > 0 {
                        own_notices.push(format!(
                            "hookmux: [{label}] wrote {dropped} bytes of {stream} past the {} MiB kept; they were dropped",
                            crate::process::CAPTURE_CAP >> 20
                        ));
                    }
                }
            }
            runs.push(match ran {
                Ran::Finished(raw) => HandlerRun {
                    exit_code: raw.exit_code,
                    wall: raw.wall,
                    outcome: Some(outcome::classify(&raw, kind, &label, planned.timeout)),
                    note: None,
                },
                Ran::Detached => HandlerRun {
                    exit_code: None,
                    wall: Duration::ZERO,
                    outcome: None,
                    note: Some("started in the background; not waited for".to_string()),
                },
                Ran::Skipped(why) => {
                    let text = format!("hookmux: [{label}] ({}) was not run: {why}", planned.origin.describe());
                    if first_report(&world.env, event.session_id(), &text) {
                        own_notices.push(text);
                    }
                    HandlerRun {
                        exit_code: None,
                        wall: Duration::ZERO,
                        outcome: None,
                        note: Some(format!("not run: {why}")),
                    }
                }
            });
        }
    }

    let labels: Vec<String> = plan.handlers.iter().map(|h| h.origin.spec.kind.label()).collect();
    let labelled: Vec<Labelled<'_>> = labels
        .iter()
        .zip(&runs)
        .filter_map(|(label, run)| run.outcome.as_ref().map(|outcome| Labelled { label, outcome }))
        .collect();
    let mut combined: Combined = combine::combine(kind, &plan.hook_name(), &labelled);
    combined.notices.splice(0..0, own_notices);

    let mut encoded = claude::encode_combined(&combined, kind);
    let mut stderr: String = combined.notices.iter().map(|n| format!("{n}\n")).collect();
    if !encoded.stderr.is_empty() {
        stderr.push_str(&encoded.stderr);
        stderr.push('\n');
    }
    encoded.stderr = stderr;
    wait_for_detached(detached);
    Dispatched { encoded, runs }
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

/// Reports a problem of dispatch's own once per session rather than on every event: a marker
/// file per (session, message) under `$TMPDIR/hookmux-notices-<uid>/`. Without a session, or
/// when the marker cannot be written, it is always reported.
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
        Ok(_) => true,
        Err(err) => err.kind() != std::io::ErrorKind::AlreadyExists,
    }
}

/// The command labels of a plan's handlers whose type dispatch cannot run: for `install`.
pub fn is_dispatchable(kind: &HookKind) -> bool {
    !matches!(kind, HookKind::Prompt { .. } | HookKind::Agent { .. } | HookKind::McpTool { .. })
}

/// For tests and tools: the project root dispatch would use.
pub fn project_root_for(env: &Env, event: &Event, cwd: &Path) -> PathBuf {
    sources::project_root(env, event).unwrap_or_else(|| cwd.to_path_buf())
}
