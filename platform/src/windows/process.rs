//! Windows: each hook in a Job Object of its own, its pipes read and written by threads, its exit
//! seen through its process handle. The reasoning is in [`crate::process`]; this is how Win32
//! keeps it.
//!
//! # Starting a hook
//!
//! [`launch`] starts a hook on whichever thread calls it (the dispatch starts many from a few
//! threads at once), and [`Hooks::adopt`], on the thread that owns the [`Hooks`], starts the
//! threads that watch it (below). Between the two the hook runs in its job, its output waiting in
//! its pipes and its stdin not yet written; a [`Launched`] dropped without being adopted has its
//! job ended, so no hook runs unwatched. `CreateProcessW`, not `std::process::Command`, for two
//! things std cannot do:
//!
//! - **Created suspended, put in its Job Object, then resumed** (`CREATE_SUSPENDED`,
//!   `AssignProcessToJobObject`, `ResumeThread` on the thread `CreateProcessW` returns): the hook
//!   runs no instruction outside its job, so every process it starts, at once or later, is in the
//!   job too, and [`Hooks::end`] ends them all with `TerminateJobObject`, grandchildren and
//!   processes whose parent has exited included (what the hook's mark and the process table do
//!   on Unix). The job has no kill-on-close: [`Hooks::release`] closes it and leaves whatever
//!   still runs alone, as a hook that exits is never ended on Unix either.
//! - **Only the hook's own pipe ends inherited** (`STARTUPINFOEXW` with
//!   `PROC_THREAD_ATTRIBUTE_HANDLE_LIST`). This is the Windows form of the problem the spawn lock
//!   solves on Unix: `CreateProcessW` with inheritance on hands the child *every* inheritable
//!   handle of the parent, so two hooks started at once would each get the other's pipe ends
//!   (and the first could not be seen to end while the second runs), and every hook would get a
//!   copy of hookmux's own stdout when the host made it inheritable, which a hook's background
//!   child would then hold open, keeping the host waiting for hookmux's output long after it
//!   exited. With the list, a child gets the handles named and nothing else.
//!
//!   The pipes are made not inheritable; the child's ends become inheritable (which the list
//!   requires) only while their start holds the spawn lock shared, and are closed before it lets
//!   go. Several hooks are launched at once, each under the lock shared, so the ends of all of
//!   them may be inheritable at the same moment: the list is what keeps each child to its own
//!   (Windows hands a child only the inheritable handles its list names, whatever else is
//!   inheritable meanwhile), and no hook's pipes are ever held by another hook's child, so
//!   [`Hooks::read_now`] waits for no start, unlike Unix. What the list cannot cover is a
//!   `CreateProcessW` that names none, such as std's: its child inherits every inheritable
//!   handle. A `std::process::Command` started through [`crate::process::spawn`] takes the lock
//!   alone, which waits until no launch is in flight and keeps new ones out, so it never sees a
//!   hook's ends inheritable. One started by code that does not come through there may (as on
//!   Unix, see [`crate::process`]).
//!
//! The hook gets `CREATE_NO_WINDOW` (a console of its own with no window: no console window
//! flashes up, and the host's Ctrl-C does not reach it, as Node's `windowsHide` that Claude Code
//! uses), [`crate::process::HOOK_RUN`] in its environment (for the processes it starts, as on
//! Unix; the job is what finds them here), the environment given and nothing else, its folder.
//!
//! The program is found as [`crate::program::find`] finds it (`PATHEXT`, never the hook's folder
//! unless it is named as a path), in the `PATH` of the hook's environment, and
//! `lpApplicationName` names that file, so `CreateProcessW` searches nothing itself. Arguments
//! are quoted as the Microsoft C runtime reads them back (which Git Bash, PowerShell and every
//! Rust or C program do). A batch file (`.bat`, `.cmd`: `npx` is `npx.cmd`) is run by `cmd.exe`
//! (`/d /e:ON /v:OFF /s /c`), which reads its line by rules of its own: an argument to a batch
//! file holding `"`, `%` or a line break is refused rather than quoted, as no quoting keeps
//! `cmd.exe` from reading those as its syntax.
//!
//! # Watching it
//!
//! Anonymous pipes cannot be polled, so each output pipe has a thread doing blocking `ReadFile`
//! (`ERROR_BROKEN_PIPE`, no writer left, is its end), stdin a thread writing it then closing
//! it, and the exit a thread waiting on the process handle (`WaitForSingleObject`, then
//! `GetExitCodeProcess`): four threads a hook, with small stacks, all reporting into one channel
//! that [`Hooks::wait`] reads with its deadline. The channel is bounded (64 chunks of 64 KiB): a
//! hook writing faster than hookmux takes its output waits on its pipe, as it would on Unix.
//! Threads cost no more as hookmux grows here: Windows has no `fork`, so the N² of the Unix note
//! does not arise. [`Hooks::read_now`] reports
//! what the threads have read so far (the pipe itself cannot be asked while a thread's read is
//! pending on it: I/O on a synchronous handle is serialised), and looks at the process handle
//! for an exit at once.
//!
//! [`Ending::Ask`] does nothing: a process with no console window has no request to end that it
//! could catch (`GenerateConsoleCtrlEvent` reaches only processes sharing hookmux's console, and
//! `WM_CLOSE` only windows). [`Ending::Force`] is `TerminateJobObject`, exit code 1.
//!
//! [`Hooks::release`] marks the hook's threads as done and cancels their pending reads and
//! writes (`CancelSynchronousIo`); a thread not yet in its read when the cancel comes stays there
//! until the pipe's last writer goes, and then ends without reporting.
//!
//! # Detached hooks and other processes
//!
//! [`start_detached`] starts the same way, outside any job of hookmux's making, in a new process
//! group, with stdout and stderr to `NUL`, and with `CREATE_BREAKAWAY_FROM_JOB` when the job
//! hookmux itself may run in allows it (so it outlives a host that ends its own job), and
//! without when not; its process handle goes to [`super::detached`], which names the process by
//! it and ends it at its session's end. [`exists`] opens the process (`OpenProcess`) and looks whether its handle is
//! signalled (`WaitForSingleObject` with no wait): a process that cannot be opened counts as
//! gone, and one that exited with code 259 (`STILL_ACTIVE`) is not taken for running, as
//! `GetExitCodeProcess` alone would.

