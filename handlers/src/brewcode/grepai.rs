//! grepai, the semantic code search brewcode steers agents to: is it set up in this project,
//! and are its parts running.
//!
//! brewcode asks `curl` whether ollama answers, reads `.grepai/watch.pid` and
//! `.grepai/mcp-serve.pid` (falling back to `pgrep -f`), and starts `grepai watch --background`
//! when only the watcher is missing. hookmux asks the same questions natively: an HTTP request to
//! ollama with curl's one-second budget, `kill(pid, 0)` on the pid files, and a scan of
//! `/proc/*/cmdline` where `pgrep -f` would look (`pgrep` itself where there is no `/proc`).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where brewcode looks for ollama.
pub const DEFAULT_OLLAMA: &str = "localhost:11434";

/// curl's `--max-time 1`.
const OLLAMA_BUDGET: Duration = Duration::from_secs(1);

/// Whether an HTTP server answers `GET /api/tags` at `address` (`host:port`) within a second.
/// Any HTTP answer counts, as `curl -s` without `-f` exits 0 on any status.
pub fn ollama_answers(address: &str) -> bool {
    let deadline = Instant::now() + OLLAMA_BUDGET;
    let addresses: Vec<SocketAddr> = match address.rsplit_once(':') {
        // `localhost` is both loopbacks; skipping the resolver keeps the common case fast.
        Some(("localhost", port)) => match port.parse::<u16>() {
            Ok(port) => {
                vec![SocketAddr::from(([127, 0, 0, 1], port)), SocketAddr::from(([0u16, 0, 0, 0, 0, 0, 0, 1], port))]
            }
            Err(_) => return false,
        },
        _ => match address.to_socket_addrs() {
            Ok(found) => found.collect(),
            Err(_) => return false,
        },
    };
    addresses.iter().any(|addr| http_answers(addr, address, deadline))
}

fn http_answers(addr: &SocketAddr, authority: &str, deadline: Instant) -> bool {
    let Some(left) = deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) else { return false };
    let Ok(mut stream) = TcpStream::connect_timeout(addr, left) else { return false };
    let request = format!("GET /api/tags HTTP/1.1\r\nHost: {authority}\r\nUser-Agent: hookmux\r\nAccept: */*\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut head = Vec::new();
    let mut buffer = [0u8; 64];
    while head.len() < 5 {
        let Some(left) = deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) else { return false };
        if stream.set_read_timeout(Some(left)).is_err() {
            return false;
        }
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return false,
            Ok(n) => head.extend_from_slice(&buffer[..n]),
        }
    }
    head.starts_with(b"HTTP/")
}

/// Whether the process a pid file names is alive: its content, trimmed, is a number that
/// `kill(pid, 0)` accepts. Node refuses pids outside 32 bits; so does this.
pub fn pid_file_alive(pid_file: &Path) -> bool {
    let Ok(text) = std::fs::read(pid_file) else { return false };
    let text = String::from_utf8_lossy(&text);
    let pid = super::js::text::trim(&text);
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let Ok(pid) = pid.parse::<i32>() else { return false };
    // Node's `process.kill(pid, 0)`; the digits alone make it non-negative.
    u32::try_from(pid).is_ok_and(hookmux_platform::process::exists)
}

/// Command lines of running processes, read once per call and asked several questions.
pub struct Processes {
    lines: Option<Vec<String>>,
}

impl Processes {
    pub fn new() -> Processes {
        Processes { lines: None }
    }

    /// Whether some other process's command line (arguments joined by spaces) contains
    /// `needle`, as `pgrep -f` finds it. `path` is the PATH to find `pgrep` on where there is no
    /// `/proc`.
    pub fn any_contains(&mut self, needle: &str, path: Option<&str>) -> bool {
        if self.lines.is_none() {
            self.lines = read_proc_cmdlines();
        }
        match &self.lines {
            Some(lines) => lines.iter().any(|line| line.contains(needle)),
            None => pgrep(needle, path),
        }
    }
}

