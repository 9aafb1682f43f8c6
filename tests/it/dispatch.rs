//! `hookmux dispatch` as a process: what it does with real hooks that hang, spawn, flood, fail,
//! live in the background or answer over http.

use crate::common;

use common::Hookmux;
use hookmux_platform::dirs;
use hookmux_sdk::Env;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A project folder with one settings file.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new(settings: Value) -> Project {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("hooks.json"), settings.to_string()).unwrap();
        Project { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.file(name)).unwrap_or_default()
    }

    /// dispatch with this project's settings, the event's cwd set to the project.
    fn dispatch(&self, mut event: Value) -> common::Output {
        event["cwd"] = Value::from(self.path().to_str().unwrap());
        self.command().stdin(event.to_string()).run()
    }

    /// The captured Bash payload, moved into this project.
    fn bash_event(&self) -> Value {
        common::event("events/PreToolUse-Bash.json", self.path())
    }

    fn command(&self) -> Hookmux {
        Hookmux::new(["dispatch", "--settings", self.file("hooks.json").to_str().unwrap()])
            .env("CLAUDE_PROJECT_DIR", self.path())
            .env("TMPDIR", self.path())
            .env("HOME", self.path())
            .cwd(self.path())
    }
}

fn hooks(event: &str, handlers: Value) -> Value {
    json!({"hooks": {event: [{"hooks": handlers}]}})
}

fn command(cmd: &str) -> Value {
    json!({"type": "command", "command": cmd})
}

fn pid_alive(pid: i32) -> bool {
    u32::try_from(pid).is_ok_and(hookmux_platform::process::exists)
}

fn kill(pid: i32) {
    if let Ok(pid) = u32::try_from(pid) {
        common::kill(pid);
    }
}

fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    done()
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_hung_hook_and_its_children_are_gone_after_the_timeout() {
    let project = Project::new(hooks(
        "PreToolUse",
        json!([{"type": "command", "command": "sleep 300 & echo $! > child.pid; echo $$ > hook.pid; sleep 300; exit 2", "timeout": 1}]),
    ));
    let out = project.dispatch(project.bash_event());
    assert_eq!(out.code, Some(0));
    let answer = out.json();
    assert!(answer["hookSpecificOutput"].is_null(), "a timed-out hook gives no decision: {answer}");
    assert!(answer["systemMessage"].as_str().unwrap().contains("timed out after 1 s"));
    for file in ["hook.pid", "child.pid"] {
        let pid: i32 = project.read(file).trim().parse().expect("pid written");
        assert!(wait_until(Duration::from_secs(5), || !pid_alive(pid)), "{file} ({pid}) still alive");
    }
}

/// Whether `pid` is a running process (not gone, not a zombie waiting to be reaped), as `ps`
/// shows it on every Unix.
fn running(pid: i32) -> bool {
    let state = std::process::Command::new("ps")
        .args(["-o", "stat=", "-p", &pid.to_string()])
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .unwrap_or_default();
    !state.is_empty() && !state.starts_with('Z')
}

/// `pid pgid` as a hook's background process wrote them.
fn pid_and_group(project: &Project, file: &str) -> (i32, i32) {
    let text = project.read(file);
    let mut words = text.split_whitespace().map(|word| word.parse::<i32>().expect("a number"));
    (words.next().expect("a pid"), words.next().expect("a process group id"))
}

/// Each process writes `pid pgid` into FILE once it runs (through a rename, so that a reader sees
/// both or nothing). For use inside a single-quoted `sh -c '…'`.
fn record_self(file: &str) -> String {
    format!("echo \"$$ $(ps -o pgid= -p $$)\" > {file}.tmp; mv {file}.tmp {file}")
}

/// `setsid PROGRAM ARGS…` in a hook's shell on every Unix: the `setsid` command is util-linux's,
/// which macOS lacks; perl and its POSIX module are on both (Debian's essential perl-base, the
/// perl macOS ships). A process that leaves for a session of its own also leads a new group.
const SETSID: &str = "perl -MPOSIX -e 'setsid() or die \"setsid: $!\"; exec @ARGV or die \"exec: $!\"'";

/// A child that leaves the hook's process group with `setsid` is still the hook's: when the hook
/// times out, Claude Code 2.1.328 signals every process it finds below the hook in the process
/// table as well as the group, and so does dispatch. One of them ignores SIGTERM and gets
/// SIGKILL after the grace period, although the hook, its parent, is gone by then.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_hook_that_times_out_takes_its_setsid_children_with_it() {
    let escape = record_self("escaped");
    let stubborn = record_self("stubborn");
    let script = format!(
        "{SETSID} sh -c '{escape}; exec sleep 300' >/dev/null 2>&1 & \
         {SETSID} sh -c 'trap \"\" TERM; {stubborn}; while :; do sleep 1; done' >/dev/null 2>&1 & \
         while [ ! -s escaped ] || [ ! -s stubborn ]; do sleep 0.05; done; echo ready > ready; sleep 300"
    );
    let project = Project::new(hooks("PreToolUse", json!([{"type": "command", "command": script, "timeout": 10}])));
    let out = project.dispatch(project.bash_event());
    assert_eq!(out.code, Some(0));
    assert!(out.json()["systemMessage"].as_str().unwrap().contains("timed out after 10 s"), "{}", out.stdout);
    assert_eq!(project.read("ready"), "ready\n", "the hook's children did not start in time");
    for file in ["escaped", "stubborn"] {
        let (pid, group) = pid_and_group(&project, file);
        assert_eq!(pid, group, "{file} left the hook's session and group");
        let gone = wait_until(Duration::from_secs(10), || !running(pid));
        if !gone {
            kill(pid);
        }
        assert!(gone, "{file} ({pid}) outlived its timed-out hook");
    }
}

/// A timed-out hook's process that is no longer below it in the process table (its parent exited
/// after starting it with `setsid`, a daemon's double fork) is found by the mark each hook's
/// processes inherit in their environment, and killed too. Claude Code 2.1.328 leaves such a
/// process running; nothing the host sees depends on it.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_hook_that_times_out_takes_its_double_forked_children_with_it() {
    let daemon = record_self("daemon");
    let script = format!(
        "({SETSID} sh -c '{daemon}; exec sleep 300' >/dev/null 2>&1 &); \
         while [ ! -s daemon ]; do sleep 0.05; done; echo ready > ready; sleep 300"
    );
    let project = Project::new(hooks("PreToolUse", json!([{"type": "command", "command": script, "timeout": 10}])));
    let out = project.dispatch(project.bash_event());
    assert_eq!(out.code, Some(0));
    assert_eq!(project.read("ready"), "ready\n", "the hook's child did not start in time");
    let (pid, group) = pid_and_group(&project, "daemon");
    assert_eq!(pid, group, "the daemon left the hook's session and group");
    let gone = wait_until(Duration::from_secs(10), || !running(pid));
    if !gone {
        kill(pid);
    }
    assert!(gone, "the double-forked daemon ({pid}) outlived its timed-out hook");
}

