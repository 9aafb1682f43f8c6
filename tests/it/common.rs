//! A small builder for running the real `hookmux` binary in tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name)
}

pub fn fixture_text(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

/// The project the payloads in `fixtures/events/` were captured in, and the home around it.
const RECORDED_PROJECT: &str = "/home/dev/acme";
const RECORDED_HOME: &str = "/home/dev";

/// A captured payload made the test's own: its project `/home/dev/acme` (the `cwd`, and paths
/// in the tool input) becomes `dir`, and the rest of `/home/dev` (transcripts, `~/.codex`)
/// becomes `dir/home`. Hooks follow these paths; they must lead into the test's folder, never
/// to a folder that happens to exist on the machine running the tests.
pub fn event(fixture: &str, dir: &Path) -> serde_json::Value {
    let mut event: serde_json::Value =
        serde_json::from_str(&fixture_text(fixture)).unwrap_or_else(|e| panic!("fixture {fixture}: {e}"));
    move_paths(&mut event, dir);
    event
}

/// `event` as the text a host writes to stdin.
pub fn event_text(fixture: &str, dir: &Path) -> String {
    event(fixture, dir).to_string()
}

fn move_paths(value: &mut serde_json::Value, dir: &Path) {
    use serde_json::Value;
    match value {
        Value::String(text) if text.contains(RECORDED_HOME) => {
            let project = dir.to_str().expect("a UTF-8 temporary folder");
            let home = format!("{project}/home");
            // One pass, so that a temporary folder under /home/dev is not moved twice.
            let mut moved = String::with_capacity(text.len());
            let mut rest = text.as_str();
            while let Some(at) = rest.find(RECORDED_HOME) {
                moved.push_str(&rest[..at]);
                rest = &rest[at..];
                let (prefix, replacement) = if rest.starts_with(RECORDED_PROJECT) {
                    (RECORDED_PROJECT, project)
                } else {
                    (RECORDED_HOME, home.as_str())
                };
                moved.push_str(replacement);
                rest = &rest[prefix.len()..];
            }
            moved.push_str(rest);
            *text = moved;
        }
        Value::Array(items) => items.iter_mut().for_each(|item| move_paths(item, dir)),
        Value::Object(fields) => fields.values_mut().for_each(|field| move_paths(field, dir)),
        _ => {}
    }
}

/// A project folder of its own whose `.claude/settings.json` holds `settings`.
/// Writes a program the OS will start from `PATH`: on Unix with its execute bits set, as npm
/// and installers leave them (hookmux finds a program only where the OS would run it).
pub fn write_program(path: &Path, text: &str) {
    std::fs::write(path, text).expect("write a program");
    hookmux_platform::fs::make_runnable(path).expect("make it runnable");
}

/// Sets Unix permission bits, for a test about them; where the OS has none, says the rest of
/// the test is skipped and returns `false` (the caller returns).
pub fn chmod(path: &Path, mode: u32) -> bool {
    let set = hookmux_platform::fs::set_mode(path, mode).expect("chmod");
    if !set {
        skip("unix-modes", &format!("no Unix permission bits on this OS to set on {}", path.display()));
    }
    set
}

/// A file's Unix permission bits (`0o777` part); `None` where the OS has none.
pub fn mode(path: &Path) -> Option<u32> {
    hookmux_platform::fs::mode(&std::fs::metadata(path).expect("metadata")).map(|mode| mode & 0o777)
}

pub fn project(settings: serde_json::Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join(".claude/settings.json"), settings.to_string()).unwrap();
    dir
}

