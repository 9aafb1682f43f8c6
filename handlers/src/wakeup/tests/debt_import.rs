//! `hookmux memory debt` rules and `hookmux memory import` formats.

use super::*;
use crate::wakeup::debt::{count_sequence_markers, longest_ascending_timestamps, scan, Rule};
use crate::wakeup::import::{self, Format};

#[test]
fn three_sequence_markers_are_an_activity_log() {
    assert_eq!(
        count_sequence_markers("First I read the code, then I ran tests, after that it passed. Finally, merged."),
        4
    );
    assert_eq!(count_sequence_markers("Use the first replica, then fail over."), 2);
    assert_eq!(count_sequence_markers("Thenceforth firstly-named things"), 1, "whole words only");
}

#[test]
fn three_ascending_timestamps_are_an_activity_log() {
    assert_eq!(longest_ascending_timestamps("09:00 started, 09:40 found it, 11:15 fixed"), 3);
    assert_eq!(longest_ascending_timestamps("2026-04-01 a; 2026-04-03 b; 2026-04-02 c"), 2);
    assert_eq!(longest_ascending_timestamps("2026-04-01T10:00 x 2026-04-01T12:30 y 2026-04-02 08:00 z"), 3);
    assert_eq!(longest_ascending_timestamps("port 8080, ratio 3:4, version 1.2.3"), 0, "not times");
    assert_eq!(longest_ascending_timestamps("backups run at 02:00"), 1);
}

#[test]
fn findings_name_the_memory_field_and_rule() {
    let mut m = memory("p", "Session log", HOUR);
    m.synopsis = "First we looked, then we fixed, finally shipped".into();
    m.body = "10:00 start\n10:30 middle\n11:00 end".into();
    let mut stored = world_memory(m);
    let findings = scan(&stored);
    assert_eq!(findings.len(), 2);
    assert_eq!((findings[0].field, findings[0].rule, findings[0].count), ("synopsis", Rule::SequenceMarkers, 3));
    assert_eq!((findings[1].field, findings[1].rule, findings[1].count), ("body", Rule::AscendingTimestamps, 3));
    assert_eq!(findings[0].memory_id, stored.id);
    stored.synopsis = "Retries back off exponentially; the cap is 30 s.".into();
    stored.body = "Durable signal.".into();
    assert!(scan(&stored).is_empty());
}

fn world_memory(m: crate::wakeup::store::NewMemory) -> crate::wakeup::store::Memory {
    let world = World::new();
    let mut store = world.store();
    let id = add(&mut store, m);
    store.memory(id).unwrap().unwrap()
}

#[test]
fn brewcode_knowledge_becomes_one_memory_per_entry() {
    let text = concat!(
        r#"{"ts":"2026-02-01T12:10:00.000Z","t":"❌","txt":"Avoid SELECT * in repository queries","src":"sql_expert"}"#,
        "\n\n",
        r#"{"ts":"2026-02-01T12:11:00.000Z","t":"✅","txt":"Use constructor injection\nfor new services"}"#,
        "\n",
        r#"{"t":"ℹ️","txt":"DB uses PostgreSQL 15"}"#,
        "\nnot json\n",
        r#"{"t":"❌"}"#,
        "\n",
        r#"{"txt":"no type"}"#,
        "\n"
    );
    let batch = import::parse(text, "proj", now_ms()).unwrap();
    assert_eq!(batch.format, Format::Knowledge);
    assert_eq!(batch.memories.len(), 4);
    assert_eq!(batch.warnings.len(), 2, "{:?}", batch.warnings);
    assert!(batch.warnings[0].starts_with("line 5:"), "{:?}", batch.warnings);
    let [avoid, practice, info, untyped] = &batch.memories[..] else { panic!() };
    assert_eq!((avoid.kind.as_str(), avoid.source.as_str()), ("avoid", "sql_expert"));
    assert_eq!(crate::wakeup::dates::iso(avoid.created_at), "2026-02-01T12:10:00Z");
    assert_eq!(
        (practice.title.as_str(), practice.body.as_str()),
        ("Use constructor injection", "Use constructor injection\nfor new services")
    );
    assert_eq!((practice.kind.as_str(), practice.source.as_str()), ("practice", "knowledge"));
    assert_eq!((info.kind.as_str(), info.created_at), ("info", now_ms()));
    assert_eq!(untyped.kind, "info", "brewcode reads a missing type as ℹ️");
    assert!(batch.memories.iter().all(|m| m.project == "proj" && m.import_key.is_some()));
}

