//! The memory store: one SQLite file (WAL, foreign keys on, schema versioned by `user_version`)
//! holding memories, facts and digests for any number of projects.
//!
//! Writers take the write lock up front (`BEGIN IMMEDIATE`) and wait for it (busy timeout), so
//! several sessions writing at once neither fail nor lose rows; readers never block them. The one
//! statement that cannot take the lock up front, the first open's switch to write-ahead logging,
//! retries for as long as a write would wait. A write that still finds the store locked when its
//! wait is over fails with [`locked`]'s message, which names the file and says nothing was
//! written: it is never dropped without a word.

use anyhow::{bail, Context as _, Result};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, Row, ToSql, Transaction, TransactionBehavior};
use sha2::Digest as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The most matches a search probes per term, and ranks in all.
pub const SEARCH_WINDOW: i64 = 250;

/// What a search found, best first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Search {
    pub memories: Vec<Memory>,
    /// Every word was common, and more memories matched than the window holds: only the
    /// project's [`SEARCH_WINDOW`] most recent matches were ranked.
    pub windowed: bool,
}

/// The most prompt terms a search ranks by.
pub const MAX_RANKED_TERMS: usize = 8;
/// The most terms ranked when every term is common (BM25 reads each one's whole posting list).
pub const MAX_COMMON_TERMS: usize = 3;

/// How long a command waits for another process's lock on the store before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Schema migrations, applied in order; `user_version` is how many have run.
const MIGRATIONS: &[&str] = &[r#"
CREATE TABLE memories (
    id          INTEGER PRIMARY KEY,
    project     TEXT NOT NULL,
    title       TEXT NOT NULL,
    synopsis    TEXT NOT NULL DEFAULT '',
    body        TEXT NOT NULL DEFAULT '',
    kind        TEXT NOT NULL DEFAULT 'note',
    source      TEXT NOT NULL DEFAULT 'manual',
    scope_kind  TEXT,
    scope_key   TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'proposed', 'rejected')),
    created_at  INTEGER NOT NULL,
    expires_at  TEXT,
    import_key  TEXT,
    -- One search token standing for the project (see `project_token`).
    project_token TEXT NOT NULL DEFAULT ''
);
CREATE INDEX memories_recent ON memories (project, created_at DESC);
CREATE INDEX memories_global ON memories (created_at DESC) WHERE scope_kind = 'global';
CREATE UNIQUE INDEX memories_import ON memories (project, import_key) WHERE import_key IS NOT NULL;

-- Contentless: the text lives in `memories`; the index holds tokens only. `project_tag` holds
-- the project's token (and one for global scope), so that a search narrows to the reader's
-- project inside FTS5 instead of after it.
CREATE VIRTUAL TABLE memories_fts USING fts5(
    title, synopsis, body, project_tag,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO memories_fts (memories_fts, rank) VALUES ('rank', 'bm25(4.0, 2.0, 1.0, 0.0)');
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, title, synopsis, body, project_tag) VALUES (new.id, new.title, new.synopsis,
        new.body, new.project_token
                  || CASE WHEN new.scope_kind = 'global' THEN ' qqglobalscope' ELSE '' END);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.id;
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.id;
    INSERT INTO memories_fts (rowid, title, synopsis, body, project_tag) VALUES (new.id, new.title, new.synopsis,
        new.body, new.project_token
                  || CASE WHEN new.scope_kind = 'global' THEN ' qqglobalscope' ELSE '' END);
END;

CREATE TABLE facts (
    id               INTEGER PRIMARY KEY,
    project          TEXT NOT NULL,
    subject          TEXT NOT NULL,
    predicate        TEXT NOT NULL,
    object           TEXT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired')),
    scope_kind       TEXT,
    scope_key        TEXT NOT NULL DEFAULT '',
    source_memory_id INTEGER REFERENCES memories (id) ON DELETE SET NULL,
    created_at       INTEGER NOT NULL,
    retired_at       INTEGER,
    expires_at       TEXT,
    import_key       TEXT
);
CREATE INDEX facts_active ON facts (project, status, created_at DESC);
CREATE INDEX facts_source ON facts (source_memory_id);
CREATE UNIQUE INDEX facts_import ON facts (project, import_key) WHERE import_key IS NOT NULL;

CREATE TABLE digests (
    id          INTEGER PRIMARY KEY,
    project     TEXT NOT NULL,
    title       TEXT NOT NULL DEFAULT '',
    body        TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    import_key  TEXT
);
CREATE INDEX digests_latest ON digests (project, created_at DESC);
CREATE UNIQUE INDEX digests_import ON digests (project, import_key) WHERE import_key IS NOT NULL;
"#];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Whether a memory is shown: only `active` ones are; `proposed` ones wait in the inbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Active,
    Proposed,
    Rejected,
}

impl Status {
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Proposed => "proposed",
            Status::Rejected => "rejected",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        match text {
            "active" => Some(Status::Active),
            "proposed" => Some(Status::Proposed),
            "rejected" => Some(Status::Rejected),
            _ => None,
        }
    }
}

/// Scope kinds every reader of the project sees.
pub const BROADCAST_SCOPES: &[&str] = &["team", "project", "global"];
/// Scope kinds only a reader whose own value equals the scope key sees.
pub const NARROW_SCOPES: &[&str] = &["user", "agent", "session"];

/// One memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    pub id: i64,
    pub project: String,
    pub title: String,
    pub synopsis: String,
    pub body: String,
    pub kind: String,
    pub source: String,
    /// `None` is broadcast (the project's readers all see it).
    pub scope_kind: Option<String>,
    pub scope_key: String,
    pub status: Status,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// The last day (`YYYY-MM-DD`, UTC) the memory is shown.
    pub expires_at: Option<String>,
}

/// A memory to insert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMemory {
    pub project: String,
    pub title: String,
    pub synopsis: String,
    pub body: String,
    pub kind: String,
    pub source: String,
    pub scope_kind: Option<String>,
    pub scope_key: String,
    pub status: Status,
    pub created_at: i64,
    pub expires_at: Option<String>,
    /// Set by imports: a second row with the same key in the project is skipped.
    pub import_key: Option<String>,
}