/// A hook that exits on its own may leave work running on purpose (`nohup server &`, a daemon
/// that calls `setsid`): Claude Code 2.1.328 never stops those, not even when the session ends,
/// and neither does dispatch.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn background_children_of_a_hook_that_exits_keep_running() {
    let plain = record_self("plain");
    let daemon = record_self("daemon");
    let script = format!(
        "nohup sh -c '{plain}; exec sleep 300' >/dev/null 2>&1 & \
         ({SETSID} sh -c '{daemon}; exec sleep 300' >/dev/null 2>&1 &); \
         while [ ! -s plain ] || [ ! -s daemon ]; do sleep 0.05; done; exit 0"
    );
    let project = Project::new(hooks("PreToolUse", json!([command(&script)])));
    let out = project.dispatch(project.bash_event());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let pids = ["plain", "daemon"].map(|file| pid_and_group(&project, file).0);
    let alive = pids.map(running);
    for pid in pids {
        kill(pid);
    }
    assert_eq!(alive, [true, true], "a finished hook's background work was stopped");
}

/// A hook that exits while a background child keeps its stdout open: dispatch answers without
/// waiting for the child, and (as Claude Code 2.1.328 does) honours what restricts but refuses
/// what grants, rewrites or injects, since a later part of the output may have been lost; on
/// PreToolUse the refusal blocks the call.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_background_grandchild_holding_the_pipes_does_not_hold_the_answer() {
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "LINGER-DENY"}});
    let context = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "READY"}});
    for (answer, expect_reason) in [(deny, "LINGER-DENY"), (context, "its stdio went quiet before end-of-stream")] {
        let project = Project::new(hooks(
            "PreToolUse",
            json!([command(&format!("sleep 30 & echo $! > bg.pid; printf '%s' '{answer}'"))]),
        ));
        let out = project.dispatch(project.bash_event());
        let specific = &out.json()["hookSpecificOutput"];
        assert_eq!(specific["permissionDecision"], "deny");
        assert!(specific["permissionDecisionReason"].as_str().unwrap().contains(expect_reason), "{specific}");
        assert!(specific["additionalContext"].is_null());
        // dispatch answered while the grandchild, which still holds stdout, is alive.
        let pid: i32 = project.read("bg.pid").trim().parse().unwrap();
        assert!(pid_alive(pid), "the background process should outlive the answer");
        kill(pid);
    }
    // A child that lets go of stdio is no concern.
    let context = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "READY"}});
    let project = Project::new(hooks(
        "PreToolUse",
        json!([command(&format!("sleep 30 >/dev/null 2>&1 & printf '%s' '{context}'"))]),
    ));
    assert_eq!(project.dispatch(project.bash_event()).json()["hookSpecificOutput"]["additionalContext"], "READY");
}

// The peak resident set comes from wait4, which is POSIX's (and the hook is a POSIX shell pipeline).
#[cfg(unix)]
/// dispatch's own peak resident set in KiB, and its stdout. Measured by `peak_rss_probe` in a
/// small process of its own (this test binary started again to run that one test) rather than
/// from here: on Linux a child's peak counts the pages it shared with the process that forked
/// it, and this test binary, running many tests at once, is large.
fn peak_rss_kib(project: &Project, event: &Value) -> (i64, String) {
    std::fs::write(project.file("event.json"), event.to_string()).unwrap();
    let probe = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", "dispatch::peak_rss_probe", "--include-ignored", "--test-threads=1", "--quiet"])
        .env(PROBE_DIR, project.path())
        .output()
        .expect("run the probe");
    assert!(probe.status.success(), "the probe failed: {}", String::from_utf8_lossy(&probe.stdout));
    let peak = project.read("rss.txt").trim().parse().expect("a peak RSS in KiB");
    (peak, project.read("stdout.json"))
}

// The peak resident set comes from wait4, which is POSIX's (and the hook is a POSIX shell pipeline).
#[cfg(unix)]
/// The project folder `peak_rss_probe` measures dispatch in (`hooks.json`, `event.json`).
const PROBE_DIR: &str = "HOOKMUX_TEST_RSS_PROBE_DIR";

