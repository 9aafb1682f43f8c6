//! Starting a hook with `posix_spawn`, in a session of its own.
//!
//! Not `std::process::Command`: a session of its own (`setsid`, no controlling terminal, as
//! Claude Code runs hooks) takes a `pre_exec` closure there, which makes std `fork` dispatch and
//! copy its page tables for every hook, then fault in copies of every page either side writes and
//! tear the copy down again at `exec`. `posix_spawn` with `POSIX_SPAWN_SETSID` (glibc 2.26, macOS
//! 10.15, musl) starts the child without copying the parent (a `vfork` on both systems), which
//! measured here took the CPU time of 20 and 100 hooks from 1.5–1.9× that of a shell loop running
//! the same commands one by one to 1.1–1.2×.
//!
//! What std would do is done the same way: the program is looked up in the `PATH` of the hook's
//! own environment (not dispatch's) when it names no folder, and a file that is not a program
//! the kernel knows (a script without `#!`) runs through `/bin/sh`, as `execvp` (and so Node's
//! `child_process`, which Claude Code uses) runs it; the child gets SIGPIPE back at its default
//! and an empty signal mask; every descriptor but its stdin, stdout and stderr is close-on-exec,
//! and is closed in the child before its program is looked for where the C library can (see
//! [`closefrom`]), so that a start that is over leaves no copy of another hook's pipe behind.

use crate::process::HookCommand;
use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

#[cfg(target_os = "macos")]
const POSIX_SPAWN_SETSID: libc::c_short = 0x0400;
#[cfg(not(target_os = "macos"))]
const POSIX_SPAWN_SETSID: libc::c_short = libc::POSIX_SPAWN_SETSID as libc::c_short;

/// macOS: the child gets only the descriptors its file actions name, whatever the others' flags.
/// Its `pipe` has no close-on-exec flag at birth: a hook started on another thread in the
/// moment between `pipe` and `fcntl` would otherwise keep a copy of these pipes for its life.
#[cfg(target_os = "macos")]
const CLOEXEC_DEFAULT: libc::c_short = libc::POSIX_SPAWN_CLOEXEC_DEFAULT as libc::c_short;
#[cfg(not(target_os = "macos"))]
const CLOEXEC_DEFAULT: libc::c_short = 0;

#[cfg(test)]
thread_local! {
    /// Makes a test's spawns take the way of a C library without `posix_spawn` in a session.
    pub static FORK_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };

    /// How long a test's spawns wait between making the pipes and starting the child, to widen
    /// the moment when another fork could copy them.
    pub static HOLD_PIPES: std::cell::Cell<std::time::Duration> = const { std::cell::Cell::new(std::time::Duration::ZERO) };

    /// A file a test's spawns open (read-only, as descriptor 3) in the child before it runs its
    /// program: a FIFO holds the child there, between its start and its program, until written.
    pub static OPEN_FIRST: std::cell::RefCell<Option<CString>> = const { std::cell::RefCell::new(None) };
}

/// Where a started process's stdout and stderr go.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// To pipes that hookmux reads.
    Piped,
    /// To `/dev/null`.
    Null,
}

/// A started process and hookmux's ends of its pipes.
pub struct Spawned {
    pub pid: libc::pid_t,
    pub stdin: File,
    pub stdout: Option<File>,
    pub stderr: Option<File>,
    /// The mark for [`crate::process::wait_for_starts_before`]: the starts that may hold a copy
    /// of this child's pipe ends until they are over are numbered below it (0: none).
    pub settled: u64,
}

/// Starts `command` in a session of its own, with a pipe on its stdin and `output` for the
/// rest, under the spawn lock (see [`crate::process`]): shared for `posix_spawn`, alone for
/// `fork`. The pipes are made and the child's ends closed again within it.
pub fn spawn(command: &HookCommand<'_>, output: Output) -> io::Result<Spawned> {
    match spawn_without_copy(command, output)? {
        Some(spawned) => Ok(spawned),
        None => spawn_by_fork(command, output),
    }
}