impl NewMemory {
    /// An active, broadcast `note` from `manual`.
    pub fn new(project: &str, title: &str, created_at: i64) -> NewMemory {
        NewMemory {
            project: project.to_string(),
            title: title.to_string(),
            synopsis: String::new(),
            body: String::new(),
            kind: "note".to_string(),
            source: "manual".to_string(),
            scope_kind: None,
            scope_key: String::new(),
            status: Status::Active,
            created_at,
            expires_at: None,
            import_key: None,
        }
    }
}

/// One fact: subject, predicate, object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    pub id: i64,
    pub project: String,
    pub subject: String,
    pub predicate: String,
    pub object: String,
    pub active: bool,
    pub scope_kind: Option<String>,
    pub scope_key: String,
    pub source_memory_id: Option<i64>,
    pub created_at: i64,
    pub retired_at: Option<i64>,
    pub expires_at: Option<String>,
}

/// A fact to insert.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewFact {
    pub project: String,
    pub subject: String,
    pub predicate: String,
    pub object: String,
    pub scope_kind: Option<String>,
    pub scope_key: String,
    pub source_memory_id: Option<i64>,
    pub created_at: i64,
    pub expires_at: Option<String>,
    pub import_key: Option<String>,
}

/// One digest: a summary of the project's recent work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digest {
    pub id: i64,
    pub project: String,
    pub title: String,
    pub body: String,
    pub created_at: i64,
}

/// Who reads, and what they may see. Rows of `project`, plus `global`-scoped rows of any
/// project; narrow scopes only when the reader's value equals the row's scope key; expired rows
/// (expiry day before `today`) only with `include_expired`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reader {
    pub project: String,
    pub identity: Option<String>,
    pub session: Option<String>,
    pub agent: Option<String>,
    /// `YYYY-MM-DD`, UTC.
    pub today: String,
    pub include_expired: bool,
}

/// A row (memory or fact, under `alias`) is visible to the reader when this holds, with the
/// reader's named parameters ([`Reader::params_with`]) bound: not expired (unless asked), and
/// broadcast or narrowly scoped to this reader. Memories must also be `active`.
fn visible_to_reader(alias: &str) -> String {
    format!(
        "(:include_expired OR {a}.expires_at IS NULL OR {a}.expires_at >= :today)
         AND ({a}.scope_kind IS NULL OR {a}.scope_kind IN ('team', 'project', 'global')
              OR ({a}.scope_key <> '' AND (
                     ({a}.scope_kind = 'user' AND {a}.scope_key = :identity)
                  OR ({a}.scope_kind = 'session' AND {a}.scope_key = :session)
                  OR ({a}.scope_kind = 'agent' AND {a}.scope_key = :agent))))",
        a = alias
    )
}

impl Reader {
    /// The named parameters every visibility check binds, plus the query's own.
    fn params_with<'a>(&'a self, extra: &[(&'a str, &'a dyn ToSql)]) -> Vec<(&'a str, &'a dyn ToSql)> {
        let mut params: Vec<(&str, &dyn ToSql)> = vec![
            (":project", &self.project),
            (":include_expired", &self.include_expired),
            (":today", &self.today),
            (":identity", &self.identity),
            (":session", &self.session),
            (":agent", &self.agent),
        ];
        params.extend_from_slice(extra);
        params
    }
}

/// The columns every memory query selects, in the order [`memory_fields!`] reads them; the same
/// on both backends.
pub(super) const MEMORY_COLUMNS: &str =
    "m.id, m.project, m.title, m.synopsis, m.body, m.kind, m.source, m.scope_kind, \
     m.scope_key, m.status, m.created_at, m.expires_at";

/// The columns every fact query selects, in the order [`fact_fields!`] reads them.
pub(super) const FACT_COLUMNS: &str =
    "f.id, f.project, f.subject, f.predicate, f.object, f.status, f.scope_kind, f.scope_key, \
     f.source_memory_id, f.created_at, f.retired_at, f.expires_at";

/// The columns a digest query selects, in the order [`digest_fields!`] reads them.
pub(super) const DIGEST_COLUMNS: &str = "id, project, title, body, created_at";

/// A [`Memory`] from a row of [`MEMORY_COLUMNS`], read with the backend's fallible getter
/// (`get` on SQLite, `try_get` on PostgreSQL); its errors go up with `?`.
macro_rules! memory_fields {
    ($row:expr, $get:ident) => {{
        let row = $row;
        let status: String = row.$get(9)?;
        Memory {
            id: row.$get(0)?,
            project: row.$get(1)?,
            title: row.$get(2)?,
            synopsis: row.$get(3)?,
            body: row.$get(4)?,
            kind: row.$get(5)?,
            source: row.$get(6)?,
            scope_kind: row.$get(7)?,
            scope_key: row.$get(8)?,
            status: Status::parse(&status).unwrap_or(Status::Rejected),
            created_at: row.$get(10)?,
            expires_at: row.$get(11)?,
        }
    }};
}

/// A [`Fact`] from a row of [`FACT_COLUMNS`], as [`memory_fields!`] reads a memory.
macro_rules! fact_fields {
    ($row:expr, $get:ident) => {{
        let row = $row;
        let status: String = row.$get(5)?;
        Fact {
            id: row.$get(0)?,
            project: row.$get(1)?,
            subject: row.$get(2)?,
            predicate: row.$get(3)?,
            object: row.$get(4)?,
            active: status == "active",
            scope_kind: row.$get(6)?,
            scope_key: row.$get(7)?,
            source_memory_id: row.$get(8)?,
            created_at: row.$get(9)?,
            retired_at: row.$get(10)?,
            expires_at: row.$get(11)?,
        }
    }};
}

/// A [`Digest`] from a row of [`DIGEST_COLUMNS`], as [`memory_fields!`] reads a memory.
macro_rules! digest_fields {
    ($row:expr, $get:ident) => {{
        let row = $row;
        Digest {
            id: row.$get(0)?,
            project: row.$get(1)?,
            title: row.$get(2)?,
            body: row.$get(3)?,
            created_at: row.$get(4)?,
        }
    }};
}

pub(super) use {digest_fields, fact_fields, memory_fields};