/// A test that cannot run here for lack of a prerequisite (`needs`: `postgres`, `tmpfs`,
/// `noroot`, `python3`, `node`, `unix-modes`) says `SKIPPED: <why>` and passes. Under CI (`CI` set to `true` or
/// `1`, as GitHub sets it) a missing prerequisite is a broken set-up that must not pass
/// unnoticed, and the test fails, unless the runner declares it absent on purpose:
/// `HOOKMUX_TEST_WITHOUT` lists what that runner does not provide (comma-separated), and the
/// workflow says why beside it. Call it as `return common::skip(...)`.
pub fn skip(needs: &str, why: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
    let declared =
        std::env::var("HOOKMUX_TEST_WITHOUT").is_ok_and(|absent| absent.split(',').any(|name| name.trim() == needs));
    assert!(
        !ci || declared,
        "SKIPPED under CI: {why} (a runner without `{needs}` on purpose lists it in HOOKMUX_TEST_WITHOUT)"
    );
    // Straight to stderr rather than through eprintln!, which the test harness captures: a skip
    // shows in the output of a plain `cargo test`.
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

/// grepai-status finds grepai's parts by their command lines, machine-wide, and all tests share
/// one process: a test that starts a process looking like grepai holds this for writing, and a
/// test whose answers assume grepai is stopped holds it for reading.
static GREPAI_LOOKALIKES: RwLock<()> = RwLock::new(());

pub fn grepai_lookalikes_running() -> RwLockWriteGuard<'static, ()> {
    GREPAI_LOOKALIKES.write().unwrap_or_else(PoisonError::into_inner)
}

pub fn no_grepai_lookalikes() -> RwLockReadGuard<'static, ()> {
    GREPAI_LOOKALIKES.read().unwrap_or_else(PoisonError::into_inner)
}

/// One `hookmux` invocation with a clean environment: `PATH`, what the test sets, and a folder of
/// its own as the working folder, `HOME` and `TMPDIR` where the test sets none.
pub struct Hookmux {
    args: Vec<String>,
    stdin: Vec<u8>,
    env: Vec<(String, String)>,
    cwd: Option<PathBuf>,
    unprivileged: bool,
}

#[derive(Debug)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

impl Output {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {:?}", self.stdout))
    }
}

impl Hookmux {
    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(args: I) -> Hookmux {
        Hookmux {
            args: args.into_iter().map(Into::into).collect(),
            stdin: Vec::new(),
            env: Vec::new(),
            cwd: None,
            unprivileged: false,
        }
    }