/// Where the C library cannot start a child in a session of its own without a fork (glibc before
/// 2.26 has no `POSIX_SPAWN_SETSID`, before 2.29 no `addchdir_np`; the binary built for glibc
/// 2.17 runs there too): std's `fork`, `setsid` in the child, then the program.
fn spawn_by_fork(command: &HookCommand<'_>, output: Output) -> io::Result<Spawned> {
    use std::os::unix::process::CommandExt;
    // No other start through hookmux is in flight meanwhile (each holds the lock too), so no
    // child copies this one's pipe ends, nor this child another hook's.
    let alone = crate::process::spawning_alone();
    use std::process::Stdio;
    let mut child = std::process::Command::new(command.program);
    child.args(command.args).env_clear().envs(command.env.iter().map(|(k, v)| (k, v))).current_dir(command.cwd);
    child.stdin(Stdio::piped());
    let (stdout, stderr) = match output {
        Output::Piped => (Stdio::piped(), Stdio::piped()),
        Output::Null => (Stdio::null(), Stdio::null()),
    };
    child.stdout(stdout).stderr(stderr);
    // SAFETY: setsid is async-signal-safe and touches no memory of the parent.
    unsafe {
        child.pre_exec(|| {
            if libc::setsid() == -1 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = child.spawn()?;
    drop(alone);
    let pid = libc::pid_t::try_from(child.id()).map_err(io::Error::other)?;
    let stdin = child.stdin.take().map(|pipe| File::from(OwnedFd::from(pipe)));
    let Some(stdin) = stdin else { return Err(io::Error::other("the child's stdin was not made")) };
    // The child is reaped by its pid, not through std.
    Ok(Spawned {
        pid,
        stdin,
        stdout: child.stdout.take().map(|pipe| File::from(OwnedFd::from(pipe))),
        stderr: child.stderr.take().map(|pipe| File::from(OwnedFd::from(pipe))),
        settled: 0,
    })
}

/// `posix_spawn` in a session of its own, or `None` where the C library cannot.
fn spawn_without_copy(command: &HookCommand<'_>, output: Output) -> io::Result<Option<Spawned>> {
    let Some(addchdir) = addchdir() else { return Ok(None) };
    let Some(attributes) = Attributes::new() else { return Ok(None) };
    #[cfg(test)]
    if FORK_ONLY.get() {
        return Ok(None);
    }
    let program = resolve(command)?;
    let mut argv = vec![cstring(command.program.as_bytes())?];
    for arg in command.args {
        argv.push(cstring(arg.as_bytes())?);
    }
    let mut envp = Vec::with_capacity(command.env.len());
    for (name, value) in command.env {
        let mut entry = name.as_bytes().to_vec();
        entry.push(b'=');
        entry.extend_from_slice(value.as_bytes());
        envp.push(cstring(&entry)?);
    }
    let cwd = cstring(command.cwd.as_os_str().as_bytes())?;

    // Numbered before the pipes exist and before the child is made: a hook whose pipes this
    // child may copy waits for this start before judging them (see [`crate::process`]).
    let starting = crate::process::starting();
    let (stdin_theirs, stdin_ours) = pipe()?;
    let (stdout, stderr) = match output {
        Output::Piped => (Some(pipe()?), Some(pipe()?)),
        Output::Null => (None, None),
    };
    #[cfg(test)]
    std::thread::sleep(HOLD_PIPES.get());
    let mut actions = FileActions::new()?;
    actions.dup2(&stdin_theirs, 0)?;
    match (&stdout, &stderr) {
        (Some((_, stdout_theirs)), Some((_, stderr_theirs))) => {
            actions.dup2(stdout_theirs, 1)?;
            actions.dup2(stderr_theirs, 2)?;
        }
        _ => {
            actions.dev_null(1)?;
            actions.dev_null(2)?;
        }
    }
    // Every descriptor from this one on is closed in the child: all but its stdin, stdout and
    // stderr (and a test's FIFO).
    #[cfg(not(test))]
    let first_closed = 3;
    #[cfg(test)]
    let first_closed = match OPEN_FIRST.with_borrow(Clone::clone) {
        Some(path) => {
            // SAFETY: the actions are initialised; the path is copied by the call.
            check(unsafe {
                libc::posix_spawn_file_actions_addopen(&mut actions.0, 3, path.as_ptr(), libc::O_RDONLY, 0)
            })?;
            4
        }
        None => 3,
    };
    // Before the chdir, which may wait on a slow filesystem: the copies of other hooks' pipes
    // are let go of first.
    if let Some(closefrom) = closefrom() {
        // SAFETY: the actions are initialised.
        check(unsafe { closefrom(&mut actions.0, first_closed) })?;
    }
    actions.chdir(addchdir, &cwd)?;

    let pid = match posix_spawn(&program, &actions, &attributes, &argv, &envp) {
        Err(err) if err.raw_os_error() == Some(libc::ENOEXEC) => {
            // What execvp does with a file the kernel cannot run: hand it to the shell.
            let mut through_shell = vec![cstring(b"/bin/sh")?, program.clone()];
            through_shell.extend(argv.iter().skip(1).cloned());
            posix_spawn(&cstring(b"/bin/sh")?, &actions, &attributes, &through_shell, &envp)?
        }
        spawned => spawned?,
    };
    // The child runs its own program now: its copies of the pipes are its own, and hookmux's
    // copies of the child's ends are closed here, before this start is over.
    drop(stdin_theirs);
    let stdout = stdout.map(|(ours, theirs)| {
        drop(theirs);
        File::from(ours)
    });
    let stderr = stderr.map(|(ours, theirs)| {
        drop(theirs);
        File::from(ours)
    });
    let settled = starting.settled();
    drop(starting);
    Ok(Some(Spawned { pid, stdin: File::from(stdin_ours), stdout, stderr, settled }))
}

type AddClosefrom = unsafe extern "C" fn(*mut libc::posix_spawn_file_actions_t, libc::c_int) -> libc::c_int;

/// `posix_spawn_file_actions_addclosefrom_np` where the C library has it (glibc from 2.34),
/// looked up when first needed so that the binary built for older glibc still starts.
///
/// It closes, in the child and before its program is even looked for, every descriptor it was
/// not given, the copies of other hooks' pipe ends included, and `posix_spawn` returns only
/// after that: once a start is over, its child holds no other hook's pipe. Without it the child
/// lets go of them at `exec`, after the moment its parent is told it runs its program: Linux
/// wakes a `vfork` parent when the child's memory is replaced, closes the close-on-exec
/// descriptors after that, and lets go of the last copy of a pipe end only as the `exec` returns
/// to the new program. A start over in hookmux could leave a child still holding another hook's
/// pipe for that moment, which on a loaded machine is long enough for the hook's answer to be
/// judged while held.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn closefrom() -> Option<AddClosefrom> {
    static FOUND: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let address = *FOUND.get_or_init(|| {
        // SAFETY: dlsym reads a NUL-terminated name and returns an address or null.
        unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"posix_spawn_file_actions_addclosefrom_np".as_ptr()) as usize }
    });
    // SAFETY: the symbol glibc exports under this name has this signature.
    (address != 0).then(|| unsafe { std::mem::transmute::<usize, AddClosefrom>(address) })
}

