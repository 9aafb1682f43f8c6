//! Processes: starting a hook, watching every hook of a dispatch at once, ending a hook with
//! everything it started.
//!
//! # What each operating system module promises
//!
//! - [`spawn`], [`launch`]: every process hookmux starts (hooks, `async` hooks, built-in
//!   handlers' helpers) is started under one process-wide lock, held until the child runs its own
//!   program. A hook's output is judged ended when no process holds its pipe's write end any
//!   more; a child another thread is starting at the same moment inherits a copy of every
//!   descriptor hookmux holds, that end included if the hook's pipes exist then, and holds it
//!   until it runs its program (every descriptor hookmux keeps is close-on-exec). On a loaded
//!   machine a copy of hookmux made by `fork` can take long to get there, long enough to outlast
//!   the quiet window and make a finished hook's answer look cut short. So the lock is taken in
//!   two ways:
//!   - *shared* by a hook started with `posix_spawn`, whose child shares hookmux's memory (a
//!     `vfork`: nothing to copy, its parent thread waits) and runs its program at once. Hooks
//!     start this way on several threads at once, so that a dispatch of many hooks uses every
//!     core. Such a child may copy another hook's pipe ends made at the same moment, and hold
//!     them until it closes every descriptor it was not given, before it looks for its program
//!     (glibc 2.34 and later: `posix_spawn`'s closefrom action; macOS gives the child none of
//!     them); `posix_spawn` returns only after that, so a start that is over holds no copy. The
//!     close-on-exec flag alone is not enough: Linux lets a `vfork` parent go on as soon as the
//!     child's memory is replaced, and lets go of the child's close-on-exec copies only later,
//!     as its `exec` returns, long enough on a loaded machine for a hook's answer to be judged
//!     while another start's child still held it. Until its start is over a child holds the
//!     copies for microseconds, unless it is held up (a busy machine that runs it late; without
//!     the closefrom action, loading its program from a cold network filesystem). So each such
//!     start is numbered while it is in flight, a hook notes which starts may have copied its
//!     pipes, and [`Hooks::read_now`], which the caller
//!     asks once its quiet window is over, first waits for those starts to be over (up to a
//!     second, so that a start stuck in loading its program does not stop the watching of the
//!     others) before it judges whether the pipes ended. No start ever waits for another, and a
//!     hook's answer is not judged cut short by a copy some other start holds.
//!   - *alone* by a start through `fork`: every [`spawn`] of a `std::process::Command`, and
//!     hooks where the C library cannot start a child in a session of its own without a fork.
//!     No hook's pipes exist in hookmux meanwhile but its own, so no such child holds another
//!     hook's write end; these start one at a time.
//!
//!   macOS has no `pipe2`: a pipe is made, then marked close-on-exec. Its hooks are started with
//!   `POSIX_SPAWN_CLOEXEC_DEFAULT`, so a child keeps only the descriptors it is given whatever
//!   their flags, and a fork holds the lock alone.
//!
//!   Windows has no `fork`, and a child gets the handles marked inheritable rather than keeping
//!   those not closed on exec: every hook start there holds the lock shared until
//!   `CreateProcessW` has returned and hookmux's copies of the child's ends are closed, its child
//!   is given its own pipe ends and nothing else, and every [`spawn`] holds the lock alone (see
//!   below).
//!
//!   Not covered: on glibc 2.29 to 2.33 (no closefrom action), a child lets go of another
//!   hook's pipe at its `exec`, a moment after its start is over (see above); musl's
//!   `posix_spawn` waits for the child's `exec` to let go of a close-on-exec pipe of its own,
//!   which it does with the others. And a process started by code that does not come through here (a third-party
//!   handler's own `std::process::Command::spawn`): a child it forks while a hook is being started
//!   may hold that hook's pipe until its program starts, a moment, and then the hook's answer is
//!   waited for that long; only under a heavy load can that outlast the quiet window.
//! - [`Hooks`]: many hooks at once, watched by as few threads as the OS allows. A hook runs in a
//!   session of its own with no controlling terminal (as Claude Code runs hooks; Windows: no
//!   console window), with [`HOOK_RUN`] in its environment; its stdin is written for it and
//!   closed, and its stdout and stderr are read. [`Hooks::wait`] reports what the hooks wrote,
//!   which of their output pipes have ended and which hooks have exited. A pipe *ends* when no
//!   process holds its write end any more and everything written to it has been reported: the
//!   end of file, which every OS tells the same way (a read that returns nothing), so no
//!   behaviour rests on how one kernel's `poll` reports a hang-up.
//! - [`Hooks::end`]: ending a hook that overran its timeout with everything it started, asking
//!   first, then forcing; the timing (the grace between the two) is the caller's.
//! - [`start_detached`] and [`end_detached`]: a hook that is not waited for (`async`) carries its
//!   own [`HOOK_RUN`] and its session's [`SESSION`] mark, and is named by pid and start time when
//!   it starts, so that its session's end can end it if it still runs, and nothing else. Unix
//!   (`unix/detached.rs`): Linux and macOS, over the same process tables as [`Hooks::end`].
//!   Windows (`windows/detached.rs`): named by pid and creation time, and proven by them alone
//!   (that module says why the environment is not read there), its tree found in a
//!   `CreateToolhelp32Snapshot` and ended with `TerminateProcess`.
//!
//! The timing rules (timeouts, the quiet window after a hook exits, when output counts as cut
//! short), the capture caps and what an answer means are the caller's: this module reports what
//! the operating system tells and does what it is asked.
//!
//! # How each OS keeps it
//!
//! - Unix (`unix/process.rs`): one `poll` loop for every pipe of the dispatch. Output pipes are
//!   asked for `POLLIN`; a readable pipe is read once per turn, and a read of nothing is its end
//!   (Linux reports `POLLHUP`, macOS `POLLIN|POLLHUP`, and both then read nothing: the same code
//!   path). Each hook's stdin is written without blocking in the same loop. Exits are found with
//!   `waitpid(WNOHANG)` on the hook's own pid: at once when both its output pipes end (a hook
//!   that exits closes them), and otherwise on a backoff from 1 ms to 50 ms while it runs, so a
//!   hook whose pipes a background child holds is still seen to exit. A hook's tree is found in
//!   the process table ([`tree`](crate::tree): `/proc` on Linux, libproc on macOS) and
//!   signalled: SIGTERM when asked, SIGKILL when forced.
//! - Windows (`windows/process.rs`): anonymous pipes cannot be polled, so each pipe gets a
//!   thread doing blocking `ReadFile` (`ERROR_BROKEN_PIPE` is the end) and stdin a writing
//!   thread, all reporting into one channel that `wait` reads with a deadline; exits through
//!   `WaitForSingleObject` on the process handle, from a thread per hook. [`launch`] creates the
//!   hook on whichever thread calls it: suspended, put in a Job Object of its own and then
//!   resumed, so everything it starts is in that job, and ending it is `TerminateJobObject`.
//!   [`Hooks::adopt`] starts its threads; a [`Launched`] dropped without that has its job ended.
//!   The spawn lock's part is kept by `PROC_THREAD_ATTRIBUTE_HANDLE_LIST`: a hook inherits its
//!   own three pipe ends and nothing else, so hooks launched on several threads at once (each
//!   holding the lock shared) never get each other's ends, and no start needs waiting for
//!   before a hook's pipes are judged. Those ends are inheritable only while their start holds
//!   the lock shared, and a `std::process::Command` (which names no list, so its child inherits
//!   every inheritable handle) takes it alone through [`spawn`], so it never sees them. The API
//!   asks nothing Windows lacks: [`Hooks::wait`] takes events from wherever the OS module
//!   gathers them, a pipe's end is reported as an event rather than asked of a descriptor, and
//!   [`Ending::Ask`] does nothing there. [`spawn_detached`] is `CREATE_NEW_PROCESS_GROUP`,
//!   [`exists`] `OpenProcess` and a look at whether the process handle is signalled.
//!
//! Threads: on Unix, none per hook (the caller's one loop, and the caller's few threads that
//! [`launch`] hooks); the spawn of a hook is a `vfork`, or where it must be a `fork`, one of a
//! process that holds a handful of threads, not thousands, which keeps each fork cheap. On
//! Windows, four per hook with 64 KiB stacks, started by [`Hooks::adopt`] (no `fork` there, so
//! threads make no spawn dearer).

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use crate::tree::Proc;

