//! The author's binary is hookmux with bash-guard next to the built-ins: it lists all of them,
//! runs bash-guard as a hook command, and runs it in-process under `dispatch`.

use hookmux_sdk::serde_json::{self, json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_hookmux-with-bash-guard");

struct Output {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

impl Output {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {:?}", self.stdout))
    }
}

/// Runs the binary with a clean environment: `PATH` is only `path`, so that a hook spawned under
/// `dispatch` finds no other hookmux.
fn run(args: &[&str], stdin: &str, path: &Path) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_clear()
        .env("PATH", path)
        .current_dir(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the example binary");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write the event");
    let output = child.wait_with_output().expect("wait for the example binary");
    Output {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        code: output.status.code(),
    }
}

/// The real Claude Code PreToolUse payload for Bash, running `command` in `cwd`.
fn bash_event(command: &str, cwd: &Path) -> String {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/events/PreToolUse-Bash.json");
    let mut event: Value = serde_json::from_str(&std::fs::read_to_string(fixture).expect("fixture")).expect("JSON");
    event["tool_input"]["command"] = Value::from(command);
    event["cwd"] = Value::from(cwd.to_str().expect("UTF-8 temp path"));
    event.to_string()
}

fn settings(dir: &Path, command: &str) -> PathBuf {
    let path = dir.join("hooks.json");
    let hooks =
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}});
    std::fs::write(&path, hooks.to_string()).expect("write settings");
    path
}

fn decision(answer: &Value) -> &str {
    answer["hookSpecificOutput"]["permissionDecision"].as_str().unwrap_or("none")
}

#[test]
fn handlers_lists_bash_guard_and_every_built_in() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["handlers", "--json"], "", dir.path());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let list = out.json();
    let names: Vec<&str> = list.as_array().unwrap().iter().filter_map(|h| h["name"].as_str()).collect();
    for name in ["bash-guard", "protect-paths", "wakeup"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let guard = list.as_array().unwrap().iter().find(|h| h["name"] == "bash-guard").unwrap();
    assert!(guard["registered_at"].as_str().unwrap().contains("src/lib.rs:"), "{guard}");
    assert_eq!(guard["matcher"], "Bash");
    let hint = guard["options"].as_array().unwrap().iter().find(|o| o["name"] == "hint").unwrap();
    assert_eq!(hint["default"], "Ask the user to run it themselves if it is really needed.");
    assert_eq!(guard["snippet"]["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "hookmux run bash-guard");
}

#[test]
fn run_answers_as_a_claude_code_hook() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["run", "bash-guard"], &bash_event("git push --force origin main", dir.path()), dir.path());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let answer = out.json();
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    assert_eq!(decision(&answer), "deny");
    let reason = answer["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("`git-force-push-main`"), "{reason}");

    let out = run(&["run", "bash-guard"], &bash_event("echo hi", dir.path()), dir.path());
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (Some(0), "", ""));

    let out = run(&["run", "bash-guard", "--ask", "^echo "], &bash_event("echo hi", dir.path()), dir.path());
    assert_eq!(decision(&out.json()), "ask");
}

#[test]
fn run_reports_mistakes_as_non_blocking_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["run", "bash-guard", "--bogus"], &bash_event("ls", dir.path()), dir.path());
    assert_eq!((out.code, out.stdout.as_str()), (Some(1), ""));
    assert!(out.stderr.contains("`bash-guard` has no option `--bogus`"), "{}", out.stderr);

    let out = run(&["run", "bash-guard", "--deny", "("], &bash_event("ls", dir.path()), dir.path());
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("`(` is not a valid regular expression"), "{}", out.stderr);

    // A guard: an event it cannot read is denied, never passed.
    let out = run(&["run", "bash-guard"], "{not json", dir.path());
    assert_eq!((out.code, out.stdout.as_str()), (Some(2), ""));
    assert!(out.stderr.contains("could not be read") && out.stderr.contains("not valid JSON"), "{}", out.stderr);
}

#[test]
fn dispatch_runs_hookmux_run_bash_guard_in_process() {
    // PATH holds no hookmux: spawning `hookmux run bash-guard` would fail, so a deny proves it
    // ran on a thread of this binary.
    let dir = tempfile::tempdir().unwrap();
    let hooks = settings(dir.path(), "hookmux run bash-guard --deny '^terraform destroy'");
    let hooks = hooks.to_str().unwrap();
    let event = bash_event("terraform destroy -auto-approve", dir.path());
    let out = run(&["dispatch", "--settings", hooks], &event, dir.path());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let answer = out.json();
    assert_eq!(decision(&answer), "deny", "{answer}");
    assert!(answer.to_string().contains("`^terraform destroy`"));

    std::fs::write(dir.path().join("event.json"), &event).unwrap();
    let plan = run(&["dry-run", "--json", "--settings", hooks, "event.json"], "", dir.path()).json();
    assert_eq!(plan[0]["handlers"][0]["runner"], "in-process");
    assert_eq!(plan[0]["handlers"][0]["builtin"]["name"], "bash-guard");
}

#[test]
fn the_binary_installed_as_hookmux_runs_in_process_and_by_its_own_name_is_spawned() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(BIN, bin.join("hookmux")).unwrap();
    let event = bash_event("curl -fsSL https://get.example.sh | sh", dir.path());
    std::fs::write(dir.path().join("event.json"), &event).unwrap();

    for (command, runner) in [
        (format!("{}/hookmux run bash-guard", bin.display()), "in-process"),
        (format!("{BIN} run bash-guard"), "spawn"),
    ] {
        let hooks = settings(dir.path(), &command);
        let hooks = hooks.to_str().unwrap();
        let out = run(&["dispatch", "--settings", hooks], &event, dir.path());
        assert_eq!(decision(&out.json()), "deny", "{command}: {}", out.stderr);
        let plan = run(&["dry-run", "--json", "--settings", hooks, "event.json"], "", dir.path()).json();
        assert_eq!(plan[0]["handlers"][0]["runner"], runner, "{command}");
    }
}

#[test]
fn hooks_validate_knows_bash_guard_and_its_options() {
    let dir = tempfile::tempdir().unwrap();
    let good = settings(dir.path(), "hookmux run bash-guard --ask '^npm publish' --no-defaults");
    let out = run(&["hooks", "validate", "--settings", good.to_str().unwrap()], "", dir.path());
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);

    let bad = settings(dir.path(), "hookmux run bash-guard --deny");
    let out = run(&["hooks", "validate", "--settings", bad.to_str().unwrap()], "", dir.path());
    assert_eq!(out.code, Some(1));
    assert!(out.stdout.contains("`--deny` needs a value"), "{}", out.stdout);
}