/// Whether a child started with `posix_spawn` gets no descriptor but those it is given, whatever
/// their flags, by the time its start is over.
#[cfg(test)]
pub fn closes_the_rest() -> bool {
    cfg!(target_os = "macos") || closefrom().is_some()
}

/// macOS: `POSIX_SPAWN_CLOEXEC_DEFAULT` keeps the child from getting them at all, within the one
/// system call that starts it. musl: its `posix_spawn` returns once the child's `exec` let go of
/// its close-on-exec pipe to the parent, with the other close-on-exec descriptors.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn closefrom() -> Option<AddClosefrom> {
    None
}

type AddChdir = unsafe extern "C" fn(*mut libc::posix_spawn_file_actions_t, *const libc::c_char) -> libc::c_int;

/// `posix_spawn_file_actions_addchdir_np` where the C library has it: glibc from 2.29, looked up
/// when first needed so that the binary built for older glibc still starts.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn addchdir() -> Option<AddChdir> {
    static FOUND: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let address = *FOUND.get_or_init(|| {
        // SAFETY: dlsym reads a NUL-terminated name and returns an address or null.
        unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"posix_spawn_file_actions_addchdir_np".as_ptr()) as usize }
    });
    // SAFETY: the symbol glibc exports under this name has this signature.
    (address != 0).then(|| unsafe { std::mem::transmute::<usize, AddChdir>(address) })
}