#[cfg(unix)]
use crate::unix::detached;
#[cfg(unix)]
use crate::unix::process as sys;
#[cfg(windows)]
use crate::windows::detached;
#[cfg(windows)]
use crate::windows::process as sys;

/// Set in every hook's environment to a value of its own (`PID-RANDOM`): the processes a hook
/// starts inherit it, so that on timeout those that are no longer below the hook in the process
/// table (a daemon's double fork) are found too.
pub const HOOK_RUN: &str = "HOOKMUX_HOOK_RUN";

/// The spawn lock (see the module doc): the starts under it shared that have not yet run their
/// program (or failed to), and whether a start holds it alone.
static SPAWNING: Mutex<Spawning> = Mutex::new(Spawning { next: 1, in_flight: BTreeMap::new(), alone: false });
/// Told whenever a start is over.
static START_OVER: Condvar = Condvar::new();

struct Spawning {
    /// The number the next shared start takes.
    next: u64,
    /// The shared starts not over yet, by number, with when each began.
    in_flight: BTreeMap<u64, Instant>,
    alone: bool,
}

fn spawning() -> MutexGuard<'static, Spawning> {
    SPAWNING.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn wait_over(spawning: MutexGuard<'static, Spawning>) -> MutexGuard<'static, Spawning> {
    START_OVER.wait(spawning).unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A start holding the spawn lock shared (see the module doc), in flight until dropped.
pub(crate) struct Starting {
    number: u64,
}

/// Takes the spawn lock shared, for a start whose child shares hookmux's memory until it runs its
/// program and holds every descriptor close-on-exec but those it is given (`posix_spawn`), or is
/// given no handle but those it names (Windows' `PROC_THREAD_ATTRIBUTE_HANDLE_LIST`). Waits
/// only while a start holds it alone: a start that wants it alone waits for a moment without
/// shared starts, which may be the end of a dispatch's starts.
pub(crate) fn starting() -> Starting {
    let mut spawning = spawning();
    while spawning.alone {
        spawning = wait_over(spawning);
    }
    let number = spawning.next;
    spawning.next += 1;
    spawning.in_flight.insert(number, Instant::now());
    Starting { number }
}

impl Starting {
    /// Called once this start's child runs its program and hookmux's copies of the child's pipe
    /// ends are closed: the mark to give [`wait_for_starts_before`] for those pipes. Every start
    /// that may have copied them took its number before this.
    // Windows: no child holds another hook's pipes (see the module doc), so none is waited for.
    #[cfg(unix)]
    pub(crate) fn settled(&self) -> u64 {
        spawning().next
    }
}

impl Drop for Starting {
    fn drop(&mut self) {
        spawning().in_flight.remove(&self.number);
        START_OVER.notify_all();
    }
}

/// Whether a start numbered below `mark` is still in flight: its child may hold a copy of the
/// pipes of the hook that `mark` is for, until it runs its program.
// Windows: no start is waited for (see the module doc).
#[cfg(unix)]
pub(crate) fn starts_before(mark: u64) -> bool {
    spawning().in_flight.first_key_value().is_some_and(|(first, _)| *first < mark)
}

/// Waits until every start numbered below `mark` has run its program or failed to (a moment, the
/// time a `vfork`ed child takes to run its program), or has been in flight for `most`: a start
/// stuck in loading its program (a hung network filesystem) is waited for once, not once by every
/// hook started after it, and does not stop the watching of every other hook.
// Windows: no start is waited for (see the module doc).
#[cfg(unix)]
pub(crate) fn wait_for_starts_before(mark: u64, most: Duration) {
    let mut spawning = spawning();
    loop {
        let now = Instant::now();
        // The soonest moment a start below `mark` is no longer waited for.
        let soonest = spawning.in_flight.range(..mark).map(|(_, began)| *began + most).filter(|end| *end > now).min();
        let Some(soonest) = soonest else { return };
        spawning = START_OVER.wait_timeout(spawning, soonest - now).unwrap_or_else(|poisoned| poisoned.into_inner()).0;
    }
}

/// The spawn lock held alone, until dropped.
pub(crate) struct Alone(());

/// Takes the spawn lock alone, for a start through `fork` (a copy of hookmux that may take long
/// to run its program), or on Windows one that names no handle list (its child inherits every
/// inheritable handle): no other start is in flight meanwhile.
pub(crate) fn spawning_alone() -> Alone {
    let mut spawning = spawning();
    while spawning.alone || !spawning.in_flight.is_empty() {
        spawning = wait_over(spawning);
    }
    spawning.alone = true;
    Alone(())
}

impl Drop for Alone {
    fn drop(&mut self) {
        spawning().alone = false;
        START_OVER.notify_all();
    }
}

/// Starts `command` holding the spawn lock alone (see the module doc). Every process hookmux
/// and its built-in handlers start with `std::process::Command` goes through here.
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    let _spawning = spawning_alone();
    // std returns once the child runs its program (or failed to), and has closed the parent's
    // copies of the child's pipe ends by then.
    command.spawn().map_err(|err| match err.raw_os_error() {
        // std on Windows reports a program found nowhere on `PATH` with an error of its own
        // ("program not found") that carries no OS code: it is the OS's "no such file", as Unix
        // reports it and Node names it (`spawn grepai ENOENT`).
        None if err.kind() == io::ErrorKind::NotFound => crate::errno::Errno::NoEntry.error(),
        _ => err,
    })
}

/// Starts `command` under the spawn lock, detached from hookmux's process group (Unix: a group
/// of its own; Windows: a new process group), so that a signal to hookmux's group, such as the
/// host's Ctrl-C, does not reach it. For a helper that outlives the hook that started it.
pub fn spawn_detached(command: &mut Command) -> io::Result<Child> {
    sys::detach(command);
    spawn(command)
}

/// Whether a process with this pid exists and hookmux may signal it (Unix: `kill(pid, 0)`, so
/// pid 0 is hookmux's own group; Windows: the process can be opened and has not exited).
pub fn exists(pid: u32) -> bool {
    sys::exists(pid)
}

/// What to start as a hook.
#[derive(Clone, Copy, Debug)]
pub struct HookCommand<'a> {
    /// Looked up in the `PATH` of `env` when it names no folder.
    pub program: &'a OsStr,
    pub args: &'a [OsString],
    /// The complete environment: nothing of hookmux's own is added but [`HOOK_RUN`].
    pub env: &'a [(OsString, OsString)],
    /// The folder it runs in.
    pub cwd: &'a Path,
}

