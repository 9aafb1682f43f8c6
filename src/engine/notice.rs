//! dispatch's own problems, told to the user: a settings file it could not read, a handler it
//! could not run, output it had to drop. Each is a [`Notice`], worded in one place, and most are
//! told once per session rather than on every event.

use crate::engine::config::diagnostic::Diagnostic;
use crate::engine::select::matcher;
use crate::engine::select::plan::Plan;
use hookmux_sdk::Env;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One problem of dispatch's own, for the user (never the model).
#[derive(Clone, Debug)]
pub enum Notice {
    /// A settings file is missing, unreadable or wrong in part; what could be read still runs.
    Settings(Diagnostic),
    /// Hooks someone named on purpose are off: a `--settings` file or a hooks file behind an
    /// installed entry cannot be read, or an installed entry finds nothing. Told on every event.
    HooksOff(Diagnostic),
    /// A handler wrote more than dispatch keeps of one stream.
    OutputDropped { label: String, stream: Stream, bytes: u64, kept_mib: usize },
    /// A hook started a dispatch of this session that would read these files again: their
    /// hooks were left out, since running them would start it again. Told on every event.
    Loop { files: Vec<PathBuf> },
    /// The project's own settings were not read: neither the host nor hookmux's trust list
    /// trusts the project.
    Untrusted { project: PathBuf, files: Vec<PathBuf> },
    /// A planned handler was not run (an http hook off the allow-list, an unknown built-in, …).
    NotRun { label: String, origin: String, why: String },
    /// The event could not be read, so no hook can be matched to it: `skipped` hooks were not
    /// run (the guards among them deny instead). Told on every event.
    Unreadable { error: String, skipped: usize },
    /// A matcher regex did not answer in time, so its group ran as if it matched.
    MatcherUnchecked { matcher: String, origin: String },
}

/// Which output stream of a handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        })
    }
}

impl Notice {
    /// One per group of `plan` whose matcher regex ran past its bound.
    pub fn unchecked_matchers<'p>(plan: &'p Plan<'_>) -> impl Iterator<Item = Notice> + 'p {
        plan.groups.iter().filter(|g| matches!(g.verdict, matcher::Verdict::Unchecked(_))).map(|g| {
            Notice::MatcherUnchecked {
                matcher: g.group.matcher.clone().unwrap_or_default(),
                origin: format!("{} at {}", g.file.path.display(), g.group.path.key("matcher")),
            }
        })
    }

    /// Told every time, even within one session: output lost on this very event.
    fn is_per_event(&self) -> bool {
        matches!(
            self,
            Notice::OutputDropped { .. } | Notice::HooksOff(_) | Notice::Loop { .. } | Notice::Unreadable { .. }
        )
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Settings(diagnostic) | Notice::HooksOff(diagnostic) => write!(f, "hookmux: {diagnostic}"),
            Notice::OutputDropped { label, stream, bytes, kept_mib } => {
                write!(f, "hookmux: [{label}] wrote {bytes} bytes of {stream} past the {kept_mib} MiB kept; they were dropped")
            }
            Notice::Loop { files } => {
                let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                write!(
                    f,
                    "hookmux: a hook started `hookmux dispatch` again on {}, which this session's dispatch is running: a loop; their hooks were left out of the inner dispatch",
                    files.join(", ")
                )
            }
            Notice::Untrusted { project, files } => {
                let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                write!(
                    f,
                    "hookmux: the hooks of {} do not run: {} is not a trusted project; if you trust its hooks, run `hookmux trust {}`",
                    files.join(", "),
                    project.display(),
                    project.display()
                )
            }
            Notice::NotRun { label, origin, why } => write!(f, "hookmux: [{label}] ({origin}) was not run: {why}"),
            Notice::Unreadable { error, skipped } => match skipped {
                0 => write!(f, "hookmux: the event could not be read ({error}); no hooks ran"),
                1 => write!(f, "hookmux: the event could not be read ({error}); its 1 hook was skipped"),
                n => write!(f, "hookmux: the event could not be read ({error}); its {n} hooks were skipped"),
            },
            Notice::MatcherUnchecked { matcher, origin } => write!(
                f,
                "hookmux: matcher `{matcher}` ({origin}) did not finish in time, so its hooks ran as if it matched; \
                 `hookmux hooks validate` shows how to rewrite it"
            ),
        }
    }
}

/// Decides which notices to tell: all of them in a dry run (which writes nothing), else each
/// once per session.
pub struct Teller<'a> {
    env: &'a Env,
    session: Option<&'a str>,
    dry: bool,
}

impl<'a> Teller<'a> {
    pub fn new(env: &'a Env, session: Option<&'a str>, dry: bool) -> Teller<'a> {
        Teller { env, session, dry }
    }

    /// The notice's text when it is to be told now.
    pub fn tell(&self, notice: &Notice) -> Option<String> {
        let text = notice.to_string();
        (self.dry || notice.is_per_event() || first_report(self.env, self.session, &text)).then_some(text)
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