/// macOS has had it since 10.15, musl since 1.1.24.
#[cfg(any(target_os = "macos", all(target_os = "linux", target_env = "musl")))]
fn addchdir() -> Option<AddChdir> {
    Some(libc::posix_spawn_file_actions_addchdir_np)
}

#[cfg(not(any(target_os = "macos", target_os = "linux")))]
fn addchdir() -> Option<AddChdir> {
    None
}

fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "nul byte found in provided data"))
}

/// The program to run: `command.program` itself when it names a folder (relative to the hook's
/// folder), else the first executable file of that name in the `PATH` of the hook's environment
/// (`/usr/bin:/bin` when it has none), as `execvp` looks it up in the child.
fn resolve(command: &HookCommand<'_>) -> io::Result<CString> {
    let program = command.program.as_bytes();
    if program.contains(&b'/') {
        return cstring(program);
    }
    if program.is_empty() {
        return Err(io::Error::from_raw_os_error(libc::ENOENT));
    }
    let search = command.env.iter().rev().find(|(name, _)| name == "PATH").map(|(_, value)| value.as_os_str());
    let search = search.unwrap_or(OsStr::new("/usr/bin:/bin"));
    let mut denied = false;
    for folder in search.as_bytes().split(|byte| *byte == b':') {
        // An empty entry is the current folder, the hook's.
        let folder = if folder.is_empty() { Path::new(".") } else { Path::new(OsStr::from_bytes(folder)) };
        let candidate: PathBuf = command.cwd.join(folder).join(OsStr::from_bytes(program));
        let Ok(metadata) = std::fs::metadata(&candidate) else { continue };
        if !metadata.is_file() {
            continue;
        }
        let path = cstring(candidate.as_os_str().as_bytes())?;
        // SAFETY: access only reads the NUL-terminated path.
        if unsafe { libc::access(path.as_ptr(), libc::X_OK) } == 0 {
            return Ok(path);
        }
        denied = true;
    }
    Err(io::Error::from_raw_os_error(if denied { libc::EACCES } else { libc::ENOENT }))
}

/// A pipe whose ends are both close-on-exec: (read end, write end).
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two descriptors into the array on success.
    #[cfg(not(target_os = "macos"))]
    let made = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    // macOS has no pipe2. The moment without close-on-exec matters to no hook started with the
    // spawn lock shared (`POSIX_SPAWN_CLOEXEC_DEFAULT`), nor to a fork (it takes the lock alone);
    // only to a process started by code that does not take the lock.
    #[cfg(target_os = "macos")]
    let made = unsafe { libc::pipe(fds.as_mut_ptr()) };
    if made == -1 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just made and belong to nothing else.
    let ends = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    #[cfg(target_os = "macos")]
    for fd in [&ends.0, &ends.1] {
        // SAFETY: fcntl on a descriptor owned here.
        if unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) } == -1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(ends)
}

/// `posix_spawn`'s answer: an error number, not errno.
fn check(code: libc::c_int) -> io::Result<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(code))
    }
}

