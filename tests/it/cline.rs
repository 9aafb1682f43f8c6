//! `hookmux install cline` and the hook files it writes, run as Cline CLI 3.0.65 runs them (`sh
//! FILE` in the workspace, the payload on stdin, no `CLAUDE_PROJECT_DIR`), on Cline's own
//! recorded payloads.

use crate::common::{self, Hookmux};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

struct Workspace {
    _root: tempfile::TempDir,
    /// The project Cline runs in (the recorded payloads' `/home/dev/acme`).
    dir: PathBuf,
    home: PathBuf,
}

impl Workspace {
    /// A project whose `.claude/settings.json` holds `settings`, and a home with Cline's own
    /// provider settings in it. The project is a repository (`.git`), as the recorded one is:
    /// hookmux finds the project of a Cline workspace by walking up to the nearest `.git`, and
    /// without one of its own the walk would leave the temporary folder (a stray `/tmp/.git`
    /// made `/tmp` the project).
    fn new(settings: Value) -> Workspace {
        let root = tempfile::tempdir().expect("a temporary folder");
        let dir = root.path().to_path_buf();
        std::fs::create_dir_all(dir.join(".git")).expect("mkdir");
        let home = dir.join("home");
        std::fs::create_dir_all(home.join(".cline/data/settings")).expect("mkdir");
        std::fs::write(home.join(".cline/data/settings/providers.json"), "{\"version\":1}\n").expect("write");
        std::fs::create_dir_all(dir.join(".claude")).expect("mkdir");
        std::fs::write(dir.join(".claude/settings.json"), settings.to_string()).expect("write");
        Workspace { _root: root, dir, home }
    }

    fn hookmux<'a>(&self, args: impl IntoIterator<Item = &'a str>) -> Hookmux {
        Hookmux::new(args)
            .env("HOME", &self.home)
            .env("XDG_STATE_HOME", self.dir.join("state"))
            .env("TMPDIR", self.dir.join("tmp"))
            .cwd(&self.dir)
    }

    /// A recorded payload, moved into this workspace.
    fn payload(&self, name: &str) -> String {
        std::fs::create_dir_all(self.dir.join("tmp")).expect("mkdir");
        common::event_text(&format!("events/cline/{name}.json"), &self.dir)
    }

    /// Runs the hook file `install cline` wrote for `event` as Cline does, trusting the project.
    fn run_hook(&self, event: &str, payload: &str) -> common::Output {
        let file = self.home.join(".cline/hooks").join(event);
        assert!(file.is_file(), "{} was not installed", file.display());
        self.hookmux([file.to_str().expect("UTF-8")])
            .env("HOOKMUX_TRUST", &self.dir)
            .stdin(payload.to_string())
            .run_program("/bin/sh")
    }

    fn install(&self) -> common::Output {
        let out = self.hookmux(["install", "cline"]).run();
        assert_eq!(out.code, Some(0), "{out:?}");
        out
    }

    fn seen(&self) -> Value {
        let text = std::fs::read_to_string(self.dir.join("seen.json")).expect("the hook ran and saved its stdin");
        serde_json::from_str(&text).expect("JSON")
    }
}

