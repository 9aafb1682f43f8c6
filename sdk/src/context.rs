//! Everything a handler may consult: the event, its arguments, where it runs, the environment,
//! the clock, whether this is a dry run, whether the project is trusted, and where its
//! diagnostics go.

use crate::{Args, Event, ProjectTrust};
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

/// The time source a handler reads. Tests fix it; the runtime uses the system clock.
pub trait Clock: Send + Sync {
    fn now(&self) -> SystemTime;
}

/// The real clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that always reads the same instant.
#[derive(Debug, Clone, Copy)]
pub struct FixedClock(pub SystemTime);

impl Clock for FixedClock {
    fn now(&self) -> SystemTime {
        self.0
    }
}

/// A snapshot of environment variables. Handlers read it instead of `std::env`, so that a test
/// (or an in-process run under `dispatch`) decides exactly what they see.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Env {
    vars: BTreeMap<OsString, OsString>,
}

/// The user's folders (`hookmux_platform::dirs`) come from the `Env` they are handed.
impl hookmux_platform::dirs::Vars for Env {
    fn path(&self, name: &str) -> Option<PathBuf> {
        Env::path(self, name)
    }
}

impl Env {
    /// The current process environment.
    pub fn from_process() -> Env {
        Env { vars: std::env::vars_os().collect() }
    }

    /// An empty environment.
    pub fn empty() -> Env {
        Env::default()
    }

    /// A variable's value when it is set and valid UTF-8.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(OsStr::new(name)).and_then(|value| value.to_str())
    }

    /// A variable's raw value (paths may be any bytes).
    pub fn get_os(&self, name: &str) -> Option<&OsStr> {
        self.vars.get(OsStr::new(name)).map(OsString::as_os_str)
    }

    /// A variable that is set and not empty, as a path.
    pub fn path(&self, name: &str) -> Option<PathBuf> {
        self.get_os(name).filter(|value| !value.is_empty()).map(PathBuf::from)
    }

    pub fn set(&mut self, name: impl Into<OsString>, value: impl Into<OsString>) {
        self.vars.insert(name.into(), value.into());
    }

    pub fn remove(&mut self, name: &str) {
        self.vars.remove(OsStr::new(name));
    }

    pub fn iter(&self) -> impl Iterator<Item = (&OsStr, &OsStr)> {
        self.vars.iter().map(|(k, v)| (k.as_os_str(), v.as_os_str()))
    }
}

impl<K: Into<OsString>, V: Into<OsString>> FromIterator<(K, V)> for Env {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Env {
        Env { vars: iter.into_iter().map(|(k, v)| (k.into(), v.into())).collect() }
    }
}

/// Lines a handler writes for the user or the log, never for the model. Under `hookmux run` they
/// go to stderr (the host keeps a hook's stderr in its debug log); under `dispatch` they are that
/// handler's stderr.
#[derive(Debug, Default)]
pub struct Diagnostics {
    lines: Mutex<Vec<String>>,
}

impl Diagnostics {
    pub fn push(&self, line: impl Into<String>) {
        let mut lines = self.lines.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        lines.push(line.into());
    }

    /// Every line written so far, in order.
    pub fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    /// The lines as one stderr text, each ending in a newline.
    pub fn to_stderr_text(&self) -> String {
        self.lines().iter().map(|line| format!("{line}\n")).collect()
    }
}

/// How the runtime decides a project's trust when a handler first asks: at once under `dispatch`,
/// which has decided already, or by reading the hosts' records under `hookmux run`.
pub type TrustDecider = Arc<dyn Fn() -> ProjectTrust + Send + Sync>;

/// One handler call's world.
pub struct Context {
    event: Arc<Event>,
    args: Args,
    cwd: PathBuf,
    project_root: PathBuf,
    env: Arc<Env>,
    clock: Arc<dyn Clock>,
    dry: bool,
    trust: Option<TrustDecider>,
    decided: OnceLock<ProjectTrust>,
    diagnostics: Diagnostics,
}

impl Context {
    /// Builds a context. The runtime and the test helper do this; handlers only read one.
    pub fn new(event: Arc<Event>, args: Args, cwd: PathBuf, project_root: PathBuf, env: Arc<Env>) -> Context {
        Context {
            event,
            args,
            cwd,
            project_root,
            env,
            clock: Arc::new(SystemClock),
            dry: false,
            trust: None,
            decided: OnceLock::new(),
            diagnostics: Diagnostics::default(),
        }
    }

    /// Says how the project's trust is decided (see [`ProjectTrust`]); without it, the project
    /// is untrusted.
    pub fn with_project_trust(mut self, decide: TrustDecider) -> Context {
        self.trust = Some(decide);
        self
    }

    /// Replaces the clock.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Context {
        self.clock = clock;
        self
    }

    /// Marks the call as a dry run.
    pub fn with_dry(mut self, dry: bool) -> Context {
        self.dry = dry;
        self
    }

    /// The event.
    pub fn event(&self) -> &Event {
        &self.event
    }

    /// The handler's arguments.
    pub fn args(&self) -> &Args {
        &self.args
    }

    /// Where the hook runs: the event's `cwd` when it exists, as the host sets it for a spawned hook.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The project: `$CLAUDE_PROJECT_DIR`, else the event's `cwd`.
    pub fn project_root(&self) -> &Path {
        &self.project_root
    }

    /// The environment the hook sees.
    pub fn env(&self) -> &Env {
        &self.env
    }

    /// Now, by the context's clock.
    pub fn now(&self) -> SystemTime {
        self.clock.now()
    }

    /// The clock itself, for handlers that hand it on.
    pub fn clock(&self) -> &dyn Clock {
        &*self.clock
    }

    /// True under `hookmux dry-run --exec` and `hookmux run --dry-run`: compute the answer,
    /// write no state (no markers, no files, no locks, no database rows).
    pub fn dry(&self) -> bool {
        self.dry
    }

    /// Whether the project is trusted (see [`ProjectTrust`]): decided by the runtime the first
    /// time a handler asks, and the same answer after that.
    pub fn project_trust(&self) -> ProjectTrust {
        *self.decided.get_or_init(|| self.trust.as_ref().map_or(ProjectTrust::Untrusted, |decide| decide()))
    }

    /// Writes one diagnostic line (stderr, never the model).
    pub fn note(&self, line: impl Into<String>) {
        self.diagnostics.push(line);
    }

    /// The diagnostics written so far.
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.diagnostics
    }
}
