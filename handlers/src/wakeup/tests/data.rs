//! The data layer (Lore's `loadWakeUpData` and coverage tests) against a real store.

use super::*;
use crate::wakeup::coverage::{reason, Caps, Coverage, Mode, Sections};
use crate::wakeup::load::{load, Limits, LoadOptions, WakeUpData, DEFAULT_LIMITS, RANKED_LIMITS};
use crate::wakeup::store::Status;

fn options<'a>(reader: &'a Reader, limits: Limits, query: Option<&'a str>) -> LoadOptions<'a> {
    LoadOptions {
        reader,
        limits,
        user_query: query,
        include_proposed: false,
        include_coverage: true,
        caps: None,
        now: now_ms(),
    }
}

fn run(world: &World, limits: Limits, query: Option<&str>) -> WakeUpData {
    let store = world.store();
    let reader = world.reader();
    load(Some(&store), &options(&reader, limits, query)).expect("load")
}

fn titles(memories: &[crate::wakeup::store::Memory]) -> Vec<&str> {
    memories.iter().map(|m| m.title.as_str()).collect()
}

fn coverage(data: &WakeUpData) -> &Coverage {
    data.coverage.as_ref().expect("coverage requested")
}

#[test]
fn ranked_coverage_counts_every_section() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    store.save_digest(&p, "d", "body", now_ms() - DAY - HOUR, None).unwrap();
    for i in 0..5 {
        add(&mut store, memory(&p, &format!("recent {i}"), HOUR * (i + 1)));
    }
    for i in 0..4 {
        add(&mut store, memory(&p, &format!("retrieval metrics {i}"), DAY * 10 + i));
    }
    for i in 0..12 {
        add_fact(&mut store, &p, "s", "uses", &format!("o{i}"), HOUR);
    }
    let data = run(&world, Limits::for_hook(true), Some("  Fix retrieval metrics  "));
    assert_eq!(
        coverage(&data),
        &Coverage {
            mode: Mode::Ranked,
            reason: None,
            query_len: 21,
            caps: None,
            digest_available: true,
            digest_fresh: true,
            digest_age_days: Some(1),
            sections: Sections { digest: 1, current_task: 3, recent: 3, facts: 10, ..Sections::default() },
        }
    );
}

#[test]
fn a_19_day_old_digest_is_available_but_stale() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    store.save_digest(&p, "d", "old", now_ms() - 19 * DAY - HOUR, None).unwrap();
    for i in 0..12 {
        add(&mut store, memory(&p, &format!("m{i}"), 20 * DAY + i));
    }
    let data = run(&world, DEFAULT_LIMITS, None);
    assert!(data.digest.is_none());
    assert_eq!(data.memories.len(), 10, "a stale digest gives the full recents, older ones included");
    let c = coverage(&data);
    assert_eq!((c.digest_available, c.digest_fresh, c.digest_age_days, c.sections.digest), (true, false, Some(19), 0));
}

#[test]
fn a_future_digest_is_not_fresh_and_has_no_age() {
    let world = World::new();
    let p = world.project();
    world.store().save_digest(&p, "d", "from a skewed clock", now_ms() + HOUR, None).unwrap();
    let data = run(&world, DEFAULT_LIMITS, None);
    assert!(data.digest.is_none());
    let c = coverage(&data);
    assert_eq!((c.digest_available, c.digest_fresh, c.digest_age_days), (true, false, None));
}

#[test]
fn freshness_ends_at_exactly_seven_days() {
    assert!(crate::wakeup::load::is_fresh(now_ms() - 7 * DAY + 1, now_ms(), 7));
    assert!(!crate::wakeup::load::is_fresh(now_ms() - 7 * DAY, now_ms(), 7));
    assert!(crate::wakeup::load::is_fresh(now_ms(), now_ms(), 7));
}

#[test]
fn without_a_query_the_mode_is_default_with_no_query_length() {
    let world = World::new();
    let data = run(&world, DEFAULT_LIMITS, None);
    let c = coverage(&data);
    assert_eq!((c.mode, c.reason, c.query_len), (Mode::Default, Some(reason::NO_RANKED_SEARCH), 0));
    // A query with no room for prompt memories is not a ranked search either.
    let data = run(&world, Limits { task_memories: 0, ..RANKED_LIMITS }, Some("anything"));
    assert_eq!((coverage(&data).mode, coverage(&data).query_len), (Mode::Default, 0));
}

