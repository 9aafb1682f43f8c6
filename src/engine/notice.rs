//! dispatch's own problems, told to the user: a settings file it could not read, a handler it
//! could not run, output it had to drop. Each is a [`Notice`], worded in one place, and most are
//! told once per session rather than on every event; one event tells a few in full and counts
//! the rest ([`Teller::summary`]).

use crate::engine::config::diagnostic::Diagnostic;
use crate::engine::select::matcher;
use crate::engine::select::plan::Plan;
use hookmux_handlers::safe_fs;
use hookmux_sdk::Env;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::fmt;
use std::fs::File;
use std::io::Write;
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
    /// The dispatch trace's folder cannot be written: this dispatch is not traced.
    TraceUnwritable { why: String },
    /// Something Claude Code would have done that the host cannot (Cline has no way to deny
    /// one tool call and go on), worded by the host's adapter: told once per session.
    Unexpressed(String),
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
            Notice::Unexpressed(text) => f.write_str(text),
            Notice::TraceUnwritable { why } => write!(
                f,
                "hookmux: dispatches are not traced ({why}); hooks run as usual. \
                 HOOKMUX_TRACE=0 turns the trace off, HOOKMUX_TRACE_DIR moves it"
            ),
        }
    }
}

/// How many once-per-session notices one event tells in full; the rest are counted in one line.
pub const TOLD_IN_FULL: usize = 10;

/// `5994` as `5,994`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Decides which notices to tell: all of them in a dry run (which writes nothing), else each
/// once per session. Of those, one event tells [`TOLD_IN_FULL`] in full and withholds the rest
/// for [`Teller::summary`], so that a file of thousands of bad entries gives a message a person
/// reads, not megabytes of it. Notices told on every event are never withheld.
pub struct Teller {
    dry: bool,
    /// What this session was told already; `None` without a session (then everything is told).
    ledger: Option<Ledger>,
    told_in_full: Cell<usize>,
    withheld: Cell<usize>,
    /// The first withheld notice: when it is the only one, it is told instead of a count.
    first_withheld: RefCell<Option<String>>,
}

impl Teller {
    pub fn new(env: &Env, session: Option<&str>, dry: bool) -> Teller {
        let session = session.filter(|s| !s.is_empty() && !dry);
        Teller {
            dry,
            ledger: session.map(|session| Ledger::open(env, session)),
            told_in_full: Cell::new(0),
            withheld: Cell::new(0),
            first_withheld: RefCell::new(None),
        }
    }

    /// The notice's text when it is to be told now.
    pub fn tell(&self, notice: &Notice) -> Option<String> {
        let text = notice.to_string();
        if notice.is_per_event() {
            return Some(text);
        }
        if !(self.dry || self.ledger.as_ref().is_none_or(|l| l.first_time(&text))) {
            return None;
        }
        if self.told_in_full.get() < TOLD_IN_FULL {
            self.told_in_full.set(self.told_in_full.get() + 1);
            return Some(text);
        }
        self.withheld.set(self.withheld.get() + 1);
        self.first_withheld.borrow_mut().get_or_insert(text);
        None
    }

    /// Why notices are told on every event of this session, when the folder that remembers
    /// them is not safe to use; only once something was told.
    pub fn ledger_refused(&self) -> Option<String> {
        let refused = self.ledger.as_ref()?.refused.as_ref()?;
        (self.told_in_full.get() + self.withheld.get() > 0)
            .then(|| format!("hookmux: notices are told on every event: {refused}"))
    }

    /// What stands for the withheld notices, told last: the one itself when it is only one (as
    /// short as a count), else how many there are and where to see them. They count as told.
    pub fn summary(&self) -> Option<String> {
        match self.withheld.get() {
            0 => None,
            1 => self.first_withheld.borrow().clone(),
            more => Some(format!(
                "hookmux: … and {} more problems: run `hookmux hooks validate` to see them all",
                grouped(more)
            )),
        }
    }
}