use crate::dirs::Vars;
use crate::process::{hook_run_mark, starting, Ending, Event, HookCommand, HookId, Stream, HOOK_RUN};
use crate::program;
use std::collections::{BTreeMap, VecDeque};
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
use windows_sys::Win32::Foundation::{self as w, HANDLE};
use windows_sys::Win32::Storage::FileSystem::{ReadFile, WriteFile};
use windows_sys::Win32::System::JobObjects::{AssignProcessToJobObject, CreateJobObjectW, TerminateJobObject};
use windows_sys::Win32::System::Pipes::CreatePipe;
use windows_sys::Win32::System::Threading as t;
use windows_sys::Win32::System::IO::CancelSynchronousIo;

/// A read of a pipe takes at most this much, and a write to stdin gives at most this much.
const CHUNK: usize = 64 * 1024;

/// The stack of each thread watching a hook: they call the OS and copy bytes, nothing deeper.
const THREAD_STACK: usize = 64 * 1024;

/// How many messages (each at most a [`CHUNK`] of output) the threads may have sent that
/// [`Hooks::wait`] has not taken yet. A reader with this many waiting stops reading until there
/// is room, so a hook that writes faster than it is reported waits on its pipe, as on Unix,
/// rather than filling hookmux's memory.
const IN_FLIGHT: usize = 64;

/// The exit code of a hook ended by [`Ending::Force`], and of a detached hook ended at its
/// session's end.
pub(super) const FORCED_EXIT: u32 = 1;

/// Starts a detached hook (see the module doc); its process handle, which the caller reads what
/// names the process from and then closes, and the thread writing its stdin.
pub fn start_detached(command: &HookCommand<'_>, input: Arc<[u8]>) -> io::Result<(OwnedHandle, JoinHandle<()>)> {
    let flags = t::CREATE_NO_WINDOW | t::CREATE_NEW_PROCESS_GROUP;
    let started = match create_process(command, command.env, flags | t::CREATE_BREAKAWAY_FROM_JOB, Output::Null) {
        // The job hookmux runs in does not let its processes leave it.
        Err(err) if err.raw_os_error() == Some(w::ERROR_ACCESS_DENIED as i32) => {
            create_process(command, command.env, flags, Output::Null)?
        }
        started => started?,
    };
    let Started { process, stdin, .. } = started;
    let released = Arc::new(AtomicBool::new(false));
    let writer = thread("hookmux-async-stdin", move || write_all(&stdin, &input, &released))?;
    Ok((process, writer))
}

pub fn detach(command: &mut std::process::Command) {
    use std::os::windows::process::CommandExt;
    command.creation_flags(t::CREATE_NEW_PROCESS_GROUP);
}