// The peak resident set comes from wait4, which is POSIX's (and the hook is a POSIX shell pipeline).
#[cfg(unix)]
/// Runs dispatch in the folder `PROBE_DIR` names and writes its peak RSS in KiB to `rss.txt`, its
/// stdout to `stdout.json`: `wait4` reports a child's peak on Linux and macOS alike (in KiB on
/// Linux, bytes on macOS), where GNU time is Linux's only.
#[test]
#[ignore = "run by a_hook_printing_50_mib_leaves_dispatch_memory_bounded, in a small process of its own"]
#[allow(clippy::zombie_processes)] // reaped by wait4, which std's Child does not know about
fn peak_rss_probe() {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let Some(dir) = std::env::var_os(PROBE_DIR).map(PathBuf::from) else { return };
    let mut dispatch = Command::new(env!("CARGO_BIN_EXE_hookmux"));
    dispatch
        .args(["dispatch", "--settings"])
        .arg(dir.join("hooks.json"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("CLAUDE_PROJECT_DIR", &dir)
        .envs(common::folder_var("HOME", &dir))
        .envs(common::folder_var("TMPDIR", &dir))
        .current_dir(&dir)
        .stdin(std::fs::File::open(dir.join("event.json")).unwrap())
        .stdout(std::fs::File::create(dir.join("stdout.json")).unwrap())
        .stderr(Stdio::null());
    // A hook for pre_exec makes std fork rather than spawn with a shared address space, whose
    // peak (this process's) the child would report as its own.
    // SAFETY: the hook does nothing.
    unsafe { dispatch.pre_exec(|| Ok(())) };
    let child = dispatch.spawn().expect("spawn dispatch");
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 writes only into the two locals passed by pointer.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "dispatch failed: status {status}");
    let peak_kib = if cfg!(target_os = "macos") { usage.ru_maxrss / 1024 } else { usage.ru_maxrss };
    std::fs::write(dir.join("rss.txt"), peak_kib.to_string()).unwrap();
}

// The peak resident set comes from wait4, which is POSIX's (and the hook is a POSIX shell pipeline).
#[cfg(unix)]
#[test]
fn a_hook_printing_50_mib_leaves_dispatch_memory_bounded() {
    let project = Project::new(hooks(
        "UserPromptSubmit",
        json!([command("head -c 52428800 /dev/zero | tr '\\0' x; head -c 52428800 /dev/zero >&2")]),
    ));
    let event = json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": project.path(), "prompt": "p"});
    let (peak, stdout) = peak_rss_kib(&project, &event);
    // 1 MiB of each stream is kept, the rest counted, dropped and reported. The kept MiB is
    // over Claude Code's per-hook limit: saved to a file, with the host's preview for the model.
    let answer: Value = serde_json::from_str(&stdout).expect("a JSON answer");
    let context = answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    let saved = context
        .strip_prefix("<persisted-output>\nOutput too large (1MB). Full output saved to: ")
        .and_then(|rest| rest.split_once('\n'))
        .map(|(path, _)| std::fs::metadata(path).expect("the saved output").len());
    assert_eq!(saved, Some(1 << 20), "the captured stdout is capped: {}", &context[..200.min(context.len())]);
    let message = answer["systemMessage"].as_str().unwrap();
    assert!(message.contains("wrote 51380224 bytes of stdout past the 1 MiB kept"), "{message}");
    assert!(message.contains("bytes of stderr past the 1 MiB kept"), "{message}");
    assert!(peak < 24 * 1024, "peak RSS {peak} KiB: 100 MiB of output must not be held");
}

#[test]
fn malformed_stdin_fails_open_with_a_clear_message() {
    let project = Project::new(hooks("PreToolUse", json!([command("echo ran > ran.txt; exit 2")])));
    for stdin in ["{not json", "", "[1,2]", "\u{0}\u{1}"] {
        let out = project.command().stdin(stdin).run();
        assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""), "{stdin:?}");
        assert!(
            out.stderr.contains("the event could not be read") && out.stderr.contains("1 hook was skipped"),
            "{}",
            out.stderr
        );
    }
    assert_eq!(project.read("ran.txt"), "");
    let out = project.command().stdin(r#"{"hook_event_name": "no_such_event"}"#).run();
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    assert!(out.stderr.contains("`no_such_event`"));
    // A PascalCase name is an event of a newer host: no hook is configured for it, so silence.
    let out = project.command().stdin(r#"{"hook_event_name": "NoSuchEvent"}"#).run();
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (Some(0), "", ""));
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_dispatch_started_by_its_own_hook_leaves_the_loop_out_and_says_so() {
    let bin = env!("CARGO_BIN_EXE_hookmux");
    // The hook feeds the same event to dispatch again; without the guard this would recurse.
    let project = Project::new(hooks(
        "PreToolUse",
        json!([command(&format!(
            "echo x >> ran.txt; {bin} dispatch --settings hooks.json > inner.txt; echo $? > inner.code"
        ))]),
    ));
    let out = project.dispatch(project.bash_event());
    assert_eq!(out.code, Some(0));
    assert_eq!(project.read("ran.txt"), "x\n");
    let inner: Value = serde_json::from_str(&project.read("inner.txt")).expect("the inner dispatch answers");
    let message = inner["systemMessage"].as_str().unwrap_or_default();
    assert!(message.contains("a loop") && message.contains("hooks.json"), "{inner}");
    assert_eq!(project.read("inner.code"), "0\n");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_hook_may_dispatch_other_settings_of_the_same_session() {
    let bin = env!("CARGO_BIN_EXE_hookmux");
    // Not a loop: the inner dispatch reads another file, and its answer is the hook's own.
    let project = Project::new(hooks("PreToolUse", json!([command(&format!("{bin} dispatch --settings inner.json"))])));
    std::fs::write(
        project.file("inner.json"),
        hooks("PreToolUse", json!([command("echo inner >> ran.txt; echo 'inner says no' >&2; exit 2")])).to_string(),
    )
    .unwrap();
    let out = project.dispatch(project.bash_event());
    assert_eq!(project.read("ran.txt"), "inner\n");
    assert_eq!(out.json()["hookSpecificOutput"]["permissionDecision"], "deny", "{out:?}");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn stdin_cwd_and_environment_are_the_hosts() {
    let project = Project::new(hooks(
        "PreToolUse",
        json!([command("cat > stdin.txt; pwd > cwd.txt; echo \"$CLAUDE_PROJECT_DIR|$CLAUDE_CODE_SESSION_ID|$CLAUDE_ENV_FILE\" > env.txt")]),
    ));
    let mut event = project.bash_event();
    event["cwd"] = Value::from(project.path().to_str().unwrap());
    let out = project.command().env("CLAUDE_ENV_FILE", "/tmp/env-file.sh").stdin(event.to_string()).run();
    assert_eq!(out.code, Some(0));
    // The host's bytes, unchanged.
    assert_eq!(project.read("stdin.txt"), event.to_string());
    assert_eq!(
        hookmux_platform::fs::canonicalize(project.read("cwd.txt").trim()).unwrap(),
        hookmux_platform::fs::canonicalize(project.path()).unwrap()
    );
    assert_eq!(
        project.read("env.txt").trim(),
        format!("{}|09110fd9-e94d-4dcf-ab61-cd5b8a24d6b2|/tmp/env-file.sh", project.path().display())
    );
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_vanished_cwd_falls_back_to_the_project_root() {
    let project = Project::new(hooks("PreToolUse", json!([command("pwd > cwd.txt")])));
    let mut event = project.bash_event();
    event["cwd"] = Value::from(project.path().join("gone").to_str().unwrap());
    project.command().stdin(event.to_string()).run();
    assert_eq!(
        hookmux_platform::fs::canonicalize(project.read("cwd.txt").trim()).unwrap(),
        hookmux_platform::fs::canonicalize(project.path()).unwrap()
    );
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn exec_form_runs_without_a_shell_and_substitutes_placeholders() {
    let project = Project::new(hooks(
        "PreToolUse",
        json!([{"type": "command", "command": "/bin/sh", "args": ["-c", "echo \"$0 $1\" > exec.txt", "${CLAUDE_PROJECT_DIR}", "a b; $HOME"]}]),
    ));
    project.dispatch(project.bash_event());
    assert_eq!(project.read("exec.txt"), format!("{} a b; $HOME\n", project.path().display()));
}

/// Exec-form arguments reach no shell, and what is put into them shows in `ps`: the host puts in
/// its own `${CLAUDE_PROJECT_DIR}` only, and passes `${HOME}` or a token from the environment as
/// written (as Claude Code 2.1.328 does: `fixtures/conformance/hookmux/exec-args-placeholders`).
/// A settings hook that names a plugin's variable is not run; `hooks validate` names both.
#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn exec_form_puts_in_only_the_hosts_own_placeholders() {
    let project = Project::new(hooks(
        "PreToolUse",
        json!([
            {"type": "command", "command": "/bin/sh", "args": ["-c", "printf '%s|' \"$@\" > exec.txt", "sh",
                "${CLAUDE_PROJECT_DIR}", "${HOME}", "${PROBE_TOKEN}", "${UNSET_NAME}", "${}"]},
            {"type": "command", "command": "echo ran > plugin-root.txt; echo '${CLAUDE_PLUGIN_ROOT}'"}
        ]),
    ));
    let out = project.command().env("PROBE_TOKEN", "tok-3141").stdin({
        let mut event = project.bash_event();
        event["cwd"] = Value::from(project.path().to_str().unwrap());
        event.to_string()
    });
    let out = out.run();
    let root = project.path().display();
    assert_eq!(
        project.read("exec.txt"),
        format!("{root}|${{HOME}}|${{PROBE_TOKEN}}|${{UNSET_NAME}}|${{}}|"),
        "{out:?}"
    );
    assert_eq!(project.read("plugin-root.txt"), "", "a plugin variable outside a plugin: not run");
    assert!(out.stderr.contains("not associated with a plugin"), "{out:?}");

    let out = Hookmux::new(["hooks", "validate", "--settings", project.file("hooks.json").to_str().unwrap()])
        .cwd(project.path())
        .run();
    let text = format!("{}{}", out.stdout, out.stderr);
    for (at, rule) in [
        ("hooks.PreToolUse[0].hooks[0].args[4]", "env-var-in-args"),
        ("hooks.PreToolUse[0].hooks[0].args[5]", "env-var-in-args"),
        ("hooks.PreToolUse[0].hooks[0].args[6]", "env-var-in-args"),
        ("hooks.PreToolUse[0].hooks[1].command", "plugin-variable-outside-plugin"),
    ] {
        assert!(text.lines().any(|l| l.contains(at) && l.contains(rule)), "{at} [{rule}]:\n{text}");
    }
    assert!(text.contains("use the shell form"), "the fix: {text}");
    assert!(!text.contains("args[3]"), "${{CLAUDE_PROJECT_DIR}} is put in: {text}");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn async_hooks_start_and_are_not_waited_for() {
    let project = Project::new(hooks(
        "PreToolUse",
        // The hook ends only once the test has seen dispatch's answer, however slow the machine.
        json!([{"type": "command",
                "command": "cat > async-stdin.txt; while [ ! -f answered ]; do sleep 0.05; done; echo later > async.txt; exit 2",
                "async": true, "timeout": 60}]),
    ));
    let out = project.dispatch(project.bash_event());
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""), "an async hook never decides: {}", out.stderr);
    assert_eq!(project.read("async.txt"), "", "dispatch answered before the hook finished");
    std::fs::write(project.path().join("answered"), "").unwrap();
    assert!(wait_until(Duration::from_secs(10), || project.read("async.txt") == "later\n"));
    assert!(project.read("async-stdin.txt").contains("\"hook_event_name\":\"PreToolUse\""));
}

/// An event of `session`: the Bash call's, renamed `event`.
fn session_event(project: &Project, event: &str, session: &str) -> Value {
    let mut payload = project.bash_event();
    payload["hook_event_name"] = event.into();
    payload["session_id"] = session.into();
    if event == "SessionEnd" {
        payload["reason"] = "other".into();
    }
    payload
}

#[test]
#[cfg_attr(
    not(any(target_os = "linux", target_os = "macos")),
    ignore = "its hooks are POSIX shell scripts (setsid through perl, ps); Windows' own test is the platform layer's, under \
              Wine; other Unix systems name no detached hook"
)]
fn a_sessions_end_ends_its_detached_hooks_and_those_of_no_other_session() {
    // Each async hook writes its pid and its child's pid into files named after its session, then
    // waits; it ignores SIGTERM, as its child does (an ignored signal stays ignored across exec),
    // so that only the forced end reaches them. It double-forks a daemon too, below no hook.
    let hook = format!(
        "trap '' TERM; ( {SETSID} sh -c 'echo $$ > \"$CLAUDE_CODE_SESSION_ID.daemon\"; exec sleep 300' >/dev/null 2>&1 & ); \
         sleep 300 & echo $! > \"$CLAUDE_CODE_SESSION_ID.child\"; \
         echo \"$HOOKMUX_SESSION\" > \"$CLAUDE_CODE_SESSION_ID.mark\"; \
         echo $$ > \"$CLAUDE_CODE_SESSION_ID.tmp\"; mv \"$CLAUDE_CODE_SESSION_ID.tmp\" \"$CLAUDE_CODE_SESSION_ID.pid\"; wait"
    );
    let project = Project::new(json!({"hooks": {
        "PreToolUse": [{"hooks": [{"type": "command", "command": hook, "async": true}]}],
        "SessionEnd": [{"hooks": [command(
            "for f in *.pid; do s=$(ps -o stat= -p $(cat $f)); case \"$s\" in ''|Z*) ;; *) echo $f >> alive-at-session-end.txt;; esac; done"
        )]}]
    }}));
    for session in ["session-a", "session-b"] {
        let out = project.dispatch(session_event(&project, "PreToolUse", session));
        assert_eq!(out.code, Some(0), "{}", out.stderr);
    }
    let pids = |session: &str| -> [i32; 3] {
        for what in ["pid", "daemon"] {
            assert!(wait_until(Duration::from_secs(10), || !project.read(&format!("{session}.{what}")).is_empty()));
        }
        ["pid", "child", "daemon"].map(|what| project.read(&format!("{session}.{what}")).trim().parse().expect("a pid"))
    };
    let ([a_hook, a_child, a_daemon], b) = (pids("session-a"), pids("session-b"));
    let a = [a_hook, a_child];
    assert!(a.iter().chain(&b).all(|pid| running(*pid)), "the async hooks run after dispatch answered");
    // A process of the user's that carries session A's mark but was started by no hook of it.
    let mark = project.read("session-a.mark").trim().to_string();
    assert_eq!(mark.len(), 24, "the hook carries its session's mark: {mark:?}");
    let mut stranger = std::process::Command::new("sleep").arg("300").env("HOOKMUX_SESSION", &mark).spawn().unwrap();

    let out = project.dispatch(session_event(&project, "SessionEnd", "session-a"));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    for pid in a {
        assert!(wait_until(Duration::from_secs(10), || !running(pid)), "session A's process {pid} still runs");
    }
    assert_eq!(
        project.read("alive-at-session-end.txt"),
        "session-b.pid\n",
        "session A's hook is ended before the SessionEnd hooks run, as Claude Code does"
    );
    assert!(b.iter().all(|pid| running(*pid)), "another session's hooks are left alone");
    assert!(running(a_daemon), "what the hook double-forked outlives the session, as under Claude Code");
    kill(a_daemon);
    assert_eq!(stranger.try_wait().unwrap(), None, "a process no hook of the session started is left alone");
    let _ = stranger.kill();
    let _ = stranger.wait();

    let out = project.dispatch(session_event(&project, "SessionEnd", "session-b"));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    for pid in &b[..2] {
        assert!(wait_until(Duration::from_secs(10), || !running(*pid)), "session B's process {pid} still runs");
    }
    kill(b[2]);
    let records = project.path().join(".local/state/hookmux/detached");
    assert_eq!(
        std::fs::read_dir(&records).map(|dir| dir.count()).unwrap_or(0),
        0,
        "the ended sessions' records are removed"
    );
}

/// A detached hook is recorded as it starts, before the plan's other hooks are waited for: a
/// dispatch the host kills at its timeout, while a slow hook runs, has still recorded it.
#[cfg(unix)]
#[test]
fn a_detached_hook_is_recorded_before_the_other_hooks_are_waited_for() {
    let project = Project::new(json!({"hooks": {
        "PreToolUse": [{"hooks": [
            {"type": "command", "command": "echo $$ > async.pid; exec sleep 300", "async": true},
            command("if ls .local/state/hookmux/detached/*/run-* >/dev/null 2>&1; then echo recorded; else echo none; fi > seen.txt"),
        ]}],
    }}));
    let out = project.dispatch(session_event(&project, "PreToolUse", "session-r"));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(project.read("seen.txt"), "recorded\n", "the record exists while the waited-for hook runs");
    let out = project.dispatch(session_event(&project, "SessionEnd", "session-r"));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(wait_until(Duration::from_secs(10), || !project.read("async.pid").is_empty()));
    let pid: i32 = project.read("async.pid").trim().parse().expect("a pid");
    assert!(wait_until(Duration::from_secs(10), || !running(pid)), "the async hook is ended at the session's end");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn handlers_dispatch_cannot_run_are_reported_and_the_rest_still_run() {
    let project = Project::new(hooks(
        "PreToolUse",
        json!([
            {"type": "prompt", "prompt": "Is this safe?"},
            {"type": "mcp_tool", "server": "s", "tool": "t"},
            command("echo ran > ran.txt")
        ]),
    ));
    let out = project.dispatch(project.bash_event());
    let message = out.json()["systemMessage"].as_str().unwrap().to_string();
    assert!(message.contains("`prompt` handler") && message.contains("`mcp_tool` handler"), "{message}");
    assert!(message.contains("hooks.json at hooks.PreToolUse[0].hooks[0]"), "{message}");
    assert_eq!(project.read("ran.txt"), "ran\n");
    assert!(out.stderr.contains("was not run"));
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn settings_problems_never_block_and_are_told_once_per_session() {
    let project = Project::new(json!({"hooks": {"PreToolUse": [
        {"matcher": ["Bash"], "hooks": [command("echo skipped > skipped.txt")]},
        {"hooks": [command("echo kept > kept.txt")]}
    ]}}));
    let first = project.dispatch(project.bash_event());
    assert_eq!(first.code, Some(0));
    assert!(first.json()["systemMessage"].as_str().unwrap().contains("hooks.PreToolUse[0].matcher"));
    assert_eq!((project.read("kept.txt"), project.read("skipped.txt")), ("kept\n".into(), String::new()));
    let second = project.dispatch(project.bash_event());
    assert_eq!(second.stdout, "", "the same problem is not repeated in one session");

    // An unreadable file: reported, and the other files' hooks still run.
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("bad.json"), "{ nope").unwrap();
    std::fs::remove_file(project.file("kept.txt")).unwrap();
    let out = Hookmux::new(["dispatch", "--settings", other.path().join("bad.json").to_str().unwrap()])
        .args_push(["--settings", project.file("hooks.json").to_str().unwrap()])
        .env("TMPDIR", other.path())
        .cwd(project.path())
        .stdin(project.bash_event().to_string())
        .run();
    assert!(out.json()["systemMessage"].as_str().unwrap().contains("invalid JSON: key must be a string at line 1"));
    assert_eq!(project.read("kept.txt"), "kept\n");
}

#[test]
fn markers_older_than_a_week_are_cleared_when_a_new_one_is_written() {
    let project = Project::new(json!({"hooks": {"PreToolUse": [
        {"matcher": ["Bash"], "hooks": [command("true")]}
    ]}}));
    let markers = notices_folder(project.path());
    std::fs::create_dir_all(&markers).unwrap();
    let aged = |name: &str, days: u64| {
        let file = std::fs::File::create(markers.join(name)).unwrap();
        file.set_modified(std::time::SystemTime::now() - Duration::from_secs(days * 24 * 3600)).unwrap();
    };
    aged("old-session-0000000000000000", 8);
    aged("recent-session-0000000000000000", 6);

    let out = project.dispatch(project.bash_event());
    assert!(out.json()["systemMessage"].as_str().unwrap().contains("hooks.PreToolUse[0].matcher"));
    let left: Vec<String> =
        std::fs::read_dir(&markers).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(left.len(), 2, "the new marker and the recent one: {left:?}");
    assert!(left.contains(&"recent-session-0000000000000000".to_string()), "{left:?}");
    assert!(!left.contains(&"old-session-0000000000000000".to_string()), "{left:?}");
}

#[test]
fn built_ins_run_in_process_with_the_answer_a_spawned_one_gives() {
    let bin = env!("CARGO_BIN_EXE_hookmux");
    let in_process = Project::new(hooks("PreToolUse", json!([command("hookmux run protect-paths --deny 'notes.*'")])));
    // Quoting the program makes it shell syntax: dispatch spawns it.
    let spawned =
        Project::new(hooks("PreToolUse", json!([command(&format!("'{bin}' run protect-paths --deny 'notes.*'"))])));
    let rebase = |project: &Project| {
        let mut e = common::event("events/PreToolUse-Write.json", project.path());
        e["tool_input"]["file_path"] = Value::from(project.path().join("notes.txt").to_str().unwrap());
        e
    };
    let a = in_process.dispatch(rebase(&in_process));
    let b = spawned.dispatch(rebase(&spawned));
    assert_eq!(a.json()["hookSpecificOutput"], b.json()["hookSpecificOutput"]);
    assert_eq!(a.json()["hookSpecificOutput"]["permissionDecision"], "deny");
}

/// A one-connection-at-a-time HTTP server on loopback that records requests and answers with
/// a fixed status and body.
fn serve(status: u16, body: &'static str) -> (String, std::sync::mpsc::Receiver<(String, String)>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = tx.send(read_request(&stream));
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, rx)
}

#[test]
fn http_hooks_are_posted_the_event_and_answer_like_stdout() {
    let (url, requests) = serve(
        200,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"http says no"}}"#,
    );
    let project = Project::new(hooks(
        "PreToolUse",
        json!([{"type": "http", "url": url, "headers": {"Authorization": "Bearer $TOKEN", "X-Other": "${SECRET}"}, "allowedEnvVars": ["TOKEN"]}]),
    ));
    let mut event = project.bash_event();
    event["cwd"] = Value::from(project.path().to_str().unwrap());
    let out = project.command().env("TOKEN", "t0k").env("SECRET", "s3cret").stdin(event.to_string()).run();
    assert_eq!(out.json()["hookSpecificOutput"]["permissionDecisionReason"], "http says no");
    let (headers, body) = requests.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(headers.contains("Bearer t0k") && !headers.contains("s3cret"), "{headers}");
    assert!(headers.to_ascii_lowercase().contains("content-type: application/json"));
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["tool_name"], "Bash");
}

