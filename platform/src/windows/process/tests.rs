//! Hooks started for real, under Windows or Wine: `cmd.exe` is there on both.

use super::*;
use std::time::Duration;

/// How long a test waits at most for what it waits for; a hook that runs longer has failed.
const BOUND: Duration = Duration::from_secs(60);

/// Everything one hook reported.
#[derive(Default, Debug)]
struct Seen {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    ended: Vec<Stream>,
    exit: Option<Option<i32>>,
}

impl Seen {
    fn take(&mut self, event: Event<'_>) {
        match event {
            Event::Output { stream: Stream::Stdout, bytes, .. } => self.stdout.extend_from_slice(bytes),
            Event::Output { stream: Stream::Stderr, bytes, .. } => self.stderr.extend_from_slice(bytes),
            Event::Ended { stream, .. } => self.ended.push(stream),
            Event::Exited { code, .. } => self.exit = Some(code),
        }
    }

    fn over(&self) -> bool {
        self.exit.is_some() && self.ended.len() == 2
    }
}

fn env() -> Vec<(OsString, OsString)> {
    std::env::vars_os().collect()
}

fn cmd(line: &str, cwd: &Path, env: &[(OsString, OsString)], input: &[u8]) -> (Hooks, HookId) {
    let mut hooks = Hooks::new();
    let args = [OsString::from("/C"), OsString::from(line)];
    let command = HookCommand { program: OsStr::new("cmd"), args: &args, env, cwd };
    let hook = hooks.start(&command, Arc::from(input)).unwrap();
    (hooks, hook)
}

/// Waits until the hook has exited and both its pipes ended, or `until`.
fn run_until(hooks: &mut Hooks, seen: &mut Seen, until: Instant) {
    while !seen.over() && Instant::now() < until {
        hooks.wait(Some(until), &mut |event| seen.take(event));
    }
}

#[test]
fn a_hook_s_output_and_exit_code_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (mut hooks, _) = cmd("echo hi& echo oops 1>&2& exit 3", dir.path(), &env(), b"");
    let mut seen = Seen::default();
    run_until(&mut hooks, &mut seen, Instant::now() + BOUND);
    assert!(seen.over(), "{seen:?}");
    assert_eq!(String::from_utf8_lossy(&seen.stdout).trim_end(), "hi");
    assert_eq!(String::from_utf8_lossy(&seen.stderr).trim_end(), "oops");
    assert_eq!(seen.exit, Some(Some(3)));
}

#[test]
fn a_hook_reads_its_stdin_runs_in_its_folder_and_carries_its_mark() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("here.txt"), "").unwrap();
    let (mut hooks, _) =
        cmd("set /p line=& if exist here.txt echo %HOOKMUX_HOOK_RUN%", dir.path(), &env(), b"{\"a\":1}\r\n");
    let mut seen = Seen::default();
    run_until(&mut hooks, &mut seen, Instant::now() + BOUND);
    assert_eq!(seen.exit, Some(Some(0)), "{seen:?}");
    let mark = String::from_utf8_lossy(&seen.stdout).trim_end().to_string();
    assert!(mark.starts_with(&format!("{}-", std::process::id())), "{mark:?}");
}

#[test]
fn ending_a_hook_ends_what_it_started_through_its_job() {
    let dir = tempfile::tempdir().unwrap();
    // ping is a child of cmd, holding the same pipes: they end only when both are gone.
    let (mut hooks, hook) = cmd("ping -n 300 127.0.0.1", dir.path(), &env(), b"");
    let mut seen = Seen::default();
    hooks.wait(Some(Instant::now() + Duration::from_millis(500)), &mut |event| seen.take(event));
    hooks.read_now(hook, &mut |event| seen.take(event));
    assert_eq!(seen.exit, None, "{seen:?}");
    hooks.end(hook, Ending::Ask);
    hooks.end(hook, Ending::Force);
    run_until(&mut hooks, &mut seen, Instant::now() + BOUND);
    assert!(seen.over(), "the job did not end the hook and its child: {seen:?}");
    assert_eq!(seen.exit, Some(Some(FORCED_EXIT as i32)));
    hooks.release(hook);
    let mut after = Seen::default();
    hooks.wait(None, &mut |event| after.take(event));
    assert!(after.exit.is_none() && after.ended.is_empty());
}