pub fn exists(pid: u32) -> bool {
    // SAFETY: OpenProcess returns a new handle or null; the handle is owned below.
    let handle = unsafe { t::OpenProcess(t::PROCESS_QUERY_LIMITED_INFORMATION | t::PROCESS_SYNCHRONIZE, 0, pid) };
    if handle.is_null() {
        return false;
    }
    // SAFETY: a handle just opened, owned by nothing else.
    let process = unsafe { OwnedHandle::from_raw_handle(handle) };
    // SAFETY: a wait of no time on a handle open for synchronisation.
    unsafe { t::WaitForSingleObject(process.as_raw_handle(), 0) == w::WAIT_TIMEOUT }
}

/// A hook created and running in its Job Object, not yet watched: its stdin not written, its
/// output waiting in its pipes.
pub struct Launched {
    /// Ended when dropped, unless adopted.
    job: Job,
    process: OwnedHandle,
    input: Arc<[u8]>,
    stdin: OwnedHandle,
    stdout: OwnedHandle,
    stderr: OwnedHandle,
}

/// A hook's Job Object, which ends every process in it when dropped while the hook is not
/// watched: a hook launched and never adopted, or whose watching could not start.
struct Job {
    handle: OwnedHandle,
    watched: bool,
}

impl Job {
    fn new() -> io::Result<Job> {
        // SAFETY: CreateJobObjectW makes an unnamed job with default security, or returns null.
        let job = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if job.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a handle just made, owned by nothing else.
        Ok(Job { handle: unsafe { OwnedHandle::from_raw_handle(job) }, watched: false })
    }

    /// Ends every process in the job (exit code [`FORCED_EXIT`]); ending a job whose processes
    /// have all exited, or that holds none, does nothing.
    fn terminate(&self) {
        // SAFETY: the job handle is open while `self` is.
        unsafe { TerminateJobObject(self.handle.as_raw_handle(), FORCED_EXIT) };
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // A watched hook's job has no kill-on-close: a release leaves what still runs alone.
        if !self.watched {
            self.terminate();
        }
    }
}

pub fn launch(command: &HookCommand<'_>, input: Arc<[u8]>) -> io::Result<Launched> {
    let mut env: Vec<(OsString, OsString)> =
        command.env.iter().filter(|(name, _)| !name.eq_ignore_ascii_case(HOOK_RUN)).cloned().collect();
    env.push((HOOK_RUN.into(), hook_run_mark()));
    let job = Job::new()?;
    let started = create_process(command, &env, t::CREATE_NO_WINDOW | t::CREATE_SUSPENDED, Output::Piped)?;
    let Started { process, thread: main_thread, stdin, stdout, stderr } = started;
    let (Some(stdout), Some(stderr)) = (stdout, stderr) else {
        // SAFETY: a process this function started, still suspended.
        unsafe { t::TerminateProcess(process.as_raw_handle(), FORCED_EXIT) };
        return Err(io::Error::other("the hook's pipes were not made"));
    };
    // SAFETY: both handles are open; the process is suspended and has run nothing yet.
    if unsafe { AssignProcessToJobObject(job.handle.as_raw_handle(), process.as_raw_handle()) } == 0 {
        let err = io::Error::last_os_error();
        // SAFETY: as above.
        unsafe { t::TerminateProcess(process.as_raw_handle(), FORCED_EXIT) };
        return Err(io::Error::new(err.kind(), format!("cannot put the hook in a Job Object: {err}")));
    }
    // SAFETY: the process's first thread, created suspended by CreateProcessW.
    if unsafe { t::ResumeThread(main_thread.as_raw_handle()) } == u32::MAX {
        // The job, dropped unwatched, ends the hook.
        return Err(io::Error::last_os_error());
    }
    Ok(Launched { job, process, input, stdin, stdout, stderr })
}

/// What a thread watching a hook tells.
enum Message {
    Output(HookId, Stream, Vec<u8>),
    Ended(HookId, Stream),
    Exited(HookId, Option<i32>),
}

impl Message {
    fn hook(&self) -> HookId {
        match self {
            Message::Output(hook, ..) | Message::Ended(hook, _) | Message::Exited(hook, _) => *hook,
        }
    }
}

pub struct Hooks {
    hooks: Vec<Option<Hook>>,
    sender: SyncSender<Message>,
    receiver: Receiver<Message>,
    /// Messages taken from the channel by [`Hooks::read_now`] for other hooks, in order.
    pending: VecDeque<Message>,
}

struct Hook {
    job: Job,
    process: Arc<OwnedHandle>,
    /// Set when released: the threads report nothing more and stop at their next turn.
    released: Arc<AtomicBool>,
    /// The threads reading and writing its pipes, whose pending I/O a release cancels.
    pipe_threads: Vec<JoinHandle<()>>,
    stdout_ended: bool,
    stderr_ended: bool,
    exited: bool,
}

impl Hook {
    fn watched(&self) -> bool {
        !(self.stdout_ended && self.stderr_ended && self.exited)
    }
}