/// How long a session's record of what it was told is kept: a session resumed later is told again.
const NOTICE_MARKER_AGE: Duration = Duration::from_secs(7 * 24 * 3600);

/// The notices one session was told: one file per session, `<session>.told` under
/// `$TMPDIR/hookmux-notices-<uid>/` (`hookmux_platform::dirs::user_temp`), with a line per notice (a hash of its text). It is read
/// once per dispatch and appended to, a line per write, so that dispatches of one session running
/// at once lose no line (at worst both tell a new notice). When the file cannot be written, a
/// notice is told again on the next event rather than never.
///
/// The folder is created `0700`; one that is a symbolic link, another user's, or writable by
/// others is not used at all (someone else could then silence notices, or have the clean-up
/// delete files elsewhere): every notice is told on every event, and the user is told why.
struct Ledger {
    dir: PathBuf,
    file: PathBuf,
    /// Why the folder is not used, when it is not.
    refused: Option<String>,
    told: RefCell<HashSet<u64>>,
    /// Opened on the first notice this dispatch tells.
    appender: RefCell<Option<File>>,
    /// Folder entries looked at while clearing old files, for tests that count the work.
    scanned: Cell<usize>,
}

impl Ledger {
    fn open(env: &Env, session: &str) -> Ledger {
        let dir = notices_dir(env);
        let file = dir.join(format!("{}.told", file_stem(session)));
        let refused = match std::fs::symlink_metadata(&dir) {
            Ok(_) => safe_fs::check_private_dir(&dir).err().map(|err| err.to_string()),
            Err(_) => None,
        };
        let told = match refused {
            Some(_) => HashSet::new(),
            None => safe_fs::open_no_follow(std::fs::OpenOptions::new().read(true), &file)
                .and_then(std::io::read_to_string)
                .map(|text| text.lines().filter_map(|line| u64::from_str_radix(line, 16).ok()).collect())
                .unwrap_or_default(),
        };
        Ledger { dir, file, refused, told: RefCell::new(told), appender: RefCell::new(None), scanned: Cell::new(0) }
    }

    /// Whether `text` is new to the session; records it.
    fn first_time(&self, text: &str) -> bool {
        if self.refused.is_some() {
            return true;
        }
        let hash = fnv1a(text.as_bytes());
        if !self.told.borrow_mut().insert(hash) {
            return false;
        }
        self.record(hash);
        true
    }

    /// Appends one line; best effort.
    fn record(&self, hash: u64) {
        let mut appender = self.appender.borrow_mut();
        if appender.is_none() {
            *appender = self.start_appending();
        }
        if let Some(file) = appender.as_mut() {
            let _ = file.write_all(format!("{hash:016x}\n").as_bytes());
        }
    }

    /// Opens the session's file for appending, and clears the folder of other sessions' old
    /// files: once per dispatch that tells something, so the folder stays as small as the last
    /// week's sessions.
    fn start_appending(&self) -> Option<File> {
        safe_fs::private_dir(&self.dir).ok()?;
        let file = safe_fs::open_no_follow(std::fs::OpenOptions::new().append(true).create(true), &self.file).ok()?;
        self.scanned.set(self.scanned.get() + prune_markers(&self.dir, &self.file));
        Some(file)
    }
}

/// The folder of the session files: this user's, under the temporary folder.
fn notices_dir(env: &Env) -> PathBuf {
    hookmux_platform::dirs::user_temp(env, "hookmux-notices")
}

/// A session id as a file name: itself when it is short and plain (Claude Code's are UUIDs),
/// else a hash of it.
fn file_stem(session: &str) -> String {
    let plain = session.len() <= 64 && session.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if plain {
        session.to_string()
    } else {
        format!("{:016x}", fnv1a(session.as_bytes()))
    }
}

/// FNV-1a: the same hash for the same text from every build of hookmux, so that an upgrade in
/// the middle of a session does not tell its notices again (std's hasher promises no such thing).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3))
}

