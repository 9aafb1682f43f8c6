//! `wakeup`: Lore's memory wake-up on a local SQLite store.
//!
//! Run as a UserPromptSubmit hook (Claude Code, Codex) or a SessionStart hook (older Codex), it
//! injects the project's memory before the first reply: the latest digest, recent memories,
//! active facts and, when the first prompt is known, the memories most relevant to it. It runs
//! once per session, never fails the host's turn, and with `LORE_DEBUG=1` logs one content-free
//! line of counters.
//!
//! The steps, in order (each one's failure mode is the contract):
//! 1. the event: stdin, else `$LORE_WAKEUP_EVENT` (the legacy wrapper's bridge);
//! 2. `.lore.yaml`: `hooks.wakeUp: false` stops here; a file that does not parse is reported
//!    and the defaults apply;
//! 3. the session marker (UserPromptSubmit with a session id only), before the store is opened:
//!    a second prompt of the session stops here; a marker that cannot be written is reported
//!    and wake-up goes on (fail open);
//! 4. the store: a missing file is an empty store; one that cannot be opened is reported;
//! 5. the load, the debug line, the rendering.

pub mod cli;
pub mod config;
pub mod coverage;
pub mod dates;
pub mod debt;
pub mod export;
pub mod import;
pub mod load;
pub mod marker;
pub mod pg;
pub mod pgconf;
pub mod query;
pub mod rank;
pub mod relevance;
pub mod render;
pub mod store;
pub mod tokens;

#[cfg(test)]
mod tests;

use coverage::{reason, Coverage, Mode};
use hookmux_platform::dirs::{variable, Folder};
use hookmux_sdk::{register_handler, Answer, Context, Env, Handler, HandlerInfo, HookEvent, ProjectTrust};
use load::{Limits, LoadOptions};
use std::path::Path;
use std::time::Duration;
use store::{Location, Reader, Store};

pub struct Wakeup;

static INFO: HandlerInfo = HandlerInfo {
    name: "wakeup",
    description: "Injects the project's memory (digest, recent memories, facts, prompt-relevant memories) once \
                  per session; on older Codex wire it on SessionStart instead",
    // Not SessionStart as well: wired on both, Claude Code would inject twice (SessionStart never
    // marks the session). It works there, unranked, for Codex installs without UserPromptSubmit.
    events: &[HookEvent::UserPromptSubmit],
    matcher: None,
    options: &[],
};

/// Where a wake-up (or a memory command) runs: its configuration, project, reader and store.
#[derive(Clone, Debug)]
pub struct Workspace {
    pub config: config::LoreConfig,
    /// `[lore] …` lines about `.lore.yaml`, for stderr.
    pub warnings: Vec<String>,
    /// The `[lore] …` line saying that `.lore.yaml`'s store URL was not used: the project is not
    /// trusted.
    pub untrusted_store: Option<String>,
    pub project: config::Project,
    pub identity: Option<String>,
    /// `None` when no location can be worked out (no `$HOME`, `$XDG_DATA_HOME` or `$LORE_DB`).
    pub db: Option<Location>,
}

impl Workspace {
    /// Reads `.lore.yaml` above `cwd` and resolves the project, the reader and the store.
    /// `trust` is asked, for the project root, only when `.lore.yaml` names a server.
    pub fn resolve(cwd: &Path, env: &Env, trust: impl FnOnce(&Path) -> ProjectTrust) -> Workspace {
        let (config, warnings) = config::discover(cwd, env);
        let root = config::project_root_for(cwd, env);
        let project = config::resolve_project(&config, cwd, &root);
        let identity = config::identity(&config, env);
        let (db, untrusted_store) = config::store_location(&config, env, || trust(&root));
        Workspace { config, warnings, untrusted_store, project, identity, db }
    }

    /// Uses the named project instead of the resolved one (keeping its `.lore.yaml` framing
    /// when the name is one of `projects:`).
    pub fn with_project(mut self, name: &str) -> Workspace {
        let mut project = config::Project::named(name, config::ProjectSource::Explicit);
        if let Some(entry) = self.config.projects.iter().find(|e| e.name == name) {
            project.path = entry.path.clone();
            project.description = entry.description.clone();
            project.siblings = self
                .config
                .projects
                .iter()
                .filter(|e| e.name != name && !e.is_catch_all())
                .map(|e| e.name.clone())
                .collect();
        }
        self.project = project;
        self
    }

    /// The reader for this workspace at `now`.
    pub fn reader(&self, env: &Env, session: Option<String>, today: String, include_expired: bool) -> Reader {
        Reader {
            project: self.project.name.clone(),
            identity: self.identity.clone(),
            session,
            agent: env.get("LORE_AGENT_NAME").filter(|a| !a.is_empty()).map(str::to_string),
            today,
            include_expired,
        }
    }
}

impl Handler for Wakeup {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        let env = cx.env();
        let stdin = cx.event().raw();
        let raw = if query::js_trim(stdin).is_empty() { env.get("LORE_WAKEUP_EVENT") } else { Some(stdin) };
        let meta = query::parse_event_metadata(raw);
        let debug = env.get("LORE_DEBUG") == Some("1");
        let user_query = query::parse_user_query_from_event(raw);