impl Hooks {
    pub fn new() -> Hooks {
        let (sender, receiver) = mpsc::sync_channel(IN_FLIGHT);
        Hooks { hooks: Vec::new(), sender, receiver, pending: VecDeque::new() }
    }

    pub fn adopt(&mut self, launched: Launched) -> io::Result<HookId> {
        let Launched { mut job, process, input, stdin, stdout, stderr } = launched;
        let id = HookId(self.hooks.len());
        let process = Arc::new(process);
        let released = Arc::new(AtomicBool::new(false));
        let pipe_threads = match self.watch(id, &process, &released, input, stdin, stdout, stderr) {
            Ok(threads) => threads,
            Err(err) => {
                // The threads already started report nothing; the job, dropped unwatched, ends
                // the hook, and with it their pipes.
                released.store(true, Ordering::Relaxed);
                return Err(io::Error::new(err.kind(), format!("cannot start a thread to watch the hook: {err}")));
            }
        };
        job.watched = true;
        self.hooks.push(Some(Hook {
            job,
            process,
            released,
            pipe_threads,
            stdout_ended: false,
            stderr_ended: false,
            exited: false,
        }));
        Ok(id)
    }

    /// Starts the threads that write `hook`'s stdin, read its output and wait for its exit; the
    /// pipe threads, for a release to cancel.
    #[allow(clippy::too_many_arguments)]
    fn watch(
        &self,
        hook: HookId,
        process: &Arc<OwnedHandle>,
        released: &Arc<AtomicBool>,
        input: Arc<[u8]>,
        stdin: OwnedHandle,
        stdout: OwnedHandle,
        stderr: OwnedHandle,
    ) -> io::Result<Vec<JoinHandle<()>>> {
        let mut threads = Vec::with_capacity(3);
        for (stream, pipe, name) in
            [(Stream::Stdout, stdout, "hookmux-hook-stdout"), (Stream::Stderr, stderr, "hookmux-hook-stderr")]
        {
            let (sender, released) = (self.sender.clone(), released.clone());
            threads.push(thread(name, move || read_all(&pipe, hook, stream, &sender, &released))?);
        }
        let released_stdin = released.clone();
        threads.push(thread("hookmux-hook-stdin", move || write_all(&stdin, &input, &released_stdin))?);
        let (sender, released, process) = (self.sender.clone(), released.clone(), process.clone());
        // Not cancelled at release: it ends when the hook does, and then reports nothing.
        thread("hookmux-hook-exit", move || {
            // SAFETY: the handle stays open while this thread holds its Arc.
            unsafe { t::WaitForSingleObject(process.as_raw_handle(), t::INFINITE) };
            if !released.load(Ordering::Relaxed) {
                let _ = sender.send(Message::Exited(hook, exit_code(&process)));
            }
        })?;
        Ok(threads)
    }