#[test]
fn http_failures_are_non_blocking_and_urls_can_be_restricted() {
    let (url, _requests) = serve(503, "{}");
    let project = Project::new(hooks("PreToolUse", json!([{"type": "http", "url": url}])));
    let answer = project.dispatch(project.bash_event()).json();
    assert!(answer["hookSpecificOutput"].is_null());
    assert!(answer["systemMessage"].as_str().unwrap().contains("HTTP 503"));

    let (url, requests) = serve(200, "");
    let mut settings = hooks("PreToolUse", json!([{"type": "http", "url": url}]));
    settings["allowedHttpHookUrls"] = json!(["https://hooks.example.com/*"]);
    let project = Project::new(settings);
    let answer = project.dispatch(project.bash_event()).json();
    assert!(answer["systemMessage"].as_str().unwrap().contains("not in allowedHttpHookUrls"));
    assert!(requests.recv_timeout(Duration::from_millis(300)).is_err(), "a refused URL is never called");

    // SessionStart does not run http hooks.
    let (url, requests) = serve(200, "");
    let project = Project::new(hooks("SessionStart", json!([{"type": "http", "url": url}])));
    project.dispatch(json!({"hook_event_name": "SessionStart", "session_id": "s", "source": "startup"}));
    assert!(requests.recv_timeout(Duration::from_millis(300)).is_err());
}

