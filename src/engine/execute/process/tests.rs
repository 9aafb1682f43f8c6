use super::*;
use std::io::{PipeReader, PipeWriter};
use std::os::fd::BorrowedFd;

/// A reader that is not scheduled for a while: it reads nothing until `delay` has passed, as a
/// capture thread on a loaded machine may.
struct SlowReader {
    pipe: PipeReader,
    delay: Option<Duration>,
}

impl Read for SlowReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(delay) = self.delay.take() {
            std::thread::sleep(delay);
        }
        self.pipe.read(buf)
    }
}

impl AsFd for SlowReader {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.pipe.as_fd()
    }
}

fn slow_pipe(delay: Duration) -> (SlowReader, PipeWriter) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    (SlowReader { pipe: reader, delay: Some(delay) }, writer)
}

#[test]
fn a_pipe_closed_at_exit_has_ended_however_late_the_reader_is() {
    let (reader, mut writer) = slow_pipe(QUIET_WINDOW * 3);
    let capture = Capture::start(Some(reader));
    writer.write_all(b"context").expect("write");
    drop(writer);
    let (data, dropped, ended) = capture.finish(Instant::now() + QUIET_WINDOW);
    assert!(ended, "every write end was closed: the pipe ended");
    assert_eq!(data, b"context", "what was written is read in full before deciding");
    assert_eq!(dropped, 0);
}

#[test]
fn a_pipe_still_held_open_is_unterminated_after_the_window() {
    let (reader, mut writer) = slow_pipe(Duration::ZERO);
    let capture = Capture::start(Some(reader));
    writer.write_all(b"partial").expect("write");
    let started = Instant::now();
    let (_, _, ended) = capture.finish(Instant::now() + QUIET_WINDOW);
    assert!(!ended, "a write end is still open");
    assert!(started.elapsed() >= QUIET_WINDOW, "the quiet window is waited out: {:?}", started.elapsed());
    drop(writer);
}

#[test]
fn a_writer_that_lets_go_within_the_window_ends_the_pipe() {
    let (reader, writer) = slow_pipe(QUIET_WINDOW * 2);
    let capture = Capture::start(Some(reader));
    std::thread::spawn(move || {
        std::thread::sleep(QUIET_WINDOW / 3);
        drop(writer);
    });
    let (_, _, ended) = capture.finish(Instant::now() + QUIET_WINDOW);
    assert!(ended);
}

#[test]
fn writers_closed_reads_the_pipe_not_its_data() {
    let (reader, mut writer) = std::io::pipe().expect("pipe");
    // Unread data does not make the pipe look closed, nor wake the wait early.
    writer.write_all(b"unread").expect("write");
    assert!(!writers_closed(&reader, Duration::from_millis(50)));
    let second = writer.try_clone().expect("dup");
    drop(writer);
    assert!(!writers_closed(&reader, Duration::ZERO), "one write end is left");
    drop(second);
    assert!(writers_closed(&reader, Duration::ZERO));
}

fn shell(script: &str) -> ProcessSpec {
    ProcessSpec {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), script.into()],
        env: vec![("PATH".into(), std::env::var_os("PATH").unwrap_or_default())],
        cwd: std::env::temp_dir(),
        stdin: Arc::from(&b"{}"[..]),
        timeout: Duration::from_secs(30),
    }
}

#[test]
fn a_hook_that_exits_normally_is_never_unterminated() {
    let raw = run(&shell("printf context; echo warning >&2"));
    assert!(!raw.unterminated);
    assert_eq!(raw.stdout, b"context");
    assert_eq!(raw.stderr, b"warning\n");
}

#[test]
fn a_hook_leaving_a_child_on_stdout_is_unterminated() {
    let raw = run(&shell("sleep 30 & echo $! >&2; printf context"));
    assert!(raw.unterminated);
    assert_eq!(raw.stdout, b"context");
    let pid: libc::pid_t = raw.stderr_text().trim().parse().expect("the child's pid");
    // SAFETY: only signals the child this test started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

#[test]
fn a_copy_held_by_a_spawn_in_flight_is_waited_out() {
    let (reader, writer) = slow_pipe(Duration::ZERO);
    let capture = Capture::start(Some(reader));
    // Another hook's child, forked but not yet exec'd past the window, holds a copy of the
    // write end; the hook's own end is already closed.
    let (held, release) = mpsc::channel();
    let spawning = std::thread::spawn(move || {
        let _spawning = SPAWNING.read().unwrap_or_else(|p| p.into_inner());
        held.send(()).expect("send");
        std::thread::sleep(QUIET_WINDOW * 2);
        drop(writer);
    });
    release.recv().expect("the spawn started");
    let (_, _, ended) = capture.finish(Instant::now() + QUIET_WINDOW);
    assert!(ended, "once the spawn has exec'd, no write end is left");
    spawning.join().expect("join");
}