fn memory_from_row(row: &Row<'_>) -> rusqlite::Result<Memory> {
    Ok(memory_fields!(row, get))
}

fn fact_from_row(row: &Row<'_>) -> rusqlite::Result<Fact> {
    Ok(fact_fields!(row, get))
}

/// Counts for `hookmux memory status`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub active: u64,
    pub proposed: u64,
    pub rejected: u64,
    pub expired: u64,
    pub facts_active: u64,
    pub facts_retired: u64,
    pub digests: u64,
}

impl Counts {
    /// Adds `n` memories of `status`; `expired` ones count apart only when active.
    pub(super) fn add_memories(&mut self, status: &str, expired: bool, n: u64) {
        match (status, expired) {
            ("active", true) => self.expired += n,
            ("active", false) => self.active += n,
            ("proposed", _) => self.proposed += n,
            _ => self.rejected += n,
        }
    }

    /// Adds `n` facts of `status`: `active`, or else retired.
    pub(super) fn add_facts(&mut self, status: &str, n: u64) {
        if status == "active" {
            self.facts_active += n;
        } else {
            self.facts_retired += n;
        }
    }
}

/// Rows to import in one transaction: all of them, or none when any fails.
///
/// A row whose import key the project already has is skipped, as is a row without a key that
/// matches an existing keyless row field for field (so importing one export twice adds nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportRows {
    /// Each memory with its id in the file, when it has one (facts refer to it).
    pub memories: Vec<(Option<i64>, NewMemory)>,
    pub facts: Vec<ImportFact>,
    pub digests: Vec<ImportDigest>,
}

/// A fact to import: retired ones keep their state, and the source memory is named by its id in
/// the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportFact {
    /// `source_memory_id` is ignored: the source is `source_in_file`.
    pub fact: NewFact,
    pub retired_at: Option<i64>,
    pub source_in_file: Option<i64>,
}

/// A digest to import.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportDigest {
    pub project: String,
    pub title: String,
    pub body: String,
    pub created_at: i64,
    pub import_key: Option<String>,
}

/// What an import added and skipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportCounts {
    pub memories: usize,
    pub facts: usize,
    pub digests: usize,
    pub skipped: usize,
}

/// One row of a store, as `hookmux memory export` writes it, with its import key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportRow {
    Memory(Memory, Option<String>),
    Fact(Fact, Option<String>),
    Digest(Digest, Option<String>),
}

/// The store id of a fact's source memory, from its id in the file.
pub fn resolve_source(ids: &std::collections::HashMap<i64, i64>, fact: &ImportFact) -> Result<Option<i64>> {
    match fact.source_in_file {
        None => Ok(None),
        Some(old) => match ids.get(&old) {
            Some(id) => Ok(Some(*id)),
            None => bail!(
                "the fact `{} {} {}` names source memory {old}, which is not in the file",
                fact.fact.subject,
                fact.fact.predicate,
                fact.fact.object
            ),
        },
    }
}

/// An open SQLite store.
pub struct SqliteStore {
    conn: Connection,
    path: PathBuf,
    /// How long a statement waits for another process's lock.
    wait: Duration,
}

/// True when `err` is SQLite's "database is locked" (`SQLITE_BUSY`): another connection held the
/// lock for the whole wait.
fn is_busy(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<rusqlite::Error>(),
            Some(rusqlite::Error::SqliteFailure(failure, _)) if failure.code == rusqlite::ErrorCode::DatabaseBusy
        )
    })
}

/// The error of an operation on the store at `path` that waited `wait` for another process's lock
/// and did not get it: it says what was not done and what to do.
fn locked(path: &Path, wait: Duration, what: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "the memory store {} stayed locked by another process for {} ms; {what}. Run the command \
         again; if the store stays locked, end the process that keeps it open in a transaction (a \
         long `hookmux memory import`, a database browser)",
        path.display(),
        wait.as_millis()
    )
}