/// A loopback server at `ip` that answers every request with `head` (status line and headers,
/// no blank line) and `body`, and reports each request's line and headers. It stops accepting after
/// ten seconds, so it never outlives a test by long.
fn serve_raw(ip: &str, head: String, body: impl Into<String>) -> (u16, std::sync::mpsc::Receiver<String>) {
    let body: String = body.into();
    let listener = TcpListener::bind((ip, 0)).unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            let Ok((stream, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            };
            let _ = stream.set_nonblocking(false);
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let _ = tx.send(read_request(&stream).0);
            let mut stream = stream;
            let _ = write!(stream, "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
        }
    });
    (port, rx)
}

const HTTP_DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"from the other host"}}"#;

#[test]
fn http_hooks_do_not_follow_redirects() {
    // Claude Code 2.1.328 follows no redirect (fixtures/conformance/hookmux/http-redirect-offlist):
    // a 302 is a non-2xx answer, and the host it points to is never called.
    let (other, other_requests) = serve_raw("127.0.0.2", "HTTP/1.1 200 OK".into(), HTTP_DENY);
    let (port, requests) =
        serve_raw("127.0.0.1", format!("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:{other}/hooks/deny"), "");
    let mut settings =
        hooks("PreToolUse", json!([{"type": "http", "url": format!("http://127.0.0.1:{port}/hooks/redirect")}]));
    settings["allowedHttpHookUrls"] = json!(["http://127.0.0.1:*/hooks/*"]);
    let project = Project::new(settings);
    let answer = project.dispatch(project.bash_event()).json();
    assert!(answer["hookSpecificOutput"].is_null(), "{answer}");
    assert!(answer["systemMessage"].as_str().unwrap_or_default().contains("HTTP 302"), "{answer}");
    assert!(requests.recv_timeout(Duration::from_secs(5)).unwrap().starts_with("POST /hooks/redirect "));
    assert!(other_requests.recv_timeout(Duration::from_millis(300)).is_err(), "the redirect was followed");

    // Without an allow-list too: a redirect is never followed.
    let project = Project::new(hooks(
        "PreToolUse",
        json!([{"type": "http", "url": format!("http://127.0.0.1:{port}/hooks/redirect")}]),
    ));
    assert!(project.dispatch(project.bash_event()).json()["hookSpecificOutput"].is_null());
    assert!(other_requests.recv_timeout(Duration::from_millis(300)).is_err(), "the redirect was followed");
}

