//! Command hooks as processes: every command hook of a plan is started and watched together, on
//! one thread, through the platform layer's [`Hooks`] (which says how each operating system
//! starts a hook, reads its pipes and ends its processes). What is decided here is the same
//! everywhere: each hook's timeout, its capture caps, the quiet window after it exits, and when
//! its output counts as cut short. A hook that overruns its timeout is ended with everything it
//! started (SIGTERM, a grace period, then SIGKILL); a hook that exits is never signalled, nor is
//! anything it leaves running.
//!
//! Why one thread for all of them: a dispatch over many hooks used to give each four threads (its
//! runner, a stdin writer, two readers), and every spawn is a fork of dispatch, whose cost grows
//! with what dispatch holds (each thread's stack is mappings the fork copies): N spawns over N
//! threads made the cost of N hooks grow with N². One loop reads every pipe, writes every stdin
//! and watches every exit and deadline, so dispatch stays small while it starts hook after hook.
//!
//! Only the starts are spread over a few threads (as many as there are cores, at most
//! [`MAX_STARTERS`]): a thread that starts a hook waits until the kernel has loaded the hook's
//! program, so from one thread the starts of many hooks took turns on one core while the others
//! idled. The watching loop adopts each hook as it is started.

use crate::engine::execute::RawOutput;
use hookmux_platform::process::{self as platform, Ending, Event, HookCommand, HookId, Hooks, Launched, Stream};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// At most this much of a hook's stdout and of its stderr is kept; the rest is read, counted and
/// dropped, so a hook that prints gigabytes costs time but not memory.
pub const CAPTURE_CAP: usize = 1 << 20;

/// Between SIGTERM and SIGKILL for a hook that overran its timeout.
pub const KILL_GRACE: Duration = Duration::from_secs(1);

/// After a hook exits, how long its output pipes may stay open (a background grandchild holding
/// them) before hookmux stops reading and calls the capture unterminated, as Claude Code does
/// after a quiet window of about this length. A pipe is open while any process holds its write
/// end: what the pipe itself says at the end of the window decides, read to its end if it has
/// one, not how far reading had got.
pub const QUIET_WINDOW: Duration = Duration::from_millis(300);

/// While hooks are still being started, the ones already running are served (their stdin
/// written, their pipes read, their deadlines kept) at least this often.
const SERVE_WHILE_STARTING: Duration = Duration::from_millis(5);

/// At most this many threads start hooks at once, whatever the number of cores: past a few, they
/// mostly wait on each other in the kernel.
const MAX_STARTERS: usize = 4;

/// A starting thread holds a hook's arguments and environment while it starts it, little more.
const STARTER_STACK: usize = 256 * 1024;

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
    fn command(&self) -> HookCommand<'_> {
        HookCommand { program: &self.program, args: &self.args, env: &self.env, cwd: &self.cwd }
    }

    fn label(&self) -> String {
        self.program.to_string_lossy().into_owned()
    }
}

/// Runs one process to completion (or timeout) and returns what it printed and how it ended.
pub fn run(spec: &ProcessSpec) -> RawOutput {
    let mut output = RawOutput::default();
    run_all(std::slice::from_ref(spec), &mut |_, raw| output = raw);
    output
}

/// Runs every process at once, each to completion or its timeout, and gives each one's result
/// to `done` (with its position in `specs`) as soon as it has one.
pub fn run_all(specs: &[ProcessSpec], done: &mut dyn FnMut(usize, RawOutput)) {
    let mut hooks = Hooks::new();
    let mut runs = Runs::default();
    if specs.len() > 1 {
        start_together(specs, &mut hooks, &mut runs, done);
    } else {
        start_in_turn(specs, 0, &mut hooks, &mut runs, done);
    }
    while !runs.0.is_empty() {
        let until = runs.0.values().filter_map(HookRun::next_deadline).min();
        runs.serve(&mut hooks, until, done);
    }
}

/// Starts `specs[from..]` one after another on this thread, serving the hooks already running
/// in between.
fn start_in_turn(
    specs: &[ProcessSpec],
    from: usize,
    hooks: &mut Hooks,
    runs: &mut Runs,
    done: &mut dyn FnMut(usize, RawOutput),
) {
    let mut served = Instant::now();
    for (index, spec) in specs.iter().enumerate().skip(from) {
        let started = Instant::now();
        match hooks.start(&spec.command(), spec.stdin.clone()) {
            Ok(hook) => {
                runs.0.insert(hook, HookRun::new(index, started, spec.timeout));
            }
            Err(err) => done(index, RawOutput::failure(format!("cannot start `{}`: {err}", spec.label()))),
        }
        if served.elapsed() >= SERVE_WHILE_STARTING {
            runs.serve(hooks, Some(Instant::now()), done);
            served = Instant::now();
        }
    }
}