impl SqliteStore {
    /// Opens the store for writing, creating the file (and its folder) when missing, and brings
    /// its schema up to date.
    pub fn open_or_create(path: &Path) -> Result<SqliteStore> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create the store's folder {}", parent.display()))?;
        }
        SqliteStore::create_waiting(path, BUSY_TIMEOUT)
    }

    /// [`SqliteStore::open_or_create`], waiting at most `wait` for another process's lock.
    pub fn create_waiting(path: &Path, wait: Duration) -> Result<SqliteStore> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        SqliteStore::open_with(path, flags, true, wait)
    }

    /// Opens an existing store; `None` when there is no file yet (nothing was ever saved). With
    /// `writable` false nothing is written, not even a schema upgrade, which then is an error.
    pub fn open_existing(path: &Path, writable: bool) -> Result<Option<SqliteStore>> {
        SqliteStore::open_existing_waiting(path, writable, BUSY_TIMEOUT)
    }

    /// [`SqliteStore::open_existing`], waiting at most `wait` for another process's lock: a hook
    /// waits far less than a command.
    pub fn open_existing_waiting(path: &Path, writable: bool, wait: Duration) -> Result<Option<SqliteStore>> {
        if !path.exists() {
            return Ok(None);
        }
        let access = if writable { OpenFlags::SQLITE_OPEN_READ_WRITE } else { OpenFlags::SQLITE_OPEN_READ_ONLY };
        SqliteStore::open_with(path, access | OpenFlags::SQLITE_OPEN_NO_MUTEX, writable, wait).map(Some)
    }

    fn open_with(path: &Path, flags: OpenFlags, writable: bool, wait: Duration) -> Result<SqliteStore> {
        let conn = Connection::open_with_flags(path, flags)
            .with_context(|| format!("cannot open the memory store {}", path.display()))?;
        let mut store = SqliteStore { conn, path: path.to_path_buf(), wait };
        match store.prepare(writable) {
            Ok(()) => Ok(store),
            Err(err) if is_busy(&err) => Err(locked(path, wait, "it was not opened and nothing was written")),
            Err(err) => Err(err.context(format!("cannot use the memory store {}", path.display()))),
        }
    }

    fn prepare(&mut self, writable: bool) -> Result<()> {
        // Before the first statement: every later one waits for a lock instead of failing.
        self.conn.busy_timeout(self.wait)?;
        self.conn.pragma_update(None, "foreign_keys", true)?;
        let version = self.schema_version()?;
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        if version > SCHEMA_VERSION {
            bail!(
                "its schema is version {version}, newer than this hookmux knows ({SCHEMA_VERSION}); \
                 upgrade hookmux"
            );
        }
        if !writable {
            bail!(
                "its schema is version {version} and needs an upgrade to {SCHEMA_VERSION}; run any \
                 `hookmux memory` command once to upgrade it"
            );
        }
        self.enable_wal()?;
        self.migrate()
    }

    /// Write-ahead logging lets readers run while a writer commits. The switch is the one write
    /// that cannot wait in SQLite's busy handler: it reads the file header, then upgrades its read
    /// to a write, and SQLite answers such an upgrade `SQLITE_BUSY` at once while another
    /// connection holds the write lock (waiting could deadlock). So it retries here, for as long
    /// as any other write would wait.
    fn enable_wal(&self) -> Result<()> {
        let deadline = Instant::now() + self.wait;
        let mut pause = Duration::from_millis(1);
        loop {
            match self.conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0)) {
                Ok(_) => return Ok(()),
                Err(rusqlite::Error::SqliteFailure(err, _)) if err.code == rusqlite::ErrorCode::DatabaseBusy => {
                    let now = Instant::now();
                    if now >= deadline {
                        return Err(rusqlite::Error::SqliteFailure(err, None).into());
                    }
                    std::thread::sleep(pause.min(deadline - now));
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Err(err) => return Err(err.into()),
            }
        }
    }

    fn migrate(&mut self) -> Result<()> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Another process may have migrated while this one waited for the lock.
        let version: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        let start = usize::try_from(version).unwrap_or(0);
        for (index, migration) in MIGRATIONS.iter().enumerate().skip(start) {
            tx.execute_batch(migration).with_context(|| format!("schema migration {} failed", index + 1))?;
        }
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.commit()?;
        Ok(())
    }

    /// `PRAGMA user_version`: how many migrations have run.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self.conn.query_row("PRAGMA user_version", [], |row| row.get(0))?)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in a transaction that holds the write lock from its start (`BEGIN IMMEDIATE`:
    /// the lock is waited for, never upgraded to). All or nothing: on an error nothing is written,
    /// and a lock held elsewhere past the wait is said so, with the file.
    fn write<T>(&mut self, f: impl FnOnce(&Transaction<'_>) -> Result<T>) -> Result<T> {
        let (path, wait) = (self.path.clone(), self.wait);
        let run = || -> Result<T> {
            let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        };
        run().map_err(|err| if is_busy(&err) { locked(&path, wait, "nothing was written") } else { err })
    }

    // ---- memories -------------------------------------------------------------------------

    /// Inserts a memory; returns its id.
    pub fn add_memory(&mut self, memory: &NewMemory) -> Result<i64> {
        self.write(|tx| Ok(insert_memory(tx, memory)?.unwrap_or_default()))
    }

    /// Inserts many memories in one transaction; rows whose import key the project already has
    /// are skipped. Returns (added, skipped).
    pub fn import_memories(&mut self, memories: &[NewMemory]) -> Result<(usize, usize)> {
        self.import(memories, insert_memory)
    }

    /// Inserts rows in one transaction; `insert` answers `None` for a row it skipped.
    fn import<T>(
        &mut self,
        rows: &[T],
        insert: fn(&Transaction<'_>, &T) -> Result<Option<i64>>,
    ) -> Result<(usize, usize)> {
        self.write(|tx| {
            let mut added = 0;
            for row in rows {
                if insert(tx, row)?.is_some() {
                    added += 1;
                }
            }
            Ok((added, rows.len() - added))
        })
    }

    pub fn memory(&self, id: i64) -> Result<Option<Memory>> {
        let sql = format!("SELECT {MEMORY_COLUMNS} FROM memories m WHERE m.id = ?1");
        Ok(self.conn.query_row(&sql, [id], memory_from_row).optional()?)
    }

    /// Deletes a memory (its search entry goes with it); false when there was none.
    pub fn forget_memory(&mut self, id: i64) -> Result<bool> {
        self.write(|tx| Ok(tx.execute("DELETE FROM memories WHERE id = ?1", [id])? > 0))
    }

    /// Memories of a project (any project when `None`), newest first, with the given status
    /// (any when `None`).
    pub fn list_memories(&self, project: Option<&str>, status: Option<Status>, limit: usize) -> Result<Vec<Memory>> {
        let sql = format!(
            "SELECT {MEMORY_COLUMNS} FROM memories m
             WHERE (?1 IS NULL OR m.project = ?1) AND (?2 IS NULL OR m.status = ?2)
             ORDER BY m.created_at DESC, m.id DESC LIMIT ?3"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![project, status.map(Status::as_str), limit_param(limit)], memory_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The reader's visible memories, newest first. `kind` keeps only that kind.
    pub fn recent_memories(&self, reader: &Reader, kind: Option<&str>, limit: usize) -> Result<Vec<Memory>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        // Two ordered index walks (the project's rows, then global rows of other projects),
        // each stopping at `limit`, instead of sorting every visible row.
        let visible = visible_to_reader("m");
        let sql = format!(
            "SELECT * FROM (
                 SELECT {MEMORY_COLUMNS} FROM memories m
                 WHERE m.project = :project AND (:kind IS NULL OR m.kind = :kind) AND m.status = 'active' AND {visible}
                 ORDER BY m.created_at DESC, m.id DESC LIMIT :limit)
             UNION ALL
             SELECT * FROM (
                 SELECT {MEMORY_COLUMNS} FROM memories m
                 WHERE m.scope_kind = 'global' AND m.project <> :project
                   AND (:kind IS NULL OR m.kind = :kind) AND m.status = 'active' AND {visible}
                 ORDER BY m.created_at DESC, m.id DESC LIMIT :limit)
             ORDER BY 11 DESC, 1 DESC LIMIT :limit"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let limit = limit_param(limit);
        let params = reader.params_with(&[(":kind", &kind), (":limit", &limit)]);
        let rows = stmt.query_map(params.as_slice(), memory_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The reader's visible memories that match any of `terms`, best first: BM25 over title,
    /// synopsis and body (weighted 4 : 2 : 1; lower is better), ties broken by recency.
    ///
    /// Scoring every memory that shares a common word with a long prompt would cost time in
    /// proportion to the store, so the terms are chosen first: each term's document frequency in
    /// the store is probed (counting stops at [`SEARCH_WINDOW`]). Terms found in fewer memories
    /// than the window are kept, the rarest first, at most [`MAX_RANKED_TERMS`]; more common terms
    /// are dropped (they carry little BM25 weight). When every term is that common, the
    /// [`MAX_COMMON_TERMS`] rarest are kept, and only the project's [`SEARCH_WINDOW`] most recently
    /// added memories that match them are ranked.
    pub fn search(&self, reader: &Reader, terms: &[String], limit: usize) -> Result<Search> {
        if limit == 0 || terms.is_empty() {
            return Ok(Search::default());
        }
        let scope = format!("project_tag : ({} OR \"qqglobalscope\")", phrase(&project_token(&reader.project)));
        // Store-wide frequencies: probing within the project costs an intersection per term.
        let mut probe = self
            .conn
            .prepare_cached("SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ?1 LIMIT ?2)")?;
        let mut frequencies: Vec<(i64, &String)> = Vec::new();
        for term in terms {
            let expression = format!("{{title synopsis body}} : {}", phrase(term));
            let df: i64 = probe.query_row(params![expression, SEARCH_WINDOW], |row| row.get(0))?;
            if df > 0 {
                frequencies.push((df, term));
            }
        }
        let (common_only, chosen) = choose_terms(frequencies);
        let chosen: Vec<String> = chosen.into_iter().map(|term| phrase(term)).collect();
        if chosen.is_empty() {
            return Ok(Search::default());
        }
        let terms_expression = format!("{{title synopsis body}} : ({})", chosen.join(" OR "));
        // Only common terms can match more rows than the window holds; then the window is the
        // project's most recent matches. The ranking query itself leaves the project out: FTS5's
        // BM25 reads the whole posting list of every phrase in the query to weigh it, and the
        // project's token is in every row.
        let floor: i64 = if !common_only {
            0
        } else {
            self.conn
                .prepare_cached(
                    "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY rowid DESC LIMIT 1 OFFSET ?2",
                )?
                .query_row(params![format!("{scope} AND {terms_expression}"), SEARCH_WINDOW - 1], |row| row.get(0))
                .optional()?
                .unwrap_or(0)
        };
        let visible = visible_to_reader("m");
        let sql = format!(
            "SELECT {MEMORY_COLUMNS} FROM memories_fts CROSS JOIN memories m ON m.id = memories_fts.rowid
             WHERE memories_fts MATCH :query AND memories_fts.rowid >= :floor
               AND (m.project = :project OR m.scope_kind = 'global') AND m.status = 'active' AND {visible}
             ORDER BY memories_fts.rank, m.created_at DESC, m.id DESC LIMIT :limit"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let limit = limit_param(limit);
        let params = reader.params_with(&[(":query", &terms_expression), (":floor", &floor), (":limit", &limit)]);
        let rows = stmt.query_map(params.as_slice(), memory_from_row)?;
        Ok(Search { memories: rows.collect::<rusqlite::Result<_>>()?, windowed: floor > 0 })
    }

    /// The proposed-memory inbox of a project, oldest first.
    pub fn proposed_memories(&self, project: &str, limit: usize) -> Result<Vec<Memory>> {
        let sql = format!(
            "SELECT {MEMORY_COLUMNS} FROM memories m WHERE m.project = ?1 AND m.status = 'proposed'
             ORDER BY m.created_at ASC, m.id ASC LIMIT ?2"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![project, limit_param(limit)], memory_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// How many memories wait in a project's inbox.
    pub fn count_proposed(&self, project: &str) -> Result<u64> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM memories WHERE project = ?1 AND status = 'proposed'",
            [project],
            |row| row.get(0),
        )?)
    }

    /// Every memory of a project, for `hookmux memory debt`.
    pub fn each_memory(&self, project: Option<&str>, mut f: impl FnMut(Memory)) -> Result<()> {
        let sql = format!("SELECT {MEMORY_COLUMNS} FROM memories m WHERE (?1 IS NULL OR m.project = ?1) ORDER BY m.id");
        let mut stmt = self.conn.prepare(&sql)?;
        for memory in stmt.query_map([project], memory_from_row)? {
            f(memory?);
        }
        Ok(())
    }

    /// Imports memories, facts and digests in one transaction (see [`ImportRows`]).
    pub fn import_rows(&mut self, rows: &ImportRows) -> Result<ImportCounts> {
        self.write(|tx| {
            let mut counts = ImportCounts::default();
            let mut ids = std::collections::HashMap::new();
            for (old, memory) in &rows.memories {
                let id = match existing_memory(tx, memory)? {
                    Some(id) => {
                        counts.skipped += 1;
                        id
                    }
                    None => {
                        counts.memories += 1;
                        insert_memory(tx, memory)?.unwrap_or_default()
                    }
                };
                if let Some(old) = old {
                    ids.insert(*old, id);
                }
            }
            for fact in &rows.facts {
                let source = resolve_source(&ids, fact)?;
                let f = &fact.fact;
                let status = if fact.retired_at.is_some() { "retired" } else { "active" };
                let existing: Option<i64> = match &f.import_key {
                    Some(key) => tx
                        .query_row(
                            "SELECT id FROM facts WHERE project = ?1 AND import_key = ?2",
                            params![f.project, key],
                            |row| row.get(0),
                        )
                        .optional()?,
                    None => tx
                        .query_row(
                            "SELECT id FROM facts WHERE project = ?1 AND status = ?6 AND created_at = ?5
                               AND import_key IS NULL AND subject = ?2 AND predicate = ?3 AND object = ?4
                               AND scope_kind IS ?7 AND scope_key = ?8 AND expires_at IS ?9
                               AND retired_at IS ?10 AND source_memory_id IS ?11 LIMIT 1",
                            params![
                                f.project,
                                f.subject,
                                f.predicate,
                                f.object,
                                f.created_at,
                                status,
                                f.scope_kind,
                                f.scope_key,
                                f.expires_at,
                                fact.retired_at,
                                source
                            ],
                            |row| row.get(0),
                        )
                        .optional()?,
                };
                if existing.is_some() {
                    counts.skipped += 1;
                    continue;
                }
                tx.execute(
                    "INSERT INTO facts (project, subject, predicate, object, status, scope_kind, scope_key,
                                        source_memory_id, created_at, retired_at, expires_at, import_key)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                    params![
                        f.project,
                        f.subject,
                        f.predicate,
                        f.object,
                        status,
                        f.scope_kind,
                        f.scope_key,
                        source,
                        f.created_at,
                        fact.retired_at,
                        f.expires_at,
                        f.import_key
                    ],
                )?;
                counts.facts += 1;
            }
            for d in &rows.digests {
                let existing: Option<i64> = match &d.import_key {
                    Some(key) => tx
                        .query_row(
                            "SELECT id FROM digests WHERE project = ?1 AND import_key = ?2",
                            params![d.project, key],
                            |row| row.get(0),
                        )
                        .optional()?,
                    None => tx
                        .query_row(
                            "SELECT id FROM digests WHERE project = ?1 AND created_at = ?4 AND import_key IS NULL
                               AND title = ?2 AND body = ?3 LIMIT 1",
                            params![d.project, d.title, d.body, d.created_at],
                            |row| row.get(0),
                        )
                        .optional()?,
                };
                if existing.is_some() {
                    counts.skipped += 1;
                    continue;
                }
                tx.execute(
                    "INSERT INTO digests (project, title, body, created_at, import_key) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![d.project, d.title, d.body, d.created_at, d.import_key],
                )?;
                counts.digests += 1;
            }
            Ok(counts)
        })
    }

    /// Every memory, fact and digest of the store, for `hookmux memory export`.
    pub fn export(&self, mut f: impl FnMut(ExportRow) -> Result<()>) -> Result<()> {
        let mut stmt =
            self.conn.prepare(&format!("SELECT {MEMORY_COLUMNS}, m.import_key FROM memories m ORDER BY m.id"))?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            f(ExportRow::Memory(memory_from_row(row)?, row.get(12)?))?;
        }
        let mut stmt = self.conn.prepare(&format!("SELECT {FACT_COLUMNS}, f.import_key FROM facts f ORDER BY f.id"))?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            f(ExportRow::Fact(fact_from_row(row)?, row.get(12)?))?;
        }
        let mut stmt = self.conn.prepare(&format!("SELECT {DIGEST_COLUMNS}, import_key FROM digests ORDER BY id"))?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            f(ExportRow::Digest(digest_fields!(row, get), row.get(5)?))?;
        }
        Ok(())
    }

    // ---- facts ----------------------------------------------------------------------------

    pub fn add_fact(&mut self, fact: &NewFact) -> Result<i64> {
        self.write(|tx| Ok(insert_fact(tx, fact)?.unwrap_or_default()))
    }

    /// Inserts many facts in one transaction, skipping known import keys. Returns (added, skipped).
    pub fn import_facts(&mut self, facts: &[NewFact]) -> Result<(usize, usize)> {
        self.import(facts, insert_fact)
    }

    /// Retires an active fact; false when there is no active fact with that id.
    pub fn retire_fact(&mut self, id: i64, now: i64) -> Result<bool> {
        self.write(|tx| {
            Ok(tx.execute(
                "UPDATE facts SET status = 'retired', retired_at = ?2 WHERE id = ?1 AND status = 'active'",
                params![id, now],
            )? > 0)
        })
    }

    /// The reader's active, visible facts, newest first.
    pub fn active_facts(&self, reader: &Reader, limit: usize) -> Result<Vec<Fact>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT {FACT_COLUMNS} FROM facts f
             WHERE (f.project = :project OR f.scope_kind = 'global') AND f.status = 'active'
               AND {}
             ORDER BY f.created_at DESC, f.id DESC LIMIT :limit",
            visible_to_reader("f")
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let limit = limit_param(limit);
        let params = reader.params_with(&[(":limit", &limit)]);
        let rows = stmt.query_map(params.as_slice(), fact_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A project's facts, newest first; retired ones too with `include_retired`.
    pub fn list_facts(&self, project: &str, include_retired: bool) -> Result<Vec<Fact>> {
        let sql = format!(
            "SELECT {FACT_COLUMNS} FROM facts f WHERE f.project = ?1 AND (?2 OR f.status = 'active')
             ORDER BY f.created_at DESC, f.id DESC"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![project, include_retired], fact_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    // ---- digests --------------------------------------------------------------------------

    /// Saves a digest; returns its id. Skipped (returns `None`) when its import key is known.
    pub fn save_digest(
        &mut self,
        project: &str,
        title: &str,
        body: &str,
        created_at: i64,
        import_key: Option<&str>,
    ) -> Result<Option<i64>> {
        self.write(|tx| {
            let inserted = tx.execute(
                "INSERT INTO digests (project, title, body, created_at, import_key) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (project, import_key) WHERE import_key IS NOT NULL DO NOTHING",
                params![project, title, body, created_at, import_key],
            )?;
            Ok((inserted > 0).then(|| tx.last_insert_rowid()))
        })
    }

    /// The project's most recently saved digest, fresh or not.
    pub fn latest_digest(&self, project: &str) -> Result<Option<Digest>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {DIGEST_COLUMNS} FROM digests WHERE project = ?1
             ORDER BY created_at DESC, id DESC LIMIT 1"
        ))?;
        let digest = stmt.query_row([project], |row| Ok(digest_fields!(row, get))).optional()?;
        Ok(digest)
    }

    // ---- status ---------------------------------------------------------------------------

    /// Row counts for a project; `today` decides which active memories count as expired.
    pub fn counts(&self, project: &str, today: &str) -> Result<Counts> {
        let mut counts = Counts::default();
        let mut stmt = self.conn.prepare(
            "SELECT status, (expires_at IS NOT NULL AND expires_at < ?2), count(*) FROM memories
             WHERE project = ?1 GROUP BY 1, 2",
        )?;
        let mut rows = stmt.query(params![project, today])?;
        while let Some(row) = rows.next()? {
            let status: String = row.get(0)?;
            counts.add_memories(&status, row.get(1)?, row.get(2)?);
        }
        let mut stmt = self.conn.prepare("SELECT status, count(*) FROM facts WHERE project = ?1 GROUP BY 1")?;
        let mut rows = stmt.query([project])?;
        while let Some(row) = rows.next()? {
            let status: String = row.get(0)?;
            counts.add_facts(&status, row.get(1)?);
        }
        counts.digests =
            self.conn.query_row("SELECT count(*) FROM digests WHERE project = ?1", [project], |r| r.get(0))?;
        Ok(counts)
    }

    /// Raw SQL for tests that need to damage a store on purpose.
    #[cfg(test)]
    pub(crate) fn execute_batch(&self, sql: &str) -> Result<()> {
        Ok(self.conn.execute_batch(sql)?)
    }
}

