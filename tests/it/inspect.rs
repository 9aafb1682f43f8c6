//! Snapshots of what `dry-run`, `hooks list` and `hooks validate` print for a corpus of settings
//! trees in `fixtures/settings-trees/`: a valid project, a broken JSON file, every wrong shape,
//! several sources with duplicates, and managed-only settings. Each tree has `home/`, `project/`
//! and `managed/` folders, wired up as `$HOME`, `$CLAUDE_PROJECT_DIR` and `$HOOKMUX_MANAGED_DIR`.

use crate::common;

use common::{fixture, Hookmux};
use std::path::Path;

const TREES: &[&str] = &["valid", "broken-json", "wrong-shapes", "several-sources", "managed-only"];
const EVENTS: &[&str] = &["bash-git", "write-env", "prompt", "stop"];

/// Copies a folder: `dry-run --exec` runs the tree's hooks, and they run in a copy.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn run(tree: &str, args: &[&str]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join(tree);
    copy_tree(&fixture("settings-trees").join(tree), &root);
    let mut argv: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    for arg in &mut argv {
        if let Some(name) = arg.strip_prefix("event:") {
            *arg = fixture("events/short").join(format!("{name}.json")).to_string_lossy().into_owned();
        }
    }
    let out = Hookmux::new(argv)
        .env("HOME", root.join("home"))
        .env("CLAUDE_PROJECT_DIR", root.join("project"))
        .env("HOOKMUX_MANAGED_DIR", root.join("managed"))
        .env("TMPDIR", tmp.path())
        .cwd(root.join("project"))
        .run();
    let events = fixture("events/short");
    let text = format!("exit: {:?}\n--- stdout\n{}--- stderr\n{}", out.code, out.stdout, out.stderr);
    text.replace(&root.to_string_lossy().into_owned(), "[TREE]")
        .replace(&events.to_string_lossy().into_owned(), "[EVENTS]")
}

fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    // Times vary from run to run.
    settings.add_filter(r" *\d+\.\d ms", " [TIME] ms");
    // Column padding depends on the length of the checkout's path: compare the words only.
    settings.add_filter(r"([^ \n]) {2,}", "$1  ");
    settings.add_filter(r#""wall_ms": [0-9.]+"#, r#""wall_ms": "[TIME]""#);
    settings
}

#[test]
fn hooks_list() {
    settings().bind(|| {
        for tree in TREES {
            insta::assert_snapshot!(format!("list-{tree}"), run(tree, &["hooks", "list"]));
        }
        insta::assert_snapshot!("list-several-sources-json", run("several-sources", &["hooks", "list", "--json"]));
    });
}

#[test]
fn hooks_validate() {
    settings().bind(|| {
        for tree in TREES {
            insta::assert_snapshot!(format!("validate-{tree}"), run(tree, &["hooks", "validate"]));
        }
    });
}

#[test]
fn dry_run() {
    settings().bind(|| {
        for tree in TREES {
            let mut args = vec!["dry-run"];
            let events: Vec<String> = EVENTS.iter().map(|e| format!("event:{e}")).collect();
            args.extend(events.iter().map(String::as_str));
            insta::assert_snapshot!(format!("dry-run-{tree}"), run(tree, &args));
        }
    });
}

#[test]
fn dry_run_exec() {
    settings().bind(|| {
        for tree in ["valid", "several-sources", "managed-only"] {
            insta::assert_snapshot!(
                format!("dry-run-exec-{tree}"),
                run(tree, &["dry-run", "--exec", "event:bash-git", "event:write-env", "event:prompt"])
            );
        }
        insta::assert_snapshot!(
            "dry-run-exec-valid-json",
            run("valid", &["dry-run", "--exec", "--json", "event:bash-git"])
        );
    });
}

#[test]
fn dry_run_of_a_real_payload_and_a_bad_fixture() {
    settings().bind(|| {
        let real = fixture("events/PreToolUse-Write.json");
        let missing = fixture("events/short/nope.json");
        insta::assert_snapshot!(
            "dry-run-real-and-missing",
            run("valid", &["dry-run", real.to_str().unwrap(), missing.to_str().unwrap()])
                .replace(&fixture("events").to_string_lossy().into_owned(), "[FIXTURES]")
        );
    });
}