    pub fn wait(&mut self, until: Option<Instant>, sink: &mut dyn FnMut(Event<'_>)) {
        let mut reported = false;
        while let Some(message) = self.pending.pop_front() {
            reported |= self.deliver(message, sink);
        }
        reported |= self.drain(sink);
        while !reported {
            let watched = self.hooks.iter().flatten().any(Hook::watched);
            let message = match until {
                None if !watched => return,
                None => match self.receiver.recv() {
                    Ok(message) => message,
                    Err(_) => return,
                },
                Some(until) => match self.receiver.recv_timeout(until.saturating_duration_since(Instant::now())) {
                    Ok(message) => message,
                    Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return,
                },
            };
            reported = self.deliver(message, sink);
            reported |= self.drain(sink);
        }
    }

    pub fn read_now(&mut self, id: HookId, sink: &mut dyn FnMut(Event<'_>)) {
        self.pending.extend(self.receiver.try_iter());
        let (mine, others): (VecDeque<Message>, VecDeque<Message>) =
            std::mem::take(&mut self.pending).into_iter().partition(|message| message.hook() == id);
        self.pending = others;
        for message in mine {
            self.deliver(message, sink);
        }
        // Looked for now, before the exit thread tells.
        let Some(Some(hook)) = self.hooks.get_mut(id.0) else { return };
        // SAFETY: a wait of no time on the hook's process handle, open while `hook` is.
        if !hook.exited && unsafe { t::WaitForSingleObject(hook.process.as_raw_handle(), 0) } == w::WAIT_OBJECT_0 {
            hook.exited = true;
            sink(Event::Exited { hook: id, code: exit_code(&hook.process) });
        }
    }

    pub fn end(&mut self, id: HookId, how: Ending) {
        let Some(Some(hook)) = self.hooks.get_mut(id.0) else { return };
        if how == Ending::Force {
            hook.job.terminate();
        }
    }

    pub fn release(&mut self, id: HookId) {
        let Some(hook) = self.hooks.get_mut(id.0).and_then(Option::take) else { return };
        hook.released.store(true, Ordering::Relaxed);
        for thread in &hook.pipe_threads {
            // SAFETY: the thread's handle is open while its JoinHandle lives; a thread with no
            // I/O pending (or already ended) is left as it is.
            unsafe { CancelSynchronousIo(thread.as_raw_handle()) };
        }
        self.pending.retain(|message| message.hook() != id);
    }

    /// Reports every message the channel holds now; whether one was reported.
    fn drain(&mut self, sink: &mut dyn FnMut(Event<'_>)) -> bool {
        let mut reported = false;
        while let Ok(message) = self.receiver.try_recv() {
            reported |= self.deliver(message, sink);
        }
        reported
    }

    /// Reports `message` unless its hook was released (or its exit already reported); whether
    /// it was.
    fn deliver(&mut self, message: Message, sink: &mut dyn FnMut(Event<'_>)) -> bool {
        let id = message.hook();
        let Some(Some(hook)) = self.hooks.get_mut(id.0) else { return false };
        match message {
            Message::Output(_, stream, bytes) => sink(Event::Output { hook: id, stream, bytes: &bytes }),
            Message::Ended(_, stream) => {
                match stream {
                    Stream::Stdout => hook.stdout_ended = true,
                    Stream::Stderr => hook.stderr_ended = true,
                }
                sink(Event::Ended { hook: id, stream });
            }
            Message::Exited(_, _) if hook.exited => return false,
            Message::Exited(_, code) => {
                hook.exited = true;
                sink(Event::Exited { hook: id, code });
            }
        }
        true
    }
}

/// Starts a thread with a small stack.
fn thread(name: &str, run: impl FnOnce() + Send + 'static) -> io::Result<JoinHandle<()>> {
    std::thread::Builder::new().name(name.to_string()).stack_size(THREAD_STACK).spawn(run)
}

/// Reads `pipe` to its end, reporting what it gives; an error ends it as the end of the pipe
/// does (nothing more will come), a release without a word.
fn read_all(pipe: &OwnedHandle, hook: HookId, stream: Stream, sender: &SyncSender<Message>, released: &AtomicBool) {
    let mut chunk = vec![0u8; CHUNK];
    loop {
        if released.load(Ordering::Relaxed) {
            return;
        }
        let mut read = 0u32;
        // SAFETY: the handle is open for the whole call; `chunk` has room for CHUNK bytes and
        // `read` receives how many were written into it; no OVERLAPPED: a synchronous handle.
        let ok = unsafe {
            ReadFile(pipe.as_raw_handle(), chunk.as_mut_ptr(), CHUNK as u32, &mut read, std::ptr::null_mut())
        };
        if ok == 0 {
            // ERROR_BROKEN_PIPE: no writer is left and the pipe is empty.
            if !released.load(Ordering::Relaxed) {
                let _ = sender.send(Message::Ended(hook, stream));
            }
            return;
        }
        // A read of nothing is a writer's write of nothing, not the end.
        let Some(bytes) = chunk.get(..read as usize).filter(|bytes| !bytes.is_empty()) else { continue };
        if sender.send(Message::Output(hook, stream, bytes.to_vec())).is_err() {
            return;
        }
    }
}

/// Writes `data` to `pipe`, then closes it (when the caller drops it); a process that closed
/// its stdin without reading it all is not an error.
fn write_all(pipe: &OwnedHandle, data: &[u8], released: &AtomicBool) {
    let mut rest = data;
    while !rest.is_empty() && !released.load(Ordering::Relaxed) {
        let mut written = 0u32;
        let len = rest.len().min(CHUNK) as u32;
        // SAFETY: the handle is open for the whole call; `rest` holds at least `len` bytes.
        let ok = unsafe { WriteFile(pipe.as_raw_handle(), rest.as_ptr(), len, &mut written, std::ptr::null_mut()) };
        if ok == 0 || written == 0 {
            return;
        }
        rest = rest.get(written as usize..).unwrap_or_default();
    }
}

/// The exit code of a process that has exited; `None` if Windows will not tell.
fn exit_code(process: &OwnedHandle) -> Option<i32> {
    let mut code = 0u32;
    // SAFETY: the handle is open; `code` receives the exit code.
    (unsafe { t::GetExitCodeProcess(process.as_raw_handle(), &mut code) } != 0).then_some(code as i32)
}

/// Where a started process's stdout and stderr go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Piped,
    Null,
}

/// A started process and hookmux's ends of its pipes.
struct Started {
    process: OwnedHandle,
    thread: OwnedHandle,
    stdin: OwnedHandle,
    stdout: Option<OwnedHandle>,
    stderr: Option<OwnedHandle>,
}

/// Starts `command` with environment `env` and `flags` (see the module doc), a pipe on its
/// stdin and `output` for the rest; only those handles are inherited.
fn create_process(
    command: &HookCommand<'_>,
    env: &[(OsString, OsString)],
    flags: u32,
    output: Output,
) -> io::Result<Started> {
    let vars = Env(env);
    let program = resolve(command, &vars)?;
    let (application, mut line) = command_line(&program, command.args, &vars)?;
    let block = env_block(env)?;
    let cwd = wide(command.cwd.as_os_str())?;

    // Held shared until every handle made below is closed or handed back (it is dropped last):
    // the child's ends are inheritable only meanwhile (see the module doc).
    let _starting = starting();
    let (stdin_theirs, stdin_ours) = pipe()?;
    let (stdout, stderr, null) = match output {
        Output::Piped => (Some(pipe()?), Some(pipe()?), None),
        Output::Null => (None, None, Some(OwnedHandle::from(File::options().read(true).write(true).open("NUL")?))),
    };
    let theirs = |end: &Option<(OwnedHandle, OwnedHandle)>| end.as_ref().map(|(_, theirs)| theirs.as_raw_handle());
    let null_handle = null.as_ref().map(AsRawHandle::as_raw_handle);
    let child_stdout = theirs(&stdout).or(null_handle).unwrap_or(std::ptr::null_mut());
    let child_stderr = theirs(&stderr).or(null_handle).unwrap_or(std::ptr::null_mut());
    let mut inherited: Vec<HANDLE> = vec![stdin_theirs.as_raw_handle(), child_stdout];
    if child_stderr != child_stdout {
        inherited.push(child_stderr);
    }

    for handle in &inherited {
        // SAFETY: a handle owned here, open for the call.
        if unsafe { w::SetHandleInformation(*handle, w::HANDLE_FLAG_INHERIT, w::HANDLE_FLAG_INHERIT) } == 0 {
            return Err(io::Error::last_os_error());
        }
    }
    let mut attributes = HandleList::new(&inherited)?;
    // SAFETY: STARTUPINFOEXW is plain data, for which all zeroes is the empty value.
    let mut info: t::STARTUPINFOEXW = unsafe { std::mem::zeroed() };
    info.StartupInfo.cb = std::mem::size_of::<t::STARTUPINFOEXW>() as u32;
    info.StartupInfo.dwFlags = t::STARTF_USESTDHANDLES;
    info.StartupInfo.hStdInput = stdin_theirs.as_raw_handle();
    info.StartupInfo.hStdOutput = child_stdout;
    info.StartupInfo.hStdError = child_stderr;
    info.lpAttributeList = attributes.list();
    // SAFETY: PROCESS_INFORMATION is plain data, filled by CreateProcessW.
    let mut created: t::PROCESS_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: every string is NUL-terminated UTF-16 and lives through the call, `line` is
    // writable as CreateProcessW requires, the environment block is UTF-16 and ends with two
    // NULs (CREATE_UNICODE_ENVIRONMENT), the attribute list and the handles it names are alive.
    let made = unsafe {
        t::CreateProcessW(
            application.as_ptr(),
            line.as_mut_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            1,
            flags | t::CREATE_UNICODE_ENVIRONMENT | t::EXTENDED_STARTUPINFO_PRESENT,
            block.as_ptr().cast(),
            cwd.as_ptr(),
            &info.StartupInfo,
            &mut created,
        )
    };
    let err = io::Error::last_os_error();
    // The child's ends, inheritable now, are closed before this start lets go of the spawn lock.
    drop((attributes, stdin_theirs, null));
    let stdout = stdout.map(|(ours, _theirs)| ours);
    let stderr = stderr.map(|(ours, _theirs)| ours);
    if made == 0 {
        // As Windows gave it: the caller names the program, and looks at the error's number.
        return Err(err);
    }
    // SAFETY: CreateProcessW made both handles, owned by nothing else.
    let (process, thread) =
        unsafe { (OwnedHandle::from_raw_handle(created.hProcess), OwnedHandle::from_raw_handle(created.hThread)) };
    Ok(Started { process, thread, stdin: stdin_ours, stdout, stderr })
}

/// A pipe whose ends are not inheritable: (read end, write end).
fn pipe() -> io::Result<(OwnedHandle, OwnedHandle)> {
    let (mut read, mut write): (HANDLE, HANDLE) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: CreatePipe writes two new handles on success; no security attributes: not
    // inheritable.
    if unsafe { CreatePipe(&mut read, &mut write, std::ptr::null(), 0) } == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both handles were just made and belong to nothing else.
    Ok(unsafe { (OwnedHandle::from_raw_handle(read), OwnedHandle::from_raw_handle(write)) })
}

/// A `PROC_THREAD_ATTRIBUTE_LIST` holding one `PROC_THREAD_ATTRIBUTE_HANDLE_LIST`.
struct HandleList {
    /// Storage for the list, aligned as a pointer.
    buffer: Vec<usize>,
}

impl HandleList {
    /// The list naming `handles`, which must outlive it.
    fn new(handles: &[HANDLE]) -> io::Result<HandleList> {
        let mut size = 0usize;
        // SAFETY: with no list, the call only writes the size it needs (and fails, as expected).
        unsafe { t::InitializeProcThreadAttributeList(std::ptr::null_mut(), 1, 0, &mut size) };
        let mut list = HandleList { buffer: vec![0; size.div_ceil(std::mem::size_of::<usize>())] };
        // SAFETY: the buffer has `size` bytes, aligned as a pointer.
        if unsafe { t::InitializeProcThreadAttributeList(list.list(), 1, 0, &mut size) } == 0 {
            let err = io::Error::last_os_error();
            list.buffer.clear();
            return Err(err);
        }
        // SAFETY: an initialised list with room for one attribute; `handles` outlives the list.
        let updated = unsafe {
            t::UpdateProcThreadAttribute(
                list.list(),
                0,
                t::PROC_THREAD_ATTRIBUTE_HANDLE_LIST as usize,
                handles.as_ptr().cast(),
                std::mem::size_of_val(handles),
                std::ptr::null_mut(),
                std::ptr::null(),
            )
        };
        if updated == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(list)
    }

    fn list(&mut self) -> t::LPPROC_THREAD_ATTRIBUTE_LIST {
        self.buffer.as_mut_ptr().cast()
    }
}

impl Drop for HandleList {
    fn drop(&mut self) {
        if !self.buffer.is_empty() {
            // SAFETY: a list initialised by InitializeProcThreadAttributeList.
            unsafe { t::DeleteProcThreadAttributeList(self.list()) };
        }
    }
}

/// A hook's environment as [`Vars`]: names in any case, the last of a name counting.
struct Env<'a>(&'a [(OsString, OsString)]);

impl Vars for Env<'_> {
    fn path(&self, name: &str) -> Option<PathBuf> {
        let (_, value) = self.0.iter().rev().find(|(key, _)| key.eq_ignore_ascii_case(name))?;
        (!value.is_empty()).then(|| PathBuf::from(value))
    }
}

/// The file `command.program` runs: a path (relative to the hook's folder), else a name looked
/// up on the `PATH` of the hook's environment, as [`program::find`] does.
fn resolve(command: &HookCommand<'_>, vars: &Env<'_>) -> io::Result<PathBuf> {
    let Some(word) = command.program.to_str().filter(|word| !word.is_empty()) else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{:?} is not a program name", command.program),
        ));
    };
    let found = if program::is_path(word) {
        program::file_at(&command.cwd.join(word), vars)
    } else {
        program::find(word, vars)
    };
    found.ok_or_else(|| {
        let place = if program::is_path(word) { "no such file" } else { "not found on the PATH of its environment" };
        io::Error::new(io::ErrorKind::NotFound, format!("`{word}`: {place}"))
    })
}

