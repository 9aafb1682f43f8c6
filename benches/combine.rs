//! Classifying handlers' outputs and folding them into one answer.

use criterion::{criterion_group, criterion_main, Criterion};
use hookmux::engine::execute::RawOutput;
use hookmux::engine::verdict::combine::{combine, Labelled};
use hookmux::engine::verdict::outcome::{classify, Outcome};
use hookmux::host::claude::encode_combined;
use hookmux_sdk::HookEvent;
use std::hint::black_box;
use std::time::Duration;

fn raw(code: i32, stdout: &str, stderr: &str) -> RawOutput {
    RawOutput { stdout: stdout.into(), stderr: stderr.into(), exit_code: Some(code), ..RawOutput::default() }
}

fn benches(c: &mut Criterion) {
    // Five handlers, as a busy PreToolUse might have: silent, context, allow with a rewrite,
    // a non-blocking failure, and an exit-2 block.
    let outputs = [
        raw(0, "", ""),
        raw(
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"Current branch: main"}}"#,
            "",
        ),
        raw(
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"npm test -- --ci","description":"tests"}}}"#,
            "",
        ),
        raw(1, "", "lint config missing\n"),
        raw(2, "", "blocked: production database\n"),
    ];
    let labels: Vec<String> = (0..outputs.len()).map(|i| format!("./hooks/h{i}.sh")).collect();
    let timeout = Duration::from_secs(600);

    c.bench_function("classify 5 outputs", |b| {
        b.iter(|| {
            outputs
                .iter()
                .zip(&labels)
                .map(|(raw, label)| classify(black_box(raw), HookEvent::PreToolUse, label, timeout))
                .collect::<Vec<_>>()
        })
    });
    let outcomes: Vec<Outcome> =
        outputs.iter().zip(&labels).map(|(raw, label)| classify(raw, HookEvent::PreToolUse, label, timeout)).collect();
    let labelled: Vec<Labelled<'_>> =
        labels.iter().zip(&outcomes).map(|(label, outcome)| Labelled { label, outcome }).collect();
    c.bench_function("combine and encode 5 outcomes", |b| {
        b.iter(|| {
            let combined = combine(HookEvent::PreToolUse, "PreToolUse:Bash", black_box(&labelled));
            encode_combined(&combined, HookEvent::PreToolUse)
        })
    });
}

criterion_group!(combine_benches, benches);
criterion_main!(combine_benches);