fn posix_spawn(
    program: &CString,
    actions: &FileActions,
    attributes: &Attributes,
    argv: &[CString],
    envp: &[CString],
) -> io::Result<libc::pid_t> {
    let mut argv: Vec<*mut libc::c_char> = argv.iter().map(|arg| arg.as_ptr().cast_mut()).collect();
    argv.push(std::ptr::null_mut());
    let mut envp: Vec<*mut libc::c_char> = envp.iter().map(|entry| entry.as_ptr().cast_mut()).collect();
    envp.push(std::ptr::null_mut());
    let mut pid: libc::pid_t = 0;
    // SAFETY: every pointer is valid and NUL-terminated (the arrays by a null entry) for the
    // call; posix_spawn does not keep them.
    check(unsafe {
        libc::posix_spawn(&mut pid, program.as_ptr(), &actions.0, &attributes.0, argv.as_ptr(), envp.as_ptr())
    })?;
    Ok(pid)
}

struct FileActions(libc::posix_spawn_file_actions_t);

impl FileActions {
    fn new() -> io::Result<FileActions> {
        let mut actions = MaybeUninit::uninit();
        // SAFETY: init fills the value in on success, after which it is used.
        check(unsafe { libc::posix_spawn_file_actions_init(actions.as_mut_ptr()) })?;
        Ok(FileActions(unsafe { actions.assume_init() }))
    }

    fn dup2(&mut self, fd: &OwnedFd, to: libc::c_int) -> io::Result<()> {
        // SAFETY: the actions are initialised; the descriptor outlives the spawn.
        check(unsafe { libc::posix_spawn_file_actions_adddup2(&mut self.0, fd.as_raw_fd(), to) })
    }

    fn dev_null(&mut self, to: libc::c_int) -> io::Result<()> {
        // SAFETY: the actions are initialised; the path is a static NUL-terminated string.
        check(unsafe {
            libc::posix_spawn_file_actions_addopen(&mut self.0, to, c"/dev/null".as_ptr(), libc::O_WRONLY, 0)
        })
    }

    fn chdir(&mut self, addchdir: AddChdir, folder: &CString) -> io::Result<()> {
        // SAFETY: the actions are initialised; the path is copied by the call.
        check(unsafe { addchdir(&mut self.0, folder.as_ptr()) })
    }
}

impl Drop for FileActions {
    fn drop(&mut self) {
        // SAFETY: initialised in `new`, destroyed once.
        unsafe { libc::posix_spawn_file_actions_destroy(&mut self.0) };
    }
}

struct Attributes(libc::posix_spawnattr_t);

impl Attributes {
    /// A session of its own, an empty signal mask, SIGPIPE at its default (Rust ignores it in
    /// hookmux; a hook's `yes | head` must end as it does everywhere else). `None` where the C
    /// library refuses any of it (glibc before 2.26 does not know `POSIX_SPAWN_SETSID`).
    fn new() -> Option<Attributes> {
        let mut attributes = MaybeUninit::uninit();
        // SAFETY: init fills the value in on success, after which it is used.
        check(unsafe { libc::posix_spawnattr_init(attributes.as_mut_ptr()) }).ok()?;
        let mut attributes = Attributes(unsafe { attributes.assume_init() });
        // SAFETY: sigset_t is plain data; sigemptyset initialises it before use; the attributes
        // are initialised.
        let mut signals: libc::sigset_t = unsafe { std::mem::zeroed() };
        let flags = POSIX_SPAWN_SETSID
            | CLOEXEC_DEFAULT
            | libc::POSIX_SPAWN_SETSIGMASK as libc::c_short
            | libc::POSIX_SPAWN_SETSIGDEF as libc::c_short;
        let set = unsafe {
            libc::sigemptyset(&mut signals);
            check(libc::posix_spawnattr_setsigmask(&mut attributes.0, &signals))
                .and_then(|()| {
                    libc::sigaddset(&mut signals, libc::SIGPIPE);
                    check(libc::posix_spawnattr_setsigdefault(&mut attributes.0, &signals))
                })
                .and_then(|()| check(libc::posix_spawnattr_setflags(&mut attributes.0, flags)))
        };
        set.ok().map(|()| attributes)
    }
}

impl Drop for Attributes {
    fn drop(&mut self) {
        // SAFETY: initialised in `new`, destroyed once.
        unsafe { libc::posix_spawnattr_destroy(&mut self.0) };
    }
}
