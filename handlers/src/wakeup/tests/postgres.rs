//! The PostgreSQL store against a real server: the same corpus loaded into SQLite and
//! PostgreSQL must search and wake up identically, and writers on separate connections must lose
//! nothing.
//!
//! The server comes from `$HOOKMUX_TEST_POSTGRES_URL`, a `postgres://` URL of a role that may
//! create databases; each test makes its own database and drops it after. Without the variable
//! the tests print `SKIPPED: <why>`, and fail when `CI=true`.

use super::*;
use crate::wakeup::load::{self, LoadOptions, RANKED_LIMITS};
use crate::wakeup::pgconf::PgTarget;
use crate::wakeup::rank::terms;
use crate::wakeup::relevance::{recall_at, RelevanceSet};
use crate::wakeup::store::{Location, SqliteStore, Status};
use crate::wakeup::{config, render};
use hookmux_sdk::Env;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A database of its own on the test server, dropped when the test ends.
pub struct PgDatabase {
    admin: String,
    name: String,
    pub url: String,
}

static DATABASES: AtomicUsize = AtomicUsize::new(0);

impl PgDatabase {
    /// `None` (after printing why) when no server is configured; a panic under `CI=true`.
    pub fn create(test: &str) -> Option<PgDatabase> {
        let admin = match std::env::var("HOOKMUX_TEST_POSTGRES_URL") {
            Ok(url) if !url.is_empty() => url,
            _ => {
                let why = "HOOKMUX_TEST_POSTGRES_URL is not set (a postgres:// URL of a role that may create \
                           databases; .ci/run starts a server and sets it)";
                let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
                assert!(!ci, "SKIPPED under CI: {test}: {why}");
                // Straight to stderr, past the harness's capture, so a plain `cargo test` shows it.
                let _ =
                    std::io::Write::write_all(&mut std::io::stderr(), format!("SKIPPED: {test}: {why}\n").as_bytes());
                return None;
            }
        };
        let name = format!(
            "hookmux_test_{}_{}_{}",
            std::process::id(),
            DATABASES.fetch_add(1, Ordering::SeqCst),
            SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or_default()
        );
        let mut client = admin_client(&admin);
        client.batch_execute(&format!("CREATE DATABASE \"{name}\"")).expect("create the test database");
        let mut url = url::Url::parse(&admin).expect("HOOKMUX_TEST_POSTGRES_URL is a URL");
        url.set_path(&format!("/{name}"));
        Some(PgDatabase { admin, name, url: url.to_string() })
    }

    pub fn location(&self) -> Location {
        Location::Postgres(Box::new(PgTarget::parse(&self.url, &Env::from_process()).expect("test URL parses")))
    }

    pub fn store(&self) -> Store {
        Store::open_or_create(&self.location()).expect("open the PostgreSQL store")
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        let mut client = admin_client(&self.admin);
        let _ = client.batch_execute(&format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name));
    }
}

fn admin_client(url: &str) -> ::postgres::Client {
    let target = PgTarget::parse(url, &Env::from_process()).expect("HOOKMUX_TEST_POSTGRES_URL parses");
    target.connect(Duration::from_secs(10)).expect("connect to the test server")
}

/// A deterministic pseudo-random sequence (a 64-bit LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % below.max(1)
    }
}

const COMMON: &[&str] = &["service", "deploy", "config", "error"];
const WORDS: &[&str] = &[
    "retry",
    "retries",
    "retrying",
    "cache",
    "caching",
    "tenant",
    "redis",
    "postgres",
    "index",
    "indexes",
    "migration",
    "pool",
    "queue",
    "webhook",
    "signature",
    "invoice",
    "rounding",
    "currency",
    "token",
    "session",
    "cookie",
    "oauth",
    "callback",
    "probe",
    "memory",
    "limit",
    "export",
    "bucket",
    "reindex",
    "alias",
    "bounce",
    "bundle",
    "route",
    "locale",
    "cursor",
    "pagination",
    "vault",
    "secret",
    "backup",
    "restore",
    "push",
    "sampling",
    "latency",
    "timeout",
    "jitter",
    "backoff",
    "ledger",
    "refund",
    "payment",
    "schema",
    "lock",
    "advisory",
    "replica",
    "failover",
    "Café",
    "naïve",
    "résumé",
    "नमस्ते",
    "दुनिया",
    "x²",
    "über",
    "straße",
    "ÆON",
    "dœuvre",
    "a1b2",
    "v2",
    "42",
];