fn pre_tool_use(command: &str) -> Value {
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}})
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn a_deny_from_a_claude_hook_is_cline_s_cancel_with_the_reason() {
    let ws =
        Workspace::new(pre_tool_use("cat > \"$CLAUDE_PROJECT_DIR/seen.json\"; echo 'blocked by policy X' >&2; exit 2"));
    ws.install();
    let out = ws.run_hook("PreToolUse", &ws.payload("PreToolUse-run_commands"));
    assert_eq!(out.code, Some(0), "{out:?}");
    let answer = out.json();
    assert_eq!(answer["cancel"], true, "{answer}");
    assert!(answer["errorMessage"].as_str().unwrap().contains("blocked by policy X"), "{answer}");
    // The hook saw Claude's event, and CLAUDE_PROJECT_DIR (which Cline does not set) led it to
    // the workspace.
    let seen = ws.seen();
    assert_eq!(seen["hook_event_name"], "PreToolUse");
    assert_eq!(seen["tool_name"], "Bash");
    assert_eq!(seen["tool_input"], json!({"command": "echo original-command"}));
    assert_eq!(seen["session_id"], "1796178882868_2ib3c");
    // Told once per session that Cline's deny stops the run.
    assert!(out.stderr.contains("stops the whole run"), "{}", out.stderr);
    let again = ws.run_hook("PreToolUse", &ws.payload("PreToolUse-run_commands"));
    assert_eq!(again.json()["cancel"], true);
    assert!(!again.stderr.contains("stops the whole run"), "once per session: {}", again.stderr);
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn an_untrusted_project_s_claude_hooks_do_not_run_under_cline() {
    let ws = Workspace::new(pre_tool_use("cat > \"$CLAUDE_PROJECT_DIR/seen.json\"; exit 2"));
    let installed = ws.install();
    assert!(installed.stdout.contains("run under Cline only in a trusted project"), "{}", installed.stdout);
    let file = ws.home.join(".cline/hooks/PreToolUse");
    let out =
        ws.hookmux([file.to_str().expect("UTF-8")]).stdin(ws.payload("PreToolUse-run_commands")).run_program("/bin/sh");
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""), "{out:?}");
    assert!(!ws.dir.join("seen.json").exists(), "Cline keeps no trust: hookmux's list decides");
    assert!(out.stderr.contains("not a trusted project"), "{}", out.stderr);
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn continue_false_before_a_tool_stops_the_run_after_it() {
    let ws = Workspace::new(pre_tool_use(r#"printf '%s' '{"continue": false, "stopReason": "halt everything"}'"#));
    ws.install();
    let before = ws.run_hook("PreToolUse", &ws.payload("PreToolUse-run_commands"));
    assert_eq!(before.stdout, "", "the tool runs: {before:?}");
    let after = ws.run_hook("PostToolUse", &ws.payload("PostToolUse-run_commands"));
    assert_eq!(
        after.json(),
        json!({"cancel": true, "errorMessage": "PostToolUse:Bash hook stopped the run: halt everything"})
    );
    // Once: the next call of the session goes on, and the model is told why the run stopped.
    let next = ws.run_hook("PostToolUse", &ws.payload("PostToolUse-run_commands")).json();
    assert_eq!(
        next,
        json!({"contextModification": "hookmux: the previous run was stopped by a hook: PostToolUse:Bash hook stopped the run: halt everything"})
    );
    assert_eq!(ws.run_hook("PostToolUse", &ws.payload("PostToolUse-run_commands")).stdout, "");
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn a_rewrite_of_one_command_of_several_goes_back_to_that_command() {
    let ws = Workspace::new(pre_tool_use(
        r#"case "$(cat)" in *'"command":"echo two'*) printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "echo safe"}}}';; esac"#,
    ));
    ws.install();
    let out = ws.run_hook("PreToolUse", &ws.payload("PreToolUse-run_commands-two"));
    assert_eq!(out.json(), json!({"overrideInput": {"commands": ["echo one", "echo safe"]}}), "{out:?}");
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn context_of_a_failed_command_reaches_the_model() {
    let ws = Workspace::new(json!({"hooks": {"PostToolUseFailure": [{"hooks": [{"type": "command", "command":
        r#"printf '%s' '{"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "FAIL-CTX"}}'"#}]}]}}));
    ws.install();
    let out = ws.run_hook("PostToolUse", &ws.payload("PostToolUse-run_commands-exit3"));
    assert_eq!(out.json(), json!({"contextModification": "FAIL-CTX"}), "{out:?}");
}

#[test]
#[cfg_attr(windows, ignore = "starts /bin/sh itself, which Windows does not have")]
fn an_unreadable_event_is_cancelled_when_a_guard_is_configured() {
    let ws = Workspace::new(
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookmux run protect-paths"}]}]}}),
    );
    ws.install();
    let out = ws.run_hook("PreToolUse", "{\"hookName\": \"tool_call\", \"tool_ca".to_string().as_str());
    assert_eq!(out.code, Some(0), "Cline reads no exit code: {out:?}");
    assert_eq!(out.json()["cancel"], true, "a guard never fails open");
    assert!(out.json()["errorMessage"].as_str().unwrap().contains("cannot approve what it cannot read"));
}

#[test]
fn install_lists_the_user_s_own_hook_files_and_uninstall_puts_every_byte_back() {
    let ws = Workspace::new(json!({}));
    let mine = ws.home.join("Documents").join("Cline").join("Hooks").join("TaskStart");
    std::fs::create_dir_all(mine.parent().unwrap()).expect("mkdir");
    std::fs::write(&mine, "#!/bin/bash\necho started >> /tmp/log\n").expect("write");
    let before = tree(&ws.dir);
    let out = ws.install();
    assert!(out.stdout.contains(&format!("  {}\n", mine.display())), "{}", out.stdout);
    for event in ["TaskStart", "PreToolUse", "PostToolUse", "TaskComplete", "SessionShutdown"] {
        assert!(ws.home.join(".cline/hooks").join(event).is_file(), "{event}");
    }
    assert!(!ws.home.join(".cline/hooks/PreCompact").exists(), "Cline never runs PreCompact files");
    let doctor = ws.hookmux(["doctor"]).run();
    assert!(doctor.stdout.contains("the Cline hook files in"), "{}", doctor.stdout);
    assert!(doctor.stdout.contains("(this hookmux)"), "{}", doctor.stdout);
    assert!(doctor.stdout.contains("Cline also runs hook files that are not hookmux's"), "{}", doctor.stdout);
    let removed = ws.hookmux(["uninstall", "cline"]).run();
    assert_eq!(removed.code, Some(0), "{removed:?}");
    assert_eq!(tree(&ws.dir), before);
}

#[test]
fn validate_finds_hook_files_cline_never_runs() {
    let ws = Workspace::new(json!({}));
    let hooks = ws.dir.join(".clinerules/hooks");
    std::fs::create_dir_all(&hooks).expect("mkdir");
    for name in ["SessionStart", "PreToolUse.rb", "PreCompact", "PreToolUse", "notes.md"] {
        std::fs::write(hooks.join(name), "echo\n").expect("write");
    }
    let out = ws.hookmux(["hooks", "validate", "--format", "json"]).run();
    let report = out.json();
    let found: Vec<String> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "cline-hook-never-runs")
        .map(|f| Path::new(f["file"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(found, ["PreCompact", "PreToolUse.rb", "SessionStart"], "{report}");
}

/// Every file and folder under `dir`, with its bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path.clone());
                out.push((path, Vec::new()));
            } else {
                let bytes = std::fs::read(&path).expect("read");
                out.push((path, bytes));
            }
        }
    }
    out.sort();
    out
}
