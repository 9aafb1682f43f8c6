//! The memory store on PostgreSQL as a user meets it: the commands and the hook give the same
//! output on both backends, a server that is gone or never answers costs the prompt nothing but
//! one stderr line, passwords never show, and `memory export` / `memory import` move a store
//! between backends with nothing lost.
//!
//! Tests that need a server take it from `$HOOKMUX_TEST_POSTGRES_URL` (a role that may create
//! databases) and make a database of their own; without it they print `SKIPPED: <why>`, and
//! fail when `CI=true`. The failure tests need no server.

use crate::common;
use common::{Hookmux, Output};
use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

const PASSWORD: &str = "hunter2-not-shown";

/// A database of its own on the test server, dropped when the test ends.
struct Database {
    admin: String,
    name: String,
    url: String,
}

static DATABASES: AtomicUsize = AtomicUsize::new(0);

impl Database {
    fn create(test: &str) -> Option<Database> {
        let Some(admin) = std::env::var("HOOKMUX_TEST_POSTGRES_URL").ok().filter(|url| !url.is_empty()) else {
            common::skip(
                "postgres",
                &format!(
                    "{test}: HOOKMUX_TEST_POSTGRES_URL is not set (a postgres:// URL of a role that may create \
                     databases; .ci/run starts a server and sets it)"
                ),
            );
            return None;
        };
        let name = format!("hookmux_it_{}_{}", std::process::id(), DATABASES.fetch_add(1, Ordering::SeqCst));
        admin_client(&admin).batch_execute(&format!("CREATE DATABASE \"{name}\"")).expect("create database");
        let mut url = url::Url::parse(&admin).expect("a URL");
        url.set_path(&format!("/{name}"));
        Some(Database { admin, name, url: url.to_string() })
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        if let Ok(mut client) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = client.batch_execute(&format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name));
        }
    }
}

fn admin_client(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).expect("connect to HOOKMUX_TEST_POSTGRES_URL")
}

struct Site {
    dir: tempfile::TempDir,
}

impl Site {
    fn new() -> Site {
        let dir = tempfile::Builder::new().prefix("hookmux-pg-it-").tempdir().unwrap();
        for sub in ["project/.git", "home"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        Site { dir }
    }

    fn project(&self) -> PathBuf {
        hookmux_platform::fs::canonicalize(self.dir.path().join("project")).unwrap()
    }

    fn hookmux(&self, store: &str, args: &[&str]) -> Hookmux {
        Hookmux::new(args.iter().copied())
            .cwd(self.project())
            .env("HOME", self.dir.path().join("home"))
            .env("USER", "tester")
            .env("LORE_DB", store)
            .env("LORE_HOOK_STATE_DIR", self.dir.path().join("state"))
    }

    fn ok(&self, store: &str, args: &[&str]) -> String {
        let out = self.hookmux(store, args).run();
        assert_eq!(out.code, Some(0), "hookmux {args:?}: {out:?}");
        out.stdout
    }

    fn prompt(&self, store: &str, prompt: &str, session: &str) -> Output {
        let event = json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "prompt": prompt,
            "cwd": self.project()});
        self.hookmux(store, &["run", "wakeup"]).env("LORE_DEBUG", "1").stdin(event.to_string()).run()
    }

    fn sqlite(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A server that accepts connections and never says a word.
fn black_hole() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    port
}

#[test]
fn an_unreachable_or_silent_server_costs_the_prompt_one_stderr_line() {
    let site = Site::new();
    for (what, port) in [("closed port", closed_port()), ("black hole", black_hole())] {
        let url = format!("postgres://tester:{PASSWORD}@127.0.0.1:{port}/lore");
        let out = site.prompt(&url, "how do we deploy?", &format!("session-{port}"));
        assert_eq!(out.code, Some(0), "{what}: {out:?}");
        assert_eq!(out.stdout, "", "{what}: nothing reaches the model");
        let lines: Vec<&str> = out.stderr.lines().filter(|l| !l.starts_with("[lore] wakeup: mode=")).collect();
        assert_eq!(lines.len(), 1, "{what}: one line for the user: {out:?}");
        assert!(lines[0].starts_with("[lore] wakeup: init failed — "), "{what}: {out:?}");
        assert!(lines[0].contains(&format!("postgres://tester@127.0.0.1:{port}/lore")), "{what}: names the server");
        assert!(!out.stderr.contains(PASSWORD), "{what}: the password never shows: {out:?}");
        if what == "black hole" {
            assert!(lines[0].contains("no answer within"), "{what}: {out:?}");
        }

        // The commands fail, loudly, naming the server and never the password.
        for args in [&["memory", "status"][..], &["memory", "add", "a title"], &["memory", "search", "deploy"]] {
            let out = site.hookmux(&url, args).run();
            assert_eq!(out.code, Some(1), "{what}: {args:?}: {out:?}");
            assert!(out.stderr.contains(&format!("postgres://tester@127.0.0.1:{port}/lore")), "{what}: {out:?}");
            assert!(!out.stderr.contains(PASSWORD) && !out.stdout.contains(PASSWORD), "{what}: {out:?}");
        }
    }
}