fn sentence(rng: &mut Lcg, most: usize) -> String {
    let words = rng.next(most);
    let mut out: Vec<&str> = Vec::new();
    for _ in 0..words {
        if rng.next(3) == 0 {
            out.push(COMMON[rng.next(COMMON.len())]);
        } else {
            out.push(WORDS[rng.next(WORDS.len())]);
        }
    }
    out.join(" ")
}

/// 720 memories over three projects with every scope, status and expiry, shared words common
/// enough that some prompts rank only common terms, repeated texts (equal scores) and equal
/// creation times (ties broken by id).
fn corpus() -> Vec<NewMemory> {
    let mut rng = Lcg(20_260_420);
    let mut memories = Vec::new();
    for i in 0..720_i64 {
        let project = ["alpha", "beta", "gamma"][usize::try_from(i % 3).unwrap_or(0)];
        let title = if i % 31 == 0 {
            "service deploy config".to_string()
        } else {
            format!("{} {}", WORDS[rng.next(WORDS.len())], sentence(&mut rng, 5))
        };
        let mut memory = NewMemory::new(project, &title, now_ms() - (i / 3) * HOUR);
        memory.synopsis = if i % 4 == 0 { String::new() } else { sentence(&mut rng, 8) };
        memory.body = if i % 31 == 0 { "service deploy config".to_string() } else { sentence(&mut rng, 40) };
        memory.kind = ["note", "decision", "task", "incident"][rng.next(4)].to_string();
        match i % 23 {
            0 | 1 => memory.scope_kind = Some("global".into()),
            2 => (memory.scope_kind, memory.scope_key) = (Some("user".into()), "tester".into()),
            3 => (memory.scope_kind, memory.scope_key) = (Some("user".into()), "other".into()),
            4 => (memory.scope_kind, memory.scope_key) = (Some("session".into()), "s1".into()),
            5 => memory.scope_kind = Some("team".into()),
            _ => {}
        }
        memory.status = match i % 29 {
            0 => Status::Proposed,
            1 => Status::Rejected,
            _ => Status::Active,
        };
        memory.expires_at = match i % 17 {
            0 => Some("2026-04-19".into()),
            1 => Some("2026-05-01".into()),
            _ => None,
        };
        memories.push(memory);
    }
    memories
}

fn readers() -> Vec<Reader> {
    let reader = |project: &str, identity: Option<&str>, session: Option<&str>, include_expired: bool| Reader {
        project: project.into(),
        identity: identity.map(str::to_string),
        session: session.map(str::to_string),
        agent: None,
        today: crate::wakeup::dates::date_of(now_ms()),
        include_expired,
    };
    vec![
        reader("alpha", Some("tester"), None, false),
        reader("beta", None, Some("s1"), false),
        reader("gamma", Some("other"), None, true),
        reader("nowhere", None, None, false),
    ]
}

fn prompts(set: &RelevanceSet) -> Vec<String> {
    let mut rng = Lcg(7);
    let mut prompts: Vec<String> = set.prompts.iter().map(|p| p.prompt.clone()).collect();
    for _ in 0..150 {
        prompts.push(format!("{} {}", WORDS[rng.next(WORDS.len())], sentence(&mut rng, 6)));
    }
    prompts.extend(
        [
            "service deploy config error",
            "service",
            "deploy the service config",
            "the and of",
            "cafe naive resume",
            "नमस्ते दुनिया",
            "uber strasse aeon",
            "retrying retries retry",
            "x2 v2 42 a1b2",
            "\"quoted\" NEAR(a b) OR -minus col:umn *",
        ]
        .map(str::to_string),
    );
    prompts
}

fn relevance_set() -> RelevanceSet {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/relevance/set.json");
    RelevanceSet::load(&path).expect("the relevance set loads")
}