#[test]
fn empty_coverage_zeroes_everything_but_what_is_set() {
    let mut c = Coverage::empty(Mode::Default, reason::ALREADY_RANKED);
    assert_eq!(c.sections, Sections::default());
    c.sections.recent = 4;
    let line = c.line();
    assert!(line.contains("sections.recent=4") && line.contains("sections.facts=0"), "{line}");
}

#[test]
fn the_formatted_line_carries_caps_counts_and_no_query() {
    let c = Coverage {
        mode: Mode::Ranked,
        reason: None,
        query_len: 42,
        caps: Some(Caps { memory: 3, related: 0, knowledge: 10, task_memories: 3 }),
        digest_available: true,
        digest_fresh: true,
        digest_age_days: Some(2),
        sections: Sections {
            current_task: 3,
            pinned_context: 7,
            inherited_memories: 8,
            decisions: 6,
            ..Sections::default()
        },
    };
    assert_eq!(
        c.line(),
        "[lore] wakeup: mode=ranked shape=full ranked=true queryLen=42 memory=3 related=0 knowledge=10 taskMemories=3 \
         digestAvailable=true digestFresh=true digestAgeDays=2 sections.digest=0 sections.currentTask=3 sections.recent=0 \
         sections.related=0 sections.tasks=0 sections.facts=0 sections.decisions=6 sections.proposedDecisions=0 \
         sections.overdueDecisions=0 sections.proposedMemories=0 sections.pinnedContext=7 sections.inheritedMemories=8"
    );
}

#[test]
fn the_already_ranked_and_load_failed_lines_match_the_contract_examples() {
    assert_eq!(
        Coverage::empty(Mode::Default, reason::ALREADY_RANKED).line(),
        "[lore] wakeup: mode=default shape=full ranked=false reason=already-ranked-for-session digestAvailable=false \
         digestFresh=false digestAgeDays=none sections.digest=0 sections.currentTask=0 sections.recent=0 \
         sections.related=0 sections.tasks=0 sections.facts=0 sections.decisions=0 sections.proposedDecisions=0 \
         sections.overdueDecisions=0 sections.proposedMemories=0 sections.pinnedContext=0 sections.inheritedMemories=0"
    );
    assert_eq!(
        Coverage::empty(Mode::Error, reason::LOAD_FAILED).line(),
        "[lore] wakeup: mode=error shape=full ranked=false reason=load-failed digestAvailable=false digestFresh=false \
         digestAgeDays=none sections.digest=0 sections.currentTask=0 sections.recent=0 sections.related=0 \
         sections.pinnedContext=0 sections.inheritedMemories=0 sections.tasks=0 sections.facts=0 sections.decisions=0 \
         sections.proposedDecisions=0 sections.overdueDecisions=0 sections.proposedMemories=0"
    );
}

#[test]
fn the_status_report_has_the_same_line() {
    let c = Coverage::empty(Mode::Default, reason::NO_RANKED_SEARCH);
    let report = c.report();
    assert_eq!(report[0], "Wake-up coverage:");
    assert_eq!(report[1], format!("  {}", c.line()));
    assert!(report[1].starts_with("  [lore] wakeup: mode=default"));
}

#[test]
fn coverage_is_only_computed_when_asked() {
    let world = World::new();
    let store = world.store();
    let reader = world.reader();
    let opts = LoadOptions { include_coverage: false, ..options(&reader, DEFAULT_LIMITS, None) };
    assert!(load(Some(&store), &opts).unwrap().coverage.is_none());
}

#[test]
fn a_fresh_digest_trims_recents_to_three_newer_than_it() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    add(&mut store, memory(&p, "before the digest", 3 * DAY));
    store.save_digest(&p, "d", "b", now_ms() - 2 * DAY, None).unwrap();
    for i in 0..5 {
        add(&mut store, memory(&p, &format!("after {i}"), HOUR * (i + 1)));
    }
    let data = run(&world, DEFAULT_LIMITS, None);
    assert!(data.digest.is_some());
    assert_eq!(titles(&data.memories), ["after 0", "after 1", "after 2"]);
}

#[test]
fn a_memory_saved_in_the_same_instant_as_the_digest_is_not_since_it() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    store.save_digest(&p, "d", "b", now_ms() - HOUR, None).unwrap();
    add(&mut store, memory(&p, "same instant", HOUR));
    assert!(run(&world, DEFAULT_LIMITS, None).memories.is_empty());
}

