//! What the dispatch trace costs: whole dispatches in-process (settings read, plan, handlers,
//! combine, encode, and the trace line written under its lock), with the trace on and off.
//!
//! `nomatch`: a Bash call against twenty groups for other tools, the common case of a hook that
//! does not fire. `builtins`: a Write through five in-process protect-paths handlers.

use criterion::{criterion_group, criterion_main, Criterion};
use hookmux::engine::dispatch::{DispatchOptions, World};
use hookmux::engine::trace::{Record, Recorder, TraceMode};
use hookmux::host::{self, Host};
use hookmux_sdk::Env;
use std::hint::black_box;
use std::path::Path;
use std::time::{Instant, SystemTime};

fn nomatch() -> String {
    let groups: Vec<String> = (0..20)
        .map(|i| {
            format!(
                r#"{{"matcher": "Write|Edit|mcp__srv{i}__.*", "hooks": [{{"type": "command", "command": "./hooks/check-{i}.sh", "timeout": 10}}]}}"#
            )
        })
        .collect();
    format!(r#"{{"hooks": {{"PreToolUse": [{}]}}}}"#, groups.join(","))
}

fn builtins() -> String {
    let options =
        ["", " --include-read", " --deny 'secrets/**'", " --allow .env.example", " --no-defaults --deny '*.pem'"];
    let hooks: Vec<String> = options
        .iter()
        .map(|o| format!(r#"{{"type": "command", "command": "hookmux run protect-paths{o}"}}"#))
        .collect();
    format!(r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Edit|Write", "hooks": [{}]}}]}}}}"#, hooks.join(","))
}

/// The fixture's event with its paths moved into `dir`.
fn event(name: &str, dir: &Path) -> Vec<u8> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/events").join(name)).unwrap();
    text.replace("/home/dev/acme", &dir.to_string_lossy()).into_bytes()
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("tmp")).unwrap();
    std::fs::write(root.join("nomatch.json"), nomatch()).unwrap();
    std::fs::write(root.join("builtins.json"), builtins()).unwrap();
    let mut group = c.benchmark_group("dispatch");
    for (name, settings, fixture) in
        [("nomatch", "nomatch.json", "PreToolUse-Bash.json"), ("builtins", "builtins.json", "PreToolUse-Write.json")]
    {
        let stdin = event(fixture, root);
        let options = DispatchOptions { settings: vec![root.join(settings)], ..DispatchOptions::default() };
        for trace in ["off", "on"] {
            let mut env: Env =
                [("HOME", root.as_os_str()), ("TMPDIR", root.join("tmp").as_os_str())].into_iter().collect();
            env.set("HOOKMUX_TRACE_DIR", root.join("trace"));
            if trace == "off" {
                env.set("HOOKMUX_TRACE", "0");
            }
            group.bench_function(format!("{name}, trace {trace}"), |b| {
                b.iter(|| {
                    let world = World::new(env.clone(), root.to_path_buf());
                    host::dispatch(Host::Claude, black_box(stdin.clone()), &world, &options).exit_code
                })
            });
        }
    }
    // The trace's own part alone, without the handlers' thread scheduling around it: prepare the
    // folder, serialize the builtins dispatch's record, append it under the lock.
    let line = std::fs::read_to_string(root.join("trace/trace.jsonl")).unwrap();
    let record: Record = serde_json::from_str(line.lines().last().unwrap()).unwrap();
    let mut env: Env = [("HOME", root.as_os_str())].into_iter().collect();
    env.set("HOOKMUX_TRACE_DIR", root.join("trace"));
    group.bench_function("the trace line alone (builtins' record)", |b| {
        b.iter(|| {
            let recorder = Recorder::default();
            recorder.start(&env, TraceMode::On, black_box(record.clone()), (SystemTime::now(), Instant::now()));
            recorder.finish("claude", 0, "{}", "");
        })
    });
    group.finish();
    let lines = std::fs::read_to_string(root.join("trace/trace.jsonl")).map(|t| t.lines().count()).unwrap_or(0);
    eprintln!("trace lines in the current file: {lines}");
}

criterion_group!(trace_benches, benches);
criterion_main!(trace_benches);
