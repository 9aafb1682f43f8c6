//! The pure half of dispatch: parsing settings and planning one event.

use criterion::{criterion_group, criterion_main, Criterion};
use hookmux::engine::config::settings::{Scope, SettingsFile};
use hookmux::engine::config::sources::Sources;
use hookmux::engine::select::plan::{plan, PlanOptions};
use hookmux_sdk::Event;
use std::hint::black_box;
use std::path::Path;

/// Twenty groups on tools other than Bash, as a busy project might have, plus one Bash group.
fn settings() -> String {
    let mut groups: Vec<String> = (0..20)
        .map(|i| {
            format!(
                r#"{{"matcher": "Write|Edit|mcp__srv{i}__.*", "hooks": [{{"type": "command", "command": "./hooks/check-{i}.sh", "timeout": 10}}]}}"#
            )
        })
        .collect();
    groups.push(r#"{"matcher": "Bash", "hooks": [{"type": "command", "command": "hookmux run protect-paths", "if": "Bash(git *)"}]}"#.into());
    format!(r#"{{"hooks": {{"PreToolUse": [{}]}}}}"#, groups.join(","))
}

fn benches(c: &mut Criterion) {
    let text = settings();
    let event = Event::parse(include_str!("../fixtures/events/PreToolUse-Bash.json"));
    let options = PlanOptions { project_root: "/home/dev/acme".into(), home: None, session_end_budget: None };

    c.bench_function("parse 21-group settings", |b| {
        b.iter(|| SettingsFile::parse(Path::new("s.json"), Scope::Project, black_box(&text)))
    });
    let sources = Sources::from_files(vec![SettingsFile::parse(Path::new("s.json"), Scope::Project, &text)]);
    c.bench_function("plan PreToolUse:Bash over 21 groups", |b| b.iter(|| plan(black_box(&event), &sources, &options)));
    c.bench_function("parse event", |b| {
        b.iter(|| Event::parse(black_box(include_str!("../fixtures/events/PreToolUse-Bash.json"))))
    });
}

criterion_group!(plan_benches, benches);
criterion_main!(plan_benches);
