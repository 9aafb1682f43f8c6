use super::*;
use hookmux_platform::dirs::{variable, Folder};
use hookmux_sdk::testing::{TestRun, DEFAULT_NOW, TEST_SESSION_ID};
use hookmux_sdk::{Env, Event};
use serde_json::{json, Value};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn now() -> SystemTime {
    UNIX_EPOCH + DEFAULT_NOW
}

fn lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("every line is JSON"))
        .collect()
}

#[test]
fn the_handler_records_a_prompt_in_claude_codes_shape() {
    let state = tempfile::tempdir().unwrap();
    let outcome = TestRun::new(&Transcript)
        .env(variable(Folder::State), state.path().to_str().unwrap())
        .event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "fix the build"}))
        .run();
    assert!(outcome.answer.unwrap().is_empty(), "the transcript says nothing to the host");
    let path = state.path().join("hookmux/transcripts").join(format!("{TEST_SESSION_ID}.jsonl"));
    let recorded = lines(&path);
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0]["type"], "user");
    assert_eq!(recorded[0]["message"], json!({"role": "user", "content": "fix the build"}));
    assert_eq!(recorded[0]["timestamp"], "2026-01-01T00:00:00.000Z");
    assert_eq!(recorded[0]["sessionId"], TEST_SESSION_ID);
}

#[test]
fn tool_uses_and_results_pair_by_id() {
    let state = tempfile::tempdir().unwrap();
    for event in [
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "t1", "tool_input": {"command": "ls"}}),
        json!({"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "t1", "tool_input": {"command": "ls"}, "tool_response": {"stdout": "a\n"}}),
        json!({"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_use_id": "t2", "error": "Exit code 3"}),
        json!({"hook_event_name": "Stop", "last_assistant_message": "done"}),
    ] {
        TestRun::new(&Transcript).env(variable(Folder::State), state.path().to_str().unwrap()).event(event).answer();
    }
    let recorded = lines(&state.path().join("hookmux/transcripts").join(format!("{TEST_SESSION_ID}.jsonl")));
    let content = |i: usize| recorded[i]["message"]["content"][0].clone();
    assert_eq!(content(0), json!({"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}));
    assert_eq!(content(1)["tool_use_id"], "t1");
    assert_eq!(content(1)["content"], r#"{"stdout":"a\n"}"#);
    assert_eq!(recorded[1]["toolUseResult"], json!({"stdout": "a\n"}));
    assert_eq!((content(2)["is_error"].clone(), content(2)["content"].clone()), (json!(true), json!("Exit code 3")));
    assert_eq!(content(3), json!({"type": "text", "text": "done"}));
}

#[test]
fn a_dry_run_writes_nothing() {
    let state = tempfile::tempdir().unwrap();
    TestRun::new(&Transcript)
        .env(variable(Folder::State), state.path().to_str().unwrap())
        .event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}))
        .dry()
        .answer();
    assert!(!state.path().join("hookmux").exists());
}

#[test]
fn events_without_a_session_or_an_entry_are_ignored() {
    let state = tempfile::tempdir().unwrap();
    for event in [
        json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi", "session_id": ""}),
        json!({"hook_event_name": "SessionStart", "source": "startup"}),
    ] {
        TestRun::new(&Transcript).env(variable(Folder::State), state.path().to_str().unwrap()).event(event).answer();
    }
    assert!(!state.path().join("hookmux").exists());
}

#[test]
#[cfg_attr(not(unix), ignore = "XDG_STATE_HOME and HOME place the user's folders on Unix")]
fn state_dir_prefers_an_absolute_xdg_state_home() {
    let env: Env = [("XDG_STATE_HOME", "/s"), ("HOME", "/h")].into_iter().collect();
    assert_eq!(state_dir(&env), Some("/s/hookmux".into()));
    // A relative XDG path is invalid by the spec and ignored.
    let env: Env = [("XDG_STATE_HOME", "rel"), ("HOME", "/h")].into_iter().collect();
    assert_eq!(state_dir(&env), Some("/h/.local/state/hookmux".into()));
    assert_eq!(state_dir(&Env::empty()), None);
}

#[test]
fn a_full_transcript_is_rotated_and_the_path_stays_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let transcripts = Transcripts::at(dir.path());
    let big = "x".repeat(4096);
    let mut path = None;
    for _ in 0..(ROTATE_AT as usize / 4096 + 2) {
        path = Some(transcripts.append("s1", &Entry::Prompt { text: big.clone() }, now()).unwrap());
    }
    let path = path.unwrap();
    assert_eq!(path, transcripts.path("s1"));
    let current = std::fs::metadata(&path).unwrap().len();
    let rotated = std::fs::metadata(transcripts.rotated_path("s1")).unwrap().len();
    assert!(current <= ROTATE_AT && rotated <= ROTATE_AT, "{current} {rotated}");
    assert!(current > 0 && rotated > ROTATE_AT - 8192);
    // Both halves are whole lines.
    assert!(lines(&path).iter().chain(&lines(&transcripts.rotated_path("s1"))).all(|l| l["type"] == "user"));
}

