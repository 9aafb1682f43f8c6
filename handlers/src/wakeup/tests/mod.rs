//! Tests for `wakeup`, ported from the cases Lore's own suites pin (the prompt parser and hook
//! state, the hook, the data layer), run against a real SQLite store in a temporary folder.
//!
//! Left out, because they test what a local store does not have:
//! - Notion only: auth and `init failed — No Notion auth configured`, page-id redaction in
//!   error messages (hookmux's errors carry no page ids; `hook::load_failure_*` checks that no
//!   content leaks instead), a Notion validation error for an absent pinned schema, the
//!   Notion query shapes (`sortBy: created_time`, `includeUnscoped`, server-side truncation),
//!   the recents over-fetch by one (a digest is a row of its own table here, never a memory that
//!   must be dropped from recents), `includeContent` forwarding (the hook renders titles only and
//!   a digest's body always), `mode: "semantic"` for the related search (hookmux has one ranking,
//!   FTS5 BM25), `coverage: null` from a mocked loader.
//! - The task inventory: the hook never loads it (`taskLimit: 0`), so the fair overdue / stale /
//!   active subset, task bullet rendering, per-bucket over-fetch and null-date starvation cases
//!   are not ported. `hookmux memory wake-up` keeps a small inventory (active `task` memories) to
//!   seed its related section; `data::related_*` covers that.
//! - MCP-only channels: decisions (proposed, overdue), pinned blocks, inherited upstream vaults,
//!   the stale-confidence query, `task-only` shape, and `WakeUpCache` (TTL, epoch bumps,
//!   stampedes): a hook process is one-shot and hookmux has none of these channels, so their
//!   counters are always 0.

mod config;
mod data;
mod debt_import;
mod hook;
mod locking;
mod parser;
mod postgres;

use super::store::{NewFact, NewMemory, Reader, Store};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The fixture clock: 2026-04-20T12:00:00Z.
pub const NOW_SECS: u64 = 1_776_686_400;

pub fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(NOW_SECS)
}

pub fn now_ms() -> i64 {
    NOW_SECS as i64 * 1000
}

pub const HOUR: i64 = 3_600_000;
pub const DAY: i64 = 86_400_000;

/// A project folder, a store and a state folder in one temporary directory.
pub struct World {
    pub dir: tempfile::TempDir,
}

impl World {
    pub fn new() -> World {
        let dir = tempfile::Builder::new().prefix("hookmux-wakeup-").tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("project")).expect("project dir");
        World { dir }
    }

    pub fn project_dir(&self) -> PathBuf {
        hookmux_platform::fs::canonicalize(self.dir.path().join("project")).expect("canonical project")
    }

    /// The project name the hook resolves when no `.lore.yaml` names one.
    pub fn project(&self) -> String {
        self.project_dir().to_string_lossy().into_owned()
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("lore.db")
    }

    pub fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    pub fn store(&self) -> Store {
        Store::Sqlite(crate::wakeup::store::SqliteStore::open_or_create(&self.db()).expect("open store"))
    }

    pub fn write(&self, relative: &str, text: &str) {
        let path = self.project_dir().join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(path, text).expect("write");
    }

    pub fn reader(&self) -> Reader {
        Reader {
            project: self.project(),
            identity: Some("tester".into()),
            session: None,
            agent: None,
            today: super::dates::date_of(now_ms()),
            include_expired: false,
        }
    }

    pub fn markers(&self) -> Vec<PathBuf> {
        match std::fs::read_dir(self.state()) {
            Ok(entries) => entries.filter_map(Result::ok).map(|e| e.path()).collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// A memory of `project` created `age` ms before [`now_ms`].
pub fn memory(project: &str, title: &str, age: i64) -> NewMemory {
    NewMemory::new(project, title, now_ms() - age)
}

pub fn add(store: &mut Store, memory: NewMemory) -> i64 {
    store.add_memory(&memory).expect("add memory")
}

pub fn add_fact(store: &mut Store, project: &str, subject: &str, predicate: &str, object: &str, age: i64) -> i64 {
    let fact = NewFact {
        project: project.into(),
        subject: subject.into(),
        predicate: predicate.into(),
        object: object.into(),
        created_at: now_ms() - age,
        ..NewFact::default()
    };
    store.add_fact(&fact).expect("add fact")
}