#[test]
fn knowledge_titles_are_the_first_line_up_to_120_characters() {
    assert_eq!(import::knowledge_title(&"é".repeat(300)).chars().count(), 120);
    assert_eq!(import::knowledge_title("  one\ntwo"), "one");
}

#[test]
fn a_single_line_knowledge_file_is_not_mistaken_for_json() {
    let batch = import::parse(r#"{"ts":"2026-02-01T12:10:00Z","t":"✅","txt":"Only one"}"#, "p", now_ms()).unwrap();
    assert_eq!((batch.format, batch.memories.len()), (Format::Knowledge, 1));
}

#[test]
fn the_json_format_carries_memories_facts_and_digests() {
    let text = r#"{
      "memories": [
        {"id": "m-1", "title": "Deploys need a green canary", "body": "Wait 10 minutes.", "synopsis": "canary first",
         "kind": "policy", "source": "manual", "status": "proposed", "scope": "user:alice",
         "created_at": "2026-04-01T09:00:00Z", "expires_at": "2026-12-31"},
        {"title": "Team wide", "scope": {"kind": "team"}}
      ],
      "facts": [{"subject": "api", "predicate": "depends_on", "object": "postgres"}],
      "digests": [{"title": "Week 14", "body": "Shipped canaries.", "created_at": "2026-04-05"}]
    }"#;
    let batch = import::parse(text, "proj", now_ms()).unwrap();
    assert_eq!(batch.format, Format::Json);
    let m = &batch.memories[0];
    assert_eq!(
        (m.kind.as_str(), m.status.as_str(), m.scope_kind.as_deref(), m.scope_key.as_str()),
        ("policy", "proposed", Some("user"), "alice")
    );
    assert_eq!((m.expires_at.as_deref(), m.import_key.as_deref()), (Some("2026-12-31"), Some("memory:id:m-1")));
    assert_eq!(batch.memories[1].scope_kind.as_deref(), Some("team"));
    assert_eq!((batch.facts.len(), batch.digests.len()), (1, 1));
    // A bare array is a list of memories.
    let batch = import::parse(r#"[{"title": "a"}, {"title": "b"}]"#, "p", now_ms()).unwrap();
    assert_eq!((batch.format, batch.memories.len()), (Format::Json, 2));
}

#[test]
fn json_errors_name_the_entry() {
    for (text, expected) in [
        (r#"{"memories": [{"title": "ok"}, {"body": "no title"}]}"#, "memories[1].title: is required"),
        (r#"{"memories": [{"title": "x", "status": "done"}]}"#, "memories[0].status: `done` is not one of"),
        (r#"{"memories": [{"title": "x", "created_at": "soon"}]}"#, "memories[0].created_at: `soon`"),
        (r#"{"memories": [{"title": "x", "scope": "user"}]}"#, "memories[0].scope: a `user` scope needs a key"),
        (r#"{"facts": [{"subject": "a", "predicate": "b"}]}"#, "facts[0].object: is required"),
        (r#"{"memories": {"title": "x"}}"#, "memories: must be a list"),
    ] {
        let err = import::parse(text, "p", now_ms()).unwrap_err();
        assert!(err.starts_with(expected), "{err}");
    }
}

#[test]
fn importing_the_same_file_twice_adds_nothing_the_second_time() {
    let world = World::new();
    let mut store = world.store();
    let text = concat!(
        r#"{"ts":"2026-02-01T12:10:00.000Z","t":"❌","txt":"Avoid SELECT *","src":"sql_expert"}"#,
        "\n",
        r#"{"t":"ℹ️","txt":"No timestamp"}"#,
        "\n"
    );
    let first = import::parse(text, "p", now_ms()).unwrap();
    assert_eq!(store.import_memories(&first.memories).unwrap(), (2, 0));
    let again = import::parse(text, "p", now_ms() + DAY).unwrap();
    assert_eq!(store.import_memories(&again.memories).unwrap(), (0, 2));
    let other_project = import::parse(text, "q", now_ms()).unwrap();
    assert_eq!(store.import_memories(&other_project.memories).unwrap(), (2, 0), "keys are per project");
    assert_eq!(store.list_memories(None, None, 100).unwrap().len(), 4);
}
