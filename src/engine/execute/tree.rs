//! A hook's processes as the process table (`/proc`) shows them: the hook and everything below it
//! by parent links, including children that left its process group with `setsid`, which a signal
//! to the group does not reach. Claude Code finds them the same way (`ps`) when a hook times out.
//!
//! A process that is no longer below the hook (its parent exited after starting it with `setsid`,
//! a daemon's double fork) is found by a mark in its environment instead: every process of a hook
//! inherits [`carrying`]'s entry unless it replaces its environment.
//!
//! Not `PR_SET_CHILD_SUBREAPER`: orphans would then become dispatch's children, which it must
//! reap without ever reaping a hook (whose exit status `Child::wait` needs) and which are still
//! not attributed to a hook when several run at once; the mark does that attribution, and init
//! keeps reaping.
//!
//! A process is named by its pid and its start time, so that a pid reused by an unrelated
//! process after the one found has died is never signalled. Where there is no `/proc` (macOS),
//! nothing is found and the process group alone is signalled.

use std::collections::BTreeSet;

/// One process, as found in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Proc {
    pub pid: libc::pid_t,
    /// Clock ticks since boot at which it started (field 22 of `/proc/PID/stat`).
    start: u64,
}

/// One row of the table.
struct Row {
    proc: Proc,
    ppid: libc::pid_t,
    zombie: bool,
}

/// `/proc/PID/stat`: `pid (comm) state ppid pgrp session … starttime …`. The command name may hold
/// spaces and parentheses, so the fields are counted from its last `)`.
fn read_row(pid: libc::pid_t) -> Option<Row> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 1..)?.split_whitespace().collect();
    let state = *fields.first()?;
    let ppid = fields.get(1)?.parse().ok()?;
    // starttime is field 22; state, the first field after the name, is field 3.
    let start = fields.get(22 - 3)?.parse().ok()?;
    Some(Row { proc: Proc { pid, start }, ppid, zombie: matches!(state, "Z" | "X" | "x") })
}

/// Every process the table lists (empty without `/proc`).
fn table() -> Vec<Row> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<libc::pid_t>().ok())
        .filter_map(read_row)
        .collect()
}

impl Proc {
    /// The process that has `pid` now, if any (and not a zombie).
    pub fn of(pid: libc::pid_t) -> Option<Proc> {
        read_row(pid).filter(|row| !row.zombie).map(|row| row.proc)
    }

    /// Sends `signal` if this very process still runs (a pid taken over by another process since
    /// is left alone; a zombie needs no signal). A process that ends between the look and the
    /// signal gives ESRCH, ignored; its pid cannot be reused before its parent has reaped it, a
    /// moment the look would have had to miss entirely.
    pub fn signal(self, signal: libc::c_int) {
        if Proc::of(self.pid) == Some(self) {
            // SAFETY: kill only sends a signal, to the process identified just above.
            unsafe {
                libc::kill(self.pid, signal);
            }
        }
    }
}

/// `roots` that still run, and every running process below one of them by parent links (the
/// moment the table is read: a process forked after that is not among them).
pub fn below(roots: &BTreeSet<Proc>) -> BTreeSet<Proc> {
    let rows = table();
    let mut found: BTreeSet<Proc> = rows.iter().filter(|row| roots.contains(&row.proc)).map(|row| row.proc).collect();
    let mut parents: BTreeSet<libc::pid_t> = found.iter().map(|proc| proc.pid).collect();
    // Breadth first, one level per pass; a parent link never points below itself, but a bound on
    // the passes keeps a table read mid-change from looping.
    for _ in 0..rows.len() {
        let next: Vec<Proc> = rows
            .iter()
            .filter(|row| parents.contains(&row.ppid) && !found.contains(&row.proc))
            .map(|row| row.proc)
            .collect();
        if next.is_empty() {
            break;
        }
        parents = next.iter().map(|proc| proc.pid).collect();
        found.extend(next);
    }
    found.retain(|proc| rows.iter().any(|row| row.proc == *proc && !row.zombie));
    found
}

/// Every running process whose environment, as it was exec'd, holds `entry` (`NAME=value`
/// bytes). Processes of other users, and those that made themselves unreadable (not dumpable),
/// cannot be read and are not found.
pub fn carrying(entry: &[u8]) -> BTreeSet<Proc> {
    let own = std::process::id() as libc::pid_t;
    table()
        .into_iter()
        .filter(|row| !row.zombie && row.proc.pid != own)
        .filter(|row| {
            std::fs::read(format!("/proc/{}/environ", row.proc.pid))
                .is_ok_and(|environ| environ.split(|byte| *byte == 0).any(|pair| pair == entry))
        })
        .map(|row| row.proc)
        .collect()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    #[test]
    fn finds_a_child_that_left_the_group() {
        let mut child = Command::new("/bin/sh")
            .args(["-c", "setsid sleep 30 & echo $!; wait"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("sh runs");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("piped");
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).expect("a pid");
        let escaped: libc::pid_t = line.trim().parse().expect("a pid");
        let shell = Proc::of(child.id() as libc::pid_t).expect("the shell runs");
        let found = below(&BTreeSet::from([shell]));
        let pids: Vec<libc::pid_t> = found.iter().map(|proc| proc.pid).collect();
        assert!(pids.contains(&shell.pid) && pids.contains(&escaped), "{pids:?}");
        for proc in &found {
            proc.signal(libc::SIGKILL);
        }
        let _ = child.wait();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while Proc::of(escaped).is_some() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(Proc::of(escaped).is_none(), "the setsid child was killed");
        // A process that is gone is not signalled, and is not a root any more.
        assert!(below(&BTreeSet::from([shell])).is_empty());
    }
}