#[test]
fn a_server_that_stalls_after_connecting_costs_the_prompt_the_bound_and_one_line() {
    let Some(database) = Database::create("a_server_that_stalls_after_connecting") else { return };
    let site = Site::new();
    site.ok(&database.url, &["memory", "add", "Deploys go through staging first"]);
    // Another session holds the memories table: every read waits.
    let mut holder = admin_client(&database.url);
    let mut lock = holder.transaction().unwrap();
    lock.batch_execute("LOCK TABLE memories IN ACCESS EXCLUSIVE MODE").unwrap();
    let out = site.prompt(&database.url, "how do we deploy?", "stalled");
    lock.rollback().unwrap();
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(out.stdout, "", "nothing reaches the model");
    let lines: Vec<&str> = out.stderr.lines().filter(|l| !l.starts_with("[lore] wakeup: mode=")).collect();
    assert_eq!(lines.len(), 1, "{out:?}");
    assert!(lines[0].starts_with("[lore] wakeup: load failed — no answer from postgres://"), "{out:?}");
    assert!(lines[0].contains("within 1500 ms"), "{out:?}");
    let after = site.prompt(&database.url, "how do we deploy?", "after");
    assert!(after.stdout.contains("Deploys go through staging first"), "the lock is gone: {after:?}");
}

#[test]
fn a_wrong_password_is_reported_without_the_password() {
    let Some(database) = Database::create("a_wrong_password_is_reported_without_the_password") else { return };
    let mut url = url::Url::parse(&database.url).unwrap();
    if url.password().is_none() {
        return common::skip("postgres", "HOOKMUX_TEST_POSTGRES_URL has no password: the server may trust every login");
    }
    let mut client = admin_client(&database.url);
    let _ = client.batch_execute("CREATE ROLE hookmux_wrong_password_test LOGIN PASSWORD 'right-one'");
    url.set_username("hookmux_wrong_password_test").unwrap();
    url.set_password(Some(PASSWORD)).unwrap();
    let site = Site::new();
    let out = site.hookmux(url.as_str(), &["memory", "add", "x"]).run();
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(!out.stderr.contains(PASSWORD), "{out:?}");
    assert!(out.stderr.contains("cannot connect to postgres://hookmux_wrong_password_test@"), "{out:?}");
}

