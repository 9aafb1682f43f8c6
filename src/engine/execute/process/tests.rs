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
#[cfg_attr(windows, ignore = "runs its hooks through /bin/sh, which Windows does not have")]
fn a_hook_that_exits_normally_is_never_unterminated() {
    let raw = run(&shell("printf context; echo warning >&2"));
    assert!(!raw.unterminated);
    assert_eq!(raw.stdout, b"context");
    assert_eq!(raw.stderr, b"warning\n");
}

#[test]
#[cfg_attr(windows, ignore = "runs its hooks through /bin/sh, which Windows does not have")]
fn a_hook_leaving_a_child_on_stdout_is_unterminated() {
    // The child holds stdout for longer than the quiet window, then goes on its own.
    let raw = run(&shell("sleep 2 & printf context"));
    assert!(raw.unterminated);
    assert_eq!(raw.stdout, b"context");
}

#[test]
#[cfg_attr(windows, ignore = "runs its hooks through /bin/sh, which Windows does not have")]
fn a_child_that_lets_go_within_the_window_leaves_the_output_whole() {
    // The child writes as soon as the hook has exited, and not before: it waits on a FIFO whose
    // one writer is the hook, so what it meets is the end of the hook, not a sleep that a loaded
    // machine can stretch past the window.
    let dir = tempfile::tempdir().unwrap();
    let script = "(read _ <\"$1\"; printf ' late') & exec 4>\"$1\"; printf early";
    let mut spec = shell(script);
    spec.args.extend(["sh".into(), dir.path().join("hook-ended").into_os_string()]);
    let status = std::process::Command::new("mkfifo").arg(dir.path().join("hook-ended")).status().unwrap();
    assert!(status.success(), "mkfifo");
    let raw = run(&spec);
    assert!(!raw.unterminated, "the last writer let go within the window");
    assert_eq!(raw.stdout, b"early late");
}

#[test]
#[cfg_attr(windows, ignore = "runs its hooks through /bin/sh, which Windows does not have")]
fn every_hook_of_many_gets_its_own_result() {
    let specs: Vec<ProcessSpec> =
        (0..40).map(|i| shell(&format!("cat >/dev/null; printf {i}; echo e{i} >&2; exit {}", i % 3))).collect();
    let mut results: Vec<Option<RawOutput>> = vec![None; specs.len()];
    run_all(&specs, &mut |at, raw| results[at] = Some(raw));
    for (i, raw) in results.into_iter().enumerate() {
        let raw = raw.expect("a result for every hook");
        assert_eq!((raw.stdout_text(), raw.stderr_text()), (i.to_string(), format!("e{i}\n")));
        assert_eq!(raw.exit_code, Some((i % 3) as i32));
        assert!(!raw.unterminated && !raw.timed_out);
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs its hooks through /bin/sh, which Windows does not have")]
fn output_past_the_cap_is_counted_not_kept() {
    let raw = run(&shell("head -c 3145728 /dev/zero"));
    assert_eq!(raw.stdout.len(), CAPTURE_CAP);
    assert_eq!(raw.stdout_dropped, (3 << 20) - CAPTURE_CAP as u64);
}

#[test]
#[cfg_attr(windows, ignore = "runs its hooks through /bin/sh, which Windows does not have")]
fn a_hook_past_its_timeout_is_ended_and_what_it_said_on_its_way_out_is_kept() {
    let mut spec = shell("trap 'echo bye; exit 0' TERM; echo started; while :; do sleep 0.05; done");
    spec.timeout = Duration::from_millis(300);
    let raw = run(&spec);
    assert!(raw.timed_out && !raw.unterminated);
    assert_eq!(raw.exit_code, Some(0), "it ended itself on SIGTERM, within the grace");
    assert_eq!(raw.stdout_text(), "started\nbye\n");
}

#[test]
fn a_hook_that_cannot_start_fails_with_its_name() {
    let mut spec = shell("");
    spec.program = "hookmux-no-such-program".into();
    let raw = run(&spec);
    assert_eq!(raw.exit_code, Some(1));
    assert!(raw.stderr_text().starts_with("cannot start `hookmux-no-such-program`"), "{}", raw.stderr_text());
}

#[test]
#[cfg_attr(windows, ignore = "runs its hooks through /bin/sh, which Windows does not have")]
fn among_hooks_started_together_one_that_cannot_start_fails_alone() {
    let mut specs: Vec<ProcessSpec> = (0..12).map(|i| shell(&format!("wc -c; exit {}", i % 2))).collect();
    // More than a pipe holds: written on by the watching thread after the start.
    let big: Arc<[u8]> = Arc::from(vec![b'x'; 300_000]);
    for spec in &mut specs {
        spec.stdin = big.clone();
    }
    specs[5].program = "hookmux-no-such-program".into();
    let mut results: Vec<Option<RawOutput>> = vec![None; specs.len()];
    run_all(&specs, &mut |at, raw| results[at] = Some(raw));
    for (i, raw) in results.into_iter().enumerate() {
        let raw = raw.expect("a result for every hook");
        if i == 5 {
            assert!(raw.stderr_text().starts_with("cannot start `hookmux-no-such-program`"), "{}", raw.stderr_text());
            continue;
        }
        assert_eq!(raw.stdout_text().trim(), "300000", "hook {i}");
        assert_eq!(raw.exit_code, Some((i % 2) as i32));
        assert!(!raw.unterminated && !raw.timed_out);
    }
}