/// The program `CreateProcessW` is to start and its command line: `program` and `args` quoted
/// as the C runtime reads them, or, for a batch file, `cmd.exe` running it.
fn command_line(program: &Path, args: &[OsString], vars: &dyn Vars) -> io::Result<(Vec<u16>, Vec<u16>)> {
    let batch = program
        .extension()
        .and_then(OsStr::to_str)
        .is_some_and(|ext| ext.eq_ignore_ascii_case("bat") || ext.eq_ignore_ascii_case("cmd"));
    let path: Vec<u16> = program.as_os_str().encode_wide().collect();
    if path.contains(&u16::from(b'"')) {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{} holds a `\"`", program.display())));
    }
    let mut line: Vec<u16> = Vec::new();
    let push = |line: &mut Vec<u16>, text: &str| line.extend(text.encode_utf16());
    if !batch {
        push(&mut line, "\"");
        line.extend(&path);
        push(&mut line, "\"");
        for arg in args {
            push(&mut line, " ");
            quote_arg(&mut line, arg);
        }
        let mut application = path;
        application.push(0);
        return Ok((application, terminated(line)?));
    }
    let system = vars.path("SystemRoot").unwrap_or_else(|| PathBuf::from(r"C:\Windows"));
    let cmd = system.join(r"System32\cmd.exe");
    // /d: no AutoRun commands from the registry; /e:ON /v:OFF: the same extensions and no
    // delayed `!` expansion whatever the registry says; /s: the outer quotes are removed, and
    // nothing else.
    push(&mut line, "cmd.exe /d /e:ON /v:OFF /s /c \"\"");
    line.extend(&path);
    push(&mut line, "\"");
    for arg in args {
        push(&mut line, " ");
        quote_batch_arg(&mut line, arg, program)?;
    }
    push(&mut line, "\"");
    Ok((wide(cmd.as_os_str())?, terminated(line)?))
}