#[test]
fn without_a_digest_recents_are_capped_at_ten_newest_first() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    for i in 0..11 {
        add(&mut store, memory(&p, &format!("m{i:02}"), HOUR * (i + 1)));
    }
    let data = run(&world, DEFAULT_LIMITS, None);
    assert_eq!(data.memories.len(), 10);
    assert_eq!(data.memories[0].title, "m00");
    assert_eq!(data.memories[9].title, "m09");
}

#[test]
fn facts_are_the_newest_active_ones_capped() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    let mut ids = Vec::new();
    for i in 0..30 {
        ids.push(add_fact(&mut store, &p, &format!("s{i:02}"), "uses", "x", HOUR * (i + 1)));
    }
    assert!(store.retire_fact(ids[0], now_ms()).unwrap());
    assert!(!store.retire_fact(ids[0], now_ms()).unwrap(), "retiring twice finds nothing");
    let data = run(&world, DEFAULT_LIMITS, None);
    assert_eq!(data.facts.len(), 25);
    assert_eq!(data.facts[0].subject, "s01", "the retired fact is gone");
    let data = run(&world, Limits { knowledge: 7, ..DEFAULT_LIMITS }, None);
    assert_eq!(data.facts.len(), 7, "a caller's cap is honoured");
}

#[test]
fn zero_limits_skip_their_sections() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    add(&mut store, memory(&p, "m", HOUR));
    add_fact(&mut store, &p, "s", "uses", "o", HOUR);
    let data = run(&world, Limits { memory: 0, memory_with_digest: 0, knowledge: 0, ..DEFAULT_LIMITS }, None);
    assert!(data.memories.is_empty() && data.facts.is_empty());
    // With a fresh digest, memory_with_digest alone still loads recents.
    store.save_digest(&p, "d", "b", now_ms() - 2 * HOUR, None).unwrap();
    let data = run(&world, Limits { memory: 0, memory_with_digest: 3, ..DEFAULT_LIMITS }, None);
    assert_eq!(titles(&data.memories), ["m"]);
}

#[test]
fn expired_proposed_and_rejected_memories_are_left_out() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    let mut expired = memory(&p, "expired yesterday", HOUR);
    expired.expires_at = Some("2026-04-19".into());
    add(&mut store, expired);
    let mut last_day = memory(&p, "expires today", HOUR);
    last_day.expires_at = Some("2026-04-20".into());
    add(&mut store, last_day);
    let mut proposed = memory(&p, "proposed", HOUR);
    proposed.status = Status::Proposed;
    add(&mut store, proposed);
    let mut rejected = memory(&p, "rejected", HOUR);
    rejected.status = Status::Rejected;
    add(&mut store, rejected);
    let data = run(&world, DEFAULT_LIMITS, Some("expired proposed rejected expires"));
    assert_eq!(titles(&data.memories), ["expires today"]);
    assert!(titles(&data.task_memories).is_empty(), "{:?}", titles(&data.task_memories));

    let reader = Reader { include_expired: true, ..world.reader() };
    let data = load(Some(&store), &options(&reader, DEFAULT_LIMITS, None)).unwrap();
    assert_eq!(titles(&data.memories).len(), 2, "include_expired brings the expired row back, not the proposed one");
}

#[test]
fn the_prompt_search_runs_only_with_a_query() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    add(&mut store, memory(&p, "auth rotation", 30 * DAY));
    for query in [None, Some(""), Some("   ")] {
        let data = run(&world, Limits::for_hook(query.is_some()), query);
        assert!(data.task_memories.is_empty(), "{query:?}");
        assert_eq!(coverage(&data).mode, Mode::Default, "{query:?}");
    }
    let data = run(&world, Limits { memory: 0, ..Limits::for_hook(true) }, Some("  auth  "));
    assert_eq!(titles(&data.task_memories), ["auth rotation"], "the query is trimmed before searching");
}