/// Set in a detached hook's environment (beside its own [`HOOK_RUN`]) to a mark of the session
/// that started it, which the processes it starts inherit: at the session's end, a hook is ended
/// only if it was recorded when it started and its environment carries both (see
/// [`end_detached`]).
pub const SESSION: &str = "HOOKMUX_SESSION";

/// A hook started by [`start_detached`].
pub struct Detached {
    /// The hook's process, by pid and start time (Windows: creation time); `None` where it cannot
    /// be named (it had already exited when looked at, or the OS module cannot read its start
    /// time: Unix systems other than Linux and macOS).
    pub proc: Option<Proc>,
    /// Its [`HOOK_RUN`] value.
    pub run: OsString,
    /// The thread writing its stdin, which the caller may join (bounded) before exiting so that
    /// the event is delivered.
    pub writer: JoinHandle<()>,
}

/// A detached hook of a session, as recorded when it started, to be ended at the session's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DetachedRun {
    pub proc: Proc,
    /// Its [`HOOK_RUN`] value.
    pub run: OsString,
}

/// Starts `command` as a hook that is not waited for (`async: true`): in a session of its own,
/// stdout and stderr to nowhere, `stdin` written to it from a thread of its own, with a
/// [`HOOK_RUN`] value of its own and, when `session` is given, [`SESSION`] set to it (both
/// replace what `command`'s environment held under those names). The process is reaped by the
/// system once hookmux exits.
pub fn start_detached(command: &HookCommand<'_>, stdin: Arc<[u8]>, session: Option<&OsStr>) -> io::Result<Detached> {
    let run = hook_run_mark();
    let mut env: Vec<(OsString, OsString)> =
        command.env.iter().filter(|(name, _)| name != HOOK_RUN && name != SESSION).cloned().collect();
    env.push((HOOK_RUN.into(), run.clone()));
    if let Some(session) = session {
        env.push((SESSION.into(), session.to_os_string()));
    }
    let (proc, writer) = detached::start(&HookCommand { env: &env, ..*command }, stdin)?;
    Ok(Detached { proc, run, writer })
}

