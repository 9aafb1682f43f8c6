//! The memory commands as a user runs them: `hookmux memory …`, the deprecated top-level
//! spellings beside them, and eight processes writing at once.

use crate::common;
use common::{fixture, Hookmux, Output};
use std::path::PathBuf;
use std::process::Command;

struct Site {
    dir: tempfile::TempDir,
}

impl Site {
    fn new() -> Site {
        let dir = tempfile::Builder::new().prefix("hookmux-memory-it-").tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("project/sub")).unwrap();
        std::fs::create_dir_all(dir.path().join("project/.git")).unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Site { dir }
    }

    fn project(&self) -> PathBuf {
        hookmux_platform::fs::canonicalize(self.dir.path().join("project")).unwrap()
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// The user's data folder below the test's home, where the platform layer puts it
    /// (`~/.local/share` on Unix, `~\AppData\Local` on Windows).
    fn data_dir(&self) -> PathBuf {
        use hookmux_platform::dirs;
        let home = self.home();
        let env: hookmux_sdk::Env = [(dirs::variable(dirs::Folder::Home), home.as_os_str())].into_iter().collect();
        dirs::data(&env).expect("a data folder below the home")
    }

    fn hookmux(&self, args: &[&str]) -> Hookmux {
        Hookmux::new(args.iter().copied()).cwd(self.project()).env("HOME", self.home()).env("USER", "tester")
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.hookmux(args).run();
        assert_eq!(out.code, Some(0), "hookmux {args:?}: {out:?}");
        assert!(!out.stderr.contains("deprecated"), "hookmux {args:?}: {out:?}");
        out.stdout
    }

    fn fails(&self, args: &[&str]) -> Output {
        let out = self.hookmux(args).run();
        assert_eq!(out.code, Some(1), "hookmux {args:?} should fail: {out:?}");
        out
    }
}

#[test]
fn memories_round_trip_through_the_default_store() {
    let site = Site::new();
    let id = site.ok(&[
        "memory",
        "add",
        "Retries back off exponentially",
        "--synopsis",
        "cap 30 s",
        "--kind",
        "decision",
        "--body",
        "Jitter is full.",
    ]);
    assert_eq!(id.trim(), "1");
    assert!(site.data_dir().join("hookmux").join("lore.db").is_file(), "the default: in the user's data folder");
    site.ok(&["memory", "add", "Cache keys include the tenant", "--created", "2026-03-01T08:00:00Z"]);

    let list = site.ok(&["memory", "list"]);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 2, "{list}");
    assert!(lines[0].contains("decision  Retries back off exponentially"), "{list}");
    assert!(lines[1].contains("2026-03-01") && lines[1].contains("Cache keys include the tenant"), "{list}");

    let show = site.ok(&["memory", "show", "1"]);
    assert!(
        show.starts_with("memory 1: Retries back off exponentially\n")
            && show.contains("synopsis: cap 30 s")
            && show.ends_with("Jitter is full.\n"),
        "{show}"
    );
    let json: serde_json::Value = serde_json::from_str(site.ok(&["memory", "show", "2", "--json"]).trim()).unwrap();
    assert_eq!(json["created_at"], "2026-03-01T08:00:00Z");
    assert_eq!(json["project"], site.project().to_string_lossy().as_ref());

    // From a sub-folder the git root is still the project.
    let search = site.hookmux(&["memory", "search", "why do retries back off?"]).cwd(site.project().join("sub")).run();
    assert!(
        search.stdout.contains("Retries back off exponentially") && !search.stdout.contains("Cache keys"),
        "{search:?}"
    );

    assert_eq!(site.ok(&["memory", "forget", "1"]).trim(), "forgot memory 1");
    assert!(site.fails(&["memory", "forget", "1"]).stderr.contains("no memory with id 1"));
    assert!(site.ok(&["memory", "search", "retries"]).is_empty(), "forgotten memories leave the index too");
}

#[test]
fn bad_input_gets_a_clear_message_and_exit_1() {
    let site = Site::new();
    for (args, message) in [
        (vec!["memory", "add", "  "], "the title is empty"),
        (vec!["memory", "add", "t", "--expires", "next week"], "--expires `next week` is not a YYYY-MM-DD date"),
        (vec!["memory", "add", "t", "--scope", "user"], "--scope: a `user` scope needs a key"),
        (vec!["memory", "add", "t", "--scope", "planet"], "`planet` is not a scope kind"),
        (vec!["memory", "add", "t", "--created", "soon"], "--created `soon`"),
        (vec!["memory", "list", "--status", "done"], "--status `done` is not one of"),
        (vec!["memory", "show", "9"], "no memory with id 9"),
        (vec!["memory", "import", "missing.jsonl"], "cannot read missing.jsonl"),
        (vec!["memory", "fact", "retire", "4"], "no active fact with id 4"),
        (vec!["memory", "digest", "show"], "has no digest yet"),
    ] {
        let out = site.fails(&args);
        assert!(out.stderr.contains(message), "{args:?}: {out:?}");
    }
    let out = site.hookmux(&["memory", "add", "t"]).env("LORE_DB", "/proc/no/such/dir/lore.db").run();
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("/proc/no/such/dir"), "{out:?}");
}