/// Loads the corpus into a store, the way a user's writes would: one import, single adds,
/// facts, digests, and a few memories forgotten.
fn fill(store: &mut Store, set: &RelevanceSet) {
    let corpus = corpus();
    let (bulk, single) = corpus.split_at(600);
    assert_eq!(store.import_memories(bulk).expect("import"), (600, 0));
    for memory in single {
        store.add_memory(memory).expect("add");
    }
    store.import_memories(&set.new_memories("alpha", now_ms() - 400 * DAY)).expect("relevance set");
    for id in [5, 77, 301, 455] {
        assert!(store.forget_memory(id).expect("forget"), "memory {id} existed");
    }
    for (index, project) in ["alpha", "beta", "alpha"].iter().enumerate() {
        let fact = NewFact {
            project: project.to_string(),
            subject: format!("svc{index}"),
            predicate: "uses".into(),
            object: "postgres".into(),
            source_memory_id: Some(10 + index as i64),
            created_at: now_ms() - index as i64 * HOUR,
            ..NewFact::default()
        };
        store.add_fact(&fact).expect("fact");
    }
    store.retire_fact(2, now_ms()).expect("retire");
    store.save_digest("alpha", "Last week", "Moved the queue to SQS.", now_ms() - DAY, None).expect("digest");
}

#[test]
fn postgres_searches_and_wakes_up_exactly_as_sqlite() {
    let Some(database) = PgDatabase::create("postgres_searches_and_wakes_up_exactly_as_sqlite") else { return };
    let world = World::new();
    let set = relevance_set();
    let mut sqlite = world.store();
    let mut postgres = database.store();
    fill(&mut sqlite, &set);
    fill(&mut postgres, &set);

    let prompts = prompts(&set);
    let mut compared = 0;
    let mut common_only = 0;
    for reader in readers() {
        for prompt in &prompts {
            let words = terms(prompt);
            let expected = sqlite.search_memories(&reader, &words, 25).expect("sqlite search");
            let actual = postgres.search_memories(&reader, &words, 25).expect("postgres search");
            assert_eq!(
                actual.iter().map(|m| m.id).collect::<Vec<_>>(),
                expected.iter().map(|m| m.id).collect::<Vec<_>>(),
                "prompt {prompt:?}, reader {reader:?}"
            );
            assert_eq!(actual, expected, "prompt {prompt:?}");
            compared += usize::from(!expected.is_empty());
            common_only += usize::from(words.iter().all(|w| COMMON.contains(&w.as_str())) && !expected.is_empty());
        }
    }
    assert!(compared > 400, "most searches find something: {compared}");
    assert!(common_only >= 4, "prompts of only common terms were ranked: {common_only}");

    // The whole wake-up: every section, cap, order and the debug line.
    let project = config::Project::named("alpha", config::ProjectSource::Key);
    for reader in readers() {
        for prompt in prompts.iter().take(40).map(Some).chain([None]) {
            let options = LoadOptions {
                reader: &reader,
                limits: RANKED_LIMITS,
                user_query: prompt.map(String::as_str),
                include_proposed: true,
                include_coverage: true,
                caps: Some(RANKED_LIMITS.caps()),
                now: now_ms(),
            };
            let expected = load::load(Some(&sqlite), &options).expect("sqlite load");
            let actual = load::load(Some(&postgres), &options).expect("postgres load");
            assert_eq!(actual, expected, "prompt {prompt:?}");
            assert_eq!(render::render(&project, &actual, now_ms()), render::render(&project, &expected, now_ms()));
        }
    }
    for project in ["alpha", "beta", "gamma", "nowhere"] {
        assert_eq!(postgres.counts(project, "2026-04-20").unwrap(), sqlite.counts(project, "2026-04-20").unwrap());
        assert_eq!(postgres.list_facts(project, true).unwrap(), sqlite.list_facts(project, true).unwrap());
        assert_eq!(postgres.latest_digest(project).unwrap(), sqlite.latest_digest(project).unwrap());
        assert_eq!(postgres.proposed_memories(project, 50).unwrap(), sqlite.proposed_memories(project, 50).unwrap());
        assert_eq!(
            postgres.list_memories(Some(project), None, 1000).unwrap(),
            sqlite.list_memories(Some(project), None, 1000).unwrap()
        );
    }

    // The relevance set: the same recall on both, since the rankings are the same.
    let reader = &readers()[0];
    let (sqlite_recall, sqlite_tops) = recall_at(&sqlite, &set, reader, 3).unwrap();
    let (postgres_recall, postgres_tops) = recall_at(&postgres, &set, reader, 3).unwrap();
    assert_eq!(postgres_tops, sqlite_tops);
    assert_eq!(postgres_recall.to_bits(), sqlite_recall.to_bits());
}