/// The id of a memory the import would duplicate: the same import key in the project, or, for a
/// row without a key, a keyless row equal in every field.
fn existing_memory(tx: &Transaction<'_>, m: &NewMemory) -> Result<Option<i64>> {
    if let Some(key) = &m.import_key {
        return Ok(tx
            .query_row(
                "SELECT id FROM memories WHERE project = ?1 AND import_key = ?2",
                params![m.project, key],
                |row| row.get(0),
            )
            .optional()?);
    }
    // `created_at` first: the (project, created_at) index finds the few candidates.
    Ok(tx
        .query_row(
            "SELECT id FROM memories WHERE project = ?1 AND created_at = ?11 AND import_key IS NULL
               AND title = ?2 AND synopsis = ?3 AND body = ?4 AND kind = ?5 AND source = ?6 AND scope_kind IS ?7
               AND scope_key = ?8 AND status = ?9 AND expires_at IS ?10 LIMIT 1",
            params![
                m.project,
                m.title,
                m.synopsis,
                m.body,
                m.kind,
                m.source,
                m.scope_kind,
                m.scope_key,
                m.status.as_str(),
                m.expires_at,
                m.created_at
            ],
            |row| row.get(0),
        )
        .optional()?)
}

/// Inserts one memory; `None` when its import key is already in the project.
fn insert_memory(tx: &Transaction<'_>, m: &NewMemory) -> Result<Option<i64>> {
    let inserted = tx.execute(
        "INSERT INTO memories (project, title, synopsis, body, kind, source, scope_kind, scope_key, status,
                               created_at, expires_at, import_key, project_token)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
         ON CONFLICT (project, import_key) WHERE import_key IS NOT NULL DO NOTHING",
        params![
            m.project,
            m.title,
            m.synopsis,
            m.body,
            m.kind,
            m.source,
            m.scope_kind,
            m.scope_key,
            m.status.as_str(),
            m.created_at,
            m.expires_at,
            m.import_key,
            project_token(&m.project)
        ],
    )?;
    Ok((inserted > 0).then(|| tx.last_insert_rowid()))
}

