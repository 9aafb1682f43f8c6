//! The SQLite store under another process's lock: a real second connection on the same file holds
//! the lock, as another hookmux process or a database browser would.
//!
//! A write waits for the lock as long as the store's wait; the first open's switch to
//! write-ahead logging (which SQLite cannot make wait in its busy handler) waits as long; a write
//! still locked out when its wait is over fails, naming the file, and writes nothing.

use super::{memory, World};
use crate::wakeup::store::{SqliteStore, Store};
use rusqlite::Connection;
use std::sync::mpsc;
use std::time::Duration;

/// Another connection holding the write lock of `path` until `release` is sent (or dropped).
fn hold_write_lock(path: &std::path::Path, release: mpsc::Receiver<()>) -> std::thread::JoinHandle<()> {
    let (held, ready) = mpsc::channel();
    let path = path.to_path_buf();
    let holder = std::thread::spawn(move || {
        let conn = Connection::open(&path).expect("open the holder's connection");
        conn.execute_batch("BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS holder (x); INSERT INTO holder VALUES (1);")
            .expect("take the write lock");
        held.send(()).expect("say the lock is held");
        let _ = release.recv();
        conn.execute_batch("ROLLBACK").expect("release the write lock");
    });
    ready.recv().expect("the holder took the lock");
    holder
}

#[test]
fn the_first_opens_switch_to_wal_waits_for_a_writer_like_any_write() {
    let world = World::new();
    let db = world.db();
    // A file in SQLite's default (rollback) mode, its schema not created yet: the first open
    // switches it to WAL. The switch reads the header, then upgrades to a write, and SQLite
    // answers that upgrade "database is locked" at once while another connection holds the
    // write lock, without its busy handler: a fixed retry budget of a few seconds ran out
    // while the holder still held it.
    Connection::open(&db).expect("create the file").execute_batch("CREATE TABLE seed (x)").expect("seed");
    let (release, released) = mpsc::channel();
    let holder = hold_write_lock(&db, released);
    let opener = std::thread::spawn({
        let db = db.clone();
        move || -> anyhow::Result<i64> {
            let mut store = SqliteStore::create_waiting(&db, Duration::from_secs(120))?;
            store.add_memory(&memory("race", "written after the wait", 0))
        }
    });
    // Longer than such a budget; far shorter than the store's wait.
    std::thread::sleep(Duration::from_secs(6));
    assert!(!opener.is_finished(), "the open waits while the lock is held");
    release.send(()).expect("release");
    holder.join().expect("holder");
    let id = opener.join().expect("opener").expect("the open waited for the lock, then wrote");
    let store = SqliteStore::open_existing(&db, false).expect("reopen").expect("the store exists");
    assert_eq!(store.memory(id).expect("read").map(|m| m.title).as_deref(), Some("written after the wait"));
    let mode: String = Connection::open(&db)
        .expect("open")
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .expect("journal mode");
    assert_eq!(mode, "wal");
}

#[test]
fn a_write_locked_out_past_its_wait_names_the_store_and_writes_nothing() {
    let world = World::new();
    let db = world.db();
    let mut store = world.store();
    let kept = store.add_memory(&memory("race", "kept", 0)).expect("first write");
    drop(store);

    let (release, released) = mpsc::channel();
    let holder = hold_write_lock(&db, released);
    let mut store = SqliteStore::open_existing_waiting(&db, true, Duration::from_millis(200))
        .expect("a reader is not locked out by a WAL writer")
        .expect("the store exists");
    let err = store.add_memory(&memory("race", "refused", 0)).expect_err("the lock is held past the wait");
    let message = format!("{err:#}");
    assert!(message.contains(&db.display().to_string()), "names the file: {message}");
    assert!(message.contains("nothing was written") && message.contains("Run the command again"), "{message}");
    release.send(()).expect("release");
    holder.join().expect("holder");

    // Nothing half-written; the same write succeeds once the lock is free.
    let titles = |store: &SqliteStore| -> Vec<String> {
        store.list_memories(Some("race"), None, 100).expect("list").into_iter().map(|m| m.title).collect()
    };
    assert_eq!(titles(&store), ["kept"]);
    store.add_memory(&memory("race", "refused", 0)).expect("the retry writes");
    let mut listed = titles(&store);
    listed.sort();
    assert_eq!(listed, ["kept", "refused"]);
    assert!(store.memory(kept).expect("read").is_some());
}

#[test]
fn an_open_locked_out_past_its_wait_names_the_store() {
    let world = World::new();
    let db = world.db();
    drop(world.store());
    // An exclusive lock keeps even readers out (another program's `locking_mode=EXCLUSIVE`).
    let (release, released) = mpsc::channel::<()>();
    let (held, ready) = mpsc::channel();
    let holder = std::thread::spawn({
        let db = db.clone();
        move || {
            let conn = Connection::open(&db).expect("open the holder's connection");
            conn.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO memories (project, title, created_at) VALUES ('x', 'held', 0);")
                .expect("take the exclusive lock");
            held.send(()).expect("say the lock is held");
            let _ = released.recv();
            conn.execute_batch("ROLLBACK").expect("release");
        }
    });
    ready.recv().expect("the holder took the lock");
    let location = crate::wakeup::store::Location::Sqlite(db.clone());
    let err = Store::open_existing_within(&location, false, Duration::from_millis(200))
        .err()
        .expect("the store is locked past the wait");
    let message = format!("{err:#}");
    assert!(message.contains(&db.display().to_string()) && message.contains("stayed locked"), "{message}");
    release.send(()).expect("release");
    holder.join().expect("holder");
}
