use super::*;

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
