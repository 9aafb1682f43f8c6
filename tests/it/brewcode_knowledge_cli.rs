//! `hookmux knowledge add|show|compact` on a brewcode task's KNOWLEDGE.jsonl.

use crate::common;
use common::Hookmux;
use serde_json::{json, Value};
use std::path::Path;

const TASK: &str = ".claude/tasks/20260201-120000_auth_refactor_task";

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(TASK)).unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join(".claude/TASK.md"), format!("{TASK}/PLAN.md\n")).unwrap();
    std::fs::write(dir.path().join(TASK).join("PLAN.md"), "status: in progress\n").unwrap();
    dir
}

fn knowledge(dir: &Path) -> String {
    std::fs::read_to_string(dir.join(TASK).join("KNOWLEDGE.jsonl")).unwrap_or_default()
}

fn run(dir: &Path, args: &[&str]) -> common::Output {
    Hookmux::new(args.iter().copied()).cwd(dir).run()
}

#[test]
fn add_appends_an_entry_as_brewcode_writes_it() {
    let dir = project();
    let out =
        run(dir.path(), &["knowledge", "add", "--src", "sql_expert", "avoid", "Avoid SELECT * in repository queries"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let line: Value = serde_json::from_str(knowledge(dir.path()).trim()).unwrap();
    assert_eq!(line.as_object().unwrap().keys().collect::<Vec<_>>(), ["t", "txt", "src", "ts"]);
    assert_eq!(
        (&line["t"], &line["txt"], &line["src"]),
        (&json!("❌"), &json!("Avoid SELECT * in repository queries"), &json!("sql_expert"))
    );
    assert!(line["ts"].as_str().unwrap().ends_with('Z'));
    assert_eq!(out.stdout, knowledge(dir.path()));
    run(dir.path(), &["knowledge", "add", "ℹ️", "DB is PostgreSQL 15"]);
    run(dir.path(), &["knowledge", "add", "best", "Use constructor injection"]);
    assert_eq!(knowledge(dir.path()).lines().count(), 3);
}

#[test]
fn narration_is_refused_and_nothing_written() {
    let dir = project();
    let out = run(dir.path(), &["knowledge", "add", "info", "Let me check the schema"]);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.contains("refused: the text reads as narration (it matches /^(Let me|I will|I am|I'll)/i)"),
        "{}",
        out.stderr
    );
    assert_eq!(knowledge(dir.path()), "");
    let out = run(dir.path(), &["knowledge", "add", "maybe", "x"]);
    assert_eq!(out.code, Some(1), "a usage mistake exits 1, never 2");
    assert!(out.stderr.contains("`maybe` is not a kind: use avoid (❌), best (✅) or info (ℹ️)"), "{}", out.stderr);
}

#[test]
fn without_an_active_task_the_error_says_what_to_pass() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["knowledge", "show"]);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("no active brewcode task") && out.stderr.contains("--task"), "{}", out.stderr);
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join(".claude/TASK.md"), "../elsewhere_task/PLAN.md\n").unwrap();
    let out = run(dir.path(), &["knowledge", "show"]);
    assert!(out.stderr.contains("is not a task path"), "{}", out.stderr);
}

