//! Windows: detached (`async`) hooks, named by pid and creation time when they start, and ended
//! at their session's end. The rule is in [`crate::process::end_detached`]; this is how Win32
//! keeps it.
//!
//! # Naming a hook
//!
//! [`start`] reads the pid (`GetProcessId`) and the creation time (`GetProcessTimes`: 100 ns
//! units since 1601, set by the kernel when the process is created) from the handle
//! `CreateProcessW` returned, while hookmux still holds it. Windows gives a process's pid to no
//! other while a handle to it is open, so the pair names the very process started.
//! [`still_runs`] opens the pid and compares its creation time.
//!
//! # Which process is the session's: pid and creation time, no environment read
//!
//! A recorded hook is ended when the process holding its pid now has its creation time and has
//! not exited. Unix also requires both marks ([`crate::process::SESSION`] and the hook's own
//! [`crate::process::HOOK_RUN`]) in the environment the process was started with. Windows does
//! not read them, and loses nothing by it:
//!
//! - **The pair names one process, ever.** Two processes hold a pid only one after the other, so
//!   a later holder was created later; and the creation time is an absolute time, so a record
//!   that outlived a reboot (the state folder does) names no process of the new boot. On Linux a
//!   start time is in clock ticks since boot (10 ms), and an early process of the next boot can
//!   get the same pid at the same tick: the marks are what rule that out there.
//! - **Whoever can forge a record already has the power it would give.** Records live in an
//!   owner-only folder that only the user (and the system) can write; a process that can write
//!   one runs as the user and can end the process itself with `TerminateProcess`. hookmux ends
//!   only what its own rights let it open for `PROCESS_TERMINATE`.
//! - **The environment would prove less here.** It is a block in the process's own memory, which
//!   the process rewrites at will (`SetEnvironmentVariableW`), not the environment it was started
//!   with as `/proc/PID/environ` is; and reading it takes the process's PEB:
//!   `NtQueryInformationProcess` (documented as liable to change), `PROCESS_VM_READ`, and
//!   `ReadProcessMemory` at an offset of `RTL_USER_PROCESS_PARAMETERS` that `winternl.h` does not
//!   document.
//!
//! What differs from Unix, then: a hook that replaced its environment is still ended (it is
//! still the process started), and a record copied by hand into another session's folder is
//! ended at that session's end (on Unix its session mark refuses it).
//!
//! # What is below a hook
//!
//! A hook's Job Object cannot be used: a detached hook outlives the dispatch that started it, and
//! an unnamed job, or a named one whose last handle is closed, can be opened by no later process.
//! So the processes below it are found as on Unix, in the process table
//! (`CreateToolhelp32Snapshot`), whose parent link (`th32ParentProcessID`) is only the pid of the
//! process that created a process: once that one exits, its pid may go to another, and the link
//! then names a stranger. Three guards keep the walk to the hook's own:
//!
//! - every process whose children are looked for is held open from when it is proven until the
//!   end, so its pid goes to no other process meanwhile, even once it has exited: a link naming
//!   that pid names it, or an earlier holder of the pid;
//! - a child counts only if it was created no earlier than that parent
//!   ([`crate::tree::children_since`]): an earlier holder's children were created before it;
//! - a candidate is opened first and its link read again in a snapshot taken after: with its
//!   handle held, the pid in that snapshot is the process opened (the first snapshot's may have
//!   exited since, and its pid gone to another).
//!
//! Never ended: hookmux itself and the processes its parent links lead up to (the host), as on
//! Unix; nor a process hookmux cannot open. A process that exits at the moment it is looked at
//! leaves what it started running. What the guards rest on: the creation time is the system
//! clock's; were the clock set back, between the exit of an earlier holder of a hook's pid and the
//! hook's start, by more than lay between the two, a child that earlier holder left running would
//! look like the hook's.
//!
//! # Ending
//!
//! `TerminateProcess` (exit code 1), at once: a process with no console window has no request
//! to end that it could catch ([`crate::process::Ending::Ask`] does nothing on Windows), so the
//! grace is not waited. Top down: the hooks first, so they start nothing more, then what is below
//! them, one level at a time, each looked for once the level above has exited (or 200 ms have
//! passed), until a look finds nothing more.