#[test]
fn prompt_memories_are_deduped_against_recents_and_not_starved() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    // Three recent auth memories take the recents; the search must reach past them.
    for i in 0..3 {
        add(&mut store, memory(&p, &format!("auth recent {i}"), HOUR * (i + 1)));
    }
    for i in 0..4 {
        add(&mut store, memory(&p, &format!("auth older {i}"), 30 * DAY + i));
    }
    let data = run(&world, Limits::for_hook(true), Some("auth"));
    assert_eq!(titles(&data.memories), ["auth recent 0", "auth recent 1", "auth recent 2"]);
    assert_eq!(data.task_memories.len(), 3);
    assert!(data.task_memories.iter().all(|m| m.title.starts_with("auth older")), "{:?}", titles(&data.task_memories));
    let data = run(&world, Limits { task_memories: 5, ..Limits::for_hook(true) }, Some("auth"));
    assert_eq!(data.task_memories.len(), 4, "a caller's cap of 5 is honoured up to what exists");
}

#[test]
fn a_5000_character_query_is_searched_as_its_first_1000() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    add(&mut store, memory(&p, "zebra crossing", 30 * DAY));
    add(&mut store, memory(&p, "yak shaving", 30 * DAY));
    let query = format!("zebra {}yak", "x ".repeat(2500));
    let data = run(&world, Limits { memory: 0, ..Limits::for_hook(true) }, Some(&query));
    assert_eq!(titles(&data.task_memories), ["zebra crossing"], "the word after the cut is not searched");
    assert_eq!(coverage(&data).query_len, 1000);
}

#[test]
fn bm25_ranks_title_matches_first_and_breaks_ties_by_recency() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    let mut body_only = memory(&p, "unrelated heading", 40 * DAY);
    body_only.body = "somewhere in here we mention postgres once".into();
    add(&mut store, body_only);
    add(&mut store, memory(&p, "postgres vacuum settings", 50 * DAY));
    add(&mut store, memory(&p, "postgres vacuum settings", 45 * DAY));
    let data = run(&world, Limits { memory: 0, ..Limits::for_hook(true) }, Some("postgres"));
    let ages: Vec<i64> = data.task_memories.iter().map(|m| (now_ms() - m.created_at) / DAY).collect();
    assert_eq!(
        titles(&data.task_memories),
        ["postgres vacuum settings", "postgres vacuum settings", "unrelated heading"]
    );
    assert_eq!(ages, [45, 50, 40], "equal scores: the newer first");
}

#[test]
fn prompt_syntax_is_never_query_syntax() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    add(&mut store, memory(&p, "near the cache: prefix star", 30 * DAY));
    for prompt in [
        "\"unbalanced quote",
        "NEAR(cache prefix)",
        "title:cache OR -prefix",
        "cache* AND NOT star^",
        "{title} : cache",
        "'; DROP TABLE memories; --",
        "\"\"\"",
        "- : * NEAR AND OR NOT",
    ] {
        let data = run(&world, Limits { memory: 0, ..Limits::for_hook(true) }, Some(prompt));
        assert_eq!(coverage(&data).mode, Mode::Ranked, "{prompt}");
        let expect_hit = ["cache", "near", "prefix", "star"].iter().any(|w| prompt.to_lowercase().contains(w));
        assert_eq!(data.task_memories.len(), usize::from(expect_hit), "{prompt}");
    }
}

#[test]
fn a_prompt_of_common_words_still_searches() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    add(&mut store, memory(&p, "what we should do about it", 30 * DAY));
    let data = run(&world, Limits { memory: 0, ..Limits::for_hook(true) }, Some("what should we do?"));
    assert_eq!(data.task_memories.len(), 1);
}

#[test]
fn the_ranking_stays_within_the_window_for_very_common_words() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    let rows: Vec<_> = (0..1200).map(|i| memory(&p, &format!("deploy step {i}"), DAY + i)).collect();
    store.import_memories(&rows).unwrap();
    add(&mut store, memory(&p, "deploy deploy deploy checklist", 400 * DAY));
    let data = run(&world, Limits { memory: 0, ..Limits::for_hook(true) }, Some("deploy"));
    assert_eq!(data.task_memories.len(), 3);
    // The old checklist was added last, so it is inside the most recent matches and ranks first.
    assert_eq!(data.task_memories[0].title, "deploy deploy deploy checklist");
}

#[test]
fn no_store_gives_empty_sections() {
    let world = World::new();
    let reader = world.reader();
    let data = load(None, &options(&reader, Limits::for_hook(true), Some("auth"))).unwrap();
    assert!(data.is_empty());
    assert_eq!(coverage(&data).mode, Mode::Ranked);
}

