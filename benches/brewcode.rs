//! The brewcode handlers in-process, as `hookmux dispatch` runs them: one call from the parsed
//! event to the encoded answer, on the conformance fixtures (a real project on disk).
//!
//! `benches/brewcode.sh` measures the same handlers as whole processes against Node.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use hookmux::engine::execute::builtin::{self, Invocation};
use hookmux_sdk::{Env, Event, Registry};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// What a call changes that the next call must find as before.
enum Restore {
    Nothing,
    /// The reminder's stamp, made an hour old so that the next call reminds again (as a real
    /// call an hour later would: the file exists and is rewritten).
    Age(&'static str),
    /// Files a call rewrites, copied back from the fixture.
    Copy(&'static [&'static str]),
}

/// The handler, the scenario it runs on, and what to put back before each call (not timed). The
/// project otherwise stays as calls leave it: its folders and log exist, as in a real project.
const CASES: &[(&str, &str, Restore)] = &[
    ("compact-handoff", "ss-compact-bound-v2", Restore::Nothing),
    ("grepai-status", "gs-index-missing", Restore::Nothing),
    ("grepai-status", "gs-running", Restore::Nothing),
    ("knowledge-inject", "pt-developer-bound", Restore::Nothing),
    ("grepai-reminder", "gr-first-reminder", Restore::Age(".grepai/.reminder-ts")),
    ("task-bind", "po-worker-done", Restore::Nothing),
    ("knowledge-compact", "pc-below-threshold", Restore::Nothing),
    (
        "knowledge-compact",
        "pc-at-threshold",
        Restore::Copy(&[".claude/tasks/20260201-120000_auth_refactor_task", ".claude/tasks/cfg"]),
    ),
    ("stop-guard", "st-incomplete-v2-block", Restore::Nothing),
];

/// A scenario made real: `project/` and `home/` copied with their placeholders filled in.
struct Fixture {
    root: tempfile::TempDir,
    event: String,
}

impl Fixture {
    fn new(scenario: &str) -> Fixture {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/brewcode/bench").join(scenario);
        let root = tempfile::Builder::new().prefix("hookmux-bench-").tempdir().expect("temp dir");
        let fixture = Fixture { root, event: String::new() };
        for area in ["project", "home", "tmp"] {
            std::fs::create_dir_all(fixture.root.path().join(area)).unwrap();
            copy_tree(&source.join(area), &fixture.root.path().join(area), &|text| fixture.fill(text));
        }
        if matches!(scenario, "gr-first-reminder" | "gs-running") {
            let index = fixture.project().join(".grepai/index.gob");
            std::fs::File::create(index).unwrap().set_len(150_000).unwrap();
        }
        if scenario == "gs-running" {
            // The parts answer through their pid files, as `grepai watch --background` leaves them.
            for pid_file in ["watch.pid", "mcp-serve.pid"] {
                std::fs::write(fixture.project().join(".grepai").join(pid_file), std::process::id().to_string())
                    .unwrap();
            }
        }
        let event = fixture.fill(&std::fs::read_to_string(source.join("event.json")).expect("event.json"));
        Fixture { event, ..fixture }
    }

    fn project(&self) -> PathBuf {
        self.root.path().join("project")
    }

    /// Replaces `{{PROJECT}}`, `{{HOME}}`, `{{TMP}}` and `{{NOW-Nh}}` as the conformance sandbox does.
    fn fill(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (token, area) in [("{{PROJECT}}", "project"), ("{{HOME}}", "home"), ("{{TMP}}", "tmp")] {
            out = out.replace(token, &self.root.path().join(area).to_string_lossy());
        }
        while let Some(start) = out.find("{{NOW") {
            let end = start + out[start..].find("}}").expect("closed placeholder") + 2;
            let hours: u64 = out[start + 6..end - 3].parse().unwrap_or(0);
            let at = SystemTime::now() - Duration::from_secs(hours * 3600);
            out.replace_range(start..end, &hookmux_handlers::brewcode::to_iso_string(at));
        }
        out
    }