/// Appends `arg` as the Microsoft C runtime reads it back: in quotes when empty or holding a
/// space, tab or quote; a quote escaped with `\`, and backslashes doubled only before a quote.
fn quote_arg(line: &mut Vec<u16>, arg: &OsStr) {
    let arg: Vec<u16> = arg.encode_wide().collect();
    let special = [b' ', b'\t', b'\n', 0x0b, b'"'].map(u16::from);
    if !arg.is_empty() && !arg.iter().any(|unit| special.contains(unit)) {
        line.extend(arg);
        return;
    }
    let (quote, backslash) = (u16::from(b'"'), u16::from(b'\\'));
    line.push(quote);
    let mut backslashes = 0;
    for unit in arg {
        if unit == backslash {
            backslashes += 1;
        } else {
            if unit == quote {
                line.extend(std::iter::repeat_n(backslash, backslashes + 1));
            }
            backslashes = 0;
        }
        line.push(unit);
    }
    line.extend(std::iter::repeat_n(backslash, backslashes));
    line.push(quote);
}

/// Appends `arg` for `cmd.exe` to pass to a batch file: as it is when made only of characters
/// `cmd.exe` reads as text, else in quotes, inside which it reads everything as text but `%`
/// (a variable) and `"` (the end of the quotes); those and line breaks are refused.
fn quote_batch_arg(line: &mut Vec<u16>, arg: &OsStr, program: &Path) -> io::Result<()> {
    let text = arg.to_string_lossy();
    if text.contains(['"', '%', '\r', '\n', '\0']) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the argument {text:?} to the batch file {} holds `\"`, `%` or a line break, which cmd.exe would \
                 read as its own syntax: start the program the batch file runs instead",
                program.display()
            ),
        ));
    }
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| (!c.is_ascii() && !c.is_control()) || c.is_ascii_alphanumeric() || r"#$*+-./:?@\_".contains(c));
    let quote = u16::from(b'"');
    if !plain {
        line.push(quote);
    }
    line.extend(arg.encode_wide());
    if !plain {
        line.push(quote);
    }
    Ok(())
}

