//! Matching what the model controls: a matcher regex against a tool name, an `if: "Bash(…)"` rule
//! against a nested command line, and the Bash splitter alone.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use hookmux::engine::select::matcher::group_verdict;
use hookmux::engine::select::rule::Rule;
use hookmux_sdk::{bash, Event, HookEvent};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

/// `echo $(` repeated until the line is about `bytes` long, closed again.
fn nested(bytes: usize) -> String {
    let levels = bytes / "echo $()".len();
    format!("{}ls{}", "echo $(".repeat(levels), ")".repeat(levels))
}

fn bash_event(command: &str) -> Event {
    let json = serde_json::json!({
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": { "command": command },
    });
    Event::parse(&json.to_string())
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("bash nesting");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    let rule = Rule::parse("Bash(rm *)").expect("a valid rule");
    for bytes in [8 << 10, 32 << 10, 1 << 20] {
        let line = nested(bytes);
        group.bench_with_input(BenchmarkId::new("subcommands", bytes), &line, |b, line| {
            b.iter(|| bash::subcommands(black_box(line)).map(|c| c.len()))
        });
        let event = bash_event(&line);
        group.bench_with_input(BenchmarkId::new("if Bash(rm *)", bytes), &event, |b, event| {
            b.iter(|| rule.verdict(black_box(event), Path::new("/srv"), None))
        });
    }
    group.finish();

    // Nesting is refused at its 33rd level, so the longest work is a long line within the cap:
    // 1 MB of substitutions two deep, every byte read once and tested at most three times.
    let mut group = c.benchmark_group("bash 1 MB within the cap");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    let unit = "echo $(cat $(ls)) | ";
    let line = unit.repeat((1 << 20) / unit.len());
    group.bench_function("subcommands", |b| b.iter(|| bash::subcommands(black_box(&line)).map(|c| c.len())));
    let event = bash_event(&line);
    group.bench_function("if Bash(rm *)", |b| b.iter(|| rule.verdict(black_box(&event), Path::new("/srv"), None)));
    group.finish();

    // `(a+)+$` takes twice as long for each `a` more. 16 `a`s answer within the bound, so this is
    // the regex plus the worker thread; from about 20 on the bound decides, and since a runaway
    // keeps its thread until it ends, repeated calls in one process measure the bound's state
    // rather than one call: benches/matching.sh times those as whole dispatches.
    let mut group = c.benchmark_group("matcher (a+)+$");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    let name = format!("{}b", "a".repeat(16));
    group.bench_with_input(BenchmarkId::from_parameter(16), &name, |b, name| {
        b.iter(|| group_verdict(Some("(a+)+$"), HookEvent::PreToolUse, Some(black_box(name))))
    });
    group.finish();

    c.bench_function("matcher mcp__.*__write.* (safe shape)", |b| {
        b.iter(|| {
            group_verdict(Some("mcp__.*__write.*"), HookEvent::PreToolUse, Some(black_box("mcp__fs__write_file")))
        })
    });
}

criterion_group!(matching_benches, benches);
criterion_main!(matching_benches);
