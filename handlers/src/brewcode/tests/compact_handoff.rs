use super::support::*;
use crate::brewcode::CompactHandoff;
use hookmux_sdk::Answer;
use serde_json::json;
use std::time::Duration;

const V2_HANDOFF: &str =
    "\n\n[HANDOFF after compact] Re-read PLAN.md and KNOWLEDGE.jsonl, then continue current phase.";

fn start(project: &Project, source: &str) -> Answer {
    project.call(&CompactHandoff, "SessionStart", json!({"source": source}), &[]).answer
}

fn plain(context: &str) -> Answer {
    Answer::context(context).with_system_message("brewcode:  | session: 7b6b5f32")
}

#[test]
fn a_session_without_a_task_is_logged_and_announced() {
    let project = Project::new();
    assert_eq!(start(&project, "startup"), plain("brewcode: active | session: 7b6b5f32"));
    assert_eq!(project.log(), ["INFO  [7b6b5f32] [session-start] Started: 7b6b5f32 (startup)"]);
}

#[test]
fn after_compaction_this_sessions_v2_task_is_handed_off() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)));
    assert_eq!(start(&project, "compact"), plain(&format!("brewcode: active | session: 7b6b5f32{V2_HANDOFF}")));
    assert_eq!(start(&project, "resume"), plain("brewcode: active | session: 7b6b5f32"), "only after compaction");
}

#[test]
fn an_unbound_lock_counts_as_this_sessions() {
    let project = Project::with_task(Some(lock_json(None, 1)));
    assert_eq!(context(&start(&project, "compact")), format!("brewcode: active | session: 7b6b5f32{V2_HANDOFF}"));
}

#[test]
fn another_sessions_lock_or_none_still_hands_off_when_task_md_names_a_task() {
    for lock in [Some(lock_json(Some(OTHER_SESSION), 1)), None] {
        let project = Project::with_task(lock.clone());
        assert_eq!(
            context(&start(&project, "compact")),
            format!("brewcode: active | session: 7b6b5f32{V2_HANDOFF}"),
            "{lock:?}"
        );
    }
    let project = Project::new();
    assert_eq!(context(&start(&project, "compact")), "brewcode: active | session: 7b6b5f32");
}

#[test]
fn a_v3_task_gets_the_v3_handoff_and_reminder() {
    let project = Project::with_task(Some(lock_json(Some(SESSION), 1)))
        .file(TASK_PLAN, PLAN_V3)
        .folder(&format!("{TASK}/phases"));
    let reminder = "\n\nbrewcode v3: You work through Task API. Call TaskList() to get current task state. DO NOT read phases/ files.";
    assert_eq!(
        context(&start(&project, "compact")),
        format!("brewcode: active | session: 7b6b5f32\n\n[HANDOFF after compact] 1) TaskList() for current task state 2) Read PLAN.md for protocol 3) DO NOT read phases/ — they are for agents 4) Continue with current in_progress or next pending task 5) WRITE report -> CALL coordinator after EVERY agent{reminder}")
    );
    assert_eq!(context(&start(&project, "resume")), format!("brewcode: active | session: 7b6b5f32{reminder}"));
    let task_dir = project.shown(TASK);
    assert_eq!(
        project.log().last().unwrap(),
        &format!("INFO  [7b6b5f32] [session-start] v3 task detected at {task_dir}, injected Task API reminder")
    );
}

fn with_plans(ages: &[(&str, u64)]) -> Project {
    let project = Project::new().file(".claude/plans/LATEST.md", "an old regular file\n");
    for (name, _) in ages {
        std::fs::create_dir_all(project.home().join(".claude/plans")).unwrap();
        std::fs::write(project.home().join(".claude/plans").join(name), "# plan\n").unwrap();
    }
    for (name, age) in ages {
        project.touch(&project.home().join(".claude/plans").join(name), project.now() - Duration::from_secs(*age));
    }
    project
}