/// Starts every spec from a few threads at once, as many as there are cores (at most
/// [`MAX_STARTERS`]): most of a start is the kernel loading the hook's program, which is the
/// child's work, but the thread that starts it waits for it (see the platform layer's `spawn`),
/// so one thread leaves the other cores idle. This thread adopts each started hook and serves
/// the running ones meanwhile.
fn start_together(specs: &[ProcessSpec], hooks: &mut Hooks, runs: &mut Runs, done: &mut dyn FnMut(usize, RawOutput)) {
    let starters = std::thread::available_parallelism().map_or(1, |cores| cores.get()).clamp(1, MAX_STARTERS);
    let starters = starters.min(specs.len());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, Instant, io::Result<Launched>)>();
        let mut running = 0;
        for _ in 0..starters {
            let tx = tx.clone();
            let next = &next;
            let starter = std::thread::Builder::new().name("hook-start".into()).stack_size(STARTER_STACK);
            let spawned = starter.spawn_scoped(scope, move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(spec) = specs.get(index) else { break };
                let started = Instant::now();
                let launched = platform::launch(&spec.command(), spec.stdin.clone());
                if tx.send((index, started, launched)).is_err() {
                    break;
                }
            });
            // A thread the system would not give is no error: fewer start the hooks.
            running += usize::from(spawned.is_ok());
        }
        drop(tx);
        let mut served = Instant::now();
        if running > 0 {
            loop {
                let wait = SERVE_WHILE_STARTING.saturating_sub(served.elapsed());
                match rx.recv_timeout(wait) {
                    Ok((index, started, Ok(launched))) => match hooks.adopt(launched) {
                        Ok(hook) => {
                            runs.0.insert(hook, HookRun::new(index, started, specs[index].timeout));
                        }
                        Err(err) => {
                            done(index, RawOutput::failure(format!("cannot start `{}`: {err}", specs[index].label())));
                        }
                    },
                    Ok((index, _, Err(err))) => {
                        done(index, RawOutput::failure(format!("cannot start `{}`: {err}", specs[index].label())));
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => break,
                }
                if served.elapsed() >= SERVE_WHILE_STARTING {
                    runs.serve(hooks, Some(Instant::now()), done);
                    served = Instant::now();
                }
            }
        }
    });
    // With no thread to start them, or one that stopped early, the rest start here.
    let from = next.into_inner().min(specs.len());
    start_in_turn(specs, from, hooks, runs, done);
}

/// Starts a process that is not waited for (`async: true` hooks): stdout and stderr go nowhere,
/// the event is written to its stdin from a background thread, and its environment carries its
/// own run's mark and `session`'s (see [`super::detached`]). The thread is in what is returned:
/// the caller may join it (bounded) before exiting so that the event is delivered.
pub fn start_detached(spec: &ProcessSpec, session: Option<&str>) -> Result<platform::Detached, String> {
    platform::start_detached(&spec.command(), spec.stdin.clone(), session.map(std::ffi::OsStr::new))
        .map_err(|err| format!("cannot start `{}`: {err}", spec.label()))
}

/// The hooks still running, by their platform id.
#[derive(Default)]
struct Runs(BTreeMap<HookId, HookRun>);

/// One hook, from its start to its result.
struct HookRun {
    /// Its position among the specs.
    index: usize,
    started: Instant,
    /// `None` for a timeout too large to reach.
    timeout_at: Option<Instant>,
    stdout: Capture,
    stderr: Capture,
    /// Its exit code, and when its exit was seen.
    exit: Option<(Option<i32>, Instant)>,
    ending: Stage,
}

/// How far ending a hook that overran its timeout has gone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Within its timeout.
    Running,
    /// Asked to end (SIGTERM) at its timeout; forced at `force_at` if still running.
    Asked { force_at: Instant },
    /// Forced (SIGKILL) at the end of the grace period; waited for.
    Forced,
    /// Exited after its timeout, and whatever it left forced too.
    Swept,
}

/// One output pipe's capture, capped.
#[derive(Default)]
struct Capture {
    data: Vec<u8>,
    dropped: u64,
    /// No process holds its write end any more and all of it was read.
    ended: bool,
}

impl Capture {
    fn keep(&mut self, bytes: &[u8]) {
        let room = CAPTURE_CAP.saturating_sub(self.data.len());
        let keep = room.min(bytes.len());
        self.data.extend_from_slice(&bytes[..keep]);
        self.dropped += (bytes.len() - keep) as u64;
    }
}