fn insert_fact(tx: &Transaction<'_>, f: &NewFact) -> Result<Option<i64>> {
    let inserted = tx
        .execute(
            "INSERT INTO facts (project, subject, predicate, object, scope_kind, scope_key, source_memory_id,
                            created_at, expires_at, import_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (project, import_key) WHERE import_key IS NOT NULL DO NOTHING",
            params![
                f.project,
                f.subject,
                f.predicate,
                f.object,
                f.scope_kind,
                f.scope_key,
                f.source_memory_id,
                f.created_at,
                f.expires_at,
                f.import_key
            ],
        )
        .with_context(|| match f.source_memory_id {
            Some(id) => format!("cannot save the fact (does memory {id} exist?)"),
            None => "cannot save the fact".to_string(),
        })?;
    Ok((inserted > 0).then(|| tx.last_insert_rowid()))
}

/// The one search token a project's memories carry: `qp` and 16 hex digits of the name's
/// SHA-256. Two projects sharing a token would only cost speed: visibility is checked on the
/// rows themselves.
pub fn project_token(project: &str) -> String {
    let hash = sha2::Sha256::digest(project.as_bytes());
    let hex: String = hash.iter().take(8).map(|byte| format!("{byte:02x}")).collect();
    format!("qp{hex}")
}