#[test]
#[cfg_attr(
    windows,
    ignore = "links LATEST.md to the plan with a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn clear_links_the_newest_fresh_plan() {
    let project = with_plans(&[("fresh-plan.md", 5), ("older-plan.md", 7200), ("notes.txt", 0)]);
    let answer = start(&project, "clear");
    assert_eq!(answer, plain("brewcode: active | session: 7b6b5f32"));
    let link = std::fs::read_link(project.path(".claude/plans/LATEST.md")).expect("LATEST.md is a symlink now");
    assert_eq!(link, project.home().join(".claude/plans/fresh-plan.md"));
    assert_eq!(
        project.log(),
        [
            "INFO  [7b6b5f32] [session-start] Started: 7b6b5f32 (clear)",
            "INFO  [7b6b5f32] [session-start] Linked: .claude/plans/LATEST.md -> fresh-plan.md",
        ]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_plans_folder_loses_no_file() {
    // The repository's `.claude/plans` links to a folder outside the project holding a LATEST.md.
    let project = with_plans(&[("fresh-plan.md", 5)]);
    let outside = project.home().join("notes");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("LATEST.md"), "my own notes\n").unwrap();
    std::fs::remove_dir_all(project.path(".claude/plans")).unwrap();
    hookmux_platform::fs::symlink_dir(&outside, &project.path(".claude/plans")).unwrap();
    start(&project, "clear");
    assert_eq!(std::fs::read_to_string(outside.join("LATEST.md")).unwrap(), "my own notes\n");
    let log = project.log();
    assert!(log.iter().any(|line| line.contains("is a symbolic link, and hookmux does not write")), "{log:?}");
}

#[test]
fn clear_links_nothing_older_than_a_minute() {
    let project = with_plans(&[("stale-plan.md", 61)]);
    start(&project, "clear");
    assert_eq!(project.read(".claude/plans/LATEST.md"), "an old regular file\n");
    let project = with_plans(&[]);
    start(&project, "clear");
    assert_eq!(project.log().len(), 1);
}

#[test]
fn only_clear_links() {
    let project = with_plans(&[("fresh-plan.md", 5)]);
    start(&project, "startup");
    assert!(std::fs::read_link(project.path(".claude/plans/LATEST.md")).is_err());
}

#[test]
#[cfg_attr(
    windows,
    ignore = "links LATEST.md to the plan with a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_folder_in_the_way_is_a_warning() {
    let project = with_plans(&[("fresh-plan.md", 5)]);
    std::fs::remove_file(project.path(".claude/plans/LATEST.md")).unwrap();
    std::fs::create_dir(project.path(".claude/plans/LATEST.md")).unwrap();
    let answer = start(&project, "clear");
    assert_eq!(context(&answer), "brewcode: active | session: 7b6b5f32");
    let log = project.log();
    assert!(
        log[1]
            .starts_with("WARN  [7b6b5f32] [session-start] Plan linking failed: EEXIST: file already exists, symlink"),
        "{log:?}"
    );
}

