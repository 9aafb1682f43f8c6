//! One hook process: spawned in its own session, fed the event, captured up to a cap, and on
//! timeout terminated with its whole process group, every process found below it and every process
//! carrying its mark (SIGTERM, a grace period, then SIGKILL). A hook that exits is never signalled,
//! nor is anything it leaves running.

use crate::engine::execute::{tree, RawOutput};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// At most this much of a hook's stdout and of its stderr is kept; the rest is read, counted and
/// dropped, so a hook that prints gigabytes costs time but not memory.
pub const CAPTURE_CAP: usize = 1 << 20;

/// Between SIGTERM and SIGKILL for a hook that overran its timeout.
pub const KILL_GRACE: Duration = Duration::from_secs(1);

/// After a hook exits, how long its output pipes may stay open (a background grandchild holding
/// them) before hookmux stops reading and calls the capture unterminated, as Claude Code does
/// after a quiet window of about this length. Whether they are still open is asked of the pipe
/// itself, not of how far the reader thread got.
pub const QUIET_WINDOW: Duration = Duration::from_millis(300);

/// Once every write end of a pipe is closed, how long the reader may take to drain what is left
/// in it. The rest of a pipe's buffer is read in moments even on a loaded machine; the bound only
/// keeps a pipe reopened for writing through `/proc` from holding dispatch forever.
const DRAIN_LIMIT: Duration = Duration::from_secs(10);

/// Held, shared, by every spawn from the creation of its child's pipes until the child has
/// exec'd. A child forked by one hook's spawn holds copies of every pipe open in dispatch at that
/// moment, another hook's output included, until it execs (they are close-on-exec); on a loaded
/// machine that can outlast the quiet window. Taking it exclusively waits those copies out, so
/// that a write end still open afterwards is held by the hook's own processes.
static SPAWNING: RwLock<()> = RwLock::new(());

fn spawn(command: &mut Command) -> std::io::Result<Child> {
    let _spawning = SPAWNING.read().unwrap_or_else(|p| p.into_inner());
    command.spawn()
}

/// Returns once no spawn is between creating its pipes and its child's exec.
fn spawns_settled() {
    drop(SPAWNING.write().unwrap_or_else(|p| p.into_inner()));
}

/// Set in every command hook's environment to a value of its own (`PID-RANDOM`): the processes a
/// hook starts inherit it, so that on timeout those that are no longer below the hook in the
/// process table (a daemon's double fork) are found too.
pub const HOOK_RUN: &str = "HOOKMUX_HOOK_RUN";

/// A value for [`HOOK_RUN`] that no other hook run, of this dispatch or another, has.
fn hook_run_mark() -> String {
    use std::hash::{BuildHasher, Hasher};
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    // RandomState is seeded from the operating system's randomness.
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    format!("{}-{:016x}", std::process::id(), hasher.finish())
}

/// What to start.
#[derive(Clone, Debug)]
pub struct ProcessSpec {
    pub program: OsString,
    pub args: Vec<OsString>,
    /// The complete environment of the child.
    pub env: Vec<(OsString, OsString)>,
    pub cwd: PathBuf,
    pub stdin: Arc<[u8]>,
    pub timeout: Duration,
}