        let workspace = Workspace::resolve(cx.cwd(), env, |_| cx.project_trust());
        for warning in &workspace.warnings {
            cx.note(warning.clone());
        }
        if !workspace.config.wake_up {
            return Ok(Answer::none());
        }

        if already_woke_up(cx, &meta) {
            if debug {
                cx.note(Coverage::empty(Mode::Default, reason::ALREADY_RANKED).line());
            }
            return Ok(Answer::none());
        }
        // Once per session, with the wake-up itself.
        if let Some(notice) = &workspace.untrusted_store {
            cx.note(notice.clone());
        }

        let failed = |stage: &str, err: &dyn std::fmt::Display, advice: &str| {
            if debug {
                cx.note(Coverage::empty(Mode::Error, reason::LOAD_FAILED).line());
            }
            cx.note(format!("[lore] wakeup: {stage} failed — {err}. {advice}"));
            Ok(Answer::none())
        };
        let Some(db) = &workspace.db else {
            let err =
                format!("no store location: set LORE_DB, {} or {}", variable(Folder::Home), variable(Folder::Data));
            return failed("init", &err, "Run `hookmux memory status` to diagnose.");
        };
        let now = dates::to_ms(cx.now());
        let reader = workspace.reader(env, meta.session_id.clone(), dates::date_of(now), false);
        let request = Request { reader, user_query, debug, now, writable: !cx.dry() };
        let data = match db {
            Location::Postgres(target) => {
                // The server may be slow or gone: the turn never waits past the bound.
                let (sender, receiver) = std::sync::mpsc::channel();
                let location = db.clone();
                let spawned = std::thread::Builder::new().name("hookmux-wakeup".to_string()).spawn(move || {
                    let _ = sender.send(wake(&location, &request, HOOK_CONNECT_BOUND));
                });
                match spawned {
                    // Past the connection bound, the server answered and then stalled.
                    Ok(_) => receiver.recv_timeout(HOOK_BOUND).unwrap_or_else(|_| {
                        Err(Failure::Load(format!(
                            "no answer from {} within {} ms",
                            target.display(),
                            HOOK_BOUND.as_millis()
                        )))
                    }),
                    Err(err) => Err(Failure::Init(format!("cannot start a thread: {err}"))),
                }
            }
            _ => wake(db, &request, HOOK_CONNECT_BOUND),
        };
        let data = match data {
            Ok(data) => data,
            Err(Failure::Init(err)) => return failed("init", &err, "Run `hookmux memory status` to diagnose."),
            Err(Failure::Load(err)) => return failed("load", &err, "Skipping context injection."),
        };
        if let Some(coverage) = &data.coverage {
            cx.note(coverage.line());
        }
        Ok(match render::render(&workspace.project, &data, now) {
            Some(text) => Answer::text(text),
            None => Answer::none(),
        })
    }
}

/// How long the wake-up gives a PostgreSQL server to accept its connection, and waits for
/// another process's lock on a SQLite store (a migration, the last session's checkpoint): past
/// it, the prompt goes on without memory and the note names the store.
pub const HOOK_CONNECT_BOUND: Duration = Duration::from_millis(1000);
/// The most a wake-up on PostgreSQL waits, connection and queries together, before it gives up
/// quietly: the prompt goes on without memory.
pub const HOOK_BOUND: Duration = Duration::from_millis(1500);

/// What one wake-up loads.
struct Request {
    reader: Reader,
    user_query: Option<String>,
    debug: bool,
    now: i64,
    writable: bool,
}

/// Why a wake-up loaded nothing: the store could not be opened, or not read.
enum Failure {
    Init(String),
    Load(String),
}

/// Opens the store and loads the wake-up.
fn wake(location: &Location, request: &Request, bound: Duration) -> Result<load::WakeUpData, Failure> {
    let store = Store::open_existing_within(location, request.writable, bound)
        .map_err(|err| Failure::Init(format!("{err:#}")))?;
    let limits = Limits::for_hook(request.user_query.is_some());
    let options = LoadOptions {
        reader: &request.reader,
        limits,
        user_query: request.user_query.as_deref(),
        include_proposed: false,
        include_coverage: request.debug,
        caps: request.user_query.as_ref().map(|_| limits.caps()),
        now: request.now,
    };
    load::load(store.as_ref(), &options).map_err(|err| Failure::Load(format!("{err:#}")))
}

/// The session marker step: true when this session already woke up. Only UserPromptSubmit events
/// with a session id take part; a marker that cannot be written is reported and wake-up goes on.
fn already_woke_up(cx: &Context, meta: &query::EventMetadata) -> bool {
    let (Some("UserPromptSubmit"), Some(session)) = (meta.hook_event_name.as_deref(), &meta.session_id) else {
        return false;
    };
    match marker::try_mark(&marker::state_dir(cx.env()), session, cx.dry()) {
        Ok(marker::Mark::First) => false,
        Ok(marker::Mark::AlreadyMarked) => true,
        Err(err) => {
            cx.note(format!("[lore] wakeup: debounce mark failed — {err}."));
            false
        }
    }
}

register_handler!(Wakeup);