impl Default for Processes {
    fn default() -> Processes {
        Processes::new()
    }
}

/// The command lines that mention grepai, arguments joined by spaces as `pgrep -f` sees them.
/// One open, one read and one close per process, into one buffer: opening
/// `/proc/<pid>/cmdline` is the whole cost of the fallback (2 to 4 µs a process), so nothing
/// else is asked of the kernel (no stat, no second read to find the end: the kernel hands
/// over a command line in one read when the buffer can hold it).
fn read_proc_cmdlines() -> Option<Vec<String>> {
    let entries = std::fs::read_dir("/proc").ok()?;
    let own = std::process::id().to_string();
    let mut lines = Vec::new();
    let mut buffer = vec![0u8; 16 * 1024];
    let mut path = String::with_capacity(32);
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name == own || !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        path.clear();
        path.push_str("/proc/");
        path.push_str(name);
        path.push_str("/cmdline");
        let Ok(file) = std::fs::File::open(&path) else { continue };
        let Some(cmdline) = read_cmdline(file, &mut buffer) else { continue };
        if !contains(cmdline, b"grepai") {
            continue;
        }
        let raw = cmdline.strip_suffix(b"\0").unwrap_or(cmdline);
        let joined: Vec<u8> = raw.iter().map(|&b| if b == 0 { b' ' } else { b }).collect();
        lines.push(String::from_utf8_lossy(&joined).into_owned());
    }
    Some(lines)
}