/// The same commands, in the same order, on both backends print the same thing.
#[test]
fn every_command_and_the_hook_answer_alike_on_both_backends() {
    let Some(database) = Database::create("every_command_and_the_hook_answer_alike") else { return };
    let site = Site::new();
    let sqlite = site.sqlite("lore.db");
    let script: Vec<Vec<&str>> = vec![
        vec![
            "memory",
            "add",
            "Deploys go through staging first",
            "--synopsis",
            "prod after green",
            "--created",
            "2026-01-10",
        ],
        vec!["memory", "add", "Rotate the signing key every 90 days", "--kind", "policy", "--created", "2026-01-05"],
        vec!["memory", "add", "Global: never force-push main", "--scope", "global", "--created", "2026-01-06"],
        vec!["memory", "add", "Only alice sees this", "--scope", "user:alice", "--created", "2026-01-07"],
        vec!["memory", "add", "Waiting in the inbox", "--proposed", "--created", "2026-01-08"],
        vec!["memory", "add", "Expired note about staging", "--expires", "2026-01-09", "--created", "2026-01-08"],
        vec![
            "memory",
            "add",
            "Session log",
            "--body",
            "First I read. Then I fixed it. Next I tested. Finally done.",
            "--created",
            "2026-01-09",
        ],
        vec!["memory", "fact", "add", "api", "depends_on", "postgres", "--source-memory", "1"],
        vec!["memory", "fact", "add", "web", "uses", "api"],
        vec!["memory", "fact", "retire", "2"],
        vec!["memory", "forget", "4"],
        vec!["memory", "list", "--limit", "50"],
        vec!["memory", "list", "--all-projects", "--json"],
        vec!["memory", "search", "staging deploy key"],
        vec!["memory", "search", "staging", "--include-expired", "--json"],
        vec!["memory", "show", "2", "--json"],
        vec!["memory", "fact", "list", "--all"],
        vec!["memory", "debt", "--json"],
        vec!["memory", "wake-up", "--query", "rotate the key before deploying", "--debug"],
    ];
    let mut outputs: Vec<Vec<String>> = Vec::new();
    for store in [sqlite.as_str(), database.url.as_str()] {
        let mut seen = Vec::new();
        for args in &script {
            let out = site.hookmux(store, args).run();
            assert_eq!(out.code, Some(0), "{store}: {args:?}: {out:?}");
            seen.push(out.stdout.replace(&*database.url, "STORE").replace(&sqlite, "STORE"));
        }
        let status = site.ok(store, &["memory", "status"]);
        seen.push(status.lines().filter(|l| !l.starts_with("store:")).collect::<Vec<_>>().join("\n"));
        let hook = site.prompt(store, "how do we rotate the signing key?", "s-1");
        assert_eq!(hook.code, Some(0), "{hook:?}");
        assert!(hook.stdout.contains("Rotate the signing key"), "{hook:?}");
        seen.push(hook.stdout.clone());
        seen.push(hook.stderr.clone());
        let again = site.prompt(store, "and again", "s-1");
        assert_eq!((again.stdout.as_str(), again.code), ("", Some(0)), "the marker is local: once per session");
        std::fs::remove_dir_all(site.dir.path().join("state")).unwrap();
        outputs.push(seen);
    }
    for (index, (sqlite, postgres)) in outputs[0].iter().zip(&outputs[1]).enumerate() {
        assert_eq!(postgres, sqlite, "step {index}");
    }
}

/// Rows of an export with ids replaced by their order, so stores that numbered rows differently
/// compare equal when nothing else differs.
fn normalized(export: &str) -> Vec<Value> {
    let mut memory_ids = std::collections::HashMap::new();
    let mut rows: Vec<Value> = Vec::new();
    for (index, line) in export.lines().enumerate() {
        let mut row: Value = serde_json::from_str(line).unwrap();
        if index == 0 {
            assert_eq!(row, json!({"format": "hookmux-memory-export", "version": 1}));
        } else if row["type"] == "memory" {
            memory_ids.insert(row["id"].as_i64().unwrap(), memory_ids.len() as i64 + 1);
        }
        rows.push(row.take());
    }
    let mut counters = std::collections::HashMap::new();
    for row in rows.iter_mut().skip(1) {
        let kind = row["type"].as_str().unwrap().to_string();
        let counter = counters.entry(kind).or_insert(0);
        *counter += 1;
        row["id"] = json!(*counter);
        if let Some(source) = row.get("source_memory_id").and_then(Value::as_i64) {
            row["source_memory_id"] = json!(memory_ids[&source]);
        }
    }
    rows
}