#[test]
fn http_hook_urls_are_matched_as_parsed_urls() {
    let (other, other_requests) = serve_raw("127.0.0.2", "HTTP/1.1 200 OK".into(), HTTP_DENY);
    // The README's pattern; the URL's host is 127.0.0.2, behind the userinfo `127.0.0.1:1@`.
    let mut settings = hooks(
        "PreToolUse",
        json!([{"type": "http", "url": format!("http://127.0.0.1:1@127.0.0.2:{other}/hooks/deny")}]),
    );
    settings["allowedHttpHookUrls"] = json!(["http://127.0.0.1:*/hooks/*"]);
    let project = Project::new(settings);
    let answer = project.dispatch(project.bash_event()).json();
    assert!(answer["hookSpecificOutput"].is_null(), "{answer}");
    assert!(answer["systemMessage"].as_str().unwrap_or_default().contains("user name or password"), "{answer}");
    assert!(other_requests.recv_timeout(Duration::from_millis(300)).is_err(), "the hidden host was called");
    let settings = project.file("hooks.json");
    let validate = Hookmux::new(["hooks", "validate", "--settings", settings.to_str().unwrap()])
        .env("HOME", project.path())
        .cwd(project.path())
        .run();
    let told = format!("{}{}", validate.stdout, validate.stderr);
    assert!(told.contains("user name or password") && told.contains(".url"), "{told}");

    // `*` in the path spans slashes, as in Claude Code (fixtures/conformance/hookmux/http-star-path).
    let (port, requests) = serve_raw("127.0.0.1", "HTTP/1.1 200 OK".into(), HTTP_DENY);
    let mut settings =
        hooks("PreToolUse", json!([{"type": "http", "url": format!("http://127.0.0.1:{port}/hooks/a/b/deny")}]));
    settings["allowedHttpHookUrls"] = json!(["http://127.0.0.1:*/hooks/*"]);
    let project = Project::new(settings);
    let answer = project.dispatch(project.bash_event()).json();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{answer}");
    assert!(requests.recv_timeout(Duration::from_secs(5)).unwrap().starts_with("POST /hooks/a/b/deny "));
}