/// A command line read into `buffer`: one read when it fits, more (growing the buffer) when
/// the first read fills it.
fn read_cmdline(mut file: std::fs::File, buffer: &mut Vec<u8>) -> Option<&[u8]> {
    let mut filled = 0;
    loop {
        if filled == buffer.len() {
            buffer.resize(buffer.len() * 2, 0);
        }
        match file.read(&mut buffer[filled..]) {
            Ok(0) => return Some(&buffer[..filled]),
            Ok(n) => {
                filled += n;
                // A short read of a command line is its end.
                if filled < buffer.len() {
                    return Some(&buffer[..filled]);
                }
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

/// `pgrep -f needle`, for systems without `/proc`, with brewcode's one-second limit.
fn pgrep(needle: &str, path: Option<&str>) -> bool {
    let mut command = Command::new("pgrep");
    command.args(["-f", needle]).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null());
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let Ok(mut child) = hookmux_platform::process::spawn(&mut command) else { return false };
    use wait_timeout::ChildExt;
    if !matches!(child.wait_timeout(Duration::from_secs(1)), Ok(Some(_))) {
        let _ = child.kill();
        let _ = child.wait();
        return false;
    }
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        let _ = stdout.read_to_string(&mut out);
    }
    !out.trim().is_empty()
}

/// How the index's size reads in the status line, with the log line brewcode writes for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexSize {
    pub status: String,
    /// A small index is a warning; otherwise the size is a debug line.
    pub small: bool,
    pub log: String,
}

/// brewcode's size bands: under 20 000 bytes a warning in KB, under 100 000 KB, else MB with one
/// decimal (`toFixed(1)`, halves rounded up).
pub fn index_size(bytes: u64) -> IndexSize {
    let kb = (u128::from(bytes) + 512) / 1024;
    if bytes < 20_000 {
        IndexSize {
            status: format!("⚠️ {kb}KB"),
            small: true,
            log: format!("index: small ({kb}KB, likely <10 files) - run reindex"),
        }
    } else if bytes < 100_000 {
        IndexSize { status: format!("{kb}KB"), small: false, log: format!("index: {kb}KB") }
    } else {
        let tenths = (u128::from(bytes) * 10 + (1 << 19)) >> 20;
        let mb = format!("{}.{}", tenths / 10, tenths % 10);
        IndexSize { status: format!("{mb}MB"), small: false, log: format!("index: {mb}MB") }
    }
}

/// Starts `grepai watch --background --log-dir <logs>` in `cwd`, detached from this process
/// group, with the hook's environment. Like Node's `spawn`, a missing program is reported after
/// the fact (the caller logs it last), not as a failure to start.
pub fn spawn_watch(cwd: &Path, logs_dir: &str, env: &hookmux_sdk::Env) -> Result<(), std::io::Error> {
    let mut command = Command::new("grepai");
    command
        .args(["watch", "--background", "--log-dir", logs_dir])
        .current_dir(cwd)
        .env_clear()
        .envs(env.iter())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // The child is not waited for: it outlives the hook, as `child.unref()` lets it.
    hookmux_platform::process::spawn_detached(&mut command).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_sizes_read_as_brewcode_prints_them() {
        assert_eq!(index_size(0).status, "⚠️ 0KB");
        assert_eq!(index_size(19_999).status, "⚠️ 20KB");
        assert!(index_size(19_999).small);
        assert_eq!(index_size(20_000).status, "20KB");
        assert_eq!(index_size(99_999).status, "98KB");
        assert_eq!(index_size(100_000).status, "0.1MB");
        assert_eq!(index_size(150_000).status, "0.1MB");
        // 0.25 MB exactly: toFixed rounds the half up.
        assert_eq!(index_size(262_144).status, "0.3MB");
        assert_eq!(index_size(2_202_010).status, "2.1MB");
        assert_eq!(index_size(2_202_010).log, "index: 2.1MB");
    }

    #[test]
    fn pid_files() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("watch.pid");
        std::fs::write(&file, format!(" {}\n", std::process::id())).unwrap();
        assert!(pid_file_alive(&file));
        for bad in ["", "abc", "12a", "99999999999", "-1"] {
            std::fs::write(&file, bad).unwrap();
            assert!(!pid_file_alive(&file), "{bad:?}");
        }
        assert!(!pid_file_alive(&dir.path().join("missing.pid")));
    }

    #[test]
    fn ollama_is_down_when_nothing_listens() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        assert!(!ollama_answers(&format!("127.0.0.1:{port}")));
        assert!(!ollama_answers("not a host"));
    }

    /// A process that runs for the test's length and whose command line holds `args`.
    struct Running(std::process::Child);

    impl Running {
        fn start(args: &[&str]) -> Running {
            // The shell waits in its built-in `read` on a pipe only we hold, so it neither ends
            // nor starts a child: its command line, with `args` after the script, is what the
            // process table shows, and killing it leaves nothing behind.
            let child =
                Command::new("/bin/sh").arg("-c").arg("read _").args(args).stdin(Stdio::piped()).spawn().unwrap();
            Running(child)
        }
    }

    impl Drop for Running {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// Whether a fresh read of the process table finds `needle`, asked until the child has
    /// replaced its command line with the shell's (for a moment after the fork it is ours).
    fn found(needle: &str) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if Processes::new().any_contains(needle, None) {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    #[cfg_attr(windows, ignore = "starts its stand-in process through /bin/sh, which Windows does not have")]
    fn the_process_table_finds_a_command_line_as_pgrep_f_does() {
        let marker = format!("grepai watch --marker-{}", std::process::id());
        let mut processes = Processes::new();
        assert!(!processes.any_contains(&marker, None));
        let _watch = Running::start(&["grepai", "watch", &format!("--marker-{}", std::process::id())]);
        // The arguments are joined by spaces, so the needle spans two of them.
        assert!(found(&marker));
        // One read of the table per `Processes`: asking again does not read it anew.
        assert!(!processes.any_contains(&marker, None));
    }

    #[test]
    #[cfg_attr(windows, ignore = "starts its stand-in process through /bin/sh, which Windows does not have")]
    fn a_command_line_longer_than_the_buffer_is_read_whole() {
        let marker = format!("grepai mcp-serve --marker-{}", std::process::id());
        let padding = "x".repeat(40 * 1024);
        let _serve = Running::start(&[&padding, "grepai", "mcp-serve", &format!("--marker-{}", std::process::id())]);
        assert!(found(&marker));
    }
}