use super::process::FORCED_EXIT;
use crate::process::{DetachedRun, HookCommand};
use crate::tree::{self, Proc, Row, Table};
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use windows_sys::Win32::Foundation::{self as w, FILETIME};
use windows_sys::Win32::System::Diagnostics::ToolHelp as th;
use windows_sys::Win32::System::Threading as t;

/// How long, at most, the processes of one level are waited for once they were ended.
const FORCED_GONE: Duration = Duration::from_millis(200);

/// How many levels are ended at most, the hooks' own included: a bound against a process that
/// starts another as fast as the one before is ended.
const LEVELS: usize = 64;

pub fn start(command: &HookCommand<'_>, input: Arc<[u8]>) -> io::Result<(Option<Proc>, JoinHandle<()>)> {
    let (process, writer) = super::process::start_detached(command, input)?;
    // SAFETY: a handle to the process just started, open for the call.
    let pid = unsafe { t::GetProcessId(process.as_raw_handle()) };
    let proc = i32::try_from(pid).ok().filter(|pid| *pid > 0).zip(created(&process));
    Ok((proc.map(|(pid, start)| Proc { pid, start }), writer))
}

pub fn still_runs(proc: Proc) -> bool {
    open(proc.pid, t::PROCESS_QUERY_LIMITED_INFORMATION | t::PROCESS_SYNCHRONIZE)
        .is_some_and(|held| held.proc == proc && running(&held.handle))
}

pub fn end(runs: &[DetachedRun], session: &OsStr, _grace: Duration) -> usize {
    if runs.is_empty() || session.is_empty() {
        return 0;
    }
    let Some(links) = links() else { return 0 };
    let spared = tree::ancestors(&links, std::process::id() as i32);
    // The hooks that still run, proven: the pid's holder has the recorded creation time.
    let mut held: Vec<Held> = Vec::new();
    for run in runs {
        if spared.contains(&run.proc.pid) || held.iter().any(|hook| hook.proc == run.proc) {
            continue;
        }
        if let Some(hook) = open(run.proc.pid, ENDING).filter(|hook| hook.proc == run.proc && running(&hook.handle)) {
            held.push(hook);
        }
    }
    // One level at a time, the hooks first: `held[level..]` is the level to end.
    let (mut level, mut ended) = (0, 0);
    for _ in 0..LEVELS {
        let Some(these) = held.get(level..).filter(|these| !these.is_empty()) else { break };
        for process in these {
            // SAFETY: a handle open with PROCESS_TERMINATE.
            unsafe { t::TerminateProcess(process.handle.as_raw_handle(), FORCED_EXIT) };
        }
        ended += these.len();
        wait_gone(these, Instant::now() + FORCED_GONE);
        level = held.len();
        let below = children(&held, &spared);
        held.extend(below);
    }
    ended
}

/// What a process is opened with to be ended.
const ENDING: u32 = t::PROCESS_TERMINATE | t::PROCESS_QUERY_LIMITED_INFORMATION | t::PROCESS_SYNCHRONIZE;

/// A process held open: its pid goes to no other process while it is.
struct Held {
    proc: Proc,
    handle: OwnedHandle,
}

/// The process that holds `pid` now, opened with `access` (which must include
/// `PROCESS_QUERY_LIMITED_INFORMATION`) and named by its creation time; `None` if it cannot be
/// opened (gone, or not hookmux's to open).
fn open(pid: i32, access: u32) -> Option<Held> {
    let id = u32::try_from(pid).ok().filter(|id| *id != 0)?;
    // SAFETY: OpenProcess returns a new handle or null.
    let handle = unsafe { t::OpenProcess(access, 0, id) };
    if handle.is_null() {
        return None;
    }
    // SAFETY: a handle just opened, owned by nothing else.
    let handle = unsafe { OwnedHandle::from_raw_handle(handle) };
    Some(Held { proc: Proc { pid, start: created(&handle)? }, handle })
}

/// When the process was created, in 100 ns units since 1601; `None` if Windows will not tell, or
/// tells a time later than now.
fn created(process: &OwnedHandle) -> Option<u64> {
    let mut times = [FILETIME { dwLowDateTime: 0, dwHighDateTime: 0 }; 4];
    let [creation, exit, kernel, user] = &mut times;
    // SAFETY: the handle is open with PROCESS_QUERY_LIMITED_INFORMATION; the four times are
    // written.
    if unsafe { t::GetProcessTimes(process.as_raw_handle(), creation, exit, kernel, user) } == 0 {
        return None;
    }
    let time = (u64::from(creation.dwHighDateTime) << 32) | u64::from(creation.dwLowDateTime);
    // A time to come is no creation time (Wine tells one for a process still starting).
    (time != 0 && time <= now()?).then_some(time)
}