#[test]
fn related_memories_follow_the_task_inventory() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    let mut task = memory(&p, "Migrate billing exports", 2 * HOUR);
    task.kind = "task".into();
    add(&mut store, task);
    let mut tiny = memory(&p, "ab", 3 * HOUR);
    tiny.kind = "task".into();
    add(&mut store, tiny);
    for i in 0..8 {
        add(&mut store, memory(&p, &format!("billing exports note {i}"), 20 * DAY + i));
    }
    let limits = Limits { memory: 1, ..DEFAULT_LIMITS };
    let data = run(&world, limits, None);
    assert_eq!(titles(&data.tasks), ["Migrate billing exports", "ab"]);
    assert_eq!(data.related.len(), 5, "capped at 5");
    assert!(data.related.iter().all(|m| m.title.starts_with("billing exports note")), "{:?}", titles(&data.related));
    let shown: Vec<i64> = data.memories.iter().map(|m| m.id).collect();
    assert!(data.related.iter().all(|m| !shown.contains(&m.id)), "deduped against recents");
    let data = run(&world, Limits { tasks: 0, ..limits }, None);
    assert!(data.tasks.is_empty() && data.related.is_empty(), "no tasks, no related search");
    assert_eq!(run(&world, Limits::for_hook(true), Some("billing")).related.len(), 0, "the hook never has related");
}

#[test]
fn the_inbox_is_loaded_only_on_request() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    for i in 0..25 {
        let mut m = memory(&p, &format!("proposal {i:02}"), DAY * 30 - i);
        m.status = Status::Proposed;
        add(&mut store, m);
    }
    let reader = world.reader();
    let data = load(Some(&store), &options(&reader, DEFAULT_LIMITS, None)).unwrap();
    assert!(data.proposed.is_empty() && data.proposed_total == 0);
    let opts = LoadOptions { include_proposed: true, ..options(&reader, DEFAULT_LIMITS, None) };
    let data = load(Some(&store), &opts).unwrap();
    assert_eq!((data.proposed.len(), data.proposed_total), (20, 25));
    assert_eq!(data.proposed[0].title, "proposal 00", "oldest first");
    assert_eq!(coverage(&data).sections.proposed_memories, 25, "the count is the true total");
    let opts =
        LoadOptions { include_proposed: true, ..options(&reader, Limits { proposed: 0, ..DEFAULT_LIMITS }, None) };
    assert!(load(Some(&store), &opts).unwrap().proposed.is_empty());
}

#[test]
fn date_buckets_are_today_yesterday_earlier_in_utc() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    add(&mut store, memory(&p, "today", HOUR));
    add(&mut store, memory(&p, "yesterday", DAY));
    add(&mut store, memory(&p, "earlier", 3 * DAY));
    let data = run(&world, DEFAULT_LIMITS, None);
    let project = crate::wakeup::config::Project::named(&p, crate::wakeup::config::ProjectSource::Root);
    let text = crate::wakeup::render::render(&project, &data, now_ms()).unwrap();
    let t = text.find("### Today").unwrap();
    let y = text.find("### Yesterday").unwrap();
    let e = text.find("### Earlier").unwrap();
    assert!(
        t < text.find("**today**").unwrap()
            && y < text.find("**yesterday**").unwrap()
            && e < text.find("**earlier**").unwrap()
    );
    assert!(t < y && y < e, "{text}");
}

#[test]
fn the_prompt_search_and_the_related_search_both_run_when_they_overlap() {
    let world = World::new();
    let p = world.project();
    let mut store = world.store();
    let mut task = memory(&p, "Migrate billing exports", HOUR);
    task.kind = "task".into();
    add(&mut store, task);
    for i in 0..6 {
        add(&mut store, memory(&p, &format!("billing exports note {i}"), 20 * DAY + i));
    }
    let data = run(&world, Limits { memory: 1, ..RANKED_LIMITS }, Some("billing exports"));
    assert_eq!(data.related.len(), 2, "{:?}", titles(&data.related));
    assert_eq!(data.task_memories.len(), 3, "{:?}", titles(&data.task_memories));
    let related: Vec<i64> = data.related.iter().map(|m| m.id).collect();
    assert!(data.task_memories.iter().all(|m| !related.contains(&m.id)), "prompt memories skip related ones");
}