#[test]
fn import_keys_deduplicate_as_on_sqlite() {
    let Some(database) = PgDatabase::create("import_keys_deduplicate_as_on_sqlite") else { return };
    let mut store = database.store();
    let mut keyed = memory("p", "keyed", HOUR);
    keyed.import_key = Some("k1".into());
    assert_eq!(store.import_memories(&[keyed.clone(), keyed.clone()]).unwrap(), (1, 1));
    assert_eq!(store.import_memories(&[keyed.clone()]).unwrap(), (0, 1));
    let mut elsewhere = keyed.clone();
    elsewhere.project = "q".into();
    assert_eq!(store.import_memories(&[elsewhere]).unwrap(), (1, 0), "keys are per project");
    let digest = store.save_digest("p", "t", "b", now_ms(), Some("d1")).unwrap();
    assert!(digest.is_some());
    assert_eq!(store.save_digest("p", "t", "b", now_ms(), Some("d1")).unwrap(), None);
    let err = store.add_fact(&NewFact { project: "p".into(), source_memory_id: Some(999), ..NewFact::default() });
    assert!(format!("{:#}", err.unwrap_err()).contains("does memory 999 exist?"));
    let reader = Reader { project: "p".into(), ..readers()[3].clone() };
    let found = store.search_memories(&reader, &terms("keyed"), 10).unwrap();
    assert_eq!(found.len(), 1, "the skipped duplicate left no search entry");
}

#[test]
fn eight_connections_adding_500_memories_each_leave_exactly_4000() {
    let Some(database) = PgDatabase::create("eight_connections_adding_500_memories_each") else { return };
    drop(database.store());
    std::thread::scope(|scope| {
        for writer in 0..8 {
            let database = &database;
            scope.spawn(move || {
                let mut store = database.store();
                for i in 0..500 {
                    let memory = memory("race", &format!("writer {writer} memory {i}"), HOUR);
                    store.add_memory(&memory).expect("add");
                }
            });
        }
    });
    let store = database.store();
    let all = store.list_memories(Some("race"), None, 10_000).unwrap();
    assert_eq!(all.len(), 4000);
    let mut ids: Vec<i64> = all.iter().map(|m| m.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 4000);
    let reader = Reader { project: "race".into(), ..readers()[3].clone() };
    assert_eq!(store.search_memories(&reader, &terms("499"), 100).unwrap().len(), 8, "every search entry is there");
}

#[test]
fn machines_starting_at_once_migrate_once() {
    let Some(database) = PgDatabase::create("machines_starting_at_once_migrate_once") else { return };
    std::thread::scope(|scope| {
        for _ in 0..6 {
            scope.spawn(|| {
                let store = database.store();
                assert_eq!(store.schema_version().unwrap(), crate::wakeup::pg::SCHEMA_VERSION);
            });
        }
    });
    let mut client = admin_client(&database.url);
    let rows = client.query("SELECT version FROM schema_migrations ORDER BY version", &[]).unwrap();
    let versions: Vec<i32> = rows.iter().map(|row| row.get(0)).collect();
    assert_eq!(versions, (1..=crate::wakeup::pg::SCHEMA_VERSION as i32).collect::<Vec<_>>());
}

#[test]
fn an_empty_database_is_an_empty_store_until_written() {
    let Some(database) = PgDatabase::create("an_empty_database_is_an_empty_store") else { return };
    assert!(Store::open_existing(&database.location(), true).unwrap().is_none(), "reading creates nothing");
    drop(database.store());
    let store = Store::open_existing(&database.location(), false).unwrap().expect("created by the writer");
    assert!(store.describe().starts_with("postgres"));
    let _ = SqliteStore::open_existing(Path::new("/nonexistent/lore.db"), false);
}