impl HookRun {
    fn new(index: usize, started: Instant, timeout: Duration) -> HookRun {
        HookRun {
            index,
            started,
            timeout_at: started.checked_add(timeout),
            stdout: Capture::default(),
            stderr: Capture::default(),
            exit: None,
            ending: Stage::Running,
        }
    }

    fn timed_out(&self) -> bool {
        self.ending != Stage::Running
    }

    fn ended(&self) -> bool {
        self.stdout.ended && self.stderr.ended
    }

    /// When this hook next needs something done, unless an event comes first.
    fn next_deadline(&self) -> Option<Instant> {
        match (self.exit, self.ending) {
            (None, Stage::Running) => self.timeout_at,
            (None, Stage::Asked { force_at }) => Some(force_at),
            (None, _) => None,
            (Some((_, exited)), _) => Some(exited + QUIET_WINDOW),
        }
    }

    fn take(&mut self, event: Event<'_>) {
        match event {
            Event::Output { stream: Stream::Stdout, bytes, .. } => self.stdout.keep(bytes),
            Event::Output { stream: Stream::Stderr, bytes, .. } => self.stderr.keep(bytes),
            Event::Ended { stream: Stream::Stdout, .. } => self.stdout.ended = true,
            Event::Ended { stream: Stream::Stderr, .. } => self.stderr.ended = true,
            Event::Exited { code, .. } => self.exit = Some((code, Instant::now())),
        }
    }

    /// The result, once the hook has exited and its pipes have ended or the quiet window is over.
    fn output(self) -> RawOutput {
        RawOutput {
            exit_code: self.exit.and_then(|(code, _)| code),
            timed_out: self.timed_out(),
            unterminated: !(self.timed_out() || self.ended()),
            stdout_dropped: self.stdout.dropped,
            stderr_dropped: self.stderr.dropped,
            stdout: self.stdout.data,
            stderr: self.stderr.data,
            wall: self.started.elapsed(),
        }
    }
}

impl Runs {
    fn sink(&mut self) -> impl FnMut(Event<'_>) + '_ {
        |event| {
            let hook = match event {
                Event::Output { hook, .. } | Event::Ended { hook, .. } | Event::Exited { hook, .. } => hook,
            };
            if let Some(run) = self.0.get_mut(&hook) {
                run.take(event);
            }
        }
    }

    /// Waits for the hooks until `until` or until something happens, then does what is due: ends
    /// hooks past their timeout, and gives the result of each hook that is over.
    fn serve(&mut self, hooks: &mut Hooks, until: Option<Instant>, done: &mut dyn FnMut(usize, RawOutput)) {
        hooks.wait(until, &mut self.sink());
        let now = Instant::now();
        let ids: Vec<HookId> = self.0.keys().copied().collect();
        for hook in ids {
            if self.step(hooks, hook, now) {
                if let Some(run) = self.0.remove(&hook) {
                    hooks.release(hook);
                    done(run.index, run.output());
                }
            }
        }
    }

    /// Does what is due for one hook at `now`; whether it is over.
    fn step(&mut self, hooks: &mut Hooks, hook: HookId, now: Instant) -> bool {
        let Some(run) = self.0.get(&hook) else { return true };
        let (exit, ending, timeout_at, ended) = (run.exit, run.ending, run.timeout_at, run.ended());
        match (exit, ending) {
            (None, Stage::Running) if timeout_at.is_some_and(|at| now >= at) => {
                // An exit the platform has not looked for yet is not a timeout.
                hooks.read_now(hook, &mut self.sink());
                let Some(run) = self.0.get_mut(&hook) else { return true };
                if run.exit.is_none() {
                    hooks.end(hook, Ending::Ask);
                    run.ending = Stage::Asked { force_at: now + KILL_GRACE };
                }
                false
            }
            (None, Stage::Asked { force_at }) if now >= force_at => {
                hooks.end(hook, Ending::Force);
                if let Some(run) = self.0.get_mut(&hook) {
                    run.ending = Stage::Forced;
                }
                false
            }
            (None, _) => false,
            (Some((_, exited)), ending) => {
                if matches!(ending, Stage::Asked { .. } | Stage::Forced) {
                    // Whatever is left of it (a child that ignored SIGTERM) goes too.
                    hooks.end(hook, Ending::Force);
                    if let Some(run) = self.0.get_mut(&hook) {
                        run.ending = Stage::Swept;
                    }
                }
                if ended {
                    return true;
                }
                if now < exited + QUIET_WINDOW {
                    return false;
                }
                // The window is over: what the pipes hold now, and whether they have ended,
                // decides (a reader that was late is not a writer still there).
                hooks.read_now(hook, &mut self.sink());
                true
            }
        }
    }
}

#[cfg(test)]
mod tests;