#[test]
fn brewcode_knowledge_imports_once() {
    let site = Site::new();
    let file = fixture("brewcode/KNOWLEDGE.jsonl");
    let file = file.to_str().unwrap();
    let first = site.ok(&["memory", "import", file]);
    assert!(first.starts_with("imported 6 memories, 0 facts, 0 digests into "), "{first}");
    assert!(first.contains("(brewcode knowledge; 0 already there, 0 lines skipped)"), "{first}");
    let again = site.ok(&["memory", "import", file]);
    assert!(again.starts_with("imported 0 memories") && again.contains("6 already there"), "{again}");
    let list = site.ok(&["memory", "list", "--json"]);
    let rows: Vec<serde_json::Value> = list.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 6);
    let newest = &rows[0];
    assert_eq!(newest["title"], "Avoid SELECT * in repository queries");
    assert_eq!((newest["kind"].as_str(), newest["source"].as_str()), (Some("avoid"), Some("reviewer")));
    assert_eq!(newest["created_at"], "2026-02-01T12:15:00Z");
    assert!(rows.iter().any(|r| r["kind"] == "info" && r["title"] == "DB uses PostgreSQL 15"));
}

#[test]
fn the_json_format_imports_memories_facts_and_digests() {
    let site = Site::new();
    let path = site.dir.path().join("export.json");
    std::fs::write(
        &path,
        r#"{"memories": [{"id": "a", "title": "Use the canary", "status": "proposed"}, {"id": "b", "title": "Pin the toolchain"}],
            "facts": [{"subject": "web", "predicate": "depends_on", "object": "api"}],
            "digests": [{"title": "Week", "body": "Shipped it."}]}"#,
    )
    .unwrap();
    let out = site.ok(&["memory", "import", path.to_str().unwrap(), "--project", "acme"]);
    assert!(out.starts_with("imported 2 memories, 1 facts, 1 digests into `acme` (hookmux JSON"), "{out}");
    assert!(site.ok(&["memory", "import", path.to_str().unwrap(), "--project", "acme"]).contains("4 already there"));
    assert!(site.ok(&["memory", "fact", "list", "--project", "acme"]).contains("web depends_on api"));
    assert!(site.ok(&["memory", "digest", "show", "--project", "acme"]).contains("Shipped it."));
    let status = site.ok(&["memory", "status", "--project", "acme"]);
    assert!(status.contains("proposed-memory inbox: 1"), "{status}");
    std::fs::write(&path, r#"{"memories": [{"title": "ok"}, {"title": "bad", "expires_at": "soon"}]}"#).unwrap();
    let bad = site.fails(&["memory", "import", path.to_str().unwrap()]);
    assert!(
        bad.stderr.contains("memories[1].expires_at: `soon` is not a YYYY-MM-DD date; nothing was imported"),
        "{bad:?}"
    );
}

