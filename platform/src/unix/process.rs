//! Unix: hooks in sessions of their own, every pipe of a dispatch watched by one `poll` loop,
//! exits found with `waitpid(WNOHANG)`, trees ended with signals. The reasoning is in
//! [`crate::process`]; this is how Linux and macOS keep it, by the same code.

use super::kernel::{self, ExitWatch, ProcTable};
use super::spawn::{spawn, Output, Spawned};
use crate::process::{
    hook_run_mark, starts_before, wait_for_starts_before, Ending, Event, HookCommand, HookId, Stream, HOOK_RUN,
};
use crate::tree::{self, Proc};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A read of a pipe takes at most this much; a pipe that holds more is read again on the next
/// turn, after the other pipes had theirs.
const CHUNK: usize = 64 * 1024;

/// How many chunks [`Hooks::read_now`] reads from one pipe at most. A pipe's buffer holds 64 KiB
/// by default, 1 MiB at most unless an administrator raised the limit, so a pipe whose writers
/// are gone always reaches its end within these; one that does not is still being written.
const READ_NOW_CHUNKS: usize = 64;

/// The first and the longest wait between two looks at whether a running hook has exited, when
/// the kernel does not tell ([`ExitWatch`]), and from the moment its pipes end (it is exiting,
/// and the kernel may be a moment from telling).
const EXIT_CHECK_FIRST: Duration = Duration::from_millis(1);
const EXIT_CHECK_MAX: Duration = Duration::from_millis(50);

/// How long [`Hooks::read_now`] waits at most for the starts that may hold a copy of a hook's
/// pipes (see [`crate::process`]).
const SETTLE_MAX: Duration = Duration::from_secs(1);

/// The same when the kernel tells: a net under it, in case it does not.
const EXIT_NET_FIRST: Duration = Duration::from_millis(100);
const EXIT_NET_MAX: Duration = Duration::from_secs(1);