#[test]
fn old_sessions_are_pruned_when_a_new_one_starts() {
    let dir = tempfile::tempdir().unwrap();
    let transcripts = Transcripts::at(dir.path());
    let real_now = SystemTime::now();
    let old = transcripts.append("old", &Entry::Prompt { text: "a".into() }, real_now).unwrap();
    let recent = transcripts.append("recent", &Entry::Prompt { text: "b".into() }, real_now).unwrap();
    let long_ago = real_now - KEEP_FOR - Duration::from_secs(60);
    std::fs::File::options().write(true).open(&old).unwrap().set_modified(long_ago).unwrap();
    // Appending to an existing session prunes nothing.
    transcripts.append("recent", &Entry::Prompt { text: "c".into() }, real_now).unwrap();
    assert!(old.exists());
    transcripts.append("new", &Entry::Prompt { text: "d".into() }, real_now).unwrap();
    assert!(!old.exists() && recent.exists());
}

#[test]
fn session_ids_that_are_not_file_names_are_hashed() {
    let transcripts = Transcripts::at("/t");
    assert_eq!(transcripts.path("ses_abc-1"), std::path::Path::new("/t/ses_abc-1.jsonl"));
    for id in ["../../etc/passwd", "a/b", ".hidden", "", "x y"] {
        let path = transcripts.path(id);
        assert_eq!(path.parent(), Some(std::path::Path::new("/t")), "{id}");
        assert!(path.file_name().unwrap().to_str().unwrap().starts_with("id-"), "{id}");
    }
    assert_ne!(transcripts.path("a/b"), transcripts.path("a/c"));
}

#[test]
fn parallel_appends_do_not_interleave() {
    let dir = tempfile::tempdir().unwrap();
    let transcripts = Transcripts::at(dir.path());
    std::thread::scope(|scope| {
        for t in 0..8 {
            let transcripts = transcripts.clone();
            scope.spawn(move || {
                for i in 0..50 {
                    let text = format!("{t}-{i}-{}", "y".repeat(1000));
                    transcripts.append("s", &Entry::Prompt { text }, now()).unwrap();
                }
            });
        }
    });
    assert_eq!(lines(&transcripts.path("s")).len(), 400);
}

#[test]
fn entries_for_each_event() {
    let event = |v: Value| Event::from_fields(v.as_object().unwrap().clone());
    assert_eq!(
        entry_for(&event(json!({"hook_event_name": "UserPromptSubmit", "prompt": "p"}))),
        Some(Entry::Prompt { text: "p".into() })
    );
    assert_eq!(entry_for(&event(json!({"hook_event_name": "UserPromptSubmit"}))), None);
    assert_eq!(entry_for(&event(json!({"hook_event_name": "Notification"}))), None);
    assert_eq!(entry_for(&event(json!({"hook_event_name": "Stop", "last_assistant_message": null}))), None);
}

// The tool-input cache.

#[test]
fn a_cached_input_is_given_once() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ToolInputCache::at(dir.path());
    cache.put("s", "call_1", &json!({"command": "ls"}), now()).unwrap();
    assert_eq!(cache.take("s", "call_1", now()), Some(json!({"command": "ls"})));
    assert_eq!(cache.take("s", "call_1", now()), None);
    assert_eq!(cache.take("s", "never", now()), None);
}

#[test]
fn sessions_do_not_share_cached_inputs() {
    // oh-my-opencode's tool-input-cache test 1: one session's entries are its own.
    let dir = tempfile::tempdir().unwrap();
    let cache = ToolInputCache::at(dir.path());
    cache.put("ses_a", "c", &json!({"path": "a"}), now()).unwrap();
    cache.put("ses_b", "c", &json!({"path": "b"}), now()).unwrap();
    assert_eq!(cache.take("ses_a", "c", now()), Some(json!({"path": "a"})));
    assert_eq!(cache.take("ses_b", "c", now()), Some(json!({"path": "b"})));
}

#[test]
fn a_cached_input_expires() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ToolInputCache::at(dir.path());
    cache.put("s", "c", &json!({}), now()).unwrap();
    assert_eq!(cache.take("s", "c", now() + TOOL_INPUT_TTL + Duration::from_secs(1)), None);
    cache.put("s", "d", &json!({"k": 1}), now()).unwrap();
    assert_eq!(cache.take("s", "d", now() + TOOL_INPUT_TTL - Duration::from_secs(1)), Some(json!({"k": 1})));
}