#[test]
fn http_hooks_keep_their_limits() {
    let run = |hook: Value| {
        let project = Project::new(hooks("PreToolUse", json!([hook])));
        let started = Instant::now();
        let out = project.command().env("INJECT", "x\r\nX-Injected: 1").stdin(project.bash_event().to_string()).run();
        (out.json(), started.elapsed())
    };

    // 307 and 308 would repeat the POST elsewhere: not followed either.
    for status in ["307 Temporary Redirect", "308 Permanent Redirect"] {
        let (other, other_requests) = serve_raw("127.0.0.2", "HTTP/1.1 200 OK".into(), HTTP_DENY);
        let (port, _) =
            serve_raw("127.0.0.1", format!("HTTP/1.1 {status}\r\nLocation: http://127.0.0.2:{other}/deny"), "");
        let (answer, _) = run(json!({"type": "http", "url": format!("http://127.0.0.1:{port}/x")}));
        assert!(answer["hookSpecificOutput"].is_null(), "{status}: {answer}");
        assert!(other_requests.recv_timeout(Duration::from_millis(300)).is_err(), "{status} was followed");
    }

    // A header value cannot smuggle a line break into the request.
    let (port, requests) = serve_raw("127.0.0.1", "HTTP/1.1 200 OK".into(), "");
    let hook = json!({"type": "http", "url": format!("http://127.0.0.1:{port}/x"),
        "headers": {"X-Value": "$INJECT"}, "allowedEnvVars": ["INJECT"]});
    run(hook);
    if let Ok(request) = requests.recv_timeout(Duration::from_millis(500)) {
        assert!(!request.contains("X-Injected"), "{request}");
    }

    // A server that never answers is timed out: no decision, in about the hook's timeout.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/x", silent.local_addr().unwrap());
    let (answer, took) = run(json!({"type": "http", "url": url, "timeout": 1}));
    assert!(answer["hookSpecificOutput"].is_null(), "{answer}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    drop(silent);

    // A body past 1 MiB is not read into memory: a non-blocking error.
    let big = format!("{{\"systemMessage\":\"{}\"}}", "a".repeat(2 << 20));
    let (port, _) = serve_raw("127.0.0.1", "HTTP/1.1 200 OK".into(), big);
    let (answer, _) = run(json!({"type": "http", "url": format!("http://127.0.0.1:{port}/x")}));
    let message = answer["systemMessage"].as_str().unwrap_or_default();
    assert!(
        message.len() < 1 << 20 && message.contains("reading the response"),
        "{}",
        &message[..message.len().min(300)]
    );
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn task_completed_blocks_by_exit_code() {
    let project = Project::new(hooks("TaskCompleted", json!([command("echo 'tests still fail' >&2; exit 2")])));
    let out = project
        .dispatch(json!({"hook_event_name": "TaskCompleted", "session_id": "s", "task_id": "1", "task_subject": "x"}));
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("tests still fail"));
}

/// Every payload a host sends reaches its hooks byte for byte: the events of Claude Code
/// 2.1.328 (PreModelSwitch and PostModelSwitch among them) and Codex's, whose `Interrupt` hookmux
/// does not know and runs with the generic rules.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn every_real_payload_reaches_its_hooks_unchanged() {
    let mut fixtures: Vec<String> = Vec::new();
    for folder in ["events", "events/codex"] {
        for entry in std::fs::read_dir(common::fixture(folder)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".json") {
                fixtures.push(format!("{folder}/{name}"));
            }
        }
    }
    fixtures.sort();
    assert!(fixtures.len() >= 40);
    let probe = tempfile::tempdir().unwrap();
    let mut settings = serde_json::Map::new();
    for fixture in &fixtures {
        let event = common::event(fixture, probe.path());
        let name = event["hook_event_name"].as_str().unwrap_or_default().to_string();
        settings.insert(name, json!([{"hooks": [command("cat >> seen.jsonl")]}]));
    }
    assert!(settings.contains_key("PreModelSwitch") && settings.contains_key("PostModelSwitch"));
    assert!(settings.contains_key("Interrupt"));
    let project = Project::new(json!({"hooks": settings}));
    let mut expected = String::new();
    for fixture in &fixtures {
        let event = common::event(fixture, project.path());
        // Pretty, as the fixture is written: the hooks get the host's bytes as they are.
        let stdin = serde_json::to_string_pretty(&event).unwrap();
        let out = project.command().stdin(stdin.clone()).run();
        assert_eq!(out.code, Some(0), "{fixture}: {}", out.stderr);
        assert_eq!(out.stderr, "", "{fixture}");
        expected.push_str(&stdin);
    }
    assert_eq!(project.read("seen.jsonl"), expected);
}

/// PreModelSwitch (conformance `model-switch-*`, recorded): exit 2 and `permissionDecision:
/// "deny"` refuse the switch with their reason, a deny beats an allow, `defer` is not one of its
/// decisions, and the matcher is tested against `to_model`.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn pre_model_switch_decides_like_a_permission() {
    // The transcript path moves into a folder of the test's own, not a machine path.
    let scratch = tempfile::tempdir().unwrap();
    let event = common::event("events/PreModelSwitch.json", scratch.path());
    let deny = r#"printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreModelSwitch", "permissionDecision": "deny", "permissionDecisionReason": "not now"}}'"#;
    let allow =
        r#"printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreModelSwitch", "permissionDecision": "allow"}}'"#;
    let project = Project::new(json!({"hooks": {"PreModelSwitch": [
        {"matcher": "claude-opus-4-6", "hooks": [command(allow), command(deny)]},
        {"matcher": "claude-haiku-4-5", "hooks": [command("echo never >> ran.txt")]}
    ]}}));
    let out = project.dispatch(event.clone());
    let answer: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"],
        json!({"hookEventName": "PreModelSwitch", "permissionDecision": "deny", "permissionDecisionReason": "not now"})
    );
    assert_eq!(project.read("ran.txt"), "");

    let project = Project::new(hooks("PreModelSwitch", json!([command("echo 'pinned model' >&2; exit 2")])));
    let answer: Value = serde_json::from_str(&project.dispatch(event.clone()).stdout).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(answer["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap().contains("pinned model"));

    let defer =
        r#"printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreModelSwitch", "permissionDecision": "defer"}}'"#;
    let project = Project::new(hooks("PreModelSwitch", json!([command(defer)])));
    let answer: Value = serde_json::from_str(&project.dispatch(event).stdout).unwrap();
    assert_eq!(answer.get("hookSpecificOutput"), None);
    assert!(answer["systemMessage"].as_str().unwrap().contains("permissionDecision"), "{answer}");
}

/// PostModelSwitch reads plain stdout as context for the model, as UserPromptSubmit does, and
/// `additionalContext` beside it.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn post_model_switch_takes_context() {
    // The transcript path moves into a folder of the test's own, not a machine path.
    let scratch = tempfile::tempdir().unwrap();
    let event = common::event("events/PostModelSwitch.json", scratch.path());
    let project = Project::new(hooks("PostModelSwitch", json!([command("echo 'mind the cache'")])));
    assert_eq!(project.dispatch(event.clone()).stdout, "mind the cache\n");
    let context =
        r#"printf '%s' '{"hookSpecificOutput": {"hookEventName": "PostModelSwitch", "additionalContext": "B"}}'"#;
    let project = Project::new(hooks("PostModelSwitch", json!([command("echo A"), command(context)])));
    let answer: Value = serde_json::from_str(&project.dispatch(event).stdout).unwrap();
    assert_eq!(answer["hookSpecificOutput"], json!({"hookEventName": "PostModelSwitch", "additionalContext": "A\nB"}));
}

/// An event hookmux does not know runs with the generic rules: every group, exit 2 handed back as
/// exit 2 with its stderr, plain stdout not context, the common JSON fields and
/// `hookSpecificOutput` handed on under the event's own name.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn an_unknown_event_runs_with_the_generic_rules() {
    let event = json!({"hook_event_name": "PreFutureThing", "session_id": "s", "thing": "x"});
    let specific = r#"printf '%s' '{"systemMessage": "heads up", "hookSpecificOutput": {"hookEventName": "PreFutureThing", "additionalContext": "ctx", "futureField": 1}}'"#;
    let project = Project::new(json!({"hooks": {"PreFutureThing": [
        {"matcher": "whatever", "hooks": [command("cat > seen.json; echo plain")]},
        {"hooks": [command(specific)]}
    ]}}));
    let out = project.dispatch(event.clone());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let answer: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        answer,
        json!({"systemMessage": "heads up", "hookSpecificOutput": {"hookEventName": "PreFutureThing", "additionalContext": "ctx", "futureField": 1}})
    );
    assert!(project.read("seen.json").contains("\"thing\":\"x\""));

    let project = Project::new(hooks("PreFutureThing", json!([command("echo 'no you do not' >&2; exit 2")])));
    let out = project.dispatch(event.clone());
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("no you do not"), "{}", out.stderr);

    let project = Project::new(hooks("PreFutureThing", json!([command("echo plain only")])));
    let out = project.dispatch(event);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));

    // A name that is not PascalCase is no event at all: nothing runs, and dispatch says why.
    let project = Project::new(hooks("PreFutureThing", json!([command("echo ran >> ran.txt")])));
    let out = project.dispatch(json!({"hook_event_name": "preFutureThing"}));
    assert_eq!(out.code, Some(0));
    assert!(out.stderr.contains("PascalCase"), "{}", out.stderr);
    assert_eq!(project.read("ran.txt"), "");
}

