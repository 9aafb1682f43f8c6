//! A session's detached (`async`) hooks, ended when the session ends, as Claude Code ends its own.
//!
//! Each detached hook that dispatch starts carries two marks in its environment, which what it
//! starts inherits: its own run ([`HOOK_RUN`](hookmux_platform::process::HOOK_RUN), a value no
//! other hook run has) and its session ([`SESSION`](hookmux_platform::process::SESSION), the
//! first 24 hex digits of the SHA-256 of the host's name and the session id, so that no id a host
//! sends can put anything but hex digits in an environment). Dispatch records it at once, by pid
//! and start time, in a private folder of hookmux's state folder:
//! `${XDG_STATE_HOME:-~/.local/state}/hookmux/detached/<session mark>/` (Windows:
//! `%LOCALAPPDATA%\hookmux\detached\<session mark>\`), one small file per hook
//! (written atomically, so that the dispatches of one session never write the same file). The
//! session's SessionEnd dispatch reads them all, ends the hooks that still run (see
//! [`end_detached`](hookmux_platform::process::end_detached) for which processes are provably
//! theirs), and removes the folder. A record whose hook has exited is dropped when the next
//! detached hook of the session is recorded.

use hookmux_handlers::safe_fs;
use hookmux_platform::process::{self as platform, Detached, DetachedRun, Proc};
use hookmux_sdk::Env;
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::io::Read as _;
use std::path::PathBuf;
use std::time::Duration;

/// Between asking a session's detached hooks to end and forcing those still running. The wait
/// ends as soon as none is: it costs only what a hook that ignores the ask makes it cost.
pub const END_GRACE: Duration = Duration::from_millis(500);

/// A record file's name starts with this; the rest is the hook's run mark.
const PREFIX: &str = "run-";

/// The session mark of `session` under `host`, as detached hooks carry it.
pub fn session_mark(host: &str, session: &str) -> String {
    // The host's name is prefixed with its length: no pair of names hashes the same text.
    let digest = Sha256::digest(format!("{}:{host}\n{session}", host.len()).as_bytes());
    digest.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

/// The records of one session's detached hooks.
pub struct Records {
    /// hookmux's state folder: nothing below it may be a link.
    base: PathBuf,
    /// `<base>/detached`.
    parent: PathBuf,
    dir: PathBuf,
}

impl Records {
    /// The folder for the session marked `mark` (not created yet); `None` without a state folder.
    pub fn open(env: &Env, mark: &str) -> Option<Records> {
        let base = hookmux_handlers::transcript::state_dir(env)?;
        let parent = base.join("detached");
        Some(Records { dir: parent.join(mark), parent, base })
    }

    /// Records `hook`, which was started for this session, and drops the records of the
    /// session's hooks that have exited. A hook that cannot be named (see [`Detached::proc`]) is
    /// not recorded; a record that cannot be written is told on stderr (its hook then outlives
    /// the session).
    pub fn record(&self, hook: &Detached) {
        let Some(proc) = hook.proc else { return };
        let Some(run) = hook.run.to_str().filter(|run| is_plain(run)) else { return };
        for (name, stale) in self.read_all() {
            if !platform::still_runs(stale.proc) {
                let _ = std::fs::remove_file(self.dir.join(name));
            }
        }
        let text = format!("{} {} {run}\n", proc.pid, proc.start);
        let written =
            [&self.base, &self.parent, &self.dir].iter().try_for_each(|dir| safe_fs::private_dir(dir)).and_then(|()| {
                safe_fs::replace(&self.base, &self.dir.join(format!("{PREFIX}{run}")), text.as_bytes())
                    .map_err(|(_, err)| err)
            });
        if let Err(err) = written {
            eprintln!(
                "hookmux: cannot record the background hook {} in {} ({err}); it will not be ended at the session's end",
                proc.pid,
                self.dir.display()
            );
        }
    }

    /// Every record, with its file's name. A file that does not read as a record is skipped.
    fn read_all(&self) -> Vec<(OsString, DetachedRun)> {
        if safe_fs::check_private_dir(&self.dir).is_err() {
            return Vec::new();
        }
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        entries
            .filter_map(|entry| {
                let name = entry.ok()?.file_name();
                if !name.to_str()?.starts_with(PREFIX) {
                    return None;
                }
                let file =
                    safe_fs::open_no_follow(std::fs::OpenOptions::new().read(true), &self.dir.join(&name)).ok()?;
                let mut text = String::new();
                file.take(256).read_to_string(&mut text).ok()?;
                Some((name, parse(&text)?))
            })
            .collect()
    }

    /// Ends the session's detached hooks that still run (session marked `mark`), then forgets
    /// them all; how many processes were asked to end.
    pub fn end_all(&self, mark: &str) -> usize {
        let runs: Vec<DetachedRun> = self.read_all().into_iter().map(|(_, run)| run).collect();
        let ended = platform::end_detached(&runs, mark.as_ref(), END_GRACE);
        if safe_fs::check_private_dir(&self.dir).is_ok() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
        ended
    }
}

/// A run mark as hookmux makes them (`PID-HEX`): safe as a file name.
fn is_plain(run: &str) -> bool {
    !run.is_empty() && run.len() <= 64 && run.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// `PID START RUN` as [`Records::record`] writes it.
fn parse(text: &str) -> Option<DetachedRun> {
    let mut fields = text.split_ascii_whitespace();
    // A process's pid is positive: 0 and -1 name groups and "every process" to `kill`.
    let pid = fields.next()?.parse().ok().filter(|pid: &i32| *pid > 0)?;
    let start = fields.next()?.parse().ok()?;
    let run = fields.next().filter(|run| is_plain(run))?;
    fields.next().is_none().then(|| DetachedRun { proc: Proc { pid, start }, run: run.into() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_mark_is_hex_whatever_the_id_and_differs_by_host_and_session() {
        let mark = session_mark("claude", "id\n with=odd\0bytes");
        assert_eq!(mark.len(), 24);
        assert!(mark.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(session_mark("claude", "s"), session_mark("codex", "s"));
        assert_ne!(session_mark("claude", "s"), session_mark("claude", "t"));
        // The host and the id cannot be shifted into each other.
        assert_ne!(session_mark("a", "b\nc"), session_mark("a\nb", "c"));
    }

    #[test]
    fn records_read_back_and_anything_else_is_not_a_record() {
        assert_eq!(
            parse("12 345 12-00ff\n"),
            Some(DetachedRun { proc: Proc { pid: 12, start: 345 }, run: "12-00ff".into() })
        );
        for bad in
            ["", "12 345", "x 345 r", "12 x r", "12 345 ../r", "12 345 r extra", "12 345 a=b", "0 345 r", "-1 345 r"]
        {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