#[test]
fn a_missing_program_is_not_started() {
    let dir = tempfile::tempdir().unwrap();
    let env = env();
    let command = HookCommand { program: OsStr::new("no-such-program-here"), args: &[], env: &env, cwd: dir.path() };
    let err = Hooks::new().start(&command, Arc::from(&b""[..])).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
}

#[test]
fn exists_tells_a_running_process_from_one_gone() {
    assert!(exists(std::process::id()));
    let mut child = std::process::Command::new("cmd").args(["/C", "exit 0"]).spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    drop(child);
    assert!(!exists(pid));
}

#[test]
fn a_detached_hook_gets_its_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let env = env();
    let args = [OsString::from("/C"), OsString::from("set /p line=& echo got> got.txt")];
    let command = HookCommand { program: OsStr::new("cmd"), args: &args, env: &env, cwd: dir.path() };
    start_detached(&command, Arc::from(&b"x\r\n"[..])).unwrap().1.join().unwrap();
    let until = Instant::now() + BOUND;
    while !dir.path().join("got.txt").exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(dir.path().join("got.txt").exists());
}

#[test]
fn arguments_are_quoted_as_the_c_runtime_reads_them() {
    let line = |args: &[&str]| {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let (_, line) = command_line(Path::new(r"C:\t\a.exe"), &args, &Env(&[])).unwrap();
        String::from_utf16(line.strip_suffix(&[0]).unwrap()).unwrap()
    };
    let args = ["plain", "", "two words", r#"say "hi""#, r"C:\dir\", r"C:\my dir\", r"a\\b"];
    let quoted = r#""C:\t\a.exe" plain "" "two words" "say \"hi\"" C:\dir\ "C:\my dir\\" a\\b"#;
    assert_eq!(line(&args), quoted);
}

#[test]
fn a_batch_file_runs_through_cmd_and_refuses_what_cmd_would_read_as_syntax() {
    let batch = |args: &[&str]| {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let (application, line) = command_line(Path::new(r"C:\t\npx.CMD"), &args, &Env(&[]))?;
        Ok::<_, io::Error>((String::from_utf16_lossy(&application), String::from_utf16_lossy(&line)))
    };
    let (application, line) = batch(&["run", "a b&c"]).unwrap();
    assert!(application.ends_with("System32\\cmd.exe\0"), "{application}");
    assert_eq!(line, "cmd.exe /d /e:ON /v:OFF /s /c \"\"C:\\t\\npx.CMD\" run \"a b&c\"\"\0");
    for bad in ["100%", "say \"hi\"", "a\nb"] {
        assert_eq!(batch(&[bad]).unwrap_err().kind(), io::ErrorKind::InvalidInput, "{bad:?}");
    }
}

#[test]
fn the_environment_block_is_sorted_without_regard_to_case_and_the_last_value_wins() {
    let env: Vec<(OsString, OsString)> =
        [("b", "1"), ("A", "2"), ("Path", "x"), ("PATH", "y")].iter().map(|(k, v)| (k.into(), v.into())).collect();
    let block = String::from_utf16(&env_block(&env).unwrap()).unwrap();
    assert_eq!(block, "A=2\0b=1\0PATH=y\0\0");
    assert_eq!(env_block(&[]).unwrap(), vec![0, 0]);
    assert!(env_block(&[("A=B".into(), "1".into())]).is_err());
}

#[test]
fn a_hook_inherits_no_handle_but_its_own_pipes() {
    let (read, write) = pipe().unwrap();
    // Inheritable, as hookmux's own stdout is when the host made it so.
    // SAFETY: a handle owned here.
    let made =
        unsafe { w::SetHandleInformation(write.as_raw_handle(), w::HANDLE_FLAG_INHERIT, w::HANDLE_FLAG_INHERIT) };
    assert_ne!(made, 0, "{}", io::Error::last_os_error());
    let dir = tempfile::tempdir().unwrap();
    let (mut hooks, hook) = cmd("ping -n 300 127.0.0.1", dir.path(), &env(), b"");
    drop(write);
    // The pipe ends once no process holds its write end: at once, unless the hook inherited it.
    let (ended, end) = mpsc::channel();
    std::thread::spawn(move || {
        let (mut byte, mut count) = (0u8, 0u32);
        // SAFETY: a synchronous read of one byte into `byte` from a handle owned here.
        let ok = unsafe { ReadFile(read.as_raw_handle(), &mut byte, 1, &mut count, std::ptr::null_mut()) };
        let _ = ended.send((ok, io::Error::last_os_error().raw_os_error()));
    });
    let result = end.recv_timeout(BOUND);
    let mut seen = Seen::default();
    hooks.read_now(hook, &mut |event| seen.take(event));
    hooks.end(hook, Ending::Force);
    assert_eq!(result, Ok((0, Some(w::ERROR_BROKEN_PIPE as i32))), "the hook held another handle of hookmux's");
    assert_eq!(seen.exit, None, "the hook had exited before the pipe ended: {seen:?}");
}

#[test]
fn a_batch_file_runs_through_cmd_with_its_arguments_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("hook.cmd");
    // `%1` keeps the quotes the argument came in: with `%~1` the script itself would run `c`.
    std::fs::write(&script, "@echo off\r\necho got %1\r\nexit /b 4\r\n").unwrap();
    let env = env();
    let args = [OsString::from("a b&c")];
    let command = HookCommand { program: script.as_os_str(), args: &args, env: &env, cwd: dir.path() };
    let mut hooks = Hooks::new();
    hooks.start(&command, Arc::from(&b""[..])).unwrap();
    let mut seen = Seen::default();
    run_until(&mut hooks, &mut seen, Instant::now() + BOUND);
    assert_eq!(String::from_utf8_lossy(&seen.stdout).trim_end(), r#"got "a b&c""#, "{seen:?}");
    assert_eq!(seen.exit, Some(Some(4)));
}

#[test]
fn output_written_in_more_pieces_than_may_wait_in_the_channel_is_all_reported() {
    let dir = tempfile::tempdir().unwrap();
    // 5 000 lines, each written on its own: many more writes than messages may wait at once.
    std::fs::write(dir.path().join("line.txt"), format!("{}\r\n", "x".repeat(200))).unwrap();
    let (mut hooks, _) = cmd("for /L %i in (1,1,5000) do @type line.txt", dir.path(), &env(), b"");
    let mut seen = Seen::default();
    run_until(&mut hooks, &mut seen, Instant::now() + BOUND);
    assert_eq!(seen.exit, Some(Some(0)), "{:?}", seen.ended);
    assert_eq!(seen.stdout.len(), 5_000 * 202);
}

/// How many processes `job` holds now that have not exited.
fn active_processes(job: &OwnedHandle) -> u32 {
    use windows_sys::Win32::System::JobObjects::{
        JobObjectBasicAccountingInformation, QueryInformationJobObject, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION,
    };
    // SAFETY: plain data, for which all zeroes is a value.
    let mut info: JOBOBJECT_BASIC_ACCOUNTING_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: the handle is open; `info` has the size given and receives the information.
    let ok = unsafe {
        QueryInformationJobObject(
            job.as_raw_handle(),
            JobObjectBasicAccountingInformation,
            (&mut info as *mut JOBOBJECT_BASIC_ACCOUNTING_INFORMATION).cast(),
            std::mem::size_of::<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION>() as u32,
            std::ptr::null_mut(),
        )
    };
    assert_ne!(ok, 0, "{}", io::Error::last_os_error());
    info.ActiveProcesses
}

/// Waits until `done` holds or the bound passes; whether it held.
fn eventually(done: impl Fn() -> bool) -> bool {
    let until = Instant::now() + BOUND;
    while !done() {
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

#[test]
fn a_hook_launched_and_dropped_unadopted_is_ended_with_what_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let (env, args) = (env(), [OsString::from("/C"), OsString::from("ping -n 300 127.0.0.1")]);
    let command = HookCommand { program: OsStr::new("cmd"), args: &args, env: &env, cwd: dir.path() };
    let launched = launch(&command, Arc::from(&b""[..])).unwrap();
    // A handle of its own on the job, which outlives the one the hook's start holds.
    let job = launched.job.handle.try_clone().unwrap();
    // cmd and its ping (on Windows, the console host of the hook's hidden console too).
    assert!(eventually(|| active_processes(&job) >= 2), "cmd and its ping never ran: {}", active_processes(&job));
    drop(launched);
    assert!(eventually(|| active_processes(&job) == 0), "still running: {}", active_processes(&job));
}

/// Hooks launched on several threads at once each inherit their own pipe ends and no other's: a
/// hook that exits at once is seen to end while the hooks launched beside it still run, which it
/// would not be if one of them held a copy of its pipes.
#[test]
fn hooks_launched_on_several_threads_at_once_hold_only_their_own_pipes() {
    let dir = tempfile::tempdir().unwrap();
    let env = env();
    let lines: Vec<String> =
        (0..16).map(|n| if n % 2 == 0 { format!("echo {n}") } else { "ping -n 300 127.0.0.1".into() }).collect();
    let launched: Vec<(usize, Launched)> = std::thread::scope(|scope| {
        let starters: Vec<_> = (0..4)
            .map(|starter| {
                let (lines, env, cwd) = (&lines, &env, dir.path());
                scope.spawn(move || {
                    (starter..lines.len())
                        .step_by(4)
                        .map(|n| {
                            let args = [OsString::from("/C"), OsString::from(&lines[n])];
                            let command = HookCommand { program: OsStr::new("cmd"), args: &args, env, cwd };
                            (n, launch(&command, Arc::from(&b""[..])).unwrap())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        starters.into_iter().flat_map(|starter| starter.join().unwrap()).collect()
    });
    let mut hooks = Hooks::new();
    let ids: BTreeMap<HookId, usize> =
        launched.into_iter().map(|(n, launched)| (hooks.adopt(launched).unwrap(), n)).collect();
    let mut seen: BTreeMap<usize, Seen> = (0..lines.len()).map(|n| (n, Seen::default())).collect();
    let short_over = |seen: &BTreeMap<usize, Seen>| seen.iter().all(|(n, seen)| n % 2 == 1 || seen.over());
    let until = Instant::now() + BOUND;
    while !short_over(&seen) && Instant::now() < until {
        hooks.wait(Some(until), &mut |event| {
            let hook = match event {
                Event::Output { hook, .. } | Event::Ended { hook, .. } | Event::Exited { hook, .. } => hook,
            };
            if let Some(seen) = ids.get(&hook).and_then(|n| seen.get_mut(n)) {
                seen.take(event);
            }
        });
    }
    for id in ids.keys() {
        hooks.end(*id, Ending::Force);
    }
    for (n, seen) in &seen {
        if n % 2 == 0 {
            assert!(seen.over(), "hook {n}'s pipes were held by another: {seen:?}");
            assert_eq!(String::from_utf8_lossy(&seen.stdout).trim_end(), n.to_string());
        } else {
            assert_eq!(seen.exit, None, "hook {n} exited before the others were judged: {seen:?}");
        }
    }
}
