//! Unix: detached (`async`) hooks, named by pid and start time when they start, and ended at
//! their session's end. The rule is in [`crate::process::end_detached`]; this is how Linux and
//! macOS keep it, by the same code over their process tables ([`kernel::ProcTable`]). Elsewhere
//! no process can be named, and nothing is ended.

use super::kernel::{self, ProcTable};
use super::process::signal_if_running;
use super::spawn::{spawn, Output, Spawned};
use crate::process::{DetachedRun, HookCommand, HOOK_RUN, SESSION};
use crate::tree::{self, Proc, Table};
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often, while the asked processes have their grace, whether they are gone is looked at.
const LOOK_EVERY: Duration = Duration::from_millis(10);

/// How long, at most, the processes forced to end are waited for.
const FORCED_GONE: Duration = Duration::from_millis(200);

pub fn start(command: &HookCommand<'_>, input: Arc<[u8]>) -> io::Result<(Option<Proc>, JoinHandle<()>)> {
    // `spawn` takes the spawn lock itself: shared for `posix_spawn`, alone for a fork.
    let Spawned { pid, mut stdin, .. } = spawn(command, Output::Null)?;
    // The child runs its program by now; it cannot be reaped before this process looks (it is
    // this process's child), so a pid read here is its own, not a reused one.
    let proc = kernel::running(pid);
    // A thread of its own writes the event: nothing else watches this process.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    Ok((proc, writer))
}

pub fn still_runs(proc: Proc) -> bool {
    kernel::running(proc.pid) == Some(proc)
}

/// `NAME=value`, as it reads in an environment.
fn entry(name: &str, value: &OsStr) -> Vec<u8> {
    let mut entry = format!("{name}=").into_bytes();
    entry.extend_from_slice(value.as_bytes());
    entry
}

pub fn end(runs: &[DetachedRun], session: &OsStr, grace: Duration) -> usize {
    if runs.is_empty() || session.is_empty() {
        return 0;
    }
    let session = entry(SESSION, session);
    let runs: Vec<(Proc, Vec<u8>)> = runs.iter().map(|run| (run.proc, entry(HOOK_RUN, &run.run))).collect();
    let own = std::process::id() as i32;
    let table = ProcTable::read();
    // The hooks that still run, proven: recorded, same start time, both marks in the environment.
    let live: Vec<&(Proc, Vec<u8>)> = runs
        .iter()
        .filter(|(proc, run)| {
            table.rows().iter().any(|row| row.proc == *proc && !row.zombie)
                && table.environ_holds(proc.pid, run)
                && table.environ_holds(proc.pid, &session)
        })
        .collect();
    if live.is_empty() {
        return 0;
    }
    let asked = of_hooks(&table, own, &live.iter().map(|(proc, _)| *proc).collect());
    asked.iter().for_each(|proc| signal_if_running(*proc, libc::SIGTERM));
    let until = Instant::now() + grace;
    while asked.iter().any(|proc| still_runs(*proc)) && Instant::now() < until {
        std::thread::sleep(LOOK_EVERY);
    }
    // Looked for again: what they started meanwhile, and what is below those that ignored the ask.
    let table = ProcTable::read();
    let forced = of_hooks(&table, own, &asked);
    forced.iter().for_each(|proc| signal_if_running(*proc, libc::SIGKILL));
    // A killed process is gone a moment later: waited for briefly, so that what runs next (the
    // SessionEnd hooks) does not see it still running.
    let until = Instant::now() + FORCED_GONE;
    while forced.iter().any(|proc| still_runs(*proc)) && Instant::now() < until {
        std::thread::sleep(LOOK_EVERY);
    }
    asked.len()
}

/// The hooks' processes: those `known` that still run and everything below them; never `own` nor
/// its ancestors. A process the hook double-forked is below none of them, and is left running, as
/// Claude Code leaves it.
fn of_hooks(table: &ProcTable, own: i32, known: &BTreeSet<Proc>) -> BTreeSet<Proc> {
    let spared = tree::ancestors(table, own);
    let mut found = tree::below(table, known);
    found.retain(|proc| !spared.contains(&proc.pid));
    found
}