    /// Puts back what a call changed.
    fn restore(&self, scenario: &str, restore: &Restore) {
        match restore {
            Restore::Nothing => {}
            Restore::Age(rel) => {
                if let Ok(file) = std::fs::File::open(self.project().join(rel)) {
                    let _ = file.set_modified(SystemTime::now() - Duration::from_secs(3600));
                }
            }
            Restore::Copy(paths) => {
                let source = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("fixtures/brewcode/bench")
                    .join(scenario)
                    .join("project");
                for rel in *paths {
                    let target = self.project().join(rel);
                    let _ = std::fs::remove_dir_all(&target);
                    copy_tree(&source.join(rel), &target, &|text| self.fill(text));
                }
            }
        }
    }
}

fn copy_tree(from: &Path, to: &Path, fill: &dyn Fn(&str) -> String) {
    let Ok(entries) = std::fs::read_dir(from) else { return };
    std::fs::create_dir_all(to).unwrap();
    for entry in entries.flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target, fill);
        } else {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            std::fs::write(target, fill(&text)).unwrap();
        }
    }
}

fn benches(c: &mut Criterion) {
    let registry = Registry::global().expect("no duplicate handlers");
    let mut group = c.benchmark_group("brewcode in-process");
    for (name, scenario, restore) in CASES {
        let fixture = Fixture::new(scenario);
        let handler = registry.get(name).expect("registered");
        let env: Env = [("HOME", fixture.root.path().join("home")), ("PATH", fixture.root.path().join("tmp"))]
            .into_iter()
            .collect();
        let invocation = Invocation::for_process(Event::parse(&fixture.event), env, fixture.project(), false);
        let label = match *scenario {
            "gs-running" => format!("{name} (pid files)"),
            "pc-below-threshold" => format!("{name} (below the threshold)"),
            "pc-at-threshold" => format!("{name} (compacting 80 entries)"),
            _ => name.to_string(),
        };
        group.bench_function(label, |b| {
            b.iter_batched(
                || fixture.restore(scenario, restore),
                |()| builtin::call(handler, &[], &invocation),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
    floors(c);
}

/// What the kernel charges for the file effects alone, measured beside the handlers so that the
/// README can say how far above the floor each call is: reading every process's command line
/// (`grepai-status`'s fallback when grepai left no pid files) and replacing a file atomically
/// (`knowledge-compact` replaces PLAN.md and the state file, and KNOWLEDGE.jsonl when it
/// compacts). Replacing costs more than writing a new file on filesystems that flush the new
/// data before such a rename (ext4's `auto_da_alloc`), which is what keeps the old or the new
/// content, never an empty file, after a crash.
fn floors(c: &mut Criterion) {
    let mut group = c.benchmark_group("floor");
    group.bench_function("open, read and close every /proc/<pid>/cmdline", |b| {
        let mut buffer = vec![0u8; 16 * 1024];
        b.iter(|| {
            let mut read = 0;
            for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
                if !entry.file_name().as_encoded_bytes().iter().all(u8::is_ascii_digit) {
                    continue;
                }
                let mut path = entry.path();
                path.push("cmdline");
                if let Ok(mut file) = std::fs::File::open(&path) {
                    read += std::io::Read::read(&mut file, &mut buffer).unwrap_or(0);
                }
            }
            read
        })
    });
    let dir = tempfile::Builder::new().prefix("hookmux-bench-").tempdir().expect("temp dir");
    let target = dir.path().join("PLAN.md");
    let temp = dir.path().join("PLAN.md.tmp");
    let text = "status: handoff\n".repeat(100);
    std::fs::write(&target, &text).expect("write");
    group.bench_function("replace a 1.6 KB file (temp file + rename over it)", |b| {
        b.iter(|| {
            std::fs::write(&temp, &text).expect("write");
            std::fs::rename(&temp, &target).expect("rename");
        })
    });
    group.bench_function("write a new 1.6 KB file (temp file + rename to a free name)", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_file(&target);
            },
            |()| {
                std::fs::write(&temp, &text).expect("write");
                std::fs::rename(&temp, &target).expect("rename");
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(brewcode_benches, benches);
criterion_main!(brewcode_benches);