/// The system time, as a creation time is told.
fn now() -> Option<u64> {
    /// From 1601-01-01 (Windows' epoch) to 1970-01-01, in seconds.
    const UNIX_FROM_WINDOWS: u64 = 11_644_473_600;
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok()?;
    let ticks =
        (u128::from(since.as_secs() + UNIX_FROM_WINDOWS) * 1_000_000_000 + u128::from(since.subsec_nanos())) / 100;
    u64::try_from(ticks).ok()
}

/// Whether the process has not exited.
fn running(process: &OwnedHandle) -> bool {
    // SAFETY: a wait of no time on a handle open for synchronisation.
    unsafe { t::WaitForSingleObject(process.as_raw_handle(), 0) == w::WAIT_TIMEOUT }
}

/// Waits until every process of `ended` has exited, or `until`.
fn wait_gone(ended: &[Held], until: Instant) {
    for held in ended {
        let left = until.saturating_duration_since(Instant::now()).as_millis().min(u128::from(u32::MAX - 1)) as u32;
        // SAFETY: a handle open for synchronisation; the wait is bounded.
        unsafe { t::WaitForSingleObject(held.handle.as_raw_handle(), left) };
    }
}

/// The processes created by one of `held` (see the module doc for how that is proven), but those
/// `spared`, each held open.
fn children(held: &[Held], spared: &BTreeSet<i32>) -> Vec<Held> {
    let pids: BTreeSet<i32> = held.iter().map(|held| held.proc.pid).collect();
    let Some(first) = links() else { return Vec::new() };
    let opened: Vec<Held> = first
        .rows()
        .iter()
        .filter(|row| pids.contains(&row.ppid) && !pids.contains(&row.proc.pid) && !spared.contains(&row.proc.pid))
        .filter_map(|row| open(row.proc.pid, ENDING))
        .collect();
    if opened.is_empty() {
        return Vec::new();
    }
    // Read again with the candidates held: each pid now names the process opened.
    let Some(again) = links() else { return Vec::new() };
    let rows = Links(
        opened
            .iter()
            .filter_map(|child| {
                let row = again.rows().iter().find(|row| row.proc.pid == child.proc.pid)?;
                Some(Row { proc: child.proc, ppid: row.ppid, zombie: false })
            })
            .collect(),
    );
    let parents: BTreeSet<Proc> = held.iter().map(|held| held.proc).collect();
    let proven = tree::children_since(&rows, &parents);
    opened.into_iter().filter(|child| proven.contains(&child.proc)).collect()
}

/// Processes and the pids of those that created them, as a snapshot shows them, or as proven.
/// A snapshot tells no creation time: its rows' `start` is 0.
struct Links(Vec<Row>);

impl Table for Links {
    fn rows(&self) -> &[Row] {
        &self.0
    }
    /// Not read on Windows (see the module doc).
    fn environ_holds(&self, _pid: i32, _entry: &[u8]) -> bool {
        false
    }
}

/// Every process and the pid of the one that created it (`CreateToolhelp32Snapshot`); `None` if
/// the snapshot cannot be taken.
fn links() -> Option<Links> {
    let mut rows = Vec::new();
    each_process(|entry| {
        if let (Ok(pid), Ok(ppid)) = (i32::try_from(entry.th32ProcessID), i32::try_from(entry.th32ParentProcessID)) {
            rows.push(Row { proc: Proc { pid, start: 0 }, ppid, zombie: false });
        }
    })?;
    Some(Links(rows))
}