impl ProcessSpec {
    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.cwd)
            .stdin(Stdio::piped());
        // A session of its own: a process group hookmux can signal as a whole, and no
        // controlling terminal (as Claude Code runs hooks).
        // SAFETY: setsid is async-signal-safe and touches no memory of the parent.
        unsafe {
            command.pre_exec(|| {
                if libc::setsid() == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        command
    }

    fn label(&self) -> String {
        self.program.to_string_lossy().into_owned()
    }
}

/// Runs a process to completion (or timeout) and returns what it printed and how it ended.
pub fn run(spec: &ProcessSpec) -> RawOutput {
    let started = Instant::now();
    let mut command = spec.command();
    let mark = hook_run_mark();
    command.env(HOOK_RUN, &mark).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = match spawn(&mut command) {
        Ok(child) => child,
        Err(err) => return RawOutput::failure(format!("cannot start `{}`: {err}", spec.label())),
    };
    feed_stdin(&mut child, spec.stdin.clone());
    let stdout = Capture::start(child.stdout.take());
    let stderr = Capture::start(child.stderr.take());

    let (status, timed_out) = wait_or_kill(&mut child, spec.timeout, format!("{HOOK_RUN}={mark}").as_bytes());
    let exited = Instant::now();
    let (stdout, stdout_dropped, stdout_ended) = stdout.finish(exited + QUIET_WINDOW);
    let (stderr, stderr_dropped, stderr_ended) = stderr.finish(exited + QUIET_WINDOW);
    RawOutput {
        stdout,
        stderr,
        exit_code: status.and_then(|s| s.code()),
        timed_out,
        unterminated: !(timed_out || (stdout_ended && stderr_ended)),
        stdout_dropped,
        stderr_dropped,
        wall: started.elapsed(),
    }
}

/// Starts a process that is not waited for (`async: true` hooks): stdout and stderr go nowhere,
/// the event is written to its stdin from a background thread. Returns that thread, which the
/// caller may join (bounded) before exiting so that the event is delivered.
pub fn start_detached(spec: &ProcessSpec) -> Result<std::thread::JoinHandle<()>, String> {
    let mut command = spec.command();
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = spawn(&mut command).map_err(|err| format!("cannot start `{}`: {err}", spec.label()))?;
    let stdin = child.stdin.take();
    let data = spec.stdin.clone();
    Ok(std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            let _ = stdin.write_all(&data);
        }
        // The child is reaped by init once hookmux exits; nothing here waits for it.
        drop(child);
    }))
}

