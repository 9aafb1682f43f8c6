//! Hook text over Claude Code's per-hook limit (10,000 characters), through `hookmux dispatch`:
//! each hook's text is saved and previewed as the host does it, and the one answer stays within
//! the limit, so the host never saves the answer whole.

use crate::common;

use common::Hookmux;
use serde_json::{json, Value};
use std::path::Path;

const LIMIT: usize = 10_000;

/// A hook printing `size` characters, `<tag>-HEAD`, filler, `<tag>-TAIL`: as plain stdout, or as
/// the additionalContext of a JSON answer.
fn emitter(tag: &str, size: usize, json: bool) -> Value {
    let fill = size - 2 * (tag.len() + 5) - 2;
    let text = format!("{tag}-HEAD {} {tag}-TAIL", &"0123456789".repeat(fill / 10 + 1)[..fill]);
    assert_eq!(text.len(), size);
    let command = if json {
        let answer =
            json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": text}}).to_string();
        format!("printf '%s' '{answer}'")
    } else {
        format!("printf '%s\\n' '{text}'")
    };
    json!({"type": "command", "command": command})
}

fn dispatch(dir: &Path, handlers: Vec<Value>) -> common::Output {
    let settings = json!({"hooks": {"UserPromptSubmit": [{"hooks": handlers}]}});
    std::fs::write(dir.join("hooks.json"), settings.to_string()).unwrap();
    let transcript = dir.join("projects").join("p").join("s1.jsonl");
    let event = json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "prompt": "hi",
        "cwd": dir, "transcript_path": transcript});
    Hookmux::new(["dispatch", "--settings", dir.join("hooks.json").to_str().unwrap()])
        .env("CLAUDE_PROJECT_DIR", dir)
        .env("TMPDIR", dir)
        .env("HOME", dir)
        .cwd(dir)
        .stdin(event.to_string())
        .run()
}

/// The text the host measures: plain stdout, or the answer's additionalContext.
fn model_text(out: &common::Output) -> String {
    if out.stdout.starts_with('{') {
        out.json()["hookSpecificOutput"]["additionalContext"].as_str().unwrap_or_default().to_string()
    } else {
        out.stdout.clone()
    }
}

/// Every file a preview names, read.
fn saved(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.split_once("Full output saved to: ").map(|(_, path)| path.to_string()))
        .map(|path| std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_hook_at_the_limit_passes_whole_and_one_over_is_saved_as_the_host_saves_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dispatch(dir.path(), vec![emitter("P1", LIMIT, false)]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout.trim().len(), LIMIT);

    let out = dispatch(dir.path(), vec![emitter("P1", 11_000, false)]);
    let text = model_text(&out);
    assert!(text.starts_with("<persisted-output>\nOutput too large (10.7KB). Full output saved to: "), "{text}");
    assert!(text.contains("\n\nPreview (first 2KB):\nP1-HEAD 0123"), "{text}");
    assert!(text.ends_with("\n...\n</persisted-output>"), "{text}");
    assert!(!text.contains("P1-TAIL"));
    // Saved in the session's tool-results folder beside its transcript, whole.
    assert!(text.contains(&format!("{}", dir.path().join("projects/p/s1/tool-results/hook-").display())), "{text}");
    let files = saved(&text);
    assert_eq!(files.len(), 1);
    assert!(files[0].starts_with("P1-HEAD") && files[0].ends_with("P1-TAIL") && files[0].len() == 11_000);
    // Nothing for the user: the host says nothing either.
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_large_hook_beside_a_small_one_leaves_the_small_one_whole() {
    let dir = tempfile::tempdir().unwrap();
    for json in [false, true] {
        let out = dispatch(dir.path(), vec![emitter("A1", 11_000, json), emitter("A2", 100, json)]);
        let text = model_text(&out);
        // The whole text first, then the preview: one of the orders the host lists them in.
        assert!(text.starts_with("A2-HEAD") && text.contains("A2-TAIL\n<persisted-output>\n"), "{text}");
        assert!(text.len() < LIMIT);
        assert_eq!(saved(&text).len(), 1);
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn hooks_under_the_limit_together_stay_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dispatch(dir.path(), (1..=3).map(|i| emitter(&format!("T{i}"), 3_000, false)).collect());
    let text = model_text(&out);
    assert!(!text.contains("<persisted-output>"));
    for i in 1..=3 {
        assert!(text.contains(&format!("T{i}-HEAD")) && text.contains(&format!("T{i}-TAIL")));
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn hooks_over_the_limit_together_keep_the_answer_under_it() {
    let dir = tempfile::tempdir().unwrap();
    for json in [false, true] {
        let out = dispatch(dir.path(), (1..=3).map(|i| emitter(&format!("F{i}"), 4_000, json)).collect());
        let text = model_text(&out);
        // The host would save 12,000 characters whole and show the first 2KB of the first hook.
        assert!(text.trim().chars().count() <= LIMIT, "{}", text.len());
        assert!(text.contains("F1-HEAD") && text.contains("F1-TAIL"), "{text}");
        // The others: saved whole, each with its own preview.
        let files = saved(&text);
        assert_eq!(files.len(), 2, "{text}");
        for file in &files {
            assert_eq!(file.len(), 4_000);
        }
        assert!(text.contains("F2-HEAD") && text.contains("F3-HEAD"));
        assert!(out.stderr.contains("Claude Code's 10,000 characters per hook"), "{}", out.stderr);
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_text_that_cannot_be_saved_is_cut_to_its_preview_and_the_user_told() {
    let dir = tempfile::tempdir().unwrap();
    // The transcript's folder is a file: nothing can be saved below it.
    std::fs::create_dir_all(dir.path().join("projects")).unwrap();
    std::fs::write(dir.path().join("projects").join("p"), "not a folder").unwrap();
    let out = dispatch(dir.path(), vec![emitter("X1", 11_000, false)]);
    assert_eq!(out.code, Some(0));
    let text = model_text(&out);
    assert!(text.contains("It could not be saved, so only the first 2,000 are shown"), "{text}");
    assert!(text.len() < 2_500);
    assert!(out.stderr.contains("could not be saved"), "{}", out.stderr);
}