/// Calls `visit` with every process of a snapshot of the process table; `None` when no snapshot
/// could be taken.
fn each_process(mut visit: impl FnMut(&th::PROCESSENTRY32W)) -> Option<()> {
    // SAFETY: returns a new handle, or INVALID_HANDLE_VALUE.
    let snapshot = unsafe { th::CreateToolhelp32Snapshot(th::TH32CS_SNAPPROCESS, 0) };
    if snapshot == w::INVALID_HANDLE_VALUE || snapshot.is_null() {
        return None;
    }
    // SAFETY: a handle just made, owned by nothing else.
    let snapshot = unsafe { OwnedHandle::from_raw_handle(snapshot) };
    // SAFETY: PROCESSENTRY32W is plain data, for which all zeroes is a value.
    let mut entry: th::PROCESSENTRY32W = unsafe { std::mem::zeroed() };
    entry.dwSize = std::mem::size_of::<th::PROCESSENTRY32W>() as u32;
    // SAFETY: a snapshot of processes; `entry` is sized as the call requires.
    let mut more = unsafe { th::Process32FirstW(snapshot.as_raw_handle(), &mut entry) } != 0;
    while more {
        visit(&entry);
        // SAFETY: as above.
        more = unsafe { th::Process32NextW(snapshot.as_raw_handle(), &mut entry) } != 0;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::{end_detached, start_detached, still_runs};
    use std::ffi::OsString;

    /// How long a test waits at most for what it waits for.
    const BOUND: Duration = Duration::from_secs(60);

    /// The processes `parent` created, proven as [`end`] proves them, each with its program's
    /// file name in lower case.
    fn children_of(parent: Proc) -> Vec<(Proc, String)> {
        let Some(parent) = open(parent.pid, ENDING).filter(|held| held.proc == parent) else { return Vec::new() };
        let children = children(&[parent], &BTreeSet::new());
        let mut names = Vec::new();
        let walked = each_process(|entry| {
            let name = String::from_utf16_lossy(&entry.szExeFile);
            names.push((entry.th32ProcessID as i32, name.trim_end_matches('\0').to_lowercase()));
        });
        assert!(walked.is_some(), "a snapshot of the process table");
        children
            .iter()
            .map(|child| {
                let name = names.iter().find(|(pid, _)| *pid == child.proc.pid).map(|(_, name)| name.clone());
                (child.proc, name.unwrap_or_default())
            })
            .collect()
    }

    #[test]
    fn a_detached_hook_is_ended_with_its_child_only_by_a_record_with_its_creation_time() {
        let dir = tempfile::tempdir().unwrap();
        let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
        let args = [OsString::from("/C"), OsString::from("ping -n 300 127.0.0.1")];
        let command = HookCommand { program: OsStr::new("cmd"), args: &args, env: &env, cwd: dir.path() };
        let hook = start_detached(&command, Arc::from(&b""[..]), Some(OsStr::new("s1"))).unwrap();
        let proc = hook.proc.expect("a detached hook is named by pid and creation time");
        assert!(still_runs(proc));
        let until = Instant::now() + BOUND;
        let mut children = children_of(proc);
        while !children.iter().any(|(_, name)| name == "ping.exe") && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
            children = children_of(proc);
        }
        assert!(children.iter().any(|(_, name)| name == "ping.exe"), "cmd starts ping: {children:?}");
        let session = OsStr::new("s1");

        // The pid with another creation time is another process: nothing is ended.
        for start in [proc.start - 1, proc.start + 1] {
            let wrong = DetachedRun { proc: Proc { start, ..proc }, run: hook.run.clone() };
            assert_eq!(end_detached(&[wrong], session, Duration::ZERO), 0);
        }
        // Nor hookmux itself, even recorded with its own creation time.
        let own = open(std::process::id() as i32, ENDING).expect("this process opens itself").proc;
        assert_eq!(end_detached(&[DetachedRun { proc: own, run: hook.run.clone() }], session, Duration::ZERO), 0);
        // Without a session, nothing.
        let run = DetachedRun { proc, run: hook.run.clone() };
        assert_eq!(end_detached(std::slice::from_ref(&run), OsStr::new(""), Duration::ZERO), 0);
        assert!(still_runs(proc), "the hook still runs");
        assert!(children.iter().all(|(child, _)| still_runs(*child)), "its children still run: {children:?}");

        // The record, twice (a copy of its file): the hook is ended once.
        let ended = end_detached(&[run.clone(), run], session, Duration::ZERO);
        assert!(ended > children.len(), "the hook and its children: {ended} for {children:?}");
        assert!(!still_runs(proc), "the hook is ended");
        assert!(children.iter().all(|(child, _)| !still_runs(*child)), "its children are ended: {children:?}");
        let _ = hook.writer.join();
    }
}