#[test]
fn an_export_moves_a_store_sqlite_to_postgres_to_sqlite_with_nothing_lost() {
    let Some(database) = Database::create("an_export_moves_a_store") else { return };
    let site = Site::new();
    let first = site.sqlite("first.db");
    let last = site.sqlite("last.db");
    let knowledge = site.dir.path().join("KNOWLEDGE.jsonl");
    std::fs::write(
        &knowledge,
        "{\"ts\":\"2026-01-02T10:00:00\",\"t\":\"✅\",\"txt\":\"Prefer small PRs\",\"src\":\"review\"}\n",
    )
    .unwrap();
    site.ok(&first, &["memory", "import", knowledge.to_str().unwrap()]);
    site.ok(
        &first,
        &["memory", "add", "Tabs, not spaces — ünïcödé", "--body", "line 1\nline \"2\"\t\\", "--created", "2026-01-03"],
    );
    site.ok(&first, &["memory", "add", "Gone soon", "--created", "2026-01-04"]);
    site.ok(
        &first,
        &["memory", "add", "Team-wide", "--scope", "team", "--expires", "2027-01-01", "--project", "other"],
    );
    site.ok(&first, &["memory", "add", "Proposed", "--proposed", "--kind", "decision", "--source", "agent_diary"]);
    site.ok(&first, &["memory", "forget", "3"]);
    site.ok(
        &first,
        &["memory", "fact", "add", "api", "uses", "postgres", "--source-memory", "2", "--scope", "user:bob"],
    );
    site.ok(&first, &["memory", "fact", "add", "old", "was", "true", "--expires", "2026-12-31"]);
    site.ok(&first, &["memory", "fact", "retire", "2"]);
    site.hookmux(&first, &["memory", "digest", "save", "--title", "Week 1"]).stdin("Shipped the importer.").run();

    let exported = site.ok(&first, &["memory", "export"]);
    let file = site.dir.path().join("first.jsonl");
    std::fs::write(&file, &exported).unwrap();
    let imported = site.ok(&database.url, &["memory", "import", file.to_str().unwrap()]);
    assert_eq!(imported, "imported 4 memories, 2 facts, 1 digests of 2 projects (hookmux export; 0 already there)\n");
    let again = site.ok(&database.url, &["memory", "import", file.to_str().unwrap()]);
    assert!(
        again.starts_with("imported 0 memories, 0 facts, 0 digests") && again.contains("7 already there"),
        "{again}"
    );

    let middle = site.dir.path().join("middle.jsonl");
    site.ok(&database.url, &["memory", "export", "--output", middle.to_str().unwrap()]);
    site.ok(&last, &["memory", "import", middle.to_str().unwrap()]);
    let final_export = site.ok(&last, &["memory", "export"]);

    let middle_text = std::fs::read_to_string(&middle).unwrap();
    assert_eq!(normalized(&middle_text), normalized(&exported), "SQLite → PostgreSQL loses nothing");
    assert_eq!(final_export, middle_text, "PostgreSQL → SQLite loses nothing, ids included");
    assert!(exported.lines().count() == 8 && exported.contains("\"retired_at\":") && exported.contains("ünïcödé"));

    // A knowledge file is still a knowledge file, and an export is never taken for one.
    let knowledge_again = site.ok(&database.url, &["memory", "import", knowledge.to_str().unwrap()]);
    assert!(knowledge_again.contains("(brewcode knowledge; 1 already there"), "{knowledge_again}");
}

#[test]
fn an_import_is_all_or_nothing_on_both_backends() {
    let Some(database) = Database::create("an_import_is_all_or_nothing") else { return };
    let site = Site::new();
    let sqlite = site.sqlite("lore.db");
    let header = json!({"format": "hookmux-memory-export", "version": 1});
    let memory = |id: i64, title: &str| {
        json!({"type": "memory", "id": id, "project": "p", "title": title, "synopsis": "", "body": "",
            "kind": "note", "source": "manual", "scope_kind": null, "scope_key": "", "status": "active",
            "created_at": 1_767_225_600_000_i64, "expires_at": null, "import_key": null})
    };
    let orphan_fact = json!({"type": "fact", "id": 1, "project": "p", "subject": "a", "predicate": "b",
        "object": "c", "status": "active", "scope_kind": null, "scope_key": "", "source_memory_id": 99,
        "created_at": 1_767_225_600_000_i64, "retired_at": null, "expires_at": null, "import_key": null});
    let cases = [
        ("bad-line.jsonl", format!("{header}\n{}\n{}\nnot json\n", memory(1, "one"), memory(2, "two"))),
        ("orphan.jsonl", format!("{header}\n{}\n{orphan_fact}\n", memory(1, "one"))),
        ("newer.jsonl", format!("{}\n{}\n", json!({"format": "hookmux-memory-export", "version": 2}), memory(1, "x"))),
    ];
    for store in [sqlite.as_str(), database.url.as_str()] {
        site.ok(store, &["memory", "add", "already here", "--project", "p"]);
        for (name, text) in &cases {
            let file = site.dir.path().join(name);
            std::fs::write(&file, text).unwrap();
            let out = site.hookmux(store, &["memory", "import", file.to_str().unwrap()]).run();
            assert_eq!(out.code, Some(1), "{name}: {out:?}");
            assert!(out.stderr.contains("nothing was imported"), "{name}: {out:?}");
            let list = site.ok(store, &["memory", "list", "--project", "p"]);
            assert_eq!(list.lines().count(), 1, "{name}: nothing was added: {list}");
        }
    }
}