/// Recall at 3 of the labelled relevance set, on SQLite always and on PostgreSQL when a server is
/// configured: the figure a ranking change must not lower. `cargo test -p hookmux-handlers
/// relevance_recall -- --nocapture` prints it.
#[test]
fn relevance_recall_at_3_on_both_backends() {
    let set = relevance_set();
    let reader = &readers()[0];
    let world = World::new();
    let mut sqlite = world.store();
    sqlite.import_memories(&set.new_memories("alpha", now_ms() - 400 * DAY)).unwrap();
    let (recall, tops) = recall_at(&sqlite, &set, reader, 3).unwrap();
    println!("recall@3 over {} prompts: sqlite {recall:.3}", set.prompts.len());
    for (prompt, top) in set.prompts.iter().zip(&tops) {
        if !prompt.relevant.iter().any(|key| top.contains(key)) {
            println!("  missed: {:?} -> {top:?} (wanted {:?})", prompt.prompt, prompt.relevant);
        }
    }
    assert!(recall >= 0.8, "recall@3 fell to {recall:.3}");
    let Some(database) = PgDatabase::create("relevance_recall_at_3_on_both_backends") else { return };
    let mut postgres = database.store();
    postgres.import_memories(&set.new_memories("alpha", now_ms() - 400 * DAY)).unwrap();
    let (pg_recall, pg_tops) = recall_at(&postgres, &set, reader, 3).unwrap();
    println!("recall@3 over {} prompts: postgres {pg_recall:.3}", set.prompts.len());
    assert_eq!(pg_tops, tops, "the same top 3 for every prompt");
}

/// TLS through rustls against the test server's own CA (`$HOOKMUX_TEST_POSTGRES_CA`, which
/// `.ci/postgres-cluster` makes): `sslrootcert` trusts it, the built-in roots do not, and no
/// mode falls back to an unverified certificate.
#[test]
fn tls_verifies_the_server_against_sslrootcert() {
    let Some(database) = PgDatabase::create("tls_verifies_the_server_against_sslrootcert") else { return };
    let Some(ca) = std::env::var("HOOKMUX_TEST_POSTGRES_CA").ok().filter(|ca| Path::new(ca).is_file()) else {
        let why = "HOOKMUX_TEST_POSTGRES_CA names no CA file (.ci/postgres-cluster makes one)";
        let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
        assert!(!ci, "SKIPPED under CI: {why}");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), format!("SKIPPED: {why}\n").as_bytes());
        return;
    };
    let mut url = url::Url::parse(&database.url).unwrap();
    url.set_host(Some("localhost")).unwrap();
    let with = |query: &str| {
        let mut url = url.clone();
        url.set_query(Some(query));
        PgTarget::parse(url.as_str(), &Env::from_process()).expect("parses")
    };
    let trusted = with(&format!("sslmode=require&sslrootcert={ca}"));
    let mut client = trusted.connect(Duration::from_secs(10)).expect("TLS with the server's CA");
    let row = client.query_one("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", &[]).unwrap();
    assert!(row.get::<_, bool>(0), "the session is encrypted");
    let store = Store::open_or_create(&Location::Postgres(Box::new(trusted))).expect("a store over TLS");
    assert_eq!(store.schema_version().unwrap(), crate::wakeup::pg::SCHEMA_VERSION);

    for query in ["sslmode=require", "sslmode=verify-full", "sslmode=prefer"] {
        let err = with(query).connect(Duration::from_secs(10)).map(drop).unwrap_err().to_string();
        assert!(err.contains("cannot connect to postgres://") && err.contains("certificate"), "{query}: {err}");
    }
    let missing = with("sslmode=require&sslrootcert=/nonexistent/ca.pem").connect(Duration::from_secs(10));
    assert!(missing.map(drop).unwrap_err().to_string().contains("cannot read sslrootcert /nonexistent/ca.pem"));
    let plain = with("").connect(Duration::from_secs(10)).expect("localhost: no TLS by default");
    drop(plain);
}