    pub fn args_push<I: IntoIterator<Item = S>, S: Into<String>>(mut self, args: I) -> Hookmux {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn stdin(mut self, stdin: impl Into<Vec<u8>>) -> Hookmux {
        self.stdin = stdin.into();
        self
    }

    pub fn env(mut self, name: &str, value: impl AsRef<std::ffi::OsStr>) -> Hookmux {
        self.env.push((name.to_string(), value.as_ref().to_string_lossy().into_owned()));
        self
    }

    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Hookmux {
        self.cwd = Some(dir.into());
        self
    }

    /// Runs the program as root without root's power to write where permission bits say no
    /// (Linux's `noroot` secure bit: an executed program gets no capabilities), so that a test
    /// run as root, as CI is, meets a read-only folder as any user does. No change for others.
    pub fn unprivileged(mut self) -> Hookmux {
        self.unprivileged = true;
        self
    }

    pub fn run(self) -> Output {
        self.run_program(env!("CARGO_BIN_EXE_hookmux"))
    }

    /// Runs another program (a shell wrapping hookmux, say) with the same arguments, stdin,
    /// environment and folder.
    pub fn run_program(self, program: &str) -> Output {
        let mut command = Command::new(program);
        command.args(&self.args).env_clear().env("PATH", std::env::var_os("PATH").unwrap_or_default());
        for (name, value) in &self.env {
            command.env(name, value);
        }
        assert!(
            !String::from_utf8_lossy(&self.stdin).contains(RECORDED_HOME),
            "stdin names the machine the payload was captured on: move it with common::event first"
        );
        // What the test leaves out comes from a folder of this run's own: else the program would
        // run in the checkout, and its hooks would write there, in /tmp or in no home at all.
        let scratch = tempfile::tempdir().expect("a temporary folder");
        command.current_dir(self.cwd.as_deref().unwrap_or(scratch.path()));
        let mut env = self.env.clone();
        for name in ["HOME", "TMPDIR"] {
            if !env.iter().any(|(set, _)| set == name) {
                env.push((name.to_string(), scratch.path().to_string_lossy().into_owned()));
            }
        }
        for (name, value) in platform_names(&env) {
            command.env(name, value);
        }
        if self.unprivileged {
            unprivileged(&mut command);
        }
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().expect("spawn hookmux");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = self.stdin;
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let output = child.wait_with_output().expect("wait for hookmux");
        writer.join().expect("stdin writer");
        drop(scratch);
        Output {
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            code: output.status.code(),
        }
    }
}

/// The folder variables a test sets by their Unix names (`HOME`, `TMPDIR`, `XDG_*`), also by
/// the names this OS reads them by (`hookmux_platform::dirs::variable`: on Windows
/// `USERPROFILE`, `TEMP`, `APPDATA`, `LOCALAPPDATA`), so that on every OS hookmux keeps to the
/// test's own folders rather than the user's. What the test sets by the OS's own name stays.
pub fn platform_names(env: &[(String, String)]) -> Vec<(String, String)> {
    use hookmux_platform::dirs::{variable, Folder};
    let mut out = env.to_vec();
    let unix_names = [
        ("HOME", Folder::Home),
        ("TMPDIR", Folder::Temp),
        ("XDG_CONFIG_HOME", Folder::Config),
        ("XDG_STATE_HOME", Folder::State),
        ("XDG_DATA_HOME", Folder::Data),
    ];
    for (unix_name, folder) in unix_names {
        let name = variable(folder);
        let set_by_test = |wanted: &str| env.iter().any(|(set, _)| set == wanted);
        if name == unix_name || set_by_test(name) {
            continue;
        }
        if let Some((_, value)) = env.iter().find(|(set, _)| set == unix_name) {
            out.push((name.to_string(), value.clone()));
        }
    }
    out
}

/// A folder variable set by its Unix name (`HOME`, `TMPDIR`, `XDG_*`) and by the name this OS
/// reads it by, for a test that builds its own `Command` (see [`platform_names`]): without it,
/// hookmux on Windows would keep to the real user's profile.
pub fn folder_var(unix_name: &str, dir: &Path) -> Vec<(String, String)> {
    platform_names(&[(unix_name.to_string(), dir.to_string_lossy().into_owned())])
}

/// Ends a process a test started (and identified), whatever it does with signals: SIGKILL on
/// Unix, `taskkill /F` on Windows.
pub fn kill(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: only signals the process the caller identified.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    #[cfg(windows)]
    let _ = Command::new("taskkill").args(["/F", "/T", "/PID", &pid.to_string()]).output();
}

/// See `Hookmux::unprivileged`: Linux's secure bits, set in the child before it runs hookmux.
#[cfg(unix)]
fn unprivileged(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: drop_root_privileges only calls geteuid and prctl, both async-signal-safe.
    unsafe { command.pre_exec(drop_root_privileges) };
}

/// Windows has no root to take power from: the child runs as the user the test runs as.
#[cfg(not(unix))]
fn unprivileged(_command: &mut Command) {}

/// For `Command::pre_exec`: see `Hookmux::unprivileged`.
#[cfg(target_os = "linux")]
pub fn drop_root_privileges() -> std::io::Result<()> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(());
    }
    let bits = (libc::SECBIT_NOROOT | libc::SECBIT_NOROOT_LOCKED) as libc::c_ulong;
    // SAFETY: PR_SET_SECUREBITS changes only this (forked) process's security bits.
    match unsafe { libc::prctl(libc::PR_SET_SECUREBITS, bits, 0, 0, 0) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
pub fn drop_root_privileges() -> std::io::Result<()> {
    Ok(())
}