/// Whether the process `proc` names still runs: the same pid with the same start time, not
/// exited. Always false where processes cannot be named (see [`Detached::proc`]).
pub fn still_runs(proc: Proc) -> bool {
    detached::still_runs(proc)
}

/// Ends, at the end of the session whose [`SESSION`] mark is `session`, those of its detached
/// hooks `runs` that still run, with the processes below them, as Claude Code ends its own:
/// asked first ([`Ending::Ask`]), then forced after `grace` if any is still running (the wait
/// stops as soon as none is).
///
/// A hook is ended only when it is provably one of them: the recorded process itself (same pid,
/// same start time) whose environment carries both `SESSION=session` and its own [`HOOK_RUN`]
/// value (Windows: same pid and creation time, the environment not read; `windows/detached.rs`
/// says why that proves as much there). With it go the processes below it by parent links;
/// never this process nor one of its ancestors. A process the hook double-forked (below no hook
/// any more) is left running, and so is what a hook that has already exited left: as under
/// Claude Code. Returns how many processes were asked to end (Windows: ended, at once, with no
/// grace: no request to end reaches a process without a console window, see [`Ending::Ask`]).
///
/// Linux, macOS and Windows; not on other Unix systems, where nothing is ended (their hooks
/// cannot be named: [`Detached::proc`] is `None`).
pub fn end_detached(runs: &[DetachedRun], session: &OsStr, grace: Duration) -> usize {
    detached::end(runs, session, grace)
}