#[test]
fn the_plugin_environment_and_mode_are_announced() {
    let project = Project::new()
        .file("../plugin-data/modes.json", r#"{"projects": {"PROJECT": {"mode": "deep"}}}"#)
        .file("../plugin-data/modes/deep.md", "Think step by step.\n");
    let data = project.dir().parent().unwrap().join("plugin-data").display().to_string();
    let modes = std::fs::read_to_string(format!("{data}/modes.json"))
        .unwrap()
        .replace("\"PROJECT\"", &serde_json::Value::from(project.dir().display().to_string()).to_string());
    std::fs::write(format!("{data}/modes.json"), modes).unwrap();
    let project = project.env("CLAUDE_PLUGIN_ROOT", "/opt/brewcode").env("CLAUDE_PLUGIN_DATA", &data);
    let answer = start(&project, "startup");
    assert_eq!(
        context(&answer),
        format!("BC_PLUGIN_DATA={data}\nBC_PLUGIN_ROOT=/opt/brewcode\nbrewcode: active | session: 7b6b5f32\n[MODE: deep] Think step by step.")
    );
    assert_eq!(
        answer.system_message.as_deref(),
        Some("brewcode: /opt/brewcode | session: 7b6b5f32 | mode: deep\ncheck brewcode updates: https://github.com/kochetkov-ma/claude-brewcode/releases/latest")
    );
}

#[test]
fn a_versioned_plugin_root_stays_offline_by_default() {
    let project = Project::new()
        .env("CLAUDE_PLUGIN_ROOT", "/opt/plugins/brewcode/3.4.20")
        .file(CONFIG, r#"{"logging":{"level":"debug"}}"#);
    let answer = start(&project, "startup");
    assert_eq!(answer.system_message.as_deref(), Some("brewcode: /opt/plugins/brewcode/3.4.20 | session: 7b6b5f32"));
    assert_eq!(
        project.log()[1..],
        [
            "DEBUG [7b6b5f32] [version] Local brewcode: 3.4.20",
            "DEBUG [7b6b5f32] [version] claude -v failed: spawnSync claude ENOENT",
            "DEBUG [7b6b5f32] [version] GitHub release check off (--check-updates turns it on)",
            "DEBUG [task] TASK.md not found",
        ]
    );
}

#[test]
fn a_missing_session_id_reads_unknown() {
    let project = Project::new();
    let answer = project.call(&CompactHandoff, "SessionStart", json!({"session_id": null, "source": null}), &[]).answer;
    assert_eq!(
        answer,
        Answer::context("brewcode: active | session: unknown").with_system_message("brewcode:  | session: unknown")
    );
    assert_eq!(project.log(), ["INFO  [session-start] Started: unknown (undefined)"]);
}

#[test]
fn a_dry_run_links_nothing() {
    let project = with_plans(&[("fresh-plan.md", 5)]);
    let before = project.snapshot();
    let out = project.call_dry(&CompactHandoff, "SessionStart", json!({"source": "clear"}), &[]);
    assert_eq!(context(&out.answer), "brewcode: active | session: 7b6b5f32");
    assert_eq!(project.snapshot(), before);
}

#[test]
fn outside_a_project_nothing_is_logged_and_no_claude_folder_appears() {
    let project = Project::outside();
    assert_eq!(start(&project, "startup"), plain("brewcode: active | session: 7b6b5f32"));
    assert!(!project.exists(".claude"), "a folder that is no project gets no .claude/");
}

#[test]
fn a_git_or_claude_folder_in_the_cwd_or_above_it_makes_a_project() {
    for marker in [".git", ".claude"] {
        let project = Project::outside().folder(marker).folder("src/app");
        let cwd = project.path("src/app").to_string_lossy().into_owned();
        project.call(&CompactHandoff, "SessionStart", json!({"source": "startup", "cwd": cwd}), &[]);
        assert!(project.exists(&format!("src/app/{LOG}")), "{marker} above the cwd: the log is where brewcode puts it");
    }
}

#[test]
fn a_git_or_claude_folder_past_git_ceiling_directories_makes_no_project() {
    // As a stray /tmp/.git and /tmp/.claude would be, in the folder that holds the project.
    let project = Project::outside();
    let holder = project.dir().parent().expect("the project's folder").to_path_buf();
    for marker in [".git", ".claude"] {
        std::fs::create_dir_all(holder.join(marker)).unwrap();
    }
    assert_eq!(start(&project, "startup"), plain("brewcode: active | session: 7b6b5f32"));
    assert!(!project.exists(".claude"), "the walk up stops below the ceiling");
    let project = project.without("GIT_CEILING_DIRECTORIES");
    start(&project, "startup");
    assert!(project.exists(LOG), "without the ceiling, the markers above make a project");
}

#[test]
fn the_users_own_claude_folder_does_not_make_home_a_project() {
    let project = Project::outside();
    std::fs::create_dir_all(project.home().join(".claude")).unwrap();
    std::fs::create_dir_all(project.home().join("notes")).unwrap();
    let cwd = project.home().join("notes").to_string_lossy().into_owned();
    project.call(&CompactHandoff, "SessionStart", json!({"source": "startup", "cwd": cwd}), &[]);
    assert!(!project.home().join("notes/.claude").exists());
}

#[test]
fn control_characters_in_the_event_cannot_forge_log_lines() {
    let project = Project::new();
    project.call(
        &CompactHandoff,
        "SessionStart",
        json!({"session_id": "a\nFAKE LINE\0", "source": "x\r\nINFO forged\u{0}\u{1b}[2J"}),
        &[],
    );
    let log = project.read(LOG);
    assert_eq!(log.lines().count(), 1, "{log:?}");
    let line = log.lines().next().unwrap();
    assert!(
        line.ends_with(r"INFO  [a\nFAKE L] [session-start] Started: a\nFAKE L (x\r\nINFO forged\u0000\u001b[2J)"),
        "{line}"
    );
}
