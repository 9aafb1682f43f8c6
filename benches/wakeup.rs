//! Wake-up in-process, as `hookmux dispatch` calls it on a worker thread: the whole handler
//! (configuration, store, ranking, rendering) on the ranked path, against stores of 1k and 10k
//! memories with a varied vocabulary. `benches/wakeup.sh` measures the whole process.

use criterion::{criterion_group, criterion_main, Criterion};
use hookmux::engine::execute::builtin::{self, Invocation};
use hookmux_handlers::wakeup::store::{Location, NewMemory, Store};
use hookmux_sdk::{Env, Event, Registry};
use std::hint::black_box;
use std::path::Path;

/// A deterministic generator of skewed (Zipf-like) words: a few common, a long tail of rare.
struct Words {
    state: u64,
    vocabulary: Vec<String>,
}

impl Words {
    fn new() -> Words {
        let syllables = ["ka", "lo", "mi", "ren", "tas", "vo", "qui", "zel", "dar", "fen", "gol", "hu", "jin", "kor"];
        let mut vocabulary = Vec::new();
        for a in syllables {
            for b in syllables {
                for c in ["", "ba", "tu", "ne", "ro", "sa", "li", "po", "de", "xi", "mo"] {
                    vocabulary.push(format!("{a}{b}{c}"));
                }
            }
        }
        Words { state: 0x9e37_79b9_7f4a_7c15, vocabulary }
    }

    fn next(&mut self) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }

    fn text(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| {
                // Squaring a uniform draw skews it towards the low (common) ranks.
                let u = (self.next() % 10_000) as f64 / 10_000.0;
                self.vocabulary[((u * u) * self.vocabulary.len() as f64) as usize].clone()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn store(path: &Path, project: &str, n: usize) {
    let mut words = Words::new();
    let memories: Vec<NewMemory> = (0..n)
        .map(|i| {
            let mut memory = NewMemory::new(project, &words.text(8), 1_700_000_000_000 + i as i64 * 60_000);
            memory.synopsis = words.text(14);
            memory.body = words.text(90);
            memory
        })
        .collect();
    Store::open_or_create(&Location::Sqlite(path.to_path_buf()))
        .expect("store")
        .import_memories(&memories)
        .expect("import");
}

fn benches(c: &mut Criterion) {
    let registry = Registry::global().expect("registry");
    let handler = registry.get("wakeup").expect("wakeup is registered");
    for n in [1_000, 10_000] {
        let dir = tempfile::tempdir().expect("temp dir");
        let project = dir.path().join("project");
        std::fs::create_dir_all(&project).expect("project");
        let project = hookmux_platform::fs::canonicalize(project).expect("canonical");
        let db = dir.path().join("lore.db");
        store(&db, &project.to_string_lossy(), n);
        let prompt =
            format!("Can you help me {} and make sure the tests pass?", Words { state: 42, ..Words::new() }.text(35));
        let event = serde_json::json!({"hook_event_name": "UserPromptSubmit", "cwd": project, "prompt": prompt});
        let env: Env = [("LORE_DB", db.as_os_str()), ("CLAUDE_PROJECT_DIR", project.as_os_str())].into_iter().collect();
        let invocation = Invocation::for_process(Event::parse(&event.to_string()), env, project.clone(), false);
        let first = builtin::call(handler, &[], &invocation);
        assert!(String::from_utf8_lossy(&first.stdout).contains("# Lore Context"));
        c.bench_function(&format!("wakeup ranked, {n} memories"), |b| {
            b.iter(|| builtin::call(handler, &[], black_box(&invocation)))
        });
    }
}

criterion_group!(wakeup_benches, benches);
criterion_main!(wakeup_benches);