/// An FTS5 string: whatever it holds is text to tokenize, never query syntax.
fn phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// The terms a search ranks, from each term's document count (counted up to [`SEARCH_WINDOW`])
/// and any tag: rarest first, terms at the window dropped and at most [`MAX_RANKED_TERMS`] kept;
/// when every term is that common (the first value answered, `common_only`), the
/// [`MAX_COMMON_TERMS`] rarest. Both backends choose by this one rule.
pub(super) fn choose_terms<T>(mut frequencies: Vec<(i64, T)>) -> (bool, Vec<T>) {
    frequencies.sort_by_key(|(df, _)| *df);
    let common_only = frequencies.first().is_some_and(|(df, _)| *df >= SEARCH_WINDOW);
    let take = if common_only { MAX_COMMON_TERMS } else { MAX_RANKED_TERMS };
    let chosen = frequencies
        .into_iter()
        .filter(|(df, _)| common_only || *df < SEARCH_WINDOW)
        .take(take)
        .map(|(_, term)| term)
        .collect();
    (common_only, chosen)
}

/// Both databases want a signed limit; anything past `i64::MAX` is "no limit" anyway.
pub(super) fn limit_param(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

/// Where the store is: a SQLite file, or a PostgreSQL database named by a `postgres://` URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    Postgres(Box<super::pgconf::PgTarget>),
    /// A `postgres://` setting that cannot be used: the reason, without the password.
    Invalid(String),
}

impl Location {
    /// The file, or the URL without its password.
    pub fn display(&self) -> String {
        match self {
            Location::Sqlite(path) => path.display().to_string(),
            Location::Postgres(target) => target.display().to_string(),
            Location::Invalid(reason) => reason.clone(),
        }
    }
}

/// An open store, on either backend; every command and the wake-up go through it.
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(Box<super::pg::PgStore>),
}