/// Removes the files in `dir` last changed more than [`NOTICE_MARKER_AGE`] ago, except `keep`,
/// and says how many entries it looked at. Best effort: a file that cannot be read or removed
/// stays.
fn prune_markers(dir: &Path, keep: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let now = std::time::SystemTime::now();
    let mut scanned = 0;
    for entry in entries.flatten() {
        scanned += 1;
        let path = entry.path();
        let old = entry
            .metadata()
            .and_then(|metadata| metadata.modified())
            .is_ok_and(|modified| now.duration_since(modified).is_ok_and(|age| age > NOTICE_MARKER_AGE));
        if old && path != keep {
            let _ = std::fs::remove_file(path);
        }
    }
    scanned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::jsonpath::JsonPath;

    fn problems(n: usize) -> Vec<Notice> {
        (0..n)
            .map(|i| {
                let at = JsonPath::root().key("hooks").key("Stop").index(0).key("hooks").index(i);
                Notice::Settings(Diagnostic::error("s.json", at, "the handler has no `type`"))
            })
            .collect()
    }

    fn env(tmp: &Path) -> Env {
        let mut env = Env::empty();
        env.set(hookmux_platform::dirs::variable(hookmux_platform::dirs::Folder::Temp), tmp);
        env
    }

    fn folder(tmp: &Path) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(notices_dir(&env(tmp)))
            .map(|entries| entries.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        files
    }

    #[test]
    fn one_file_per_session_one_line_per_notice_one_scan_per_dispatch() {
        let tmp = tempfile::tempdir().unwrap();
        let env = env(tmp.path());
        let notices = problems(300);
        let teller = Teller::new(&env, Some("s-1"), false);
        // Other sessions' files, a week old and newer.
        let dir = teller.ledger.as_ref().unwrap().dir.clone();
        std::fs::create_dir_all(&dir).unwrap();
        for (name, days) in [("old.told", 8), ("older-format-0123456789abcdef", 9), ("recent.told", 6)] {
            let file = File::create(dir.join(name)).unwrap();
            file.set_modified(std::time::SystemTime::now() - Duration::from_secs(days * 24 * 3600)).unwrap();
        }

        assert_eq!(notices.iter().filter_map(|n| teller.tell(n)).count(), TOLD_IN_FULL);
        assert!(teller.summary().is_some_and(|summary| summary.contains("… and 290 more problems")));
        assert_eq!(teller.tell(&notices[0]), None, "told once in one dispatch too");
        assert_eq!(teller.ledger.as_ref().unwrap().scanned.get(), 4, "the folder is read once");
        assert_eq!(folder(tmp.path()), [dir.join("recent.told"), dir.join("s-1.told")]);
        assert_eq!(std::fs::read_to_string(dir.join("s-1.told")).unwrap().lines().count(), 300);

        let next = Teller::new(&env, Some("s-1"), false);
        assert_eq!(notices.iter().filter_map(|n| next.tell(n)).count(), 0);
        assert_eq!(next.ledger.as_ref().unwrap().scanned.get(), 0, "nothing new: nothing written or read");
        let new = &problems(301)[300];
        assert!(next.tell(new).is_some());
        assert_eq!(std::fs::read_to_string(dir.join("s-1.told")).unwrap().lines().count(), 301);
    }

    #[test]
    fn dry_runs_and_sessionless_events_tell_everything_and_write_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let env = env(tmp.path());
        let notices = problems(3);
        for teller in
            [Teller::new(&env, Some("s"), true), Teller::new(&env, None, false), Teller::new(&env, Some(""), false)]
        {
            for _ in 0..2 {
                assert_eq!(notices.iter().filter_map(|n| teller.tell(n)).count(), 3);
            }
        }
        assert_eq!(folder(tmp.path()), Vec::<PathBuf>::new());
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_notices_folder_that_is_a_link_is_not_used() {
        let tmp = tempfile::tempdir().unwrap();
        let env = env(tmp.path());
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let old = elsewhere.join("old-work.txt");
        File::create(&old).unwrap().set_modified(std::time::SystemTime::now() - 2 * NOTICE_MARKER_AGE).unwrap();
        hookmux_platform::fs::symlink_dir(&elsewhere, &notices_dir(&env)).unwrap();
        let notices = problems(2);
        for _ in 0..2 {
            let teller = Teller::new(&env, Some("s"), false);
            assert_eq!(teller.ledger_refused(), None, "said only once something is told");
            assert_eq!(notices.iter().filter_map(|n| teller.tell(n)).count(), 2, "told on every event");
            assert!(old.exists(), "the clean-up does not delete files where the link points");
            assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 1, "nothing is written there");
            let refused = teller.ledger_refused().unwrap();
            assert!(refused.contains("notices are told on every event") && refused.contains("it is a symbolic link"));
        }
    }

    #[test]
    fn an_odd_session_id_is_a_hashed_file_name() {
        assert_eq!(file_stem("09110fd9-e94d-4dcf-ab61-cd5b8a24d6b2"), "09110fd9-e94d-4dcf-ab61-cd5b8a24d6b2");
        assert_eq!(file_stem("../../etc/passwd").len(), 16);
        assert_ne!(file_stem("a/b"), file_stem("a\\b"));
    }

    #[test]
    fn a_few_in_full_then_one_line_for_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let env = env(tmp.path());
        let dropped = Notice::OutputDropped { label: "flood".into(), stream: Stream::Stdout, bytes: 1, kept_mib: 1 };
        for (session, dry) in [(Some("s"), false), (None, false), (Some("s"), true)] {
            let teller = Teller::new(&env, session, dry);
            let told: Vec<String> = problems(6004).iter().filter_map(|n| teller.tell(n)).collect();
            assert_eq!(told, problems(10).iter().map(Notice::to_string).collect::<Vec<_>>());
            assert!(teller.tell(&dropped).is_some(), "told on every event, never withheld");
            assert_eq!(
                teller.summary().as_deref(),
                Some("hookmux: … and 5,994 more problems: run `hookmux hooks validate` to see them all")
            );
        }

        let teller = Teller::new(&env, None, false);
        let eleven = problems(11);
        assert_eq!(eleven.iter().filter_map(|n| teller.tell(n)).count(), 10);
        assert_eq!(teller.summary(), Some(eleven[10].to_string()), "one more is told, not counted");
        assert_eq!(Teller::new(&env, None, false).summary(), None);
        assert_eq!(
            (grouped(999), grouped(1000), grouped(1_234_567)),
            ("999".into(), "1,000".into(), "1,234,567".into())
        );
    }

    /// Modes: what Unix keeps access in.
    #[cfg(unix)]
    mod unix {
        use super::*;
        use std::os::unix::fs::PermissionsExt;

        #[test]
        fn a_notices_folder_open_to_others_is_not_read() {
            let tmp = tempfile::tempdir().unwrap();
            let env = env(tmp.path());
            let notices = problems(1);
            // Another user made the folder first and says every notice was told already.
            let dir = Teller::new(&env, Some("s"), false).ledger.unwrap().dir;
            std::fs::create_dir(&dir).unwrap();
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
            std::fs::write(dir.join("s.told"), format!("{:016x}\n", fnv1a(notices[0].to_string().as_bytes()))).unwrap();
            let teller = Teller::new(&env, Some("s"), false);
            assert!(teller.tell(&notices[0]).is_some());
            assert!(teller.ledger_refused().unwrap().contains("others can write into it"));
        }

        #[test]
        fn a_new_notices_folder_is_private() {
            let tmp = tempfile::tempdir().unwrap();
            let teller = Teller::new(&env(tmp.path()), Some("s"), false);
            assert!(teller.tell(&problems(1)[0]).is_some());
            let dir = &teller.ledger.as_ref().unwrap().dir;
            assert_eq!(std::fs::metadata(dir).unwrap().permissions().mode() & 0o777, 0o700);
        }
    }
}