#[test]
fn show_lists_entries_or_prints_the_injected_block() {
    let dir = project();
    let lines = [
        json!({"ts": "2026-02-01T12:10:00.000Z", "t": "❌", "txt": "Avoid SELECT *", "src": "sql_expert"}),
        json!({"ts": "2026-02-01T12:11:00.000Z", "t": "✅", "txt": "Use streams"}),
        json!({"ts": "2026-02-01T12:12:00.000Z", "t": "❌", "txt": "Avoid SELECT *", "src": "reviewer"}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\nnot json\n")).collect();
    std::fs::write(dir.path().join(TASK).join("KNOWLEDGE.jsonl"), text).unwrap();
    let out = run(dir.path(), &["knowledge", "show"]);
    assert_eq!(
        out.stdout,
        "❌ Avoid SELECT *  (sql_expert, 2026-02-01T12:10:00.000Z)\n✅ Use streams  (2026-02-01T12:11:00.000Z)\n❌ Avoid SELECT *  (reviewer, 2026-02-01T12:12:00.000Z)\n"
    );
    assert!(out.stderr.contains("KNOWLEDGE.jsonl:2: not JSON, skipped: not json"), "{}", out.stderr);
    assert_eq!(run(dir.path(), &["knowledge", "show", "--block"]).stdout, "## K\n❌ Avoid SELECT *\n✅ Use streams\n");
    let listed: Value = serde_json::from_str(&run(dir.path(), &["knowledge", "show", "--json"]).stdout).unwrap();
    assert_eq!(listed, Value::Array(lines.to_vec()));
    let by_task = Hookmux::new(["knowledge", "show", "--block", "--task"]).run();
    assert_eq!(by_task.code, Some(1), "--task needs a value; a usage mistake exits 1");
    let elsewhere = tempfile::tempdir().unwrap();
    let out =
        run(elsewhere.path(), &["knowledge", "show", "--block", "--task", dir.path().join(TASK).to_str().unwrap()]);
    assert_eq!(out.stdout, "## K\n❌ Avoid SELECT *\n✅ Use streams\n");
}

#[test]
fn compact_waits_for_the_threshold_unless_forced() {
    let dir = project();
    let lines: String = [
        json!({"ts": "2026-02-01T12:00:00.000Z", "t": "ℹ️", "txt": "Old fact"}),
        json!({"ts": "2026-02-01T12:05:00.000Z", "t": "❌", "txt": "Avoid SELECT *"}),
        json!({"ts": "2026-02-01T12:09:00.000Z", "t": "ℹ️", "txt": "Old fact", "src": "newer"}),
    ]
    .iter()
    .map(|l| format!("{l}\n"))
    .collect();
    let file = dir.path().join(TASK).join("KNOWLEDGE.jsonl");
    std::fs::write(&file, &lines).unwrap();
    let out = run(dir.path(), &["knowledge", "compact"]);
    assert_eq!(out.code, Some(0));
    assert!(
        out.stderr.contains("3 entries, below the threshold of 80 (80 % of maxEntries 100); not compacted"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), lines);

    let preview = run(dir.path(), &["knowledge", "compact", "--force", "--dry-run"]);
    let expected = "{\"ts\":\"2026-02-01T12:05:00.000Z\",\"t\":\"❌\",\"txt\":\"Avoid SELECT *\"}\n\
                    {\"ts\":\"2026-02-01T12:09:00.000Z\",\"t\":\"ℹ️\",\"txt\":\"Old fact\",\"src\":\"newer\"}\n";
    assert_eq!(preview.stdout, expected);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), lines, "a dry run writes nothing");

    let out = run(dir.path(), &["knowledge", "compact", "--force"]);
    assert!(out.stderr.contains("compacted, 3 → 2 entries"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
    run(dir.path(), &["knowledge", "compact", "--force", "--max-entries", "1"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 1);
}

#[test]
fn project_dir_names_the_project_from_anywhere_and_the_old_spelling_still_works() {
    let dir = project();
    let elsewhere = tempfile::tempdir().unwrap();
    let project = dir.path().to_str().unwrap();
    let out =
        run(elsewhere.path(), &["knowledge", "add", "--project-dir", project, "best", "Use constructor injection"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let out = run(elsewhere.path(), &["knowledge", "add", "--project", project, "info", "DB is PostgreSQL 15"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(knowledge(dir.path()).lines().count(), 2);
    let help = run(elsewhere.path(), &["knowledge", "add", "--help"]).stdout;
    assert!(help.contains("--project-dir <DIR>") && !help.contains("--project "), "{help}");
    let out = run(elsewhere.path(), &["knowledge", "show"]);
    assert!(out.stderr.contains("pass --task or --project-dir"), "{out:?}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn compact_and_add_do_not_write_through_links() {
    let dir = project();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    let file = dir.path().join(TASK).join("KNOWLEDGE.jsonl");
    std::fs::write(&file, "{\"t\":\"❌\",\"txt\":\"a\",\"ts\":\"2026-02-01T12:00:00.000Z\"}\n").unwrap();
    // brewcode's fixed temporary name, planted as a link: compaction writes a random name instead.
    hookmux_platform::fs::symlink_file(&victim, &dir.path().join(TASK).join("KNOWLEDGE.jsonl.tmp")).unwrap();
    let out = run(dir.path(), &["knowledge", "compact", "--force"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");

    // The knowledge file itself a link: refused, with the reason.
    std::fs::remove_file(&file).unwrap();
    hookmux_platform::fs::symlink_file(&victim, &file).unwrap();
    let out = run(dir.path(), &["knowledge", "add", "info", "DB is PostgreSQL 15"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr.contains("is a symbolic link, and hookmux does not write through symbolic links"),
        "{}",
        out.stderr
    );
    let out = run(dir.path(), &["knowledge", "compact", "--force"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("is a symbolic link"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}