/// Calls the same method on whichever backend the store is.
macro_rules! both {
    ($self:ident, $store:ident => $call:expr) => {
        match $self {
            Store::Sqlite($store) => $call,
            Store::Postgres($store) => $call,
        }
    };
}

impl Store {
    /// Opens the store for writing, creating it when missing, and brings its schema up to date.
    pub fn open_or_create(location: &Location) -> Result<Store> {
        match location {
            Location::Sqlite(path) => SqliteStore::open_or_create(path).map(Store::Sqlite),
            Location::Postgres(target) => {
                match super::pg::PgStore::open(target, super::pgconf::CLI_CONNECT_TIMEOUT, true, true)? {
                    Some(store) => Ok(Store::Postgres(Box::new(store))),
                    None => bail!("cannot create the memory store {}", target.display()),
                }
            }
            Location::Invalid(reason) => bail!("{reason}"),
        }
    }

    /// Opens an existing store; `None` when nothing was ever saved there.
    pub fn open_existing(location: &Location, writable: bool) -> Result<Option<Store>> {
        match location {
            Location::Sqlite(path) => Ok(SqliteStore::open_existing(path, writable)?.map(Store::Sqlite)),
            _ => Store::open_existing_within(location, writable, super::pgconf::CLI_CONNECT_TIMEOUT),
        }
    }

    /// [`Store::open_existing`], giving a PostgreSQL server at most `bound` to accept, and
    /// waiting at most `bound` for another process's lock on a SQLite file.
    pub fn open_existing_within(location: &Location, writable: bool, bound: Duration) -> Result<Option<Store>> {
        match location {
            Location::Sqlite(path) => Ok(SqliteStore::open_existing_waiting(path, writable, bound)?.map(Store::Sqlite)),
            Location::Postgres(target) => {
                Ok(super::pg::PgStore::open(target, bound, false, writable)?
                    .map(|store| Store::Postgres(Box::new(store))))
            }
            Location::Invalid(reason) => bail!("{reason}"),
        }
    }

    /// The file, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Store::Sqlite(store) => store.path().display().to_string(),
            Store::Postgres(store) => store.display().to_string(),
        }
    }

    pub fn schema_version(&self) -> Result<i64> {
        both!(self, s => s.schema_version())
    }

    pub fn add_memory(&mut self, memory: &NewMemory) -> Result<i64> {
        both!(self, s => s.add_memory(memory))
    }

    pub fn import_memories(&mut self, memories: &[NewMemory]) -> Result<(usize, usize)> {
        both!(self, s => s.import_memories(memories))
    }

    pub fn memory(&self, id: i64) -> Result<Option<Memory>> {
        both!(self, s => s.memory(id))
    }

    pub fn forget_memory(&mut self, id: i64) -> Result<bool> {
        both!(self, s => s.forget_memory(id))
    }

    pub fn list_memories(&self, project: Option<&str>, status: Option<Status>, limit: usize) -> Result<Vec<Memory>> {
        both!(self, s => s.list_memories(project, status, limit))
    }

    pub fn recent_memories(&self, reader: &Reader, kind: Option<&str>, limit: usize) -> Result<Vec<Memory>> {
        both!(self, s => s.recent_memories(reader, kind, limit))
    }

    /// See [`SqliteStore::search`]; both backends return the same rows in the same order.
    pub fn search(&self, reader: &Reader, terms: &[String], limit: usize) -> Result<Search> {
        both!(self, s => s.search(reader, terms, limit))
    }

    /// The memories of [`Store::search`].
    pub fn search_memories(&self, reader: &Reader, terms: &[String], limit: usize) -> Result<Vec<Memory>> {
        self.search(reader, terms, limit).map(|found| found.memories)
    }

    pub fn proposed_memories(&self, project: &str, limit: usize) -> Result<Vec<Memory>> {
        both!(self, s => s.proposed_memories(project, limit))
    }

    pub fn count_proposed(&self, project: &str) -> Result<u64> {
        both!(self, s => s.count_proposed(project))
    }

    pub fn each_memory(&self, project: Option<&str>, f: impl FnMut(Memory)) -> Result<()> {
        both!(self, s => s.each_memory(project, f))
    }

    pub fn add_fact(&mut self, fact: &NewFact) -> Result<i64> {
        both!(self, s => s.add_fact(fact))
    }

    /// Imports memories, facts and digests in one transaction: all or nothing.
    pub fn import_rows(&mut self, rows: &ImportRows) -> Result<ImportCounts> {
        both!(self, s => s.import_rows(rows))
    }

    /// Every row of the store, memories first, then facts, then digests, each by id.
    pub fn export(&self, f: impl FnMut(ExportRow) -> Result<()>) -> Result<()> {
        both!(self, s => s.export(f))
    }

    pub fn import_facts(&mut self, facts: &[NewFact]) -> Result<(usize, usize)> {
        both!(self, s => s.import_facts(facts))
    }

    pub fn retire_fact(&mut self, id: i64, now: i64) -> Result<bool> {
        both!(self, s => s.retire_fact(id, now))
    }

    pub fn active_facts(&self, reader: &Reader, limit: usize) -> Result<Vec<Fact>> {
        both!(self, s => s.active_facts(reader, limit))
    }

    pub fn list_facts(&self, project: &str, include_retired: bool) -> Result<Vec<Fact>> {
        both!(self, s => s.list_facts(project, include_retired))
    }

    pub fn save_digest(
        &mut self,
        project: &str,
        title: &str,
        body: &str,
        created_at: i64,
        import_key: Option<&str>,
    ) -> Result<Option<i64>> {
        both!(self, s => s.save_digest(project, title, body, created_at, import_key))
    }

    pub fn latest_digest(&self, project: &str) -> Result<Option<Digest>> {
        both!(self, s => s.latest_digest(project))
    }

    pub fn counts(&self, project: &str, today: &str) -> Result<Counts> {
        both!(self, s => s.counts(project, today))
    }

    /// Raw SQL for tests that need to damage a store on purpose.
    #[cfg(test)]
    pub(crate) fn execute_batch(&self, sql: &str) -> Result<()> {
        match self {
            Store::Sqlite(store) => store.execute_batch(sql),
            Store::Postgres(_) => bail!("raw SQL is for SQLite test stores"),
        }
    }
}