#[test]
fn facts_digests_status_and_wake_up() {
    let site = Site::new();
    let status = site.ok(&["memory", "status"]);
    assert!(status.contains("(not created yet; `hookmux memory add` creates it)"), "{status}");
    assert!(site.ok(&["memory", "fact", "add", "web", "depends_on", "api"]).trim() == "1");
    site.ok(&["memory", "fact", "add", "api", "uses", "postgres"]);
    assert_eq!(site.ok(&["memory", "fact", "retire", "2"]).trim(), "retired fact 2");
    assert!(!site.ok(&["memory", "fact", "list"]).contains("postgres"));
    assert!(site.ok(&["memory", "fact", "list", "--all"]).contains("api uses postgres  (retired)"));

    let digest =
        site.hookmux(&["memory", "digest", "save", "--title", "Week 48"]).stdin("Shipped the importer.\n").run();
    assert_eq!(digest.code, Some(0), "{digest:?}");
    assert!(site.ok(&["memory", "digest", "show"]).contains("(fresh: wake-up shows it)"));
    site.ok(&["memory", "add", "Billing exports run nightly", "--created", "2026-01-02"]);
    site.ok(&["memory", "add", "Release notes follow the changelog template", "--created", "2026-01-03"]);
    site.ok(&["memory", "add", "Proposed: drop the v1 API", "--proposed"]);
    site.ok(&["memory", "add", "Write the release notes", "--kind", "task"]);
    site.ok(&["memory", "add", "Update the onboarding guide", "--kind", "task"]);

    let status = site.ok(&["memory", "status"]);
    for line in [
        "memories: 4 active, 0 expired, 0 rejected",
        "proposed-memory inbox: 1",
        "facts: 1 active, 1 retired",
        "Wake-up coverage:\n  [lore] wakeup: mode=default shape=full ranked=false reason=no-ranked-search digestAvailable=true digestFresh=true",
    ] {
        assert!(status.contains(line), "{line} missing:\n{status}");
    }

    let out = site.hookmux(&["memory", "wake-up", "--query", "nightly billing exports", "--debug"]).run();
    assert_eq!(out.code, Some(0), "{out:?}");
    let text = &out.stdout;
    assert!(text.contains("## For Your Current Task\n    - **Billing exports run nightly**"), "{out:?}");
    assert!(
        text.contains("## Active Tasks\n    - Update the onboarding guide\n    - Write the release notes"),
        "{out:?}"
    );
    assert!(
        text.contains("## Related to Active Tasks\n    - **Release notes follow the changelog template**"),
        "{out:?}"
    );
    assert!(
        text.contains("## Proposed Memories (1 waiting for review)\n    - **Proposed: drop the v1 API**"),
        "{out:?}"
    );
    assert!(
        out.stderr.starts_with(
            "[lore] wakeup: mode=ranked shape=full ranked=true queryLen=23 memory=3 related=2 knowledge=10 taskMemories=3 "
        ),
        "{out:?}"
    );
    let plain = site.ok(&["memory", "wake-up"]);
    assert!(!plain.contains("Proposed Memories") && !plain.contains("For Your Current Task"), "{plain}");

    site.ok(&["memory", "add", "Old incident", "--expires", "2020-01-01"]);
    assert!(!site.ok(&["memory", "wake-up"]).contains("Old incident"));
    assert!(site.ok(&["memory", "wake-up", "--include-expired"]).contains("Old incident"));
}

