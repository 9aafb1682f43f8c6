//! Hook results, as hook authors' commands print them: up to four results (stdout, stderr, exit
//! code, timed out, stdio left open) for one event are classified, combined and encoded for
//! every host without a crash, and no host's answer on PreToolUse denies unless a hook did.

#![no_main]

use hookmux::engine::dispatch::Verdict;
use hookmux::engine::execute::RawOutput;
use hookmux::engine::verdict::combine::{self, Labelled, Permission};
use hookmux::engine::verdict::outcome::{self, Outcome};
use hookmux::host::{claude, codex, opencode};
use hookmux_sdk::{Event, HookEvent};
use libfuzzer_sys::fuzz_target;
use std::time::Duration;

/// Splits the input into results: a header byte per result (event bits, exit code, flags), then
/// stdout and stderr separated by a NUL, results separated by `0xff`.
fn results(data: &[u8]) -> (HookEvent, Vec<RawOutput>) {
    let event = HookEvent::ALL[data.first().copied().unwrap_or(0) as usize % HookEvent::ALL.len()];
    let raws = data
        .get(1..)
        .unwrap_or_default()
        .split(|b| *b == 0xff)
        .take(4)
        .map(|chunk| {
            let (header, rest): (&u8, &[u8]) = chunk.split_first().unwrap_or((&0, &[]));
            let mut parts = rest.splitn(2, |b| *b == 0);
            let stdout = parts.next().unwrap_or_default().to_vec();
            let stderr = parts.next().unwrap_or_default().to_vec();
            let exit_code = match header & 0b111 {
                0 | 1 => Some(0),
                2 | 3 => Some(2),
                4 => Some(1),
                5 => None,
                _ => Some(i32::from(*header) - 200),
            };
            let timed_out = header & 0b1000_0000 != 0;
            RawOutput {
                stdout,
                stderr,
                exit_code: if timed_out { None } else { exit_code },
                timed_out,
                unterminated: header & 0b0100_0000 != 0,
                ..RawOutput::default()
            }
        })
        .collect();
    (event, raws)
}

/// `hookSpecificOutput.permissionDecision` of an encoded answer.
fn decision(stdout: &str) -> Option<String> {
    let answer: serde_json::Value = serde_json::from_str(stdout).ok()?;
    answer["hookSpecificOutput"]["permissionDecision"].as_str().map(str::to_string)
}

fuzz_target!(|data: &[u8]| {
    let (event, raws) = results(data);
    let outcomes: Vec<Outcome> =
        raws.iter().map(|raw| outcome::classify(raw, event, "hook.sh", Duration::from_secs(5))).collect();
    let labelled: Vec<Labelled<'_>> = outcomes.iter().map(|outcome| Labelled { label: "hook.sh", outcome }).collect();
    let combined = combine::combine(event, "hook", &labelled);
    let denied = matches!(combined.permission, Some((Permission::Deny, _)));
    let someone_denied = outcomes.iter().any(|o| match o {
        Outcome::Blocked { .. } | Outcome::Refused { .. } => true,
        Outcome::Answered { json: Some(json), .. } => {
            let own = json.specific_str("permissionDecision");
            own == Some("deny") || (own.is_none() && json.decision.as_deref() == Some("block"))
        }
        _ => false,
    });
    if event == HookEvent::PreToolUse {
        assert_eq!(denied, someone_denied, "a deny no hook gave, or a hook's deny lost");
    }

    let claude = claude::encode_combined(&combined, event);
    let fields = serde_json::json!({
        "hook_event_name": event.as_str(), "tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": "/p",
    });
    let decoded = codex::decode(&Event::from_fields(fields.as_object().cloned().unwrap_or_default()));
    let plugin = opencode::PluginEvent {
        hook: "tool.execute.before".into(),
        input: serde_json::json!({"tool": "bash", "sessionID": "s"}),
        ..Default::default()
    };
    let verdict = Verdict { kind: event, combined, plain: Vec::new(), runs: Vec::new() };
    let codex = codex::encode(&verdict, &decoded);
    let opencode = opencode::encode(&verdict, &plugin);
    if event == HookEvent::PreToolUse {
        assert_eq!(decision(&claude.stdout).as_deref() == Some("deny"), someone_denied, "{}", claude.stdout);
        if someone_denied {
            assert_eq!(decision(&codex.stdout).as_deref(), Some("deny"), "{}", codex.stdout);
            assert!(opencode.block.is_some());
        }
    }
});
