//! What the model controls cannot stall dispatch or slip past a guard: a tool name that sends a
//! matcher regex backtracking, a Bash command nested a megabyte deep.

use crate::common::Hookmux;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A project folder with one settings file, its hooks writing into the folder.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new(settings: Value) -> Project {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::write(dir.path().join("hooks.json"), settings.to_string()).expect("write the settings");
        Project { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn run(&self, args: &[&str], event: &Value) -> crate::common::Output {
        Hookmux::new(args.iter().copied())
            .args_push(["--settings", self.file("hooks.json").to_str().expect("a UTF-8 path")])
            .stdin(event.to_string())
            .env("CLAUDE_PROJECT_DIR", self.path())
            .env("TMPDIR", self.path())
            .env("HOME", self.path())
            .cwd(self.path())
            .run()
    }

    fn ran(&self) -> bool {
        self.file("ran.txt").exists()
    }
}

fn pre_tool_use(tool: &str, input: Value, cwd: &Path) -> Value {
    json!({
        "hook_event_name": "PreToolUse", "session_id": "s1", "cwd": cwd,
        "tool_name": tool, "tool_input": input,
    })
}

/// `(a+)+$` against 41 `a`s and a `b` backtracks for hours: dispatch stops waiting at the
/// bound, runs the group (its deny blocks) and tells the user which matcher it could not test.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_runaway_matcher_runs_its_deny_hook_and_is_named() {
    let project = Project::new(json!({"hooks": {"PreToolUse": [{"matcher": "(a+)+$", "hooks": [
        {"type": "command", "command": "echo ran > ran.txt; echo 'denied by policy' >&2; exit 2"}
    ]}]}}));
    let event = pre_tool_use(&format!("{}b", "a".repeat(41)), json!({}), project.path());
    let out = project.run(&["dispatch"], &event);
    let answer = out.json();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{out:?}");
    assert!(out.stdout.contains("denied by policy"), "{out:?}");
    assert!(project.ran());
    let told = format!("{}{}", out.stdout, out.stderr);
    assert!(told.contains("matcher `(a+)+$`"), "{told}");
    assert!(told.contains("hooks.json at hooks.PreToolUse[0].matcher"), "{told}");
    assert!(told.contains("ran as if it matched"), "{told}");
}

#[test]
fn dry_run_and_validate_show_the_unbounded_matcher() {
    let project = Project::new(json!({"hooks": {"PreToolUse": [{"matcher": "(a+)+$", "hooks": [
        {"type": "command", "command": "echo ran > ran.txt"}
    ]}]}}));
    let fixture = project.file("event.json");
    let event = pre_tool_use(&format!("{}b", "a".repeat(41)), json!({}), project.path());
    std::fs::write(&fixture, event.to_string()).expect("write the fixture");
    let fixture = fixture.to_str().expect("a UTF-8 path");

    let text = project.run(&["dry-run", fixture], &json!(null));
    assert!(text.stdout.contains("unchecked"), "{text:?}");
    assert!(text.stdout.contains("did not finish within 100 ms"), "{text:?}");
    let report = project.run(&["dry-run", "--json", fixture], &json!(null)).json();
    let group = &report[0]["groups"][0];
    assert_eq!(group["matched"], json!(true), "{report}");
    assert!(group["unchecked"].as_str().is_some_and(|why| why.contains("`(a+)+$`")), "{report}");
    assert!(!project.ran(), "a dry run runs nothing");

    let out = project.run(&["hooks", "validate"], &json!(null));
    let told = format!("{}{}", out.stdout, out.stderr);
    assert!(told.contains("hooks.PreToolUse[0].matcher"), "{told}");
    assert!(told.contains("`(a+)+$` can backtrack"), "{told}");
    assert!(told.contains("(`(a+)+` matches what `a+` does)"), "{told}");
}

fn nested(levels: usize, inner: &str) -> String {
    format!("{}{inner}{}", "echo $(".repeat(levels), ")".repeat(levels))
}

/// 1 MB of `echo $(` nesting: the `if` rule answers after one pass over the command, and since it
/// cannot rule out a `git` inside, the handler runs. Within the cap the command is read as usual.
#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn an_if_rule_on_a_megabyte_of_nesting_runs_its_handler() {
    let project = Project::new(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo ran > ran.txt", "if": "Bash(git *)"}
    ]}]}}));
    let depth = hookmux_sdk::bash::MAX_DEPTH;
    let within = pre_tool_use("Bash", json!({"command": nested(depth, "ls")}), project.path());
    assert_eq!(project.run(&["dispatch"], &within).code, Some(0));
    assert!(!project.ran(), "no git within the cap");
    let megabyte = pre_tool_use("Bash", json!({"command": nested((1 << 20) / 8, "ls")}), project.path());
    let out = project.run(&["dispatch"], &megabyte);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(project.ran(), "past the cap the handler runs");
}

/// brewcode's Bash search detection reads the command the model wrote: 40,000 newlines, then a
/// command that is no search, then a `grep` (the backtracking regex it used to be tried every
/// newline as a start, each over the rest of the run: minutes, past the hook's timeout), are read
/// in one pass, and the reminder reaches the model.
#[test]
fn grepai_reminders_search_detection_reads_a_long_command_in_time() {
    let project = Project::new(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "hookmux run grepai-reminder --bash-search", "timeout": 5}
    ]}]}}));
    std::fs::create_dir_all(project.file(".grepai")).expect("mkdir");
    std::fs::write(project.file(".grepai/index.gob"), "").expect("write the index");
    let command = format!("{}cd src; grep -r TODO .", "\n".repeat(40_000));
    let event = pre_tool_use("Bash", json!({"command": command}), project.path());
    let out = project.run(&["dispatch"], &event);
    assert_eq!(out.code, Some(0), "{out:?}");
    let context = out.json()["hookSpecificOutput"]["additionalContext"].as_str().unwrap_or_default().to_string();
    assert!(context.contains("grepai_search"), "{out:?}");
}