#[test]
fn debt_names_the_memory_and_the_rule() {
    let site = Site::new();
    site.ok(&[
        "memory",
        "add",
        "Tuesday session",
        "--synopsis",
        "First I read the logs, then I patched it, finally I deployed",
    ]);
    site.ok(&["memory", "add", "Incident timeline", "--body", "09:02 alert\n09:15 paged\n09:40 mitigated"]);
    site.ok(&["memory", "add", "Retries back off exponentially", "--synopsis", "cap 30 s"]);
    let out = site.ok(&["memory", "debt"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("memory 1 \"Tuesday session\": synopsis reads as an activity log: 3 sequence markers"),
        "{out}"
    );
    assert!(lines[0].ends_with("[sequence-markers]"), "{out}");
    assert!(
        lines[1].starts_with(
            "memory 2 \"Incident timeline\": body reads as an activity log: 3 timestamps in ascending order"
        ),
        "{out}"
    );
    let json = site.ok(&["memory", "debt", "--json"]);
    assert!(json.lines().next().unwrap().contains("\"rule\":\"sequence-markers\""), "{json}");
    site.ok(&["memory", "forget", "1"]);
    site.ok(&["memory", "forget", "2"]);
    assert_eq!(site.ok(&["memory", "debt"]), "no memory debt found\n");
}

#[test]
fn old_spellings_do_what_the_new_ones_do_after_a_notice() {
    let site = Site::new();
    site.ok(&["memory", "add", "Billing exports run nightly", "--synopsis", "first a, then b, finally c"]);
    site.ok(&["memory", "fact", "add", "web", "depends_on", "api"]);
    let cases: [(&[&str], &[&str], &str, &str); 7] = [
        (&["status"], &["memory", "status"], "status", "memory status"),
        (&["fact", "list", "--json"], &["memory", "fact", "list", "--json"], "fact", "memory fact"),
        (&["fact", "retire", "9"], &["memory", "fact", "retire", "9"], "fact", "memory fact"),
        (&["digest", "show"], &["memory", "digest", "show"], "digest", "memory digest"),
        (&["debt", "scan", "--json"], &["memory", "debt", "--json"], "debt scan", "memory debt"),
        (&["lore", "wake-up"], &["memory", "wake-up"], "lore wake-up", "memory wake-up"),
        (
            &["lore", "wake-up", "--project", "other"],
            &["memory", "wake-up", "--project", "other"],
            "lore wake-up",
            "memory wake-up",
        ),
    ];
    for (old, new, old_name, new_name) in cases {
        let before = site.hookmux(old).run();
        let after = site.hookmux(new).run();
        assert_eq!((&before.stdout, before.code), (&after.stdout, after.code), "{old:?} vs {new:?}");
        let notice = format!(
            "hookmux: `hookmux {old_name}` is deprecated and will be removed in 0.2.0; use `hookmux {new_name}`\n"
        );
        assert!(before.stderr.starts_with(&notice), "{old:?}: {before:?}");
        assert_eq!(before.stderr[notice.len()..], after.stderr, "{old:?}: only the notice is added");
    }
    // The digest case fails under both spellings, so the exit codes compared above are not all 0.
    assert_eq!(site.hookmux(&["digest", "show"]).run().code, Some(1));
}

#[test]
fn the_old_spellings_are_left_out_of_the_help() {
    let help = Hookmux::new(["--help"]).run().stdout;
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert_eq!(
        commands,
        [
            "run",
            "dispatch",
            "dry-run",
            "hooks",
            "install",
            "uninstall",
            "trust",
            "handlers",
            "doctor",
            "log",
            "completions",
            "man",
            "memory",
            "knowledge",
            "help"
        ],
        "{help}"
    );
}

/// Memories each of eight writers adds at once: 500 on Unix; 50 on Windows, where every one is a
/// process start that costs ten times as much (and more under Wine).
const EACH_WRITER: usize = if cfg!(windows) { 50 } else { 500 };

#[test]
fn eight_writers_adding_memories_at_once_leave_every_one() {
    let site = Site::new();
    let db = site.dir.path().join("shared.db");
    std::thread::scope(|scope| {
        for writer in 0..8 {
            let db = &db;
            let site = &site;
            scope.spawn(move || {
                for i in 0..EACH_WRITER {
                    let out = Command::new(env!("CARGO_BIN_EXE_hookmux"))
                        .args(["memory", "add", &format!("writer {writer} memory {i}"), "--project", "race"])
                        .env_clear()
                        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                        .envs(common::folder_var("HOME", &site.home()))
                        .env("LORE_DB", db)
                        .current_dir(site.project())
                        .output()
                        .unwrap();
                    assert!(out.status.success(), "writer {writer} #{i}: {}", String::from_utf8_lossy(&out.stderr));
                }
            });
        }
    });
    let all = 8 * EACH_WRITER;
    let list = site.hookmux(&["memory", "list", "--project", "race", "--limit", "10000"]).env("LORE_DB", &db).run();
    assert_eq!(list.stdout.lines().count(), all);
    let mut ids: Vec<u64> =
        list.stdout.lines().map(|l| l.split_whitespace().next().unwrap().parse().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all);
    let last = (EACH_WRITER - 1).to_string();
    let search =
        site.hookmux(&["memory", "search", &last, "--project", "race", "--limit", "100"]).env("LORE_DB", &db).run();
    assert_eq!(search.stdout.lines().count(), 8, "the search index kept up with every writer: {search:?}");
}

/// A search whose every word is common ranks only the project's most recent matches, as the
/// wake-up does: with a limit past that window, the command says so instead of stopping short
/// without a word.
#[test]
fn a_search_cut_by_its_window_says_so() {
    let site = Site::new();
    let project = site.project().to_string_lossy().into_owned();
    let mut lines = vec![r#"{"format":"hookmux-memory-export","version":1}"#.to_string()];
    for n in 0..300 {
        lines.push(
            serde_json::json!({"type": "memory", "id": n + 1, "project": project, "title": format!("deploy step {n}"),
                "synopsis": "", "body": "", "kind": "note", "source": "manual", "scope_kind": null, "scope_key": "",
                "status": "active", "created_at": 1_767_225_600_000_i64 + n, "expires_at": null, "import_key": null})
            .to_string(),
        );
    }
    let file = site.dir.path().join("export.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    site.ok(&["memory", "import", file.to_str().unwrap()]);

    let out = site.hookmux(&["memory", "search", "deploy", "--limit", "1000"]).run();
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(out.stdout.lines().count(), 250, "{out:?}");
    assert!(out.stderr.contains("only the project's 250 most recent matches were ranked"), "{out:?}");
    assert!(out.stdout.contains("deploy step 299") && !out.stdout.contains("deploy step 0 "), "the newest: {out:?}");
    // Within the window there is nothing to say.
    let out = site.hookmux(&["memory", "search", "deploy", "--limit", "5"]).run();
    assert_eq!((out.stdout.lines().count(), out.stderr.as_str()), (5, ""), "{out:?}");
}