/// The environment block `CreateProcessW` takes: `NAME=value` entries, each NUL-terminated,
/// sorted by name without regard to case (as Windows keeps it), and one NUL more.
fn env_block(env: &[(OsString, OsString)]) -> io::Result<Vec<u16>> {
    let mut vars: BTreeMap<Vec<u16>, (&OsString, &OsString)> = BTreeMap::new();
    for (name, value) in env {
        let bad_name = name.is_empty() || name.encode_wide().skip(1).any(|unit| unit == u16::from(b'='));
        if bad_name || name.encode_wide().chain(value.encode_wide()).any(|unit| unit == 0) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{name:?} cannot be an environment variable"),
            ));
        }
        let key =
            name.encode_wide().map(|unit| if (0x61..=0x7a).contains(&unit) { unit - 0x20 } else { unit }).collect();
        vars.insert(key, (name, value));
    }
    let mut block = Vec::new();
    for (name, value) in vars.values() {
        block.extend(name.encode_wide());
        block.push(u16::from(b'='));
        block.extend(value.encode_wide());
        block.push(0);
    }
    if block.is_empty() {
        block.push(0);
    }
    block.push(0);
    Ok(block)
}

/// `text` as a NUL-terminated UTF-16 string; one holding a NUL is refused.
fn wide(text: &OsStr) -> io::Result<Vec<u16>> {
    terminated(text.encode_wide().collect())
}

fn terminated(mut text: Vec<u16>) -> io::Result<Vec<u16>> {
    if text.contains(&0) {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "nul byte found in provided data"));
    }
    text.push(0);
    Ok(text)
}

#[cfg(test)]
impl Hooks {
    pub fn start(&mut self, command: &HookCommand<'_>, input: Arc<[u8]>) -> io::Result<HookId> {
        launch(command, input).and_then(|launched| self.adopt(launched))
    }
}

#[cfg(test)]
mod tests;
