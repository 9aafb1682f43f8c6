//! The prompt parser, event metadata, query sanitising and marker names (Lore's helpers tests).

use crate::wakeup::marker::{marker_path, safe_filename_segment};
use crate::wakeup::query::{parse_event_metadata, parse_user_query_from_event, sanitize_user_query, utf16_len};
use serde_json::json;
use std::path::Path;

fn query(raw: &str) -> Option<String> {
    parse_user_query_from_event(Some(raw))
}

#[test]
fn well_formed_user_prompt_submit_gives_the_prompt() {
    let event =
        json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "prompt": "How do I fix the auth bug?"});
    assert_eq!(query(&event.to_string()).as_deref(), Some("How do I fix the auth bug?"));
}

#[test]
fn codex_user_prompt_submit_with_turn_id_gives_the_prompt() {
    let event =
        json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "turn_id": "t-1", "prompt": "run echo hi"});
    assert_eq!(query(&event.to_string()).as_deref(), Some("run echo hi"));
}

#[test]
fn surrounding_whitespace_is_trimmed() {
    let event = json!({"hook_event_name": "UserPromptSubmit", "prompt": "  fix auth bug  \n"});
    assert_eq!(query(&event.to_string()).as_deref(), Some("fix auth bug"));
}

#[test]
fn whitespace_only_prompt_is_no_query() {
    let event = json!({"hook_event_name": "UserPromptSubmit", "prompt": " \n\t \u{feff}"});
    assert_eq!(query(&event.to_string()), None);
}

#[test]
fn absent_or_blank_input_is_no_query() {
    assert_eq!(parse_user_query_from_event(None), None);
    for raw in ["", "  \n  "] {
        assert_eq!(query(raw), None, "{raw:?}");
    }
}

#[test]
fn malformed_json_is_no_query() {
    for raw in ["not-json-at-all", "{ unterminated"] {
        assert_eq!(query(raw), None, "{raw:?}");
    }
}

#[test]
fn json_that_is_not_an_object_is_no_query() {
    for raw in ["null", "\"just a string\"", "42", "[1,2,3]"] {
        assert_eq!(query(raw), None, "{raw:?}");
    }
}