/// A hook started by [`launch`], on any thread, and not yet watched: [`Hooks::adopt`] watches
/// it. Dropped without that, its processes are ended.
pub struct Launched {
    inner: sys::Launched,
}

/// Starts `command` as [`Hooks::start`] does, without a [`Hooks`]: several threads may start
/// hooks at once this way (see the module doc), for the thread that owns the [`Hooks`] to adopt.
pub fn launch(command: &HookCommand<'_>, stdin: Arc<[u8]>) -> io::Result<Launched> {
    sys::launch(command, stdin).map(|inner| Launched { inner })
}

/// A value for [`HOOK_RUN`] that no other hook run, of this process or another, has.
pub fn hook_run_mark() -> OsString {
    use std::hash::{BuildHasher, Hasher};
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    // RandomState is seeded from the operating system's randomness.
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    format!("{}-{:016x}", std::process::id(), hasher.finish()).into()
}

/// One hook among [`Hooks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HookId(pub(crate) usize);

/// Which output pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// What [`Hooks::wait`] and [`Hooks::read_now`] report.
#[derive(Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// The hook (or something holding its pipe) wrote `bytes`.
    Output { hook: HookId, stream: Stream, bytes: &'a [u8] },
    /// No process holds the pipe's write end any more and all it held was reported.
    Ended { hook: HookId, stream: Stream },
    /// The hook's own process exited: its exit code, `None` when a signal ended it.
    Exited { hook: HookId, code: Option<i32> },
}

/// How [`Hooks::end`] ends a hook's processes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// May be caught: SIGTERM on Unix. Windows has no such request for a console-less process
    /// and does nothing here.
    Ask,
    /// Cannot be caught: SIGKILL on Unix, `TerminateJobObject` on Windows.
    Force,
}

/// The hooks of one dispatch, started and watched together.
pub struct Hooks {
    inner: sys::Hooks,
}

impl Default for Hooks {
    fn default() -> Hooks {
        Hooks::new()
    }
}

impl Hooks {
    pub fn new() -> Hooks {
        Hooks { inner: sys::Hooks::new() }
    }

    /// Starts `command` as a hook (see the module doc), its stdin to be `stdin` then closed.
    pub fn start(&mut self, command: &HookCommand<'_>, stdin: Arc<[u8]>) -> io::Result<HookId> {
        launch(command, stdin).and_then(|launched| self.adopt(launched))
    }

    /// Watches a hook that [`launch`] started, from now on, as if [`Hooks::start`] had. Fails
    /// only where watching takes resources of its own (Windows: the hook's threads, which the
    /// system may refuse); then the hook's processes are ended and nothing of it is reported.
    pub fn adopt(&mut self, launched: Launched) -> io::Result<HookId> {
        self.inner.adopt(launched.inner)
    }

    /// Waits until something happens to a hook or `until` passes, reports to `sink` what
    /// happened, and returns; with nothing left to watch and no `until`, returns at once.
    /// Whatever the OS can tell without waiting is reported before a return at `until`.
    pub fn wait(&mut self, until: Option<Instant>, sink: &mut dyn FnMut(Event<'_>)) {
        self.inner.wait(until, sink);
    }

    /// Reports what `hook`'s output pipes hold at this moment, and their end if no writer is
    /// left, without waiting for more. A pipe still written to as fast as it is read is read a
    /// bounded amount and then left as it is.
    pub fn read_now(&mut self, hook: HookId, sink: &mut dyn FnMut(Event<'_>)) {
        self.inner.read_now(hook, sink);
    }

    /// Ends `hook` and every process it started that can be found: its process group, the
    /// processes below it, those carrying its [`HOOK_RUN`] mark, and those found by an earlier
    /// call (which may no longer be below it). Callable before and after the hook exits.
    pub fn end(&mut self, hook: HookId, how: Ending) {
        self.inner.end(hook, how);
    }

    /// Stops watching `hook` and closes hookmux's ends of its pipes. Nothing is signalled.
    pub fn release(&mut self, hook: HookId) {
        self.inner.release(hook);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errno::Errno;

    #[test]
    fn a_program_found_nowhere_is_no_such_file_on_every_os() {
        let dir = tempfile::tempdir().unwrap();
        let mut command = Command::new("hookmux-test-no-such-program");
        command.env_clear().env("PATH", dir.path());
        let err = spawn_detached(&mut command).unwrap_err();
        assert_eq!(Errno::of(&err), Some(Errno::NoEntry), "{err}");
    }
}