#[test]
fn a_corrupt_cache_entry_reads_as_missing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ToolInputCache::at(dir.path());
    cache.put("s", "c", &json!({}), now()).unwrap();
    std::fs::write(dir.path().join("s/c.json"), "{not json").unwrap();
    assert_eq!(cache.take("s", "c", now()), None);
}

#[test]
fn sessions_left_behind_are_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ToolInputCache::at(dir.path());
    let real_now = SystemTime::now();
    cache.put("gone", "c", &json!({}), real_now).unwrap();
    let stale = real_now - TOOL_INPUT_TTL - Duration::from_secs(60);
    hookmux_platform::fs::set_modified(&dir.path().join("gone"), stale).unwrap();
    cache.put("live", "c", &json!({}), real_now).unwrap();
    assert!(!dir.path().join("gone").exists());
    assert!(dir.path().join("live/c.json").exists());
}

// Symbolic links: the model can plant them with the tools it runs, and the state folder is the
// user's. Nothing is written, truncated or deleted through one.

/// A folder with a transcripts folder and a victim file beside it.
fn with_victim() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    (dir, victim)
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_transcript_is_not_appended_to() {
    let (dir, victim) = with_victim();
    let transcripts = Transcripts::at(dir.path().join("transcripts"));
    std::fs::create_dir(transcripts.dir()).unwrap();
    hookmux_platform::fs::symlink_file(&victim, &transcripts.path("s")).unwrap();
    let err = transcripts.append("s", &Entry::Prompt { text: "rm -rf ~".into() }, now()).unwrap_err();
    assert!(err.to_string().contains("is a symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_transcript_lock_creates_nothing_elsewhere() {
    let (dir, _victim) = with_victim();
    let transcripts = Transcripts::at(dir.path().join("transcripts"));
    std::fs::create_dir(transcripts.dir()).unwrap();
    let elsewhere = dir.path().join("created-elsewhere");
    hookmux_platform::fs::symlink_file(&elsewhere, &transcripts.dir().join(".lock")).unwrap();
    let err = transcripts.append("s", &Entry::Prompt { text: "x".into() }, now()).unwrap_err();
    assert!(err.to_string().contains("is a symbolic link"), "{err}");
    assert!(!elsewhere.exists());
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_transcripts_folder_is_refused() {
    let (dir, _victim) = with_victim();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    hookmux_platform::fs::symlink_dir(&elsewhere, &dir.path().join("transcripts")).unwrap();
    let transcripts = Transcripts::at(dir.path().join("transcripts"));
    let err = transcripts.append("s", &Entry::Prompt { text: "x".into() }, now()).unwrap_err();
    assert!(err.to_string().contains("it is a symbolic link"), "{err}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_session_folder_of_the_cache_is_refused_and_not_expired() {
    let (dir, _victim) = with_victim();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let old = elsewhere.join("old-work.json");
    std::fs::write(&old, "{}").unwrap();
    let stale = SystemTime::now() - TOOL_INPUT_TTL - Duration::from_secs(60);
    std::fs::File::open(&old).unwrap().set_modified(stale).unwrap();
    let cache = ToolInputCache::at(dir.path().join("tool-inputs"));
    std::fs::create_dir(dir.path().join("tool-inputs")).unwrap();
    hookmux_platform::fs::symlink_dir(&elsewhere, &dir.path().join("tool-inputs/s")).unwrap();
    let err = cache.put("s", "c", &json!({}), SystemTime::now()).unwrap_err();
    assert!(err.to_string().contains("it is a symbolic link"), "{err}");
    assert!(old.exists(), "a file in the folder the link points at is not expired");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 1);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
)]
fn a_linked_cache_entry_is_not_read() {
    let (dir, _victim) = with_victim();
    let cache = ToolInputCache::at(dir.path().join("tool-inputs"));
    cache.put("s", "c", &json!({"command": "ls"}), now()).unwrap();
    let secret = dir.path().join("secret.json");
    std::fs::write(&secret, json!({"stored_at": 1_767_225_600u64, "tool_input": {"token": "x"}}).to_string()).unwrap();
    std::fs::remove_file(dir.path().join("tool-inputs/s/c.json")).unwrap();
    hookmux_platform::fs::symlink_file(&secret, &dir.path().join("tool-inputs/s/c.json")).unwrap();
    assert_eq!(cache.take("s", "c", now()), None);
    assert!(secret.exists());
}

/// Modes: what Unix keeps access in.
#[cfg(unix)]
mod unix {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_new_transcripts_folder_is_0700() {
        let (dir, _victim) = with_victim();
        let transcripts = Transcripts::at(dir.path().join("state/transcripts"));
        transcripts.append("s", &Entry::Prompt { text: "x".into() }, now()).unwrap();
        assert_eq!(std::fs::metadata(transcripts.dir()).unwrap().permissions().mode() & 0o777, 0o700);
    }
}