/// A host reads exit 2 as a block: a typo in a settings command must not block every tool call.
#[test]
fn command_line_mistakes_exit_1_never_2() {
    for args in [
        vec!["dispatch", "--setings", "hooks.json"],
        vec!["dispatch", "--host", "emacs"],
        vec!["dispach"],
        vec!["run"],
        vec!["hooks", "lst"],
        vec!["install", "vscode"],
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = Hookmux::new(args.clone()).stdin(common::event_text("events/PreToolUse-Bash.json", dir.path())).run();
        assert_eq!(out.code, Some(1), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("error:"), "{args:?}: {}", out.stderr);
    }
    for args in [vec!["dispatch", "--help"], vec!["--version"]] {
        assert_eq!(Hookmux::new(args.clone()).run().code, Some(0), "{args:?}");
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn huge_timeouts_neither_panic_nor_skip_the_hooks() {
    let project = Project::new(hooks(
        "PreToolUse",
        json!([
            {"type": "command", "command": "echo spawned > spawned.txt", "timeout": 1e20},
            {"type": "command", "command": "hookmux run protect-paths --deny 'notes.*'", "timeout": 1e19},
            {"type": "command", "command": "echo also > also.txt", "timeout": 1e308}
        ]),
    ));
    let out = project.dispatch(project.bash_event());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert_eq!((project.read("spawned.txt"), project.read("also.txt")), ("spawned\n".into(), "also\n".into()));
}

/// The folder of once-per-session markers when the temporary folder is `tmp`.
fn notices_folder(tmp: &Path) -> PathBuf {
    let env: Env = [(dirs::variable(dirs::Folder::Temp), tmp.as_os_str())].into_iter().collect();
    dirs::user_temp(&env, "hookmux-notices")
}

/// The files in the folder of once-per-session markers.
fn notice_markers(tmp: &Path) -> Vec<String> {
    match std::fs::read_dir(notices_folder(tmp)) {
        Ok(entries) => entries.map(|e| e.unwrap().file_name().into_string().unwrap()).collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn many_settings_problems_are_told_as_a_short_summary_with_one_marker_per_session() {
    let mut handlers = vec![command("echo kept > kept.txt")];
    handlers.extend(std::iter::repeat_n(json!({}), 1200));
    let project = Project::new(hooks("PreToolUse", Value::Array(handlers)));

    let first = project.dispatch(project.bash_event());
    assert_eq!(first.code, Some(0));
    assert_eq!(project.read("kept.txt"), "kept\n");
    let message = first.json()["systemMessage"].as_str().unwrap().to_string();
    let lines: Vec<&str> = message.lines().collect();
    assert_eq!(lines.len(), 11, "ten problems and a summary: {message}");
    assert!(lines[0].contains("hooks.PreToolUse[0].hooks[1]: the handler has no `type`"), "{message}");
    assert_eq!(lines[10], "hookmux: … and 1,190 more problems: run `hookmux hooks validate` to see them all");
    assert!(message.len() < 2500, "{} bytes: {message}", message.len());
    assert_eq!(first.stderr.lines().count(), 11, "{}", first.stderr);
    assert_eq!(notice_markers(project.path()).len(), 1, "one marker file for the session");

    let again = project.dispatch(project.bash_event());
    assert_eq!(again.stdout, "", "all of them were told in this session, the summarised ones too");
    assert_eq!(notice_markers(project.path()).len(), 1);

    let mut other = project.bash_event();
    other["session_id"] = json!("another-session");
    let other = project.dispatch(other);
    assert_eq!(other.json()["systemMessage"].as_str().unwrap().lines().count(), 11);
    assert_eq!(notice_markers(project.path()).len(), 2);
}

#[test]
fn a_dry_run_tells_every_problem_again_in_the_same_short_summary() {
    let mut handlers = vec![command("true")];
    handlers.extend(std::iter::repeat_n(json!({"type": "command"}), 30));
    let project = Project::new(hooks("PreToolUse", Value::Array(handlers)));
    std::fs::write(project.file("event.json"), project.bash_event().to_string()).unwrap();
    project.dispatch(project.bash_event());
    let dry = Hookmux::new(["dry-run", "--exec", "--json", "--settings", project.file("hooks.json").to_str().unwrap()])
        .args_push([project.file("event.json").to_str().unwrap()])
        .env("TMPDIR", project.path())
        .cwd(project.path())
        .run();
    let answer: Value = serde_json::from_str(dry.json()[0]["answer"]["stdout"].as_str().unwrap()).unwrap();
    let message = answer["systemMessage"].as_str().unwrap();
    assert_eq!(message.lines().count(), 11, "{message}");
    assert!(message.ends_with("… and 20 more problems: run `hookmux hooks validate` to see them all"), "{message}");
    assert_eq!(notice_markers(project.path()).len(), 1, "the dispatch's; a dry run writes none");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn problems_told_on_every_event_are_never_cut_from_the_summary() {
    let mut handlers = vec![command("echo kept > kept.txt")];
    handlers.extend(std::iter::repeat_n(json!({}), 30));
    let project = Project::new(hooks("PreToolUse", Value::Array(handlers)));
    let missing = project.file("missing.json");
    for round in 0..2 {
        let mut event = project.bash_event();
        event["cwd"] = Value::from(project.path().to_str().unwrap());
        let out = project.command().args_push(["--settings", missing.to_str().unwrap()]).stdin(event.to_string()).run();
        let message = out.json()["systemMessage"].as_str().unwrap().to_string();
        let named = message.lines().filter(|l| l.contains("missing.json") && l.contains("does not exist")).count();
        assert_eq!(named, 1, "round {round}: {message}");
        let expected = if round == 0 { 12 } else { 1 };
        assert_eq!(message.lines().count(), expected, "round {round}: {message}");
    }
    assert_eq!(project.read("kept.txt"), "kept\n");
}

/// One HTTP request read off a test server's connection: the request line and headers as sent,
/// and the body (as many bytes as `Content-Length` says).
fn read_request(stream: &std::net::TcpStream) -> (String, String) {
    let mut reader = BufReader::new(stream.try_clone().expect("a second handle on the connection"));
    let (mut headers, mut length) = (String::new(), 0usize);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap_or(0);
        }
        headers.push_str(&line);
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    (headers, String::from_utf8_lossy(&body).into_owned())
}