pub fn detach(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

pub fn exists(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: signal 0 sends nothing; it only checks that the process exists and may be
    // signalled.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// Starts `command` with the hook's mark added to its environment.
fn spawn_marked(command: &HookCommand<'_>, mark: &OsString) -> io::Result<Spawned> {
    let mut env: Vec<(OsString, OsString)> = command.env.iter().filter(|(name, _)| name != HOOK_RUN).cloned().collect();
    env.push((HOOK_RUN.into(), mark.clone()));
    spawn(&HookCommand { env: &env, ..*command }, Output::Piped)
}

/// A hook started, its stdin written as far as the pipe took it, not yet watched.
pub struct Launched {
    parts: Parts,
    unwatched: Unwatched,
}

struct Parts {
    pid: libc::pid_t,
    feed: Option<Feed>,
    stdout: File,
    stderr: File,
    mark: Vec<u8>,
    settled: u64,
}

/// Ends a launched hook dropped before it was watched: nothing else would.
struct Unwatched(libc::pid_t);

impl Drop for Unwatched {
    fn drop(&mut self) {
        // SAFETY: killpg only sends a signal, to the group the hook leads (its session's).
        unsafe {
            libc::killpg(self.0, libc::SIGKILL);
        }
        kill_and_reap(self.0);
    }
}

pub fn launch(command: &HookCommand<'_>, input: Arc<[u8]>) -> io::Result<Launched> {
    let mark = hook_run_mark();
    let mut entry = format!("{HOOK_RUN}=").into_bytes();
    entry.extend_from_slice(mark.as_bytes());
    let Spawned { pid, stdin, stdout, stderr, settled } = spawn_marked(command, &mark)?;
    let (Some(stdout), Some(stderr)) = (stdout, stderr) else {
        // Piped output always has both ends; without them nothing could be read or told.
        kill_and_reap(pid);
        return Err(io::Error::other("the hook's pipes were not made"));
    };
    for fd in [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()] {
        if let Err(err) = set_nonblocking(fd) {
            kill_and_reap(pid);
            return Err(err);
        }
    }
    let mut feed = Feed { pipe: stdin, data: input, written: 0 };
    let feed_over = feed.write();
    let parts = Parts { pid, feed: (!feed_over).then_some(feed), stdout, stderr, mark: entry, settled };
    Ok(Launched { parts, unwatched: Unwatched(pid) })
}

pub struct Hooks {
    hooks: Vec<Option<Hook>>,
    exits: ExitWatch,
    /// Whether the kernel is asked to tell of exits (tests also run without).
    watch_exits: bool,
    chunk: Vec<u8>,
}

struct Hook {
    pid: libc::pid_t,
    stdin: Option<Feed>,
    stdout: Option<File>,
    stderr: Option<File>,
    exited: bool,
    /// The kernel tells when it exits.
    watched: bool,
    next_exit_check: Instant,
    exit_check_every: Duration,
    /// `HOOKMUX_HOOK_RUN=value`, as it reads in an environment.
    mark: Vec<u8>,
    /// The starts that may hold a copy of its pipes are numbered below this.
    settled: u64,
    /// The hook's processes found by the last [`Hooks::end`].
    known: BTreeSet<Proc>,
}

/// The hook's stdin and what is left to write to it.
struct Feed {
    pipe: File,
    data: Arc<[u8]>,
    written: usize,
}

impl Feed {
    /// Writes what the pipe takes without blocking; whether the feed is over (all written, or the
    /// hook closed its stdin: a hook that exits without reading its input is not an error).
    fn write(&mut self) -> bool {
        loop {
            let Some(rest) = self.data.get(self.written..).filter(|rest| !rest.is_empty()) else { return true };
            match self.pipe.write(rest) {
                Ok(0) => return true,
                Ok(n) => self.written += n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => return false,
                Err(_) => return true,
            }
        }
    }
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns; the flags are read then written back.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags == -1 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) == -1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// What one read of an output pipe gave.
enum Read1 {
    Data(usize),
    /// Nothing to read now; the pipe is still open.
    Empty,
    /// End of file: no write end is left and the pipe is empty. A read error counts as an end
    /// too: nothing more will come from that pipe.
    End,
}

fn read_once(pipe: &mut dyn Read, chunk: &mut [u8]) -> Read1 {
    loop {
        return match pipe.read(chunk) {
            Ok(0) => Read1::End,
            Ok(n) => Read1::Data(n),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => Read1::Empty,
            Err(_) => Read1::End,
        };
    }
}

/// What a `pollfd` is.
#[derive(Clone, Copy)]
enum Slot {
    Stdin(HookId),
    Out(HookId, Stream),
    /// Readable once the hook exited.
    Exit(HookId),
    /// Readable once any watched hook exited.
    Exits,
}

impl Hook {
    fn pipe(&mut self, stream: Stream) -> Option<&mut dyn Read> {
        match stream {
            Stream::Stdout => self.stdout.as_mut().map(|pipe| pipe as &mut dyn Read),
            Stream::Stderr => self.stderr.as_mut().map(|pipe| pipe as &mut dyn Read),
        }
    }

    fn close(&mut self, stream: Stream) {
        match stream {
            Stream::Stdout => self.stdout = None,
            Stream::Stderr => self.stderr = None,
        }
    }

    /// Reads `stream` once and reports what it gave.
    fn read(&mut self, id: HookId, stream: Stream, chunk: &mut [u8], sink: &mut dyn FnMut(Event<'_>)) -> Read1 {
        let Some(pipe) = self.pipe(stream) else { return Read1::Empty };
        let read = read_once(pipe, chunk);
        match read {
            Read1::Data(n) => sink(Event::Output { hook: id, stream, bytes: &chunk[..n] }),
            Read1::End => {
                self.close(stream);
                sink(Event::Ended { hook: id, stream });
                if self.stdout.is_none() && self.stderr.is_none() {
                    // A hook that exits closes its pipes: look for its exit now.
                    self.next_exit_check = Instant::now();
                    self.exit_check_every = EXIT_CHECK_FIRST;
                }
            }
            Read1::Empty => {}
        }
        read
    }

    /// Reads both pipes as far as [`READ_NOW_CHUNKS`] allows.
    fn read_all(&mut self, id: HookId, chunk: &mut [u8], sink: &mut dyn FnMut(Event<'_>)) {
        for stream in [Stream::Stdout, Stream::Stderr] {
            for _ in 0..READ_NOW_CHUNKS {
                if !matches!(self.read(id, stream, chunk, sink), Read1::Data(_)) {
                    break;
                }
            }
        }
    }

    /// Whether the hook has exited, if it is time to look; reports the exit.
    fn check_exit(&mut self, id: HookId, now: Instant, sink: &mut dyn FnMut(Event<'_>)) -> bool {
        if self.exited || now < self.next_exit_check {
            return false;
        }
        let code = match exit_status(self.pid) {
            Ok(None) => {
                let most = if self.watched { EXIT_NET_MAX } else { EXIT_CHECK_MAX };
                self.exit_check_every = (self.exit_check_every * 2).min(most);
                self.next_exit_check = now + self.exit_check_every;
                return false;
            }
            Ok(Some(code)) => code,
            // Reaped by someone else (hookmux's parent ignored SIGCHLD, which children
            // inherit): it is gone, how is unknown.
            Err(_) => None,
        };
        self.exited = true;
        // Nobody reads the rest of the input.
        self.stdin = None;
        sink(Event::Exited { hook: id, code });
        true
    }
}

impl Hooks {
    pub fn new() -> Hooks {
        Hooks { hooks: Vec::new(), exits: ExitWatch::new(), watch_exits: true, chunk: vec![0; CHUNK] }
    }

    pub fn adopt(&mut self, launched: Launched) -> io::Result<HookId> {
        let Launched { parts: Parts { pid, feed, stdout, stderr, mark, settled }, unwatched } = launched;
        // Watched from here on.
        std::mem::forget(unwatched);
        let watched = self.watch_exits && self.exits.add(pid);
        let every = if watched { EXIT_NET_FIRST } else { EXIT_CHECK_FIRST };
        self.hooks.push(Some(Hook {
            pid,
            stdin: feed,
            stdout: Some(stdout),
            stderr: Some(stderr),
            exited: false,
            watched,
            next_exit_check: Instant::now() + every,
            exit_check_every: every,
            mark,
            settled,
            known: BTreeSet::new(),
        }));
        Ok(HookId(self.hooks.len() - 1))
    }

    pub fn wait(&mut self, until: Option<Instant>, sink: &mut dyn FnMut(Event<'_>)) {
        loop {
            let mut reported = self.check_exits(sink);
            let (mut fds, slots) = self.poll_set();
            let next_check = self.live().filter(|(_, hook)| !hook.exited).map(|(_, hook)| hook.next_exit_check).min();
            if fds.is_empty() && next_check.is_none() && until.is_none() {
                return;
            }
            let wake = [until, next_check].into_iter().flatten().min();
            let timeout = if reported { 0 } else { poll_millis(wake) };
            // SAFETY: `fds` is a valid array of pollfd for the whole call; its descriptors are
            // owned by `self.hooks`, which is not touched during the call.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
            if ready > 0 {
                reported |= self.serve(&fds, &slots, sink);
            }
            reported |= self.check_exits(sink);
            if reported || until.is_some_and(|until| Instant::now() >= until) {
                return;
            }
        }
    }

    pub fn read_now(&mut self, id: HookId, sink: &mut dyn FnMut(Event<'_>)) {
        let Some(Some(hook)) = self.hooks.get_mut(id.0) else { return };
        hook.read_all(id, &mut self.chunk, sink);
        if (hook.stdout.is_some() || hook.stderr.is_some()) && starts_before(hook.settled) {
            // Another hook's child, started while this one's pipes were being made, may still
            // hold a copy of them until it runs its program, a moment: a writer that is not this
            // hook's. What the pipes say once it has is what counts.
            wait_for_starts_before(hook.settled, SETTLE_MAX);
            hook.read_all(id, &mut self.chunk, sink);
        }
        // Looked for now, whatever the backoff says: what can be told now is told.
        let now = Instant::now();
        hook.next_exit_check = now;
        self.check_exit(id, now, sink);
    }

    pub fn end(&mut self, id: HookId, how: Ending) {
        let Some(Some(hook)) = self.hooks.get_mut(id.0) else { return };
        let signal = match how {
            Ending::Ask => libc::SIGTERM,
            Ending::Force => libc::SIGKILL,
        };
        let group = hook.pid;
        let mut known = std::mem::take(&mut hook.known);
        if !hook.exited {
            // Not reaped yet, so the pid is still the hook's.
            known.extend(kernel::running(group));
        }
        let own = std::process::id() as i32;
        hook.known = tree::of_hook(&ProcTable::read(), &hook.mark, own, &known);
        // SAFETY: killpg only sends a signal; a group that is already gone gives ESRCH, ignored.
        unsafe {
            libc::killpg(group, signal);
        }
        hook.known.iter().for_each(|proc| signal_if_running(*proc, signal));
    }

    pub fn release(&mut self, id: HookId) {
        if let Some(hook) = self.hooks.get_mut(id.0).and_then(Option::take) {
            if hook.watched {
                self.exits.remove(hook.pid);
            }
        }
    }

    fn live(&self) -> impl Iterator<Item = (HookId, &Hook)> {
        self.hooks.iter().enumerate().filter_map(|(index, hook)| Some((HookId(index), hook.as_ref()?)))
    }

    /// Looks for the exit of every hook whose look is due; whether one was reported.
    fn check_exits(&mut self, sink: &mut dyn FnMut(Event<'_>)) -> bool {
        let now = Instant::now();
        let mut reported = false;
        for index in 0..self.hooks.len() {
            reported |= self.check_exit(HookId(index), now, sink);
        }
        reported
    }

    /// Looks for `hook`'s exit if the look is due; whether it was reported.
    fn check_exit(&mut self, id: HookId, now: Instant, sink: &mut dyn FnMut(Event<'_>)) -> bool {
        let Some(Some(hook)) = self.hooks.get_mut(id.0) else { return false };
        if !hook.check_exit(id, now, sink) {
            return false;
        }
        if std::mem::take(&mut hook.watched) {
            self.exits.remove(hook.pid);
        }
        true
    }

    /// Every descriptor to watch: stdin while something is left to write, each output pipe until
    /// its end, and what tells of exits.
    fn poll_set(&self) -> (Vec<libc::pollfd>, Vec<Slot>) {
        let mut fds = Vec::new();
        let mut slots = Vec::new();
        let mut watch = |fd: RawFd, events: libc::c_short, slot: Slot| {
            fds.push(libc::pollfd { fd, events, revents: 0 });
            slots.push(slot);
        };
        for (id, hook) in self.live() {
            if let Some(feed) = &hook.stdin {
                watch(feed.pipe.as_raw_fd(), libc::POLLOUT, Slot::Stdin(id));
            }
            if let Some(pipe) = &hook.stdout {
                watch(pipe.as_raw_fd(), libc::POLLIN, Slot::Out(id, Stream::Stdout));
            }
            if let Some(pipe) = &hook.stderr {
                watch(pipe.as_raw_fd(), libc::POLLIN, Slot::Out(id, Stream::Stderr));
            }
        }
        let hooks: std::collections::HashMap<libc::pid_t, HookId> =
            self.live().filter(|(_, hook)| hook.watched).map(|(id, hook)| (hook.pid, id)).collect();
        for (fd, pid) in self.exits.fds() {
            match pid {
                Some(pid) => {
                    if let Some(id) = hooks.get(&pid) {
                        watch(fd, libc::POLLIN, Slot::Exit(*id));
                    }
                }
                None => watch(fd, libc::POLLIN, Slot::Exits),
            }
        }
        (fds, slots)
    }

    /// Reads once from every ready output pipe, writes to every ready stdin, and makes the look
    /// for an exit due where one was told; whether anything was reported. Any readiness counts,
    /// hang-up and error included: the read tells which.
    fn serve(&mut self, fds: &[libc::pollfd], slots: &[Slot], sink: &mut dyn FnMut(Event<'_>)) -> bool {
        let mut reported = false;
        for (fd, &slot) in fds.iter().zip(slots) {
            if fd.revents == 0 {
                continue;
            }
            match slot {
                Slot::Stdin(id) => {
                    let Some(Some(hook)) = self.hooks.get_mut(id.0) else { continue };
                    if hook.stdin.as_mut().is_some_and(Feed::write) {
                        hook.stdin = None;
                    }
                }
                Slot::Out(id, stream) => {
                    let Some(Some(hook)) = self.hooks.get_mut(id.0) else { continue };
                    reported |= !matches!(hook.read(id, stream, &mut self.chunk, sink), Read1::Empty);
                }
                Slot::Exit(id) => self.look_now(id),
                Slot::Exits => {
                    let pids = self.exits.exited();
                    let now = Instant::now();
                    for hook in self.hooks.iter_mut().flatten() {
                        if pids.contains(&hook.pid) {
                            hook.next_exit_check = now;
                        }
                    }
                }
            }
        }
        reported
    }

    /// Makes the next look for `hook`'s exit due now.
    fn look_now(&mut self, hook: HookId) {
        if let Some(Some(hook)) = self.hooks.get_mut(hook.0) {
            hook.next_exit_check = Instant::now();
        }
    }
}

/// The exit code of `pid` if it has exited (`None` inside when a signal ended it), reaping it;
/// `None` while it runs.
fn exit_status(pid: libc::pid_t) -> io::Result<Option<Option<i32>>> {
    let mut status = 0;
    loop {
        // SAFETY: waitpid on a child of this process, writing its status into `status`.
        return match unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } {
            0 => Ok(None),
            -1 => match io::Error::last_os_error() {
                err if err.kind() == io::ErrorKind::Interrupted => continue,
                err => Err(err),
            },
            _ if libc::WIFEXITED(status) => Ok(Some(Some(libc::WEXITSTATUS(status)))),
            _ => Ok(Some(None)),
        };
    }
}

/// Ends a child that could not be set up, and reaps it.
fn kill_and_reap(pid: libc::pid_t) {
    // SAFETY: kill and waitpid on a child of this process that nothing else has reaped.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
}

/// `poll`'s timeout until `wake`: -1 for none, rounded up so that a wait is never cut short.
fn poll_millis(wake: Option<Instant>) -> libc::c_int {
    let Some(wake) = wake else { return -1 };
    let left = wake.saturating_duration_since(Instant::now());
    left.as_micros().div_ceil(1000).min(libc::c_int::MAX as u128) as libc::c_int
}

/// Sends `signal` to `proc` if this very process still runs (a pid taken over by another process
/// since is left alone; a zombie needs no signal). A process that ends between the look and the
/// signal gives ESRCH, ignored; its pid cannot be reused before its parent has reaped it, a moment
/// the look would have had to miss entirely.
pub(super) fn signal_if_running(proc: Proc, signal: libc::c_int) {
    if kernel::running(proc.pid) == Some(proc) {
        // SAFETY: kill only sends a signal, to the process identified just above.
        unsafe {
            libc::kill(proc.pid, signal);
        }
    }
}

#[cfg(test)]
impl Hooks {
    pub fn start(&mut self, command: &HookCommand<'_>, input: Arc<[u8]>) -> io::Result<HookId> {
        launch(command, input).and_then(|launched| self.adopt(launched))
    }
}

#[cfg(test)]
mod tests;
