//! Reading an event whatever the model put in it: one nested far past serde_json's recursion
//! limit, one far larger than any usual event.

use criterion::{criterion_group, criterion_main, Criterion};
use hookmux_sdk::Event;
use std::hint::black_box;

/// A Write whose tool input holds `extra` and a `content` of `content_len` bytes.
fn write_event(content_len: usize, extra: &str) -> String {
    format!(
        r#"{{"session_id":"s1","transcript_path":"","cwd":"/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"/p/.env","content":"{}","extra":{extra}}},"tool_use_id":"t1"}}"#,
        "x".repeat(content_len)
    )
}

fn benches(c: &mut Criterion) {
    let depth = 100_000;
    let deep = write_event(8, &format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
    let large = write_event(64 << 20, "null");
    let mut group = c.benchmark_group("event");
    group.sample_size(10);
    group.bench_function("parse a tool input 100,000 levels deep", |b| {
        b.iter(|| Event::parse(black_box(&deep)).tool_input_str("file_path").is_some())
    });
    group.bench_function("parse a 64 MiB event", |b| {
        b.iter(|| Event::parse(black_box(&large)).tool_input_str("file_path").is_some())
    });
    let parsed = Event::parse(&deep);
    group.bench_function("hook stdin of the deep event, translated", |b| {
        b.iter(|| parsed.with_fields(black_box(parsed.fields().clone())).hook_stdin().len())
    });
    group.finish();
}

criterion_group!(event_benches, benches);
criterion_main!(event_benches);