fn feed_stdin(child: &mut Child, data: Arc<[u8]>) {
    if let Some(mut stdin) = child.stdin.take() {
        // A hook that exits without reading its input is not an error (EPIPE is ignored).
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
}

/// Waits for the hook; past its timeout, ends it and everything it started that is still running:
/// its process group; the processes found below it in the process table (a child that called
/// `setsid` has left the group), as Claude Code does; and, beyond what Claude Code does, those
/// carrying the hook's `mark` in their environment, and everything below them (a double-forked
/// daemon is below nobody's hook any more). SIGTERM first, SIGKILL after the grace period. Those
/// found at SIGTERM are remembered: once the hook is gone they are no longer below it, and are
/// looked for below themselves.
fn wait_or_kill(child: &mut Child, timeout: Duration, mark: &[u8]) -> (Option<ExitStatus>, bool) {
    match child.wait_timeout(timeout) {
        Ok(Some(status)) => (Some(status), false),
        Ok(None) | Err(_) => {
            let group = child.id() as libc::pid_t;
            let its = |known: BTreeSet<tree::Proc>| {
                let mut roots = tree::carrying(mark);
                roots.extend(known);
                tree::below(&roots)
            };
            // The hook is not reaped yet, so its pid is still its own.
            let mut known = its(tree::Proc::of(group).into_iter().collect());
            signal_group(group, libc::SIGTERM);
            known.iter().for_each(|proc| proc.signal(libc::SIGTERM));
            let status = match child.wait_timeout(KILL_GRACE) {
                Ok(Some(status)) => Some(status),
                _ => {
                    known = its(known);
                    signal_group(group, libc::SIGKILL);
                    known.iter().for_each(|proc| proc.signal(libc::SIGKILL));
                    child.wait().ok()
                }
            };
            // Whatever else is left (a child that ignored SIGTERM) goes too, in the group or not.
            signal_group(group, libc::SIGKILL);
            its(known).iter().for_each(|proc| proc.signal(libc::SIGKILL));
            (status, true)
        }
    }
}

fn signal_group(group: libc::pid_t, signal: libc::c_int) {
    // SAFETY: killpg only sends a signal; a group that is already gone gives ESRCH, ignored.
    unsafe {
        libc::killpg(group, signal);
    }
}

/// Reads one pipe on a thread into a capped buffer.
struct Capture {
    buffer: Arc<Mutex<Captured>>,
    done: Option<Receiver<()>>,
    /// A second descriptor of the pipe's read end, to ask the kernel whether any write end is
    /// still open without touching the data (and without racing the reader, which closes its
    /// own descriptor when it is done).
    probe: Option<OwnedFd>,
}

#[derive(Default)]
struct Captured {
    data: Vec<u8>,
    dropped: u64,
}

impl Capture {
    fn start(pipe: Option<impl Read + AsFd + Send + 'static>) -> Capture {
        let buffer = Arc::new(Mutex::new(Captured::default()));
        let Some(mut pipe) = pipe else { return Capture { buffer, done: None, probe: None } };
        // Without a probe the pipe's state is unknown and the quiet window alone decides, as the
        // reader would have it.
        let probe = pipe.as_fd().try_clone_to_owned().ok();
        let (tx, rx) = mpsc::channel();
        let shared = buffer.clone();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 64 * 1024];
            loop {
                match pipe.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        let mut captured = shared.lock().unwrap_or_else(|p| p.into_inner());
                        let room = CAPTURE_CAP.saturating_sub(captured.data.len());
                        let keep = room.min(n);
                        captured.data.extend_from_slice(&chunk[..keep]);
                        captured.dropped += (n - keep) as u64;
                    }
                    Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(());
        });
        Capture { buffer, done: Some(rx), probe }
    }

    /// Waits until `deadline` at most for every write end of the pipe to close, then for the
    /// reader to drain it, and takes what was read and whether the pipe ended. The pipe is
    /// unterminated only when a write end is still open at the deadline: a reader that was not
    /// scheduled in time does not count.
    fn finish(self, deadline: Instant) -> (Vec<u8>, u64, bool) {
        let ended = match (&self.done, &self.probe) {
            (None, _) => true,
            (Some(done), Some(probe)) => {
                let remaining = deadline.saturating_duration_since(Instant::now());
                match done.recv_timeout(Duration::ZERO) {
                    Ok(()) => true,
                    Err(_) if writers_closed(probe, remaining) || settled_writers_closed(probe) => {
                        done.recv_timeout(DRAIN_LIMIT).is_ok()
                    }
                    Err(_) => false,
                }
            }
            (Some(done), None) => done.recv_timeout(deadline.saturating_duration_since(Instant::now())).is_ok(),
        };
        let mut captured = self.buffer.lock().unwrap_or_else(|p| p.into_inner());
        (std::mem::take(&mut captured.data), captured.dropped, ended)
    }
}

/// Whether every write end is closed once no other hook's spawn can be holding a copy of one.
fn settled_writers_closed(fd: &impl AsRawFd) -> bool {
    spawns_settled();
    writers_closed(fd, Duration::ZERO)
}

/// Whether every write end of the pipe whose read end is `fd` is closed, waiting up to `wait` for
/// it. poll reports POLLHUP on a pipe's read end exactly when no writer is left; no events are
/// asked for, so data arriving (which the reader thread takes) does not wake it, and the kernel
/// looks once more when the wait runs out, so a late wake-up still sees the pipe as it is.
fn writers_closed(fd: &impl AsRawFd, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    loop {
        let mut entry = libc::pollfd { fd: fd.as_raw_fd(), events: 0, revents: 0 };
        // Rounded up: a wait cut short by a fraction of a millisecond would end the window early.
        let left = deadline.saturating_duration_since(Instant::now());
        let millis = left.as_micros().div_ceil(1000).min(libc::c_int::MAX as u128) as libc::c_int;
        // SAFETY: one valid pollfd, borrowed for the call only; the descriptor is open for as
        // long as `fd` is.
        let ready = unsafe { libc::poll(&mut entry, 1, millis) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            // A pipe that cannot be polled is not known to have ended.
            return false;
        }
        if ready == 0 && Instant::now() < deadline {
            continue;
        }
        return entry.revents & libc::POLLHUP != 0;
    }
}

#[cfg(test)]
mod tests;