#[test]
fn missing_prompt_is_no_query() {
    assert_eq!(query(r#"{"hook_event_name":"UserPromptSubmit","session_id":"s"}"#), None);
}

#[test]
fn non_string_prompt_is_no_query() {
    for prompt in [json!(42), json!(null), json!({"nested": "fix auth"})] {
        let event = json!({"hook_event_name": "UserPromptSubmit", "prompt": prompt});
        assert_eq!(query(&event.to_string()), None, "{prompt}");
    }
}

#[test]
fn slash_commands_are_no_query() {
    for prompt in ["/clear", "  /compact  ", "/lore-wake-up --debug", "/help"] {
        let event = json!({"hook_event_name": "UserPromptSubmit", "prompt": prompt});
        assert_eq!(query(&event.to_string()), None, "{prompt}");
    }
}

#[test]
fn an_incidental_slash_is_kept() {
    let event = json!({"hook_event_name": "UserPromptSubmit", "prompt": "fix the path /etc/hosts handling"});
    assert_eq!(query(&event.to_string()).as_deref(), Some("fix the path /etc/hosts handling"));
}

#[test]
fn other_events_carrying_a_prompt_are_no_query() {
    let event = json!({"hook_event_name": "PreToolUse", "prompt": "fix auth"});
    assert_eq!(query(&event.to_string()), None);
}

#[test]
fn an_empty_event_name_is_no_query() {
    let event = json!({"hook_event_name": "", "prompt": "fix auth"});
    assert_eq!(query(&event.to_string()), None);
}

#[test]
fn no_event_name_is_accepted_as_a_stripped_forwarder() {
    assert_eq!(query(r#"{"prompt":"fix auth"}"#).as_deref(), Some("fix auth"));
    // A name that is not a string falls through the same way.
    assert_eq!(query(r#"{"hook_event_name":7,"prompt":"fix auth"}"#).as_deref(), Some("fix auth"));
}

#[test]
fn resumed_session_start_is_no_query() {
    let event = json!({"hook_event_name": "SessionStart", "session_id": "s", "source": "resume"});
    assert_eq!(query(&event.to_string()), None);
}

#[test]
fn metadata_extracts_name_session_and_source_without_a_query() {
    let event = json!({"hook_event_name": "SessionStart", "session_id": "abc", "source": "startup"});
    let meta = parse_event_metadata(Some(&event.to_string()));
    assert_eq!(meta.hook_event_name.as_deref(), Some("SessionStart"));
    assert_eq!(meta.session_id.as_deref(), Some("abc"));
    assert_eq!(meta.source.as_deref(), Some("startup"));
    assert_eq!(query(&event.to_string()), None, "source is never a query");
}

#[test]
fn metadata_is_empty_for_non_objects() {
    for raw in [Some("not-json"), Some("[1,2,3]"), None] {
        assert_eq!(parse_event_metadata(raw), Default::default(), "{raw:?}");
    }
    let blank_session = parse_event_metadata(Some(r#"{"session_id":"  ","hook_event_name":3}"#));
    assert_eq!((blank_session.session_id, blank_session.hook_event_name), (None, None));
}

#[test]
fn the_query_is_trimmed_and_blank_queries_are_dropped() {
    assert_eq!(sanitize_user_query(Some("  Fix retrieval metrics  ")).as_deref(), Some("Fix retrieval metrics"));
    assert_eq!(utf16_len("Fix retrieval metrics"), 21);
    for raw in [None, Some(""), Some("   \n ")] {
        assert_eq!(sanitize_user_query(raw), None, "{raw:?}");
    }
}

#[test]
fn a_long_query_is_cut_to_its_first_1000_units() {
    let long = "a".repeat(5000);
    assert_eq!(sanitize_user_query(Some(&long)), Some("a".repeat(1000)));
    let exact = "b".repeat(1000);
    assert_eq!(sanitize_user_query(Some(&exact)), Some(exact));
}

#[test]
fn a_surrogate_pair_at_the_boundary_never_leaves_half_a_character() {
    // JavaScript's slice(0, 1000) would end on a lone high surrogate when a pair starts at 999.
    for prefix in [998, 999, 1000] {
        let text = format!("{}😀tail", "x".repeat(prefix));
        let cut = sanitize_user_query(Some(&text)).unwrap();
        assert!(utf16_len(&cut) <= 1000, "{prefix}");
        assert!(text.starts_with(&cut), "{prefix}");
        let expected = if prefix <= 998 { prefix + 2 } else { prefix };
        assert_eq!(utf16_len(&cut), expected, "{prefix}");
    }
    // Multi-byte characters count as JavaScript counts them, not as bytes.
    let accents = "é".repeat(1200);
    assert_eq!(sanitize_user_query(Some(&accents)).map(|q| q.chars().count()), Some(1000));
}

#[test]
fn uuid_session_ids_round_trip_into_marker_names() {
    let id = "09110fd9-e94d-4dcf-ab61-cd5b8a24d6b2";
    assert_eq!(safe_filename_segment(id), id);
}

#[test]
fn marker_names_resist_path_injection() {
    let state = Path::new("/state");
    let path = marker_path(state, "../escape/me");
    assert_eq!(path.parent(), Some(state));
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(name.ends_with(".wakeup"), "{name}");
    assert!(!name.contains('/') && !name.contains('\\'), "{name}");
    assert_eq!(name, ".._escape_me.wakeup");
}

#[test]
fn marker_names_count_utf16_units_and_hash_long_ids() {
    assert_eq!(safe_filename_segment("a😀b"), "a__b");
    let long_a = "x".repeat(200);
    let long_b = format!("{}y", "x".repeat(199));
    let (a, b) = (safe_filename_segment(&long_a), safe_filename_segment(&long_b));
    assert_eq!(a.len(), 128);
    assert!(a.starts_with(&"x".repeat(119)) && a.as_bytes()[119] == b'_', "{a}");
    assert_ne!(a, b, "the hash keeps long ids apart");
}
