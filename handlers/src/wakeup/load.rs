//! Loading what wake-up shows: the latest fresh digest, recent memories, active facts, and (with
//! a prompt) the memories most relevant to it; for `hookmux memory wake-up` also the task
//! inventory, memories related to it and the proposed-memory inbox.

use super::coverage::{reason, Caps, Coverage, Mode, Sections};
use super::dates::MS_PER_DAY;
use super::query::{sanitize_user_query, utf16_len};
use super::rank::terms;
use super::store::{Digest, Fact, Memory, Reader, Store};
use anyhow::Result;
use std::collections::HashSet;

/// A digest older than this many days is not shown.
pub const DIGEST_FRESHNESS_DAYS: i64 = 7;

/// Per-section caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Recent memories without a fresh digest.
    pub memory: usize,
    /// Recent memories since a fresh digest.
    pub memory_with_digest: usize,
    /// Memories related to the task inventory.
    pub related: usize,
    /// Active facts.
    pub knowledge: usize,
    /// The task inventory (active `task` memories); 0 skips it and the related search.
    pub tasks: usize,
    /// Memories relevant to the prompt ("For Your Current Task").
    pub task_memories: usize,
    /// Proposed memories shown from the inbox.
    pub proposed: usize,
}

/// Caps without a prompt.
pub const DEFAULT_LIMITS: Limits =
    Limits { memory: 10, memory_with_digest: 3, related: 5, knowledge: 25, tasks: 10, task_memories: 3, proposed: 20 };

/// Caps with a prompt: the prompt's own section takes the room recent memories and facts leave.
pub const RANKED_LIMITS: Limits =
    Limits { memory: 3, memory_with_digest: 3, related: 2, knowledge: 10, ..DEFAULT_LIMITS };

impl Limits {
    /// The caps `hookmux run wakeup` uses: no task inventory and so no related section, ever.
    pub fn for_hook(ranked: bool) -> Limits {
        let base = if ranked { Limits { related: 0, ..RANKED_LIMITS } } else { DEFAULT_LIMITS };
        Limits { tasks: 0, ..base }
    }

    /// The caps as the debug line prints them.
    pub fn caps(&self) -> Caps {
        Caps {
            memory: self.memory,
            related: self.related,
            knowledge: self.knowledge,
            task_memories: self.task_memories,
        }
    }
}

/// What to load.
#[derive(Clone, Debug)]
pub struct LoadOptions<'a> {
    pub reader: &'a Reader,
    pub limits: Limits,
    /// The prompt, raw: it is trimmed and cut to length here.
    pub user_query: Option<&'a str>,
    /// Load the proposed-memory inbox (never in the hook).
    pub include_proposed: bool,
    /// Compute the debug counters.
    pub include_coverage: bool,
    /// Print these caps in the debug line.
    pub caps: Option<Caps>,
    /// Now, in milliseconds since the epoch.
    pub now: i64,
}

/// Everything a wake-up renders.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WakeUpData {
    /// The latest digest, when it is fresh.
    pub digest: Option<Digest>,
    pub memories: Vec<Memory>,
    pub task_memories: Vec<Memory>,
    pub tasks: Vec<Memory>,
    pub related: Vec<Memory>,
    pub facts: Vec<Fact>,
    pub proposed: Vec<Memory>,
    pub proposed_total: u64,
    pub coverage: Option<Coverage>,
}

impl WakeUpData {
    /// True when no section has anything to show.
    pub fn is_empty(&self) -> bool {
        self.digest.is_none()
            && self.memories.is_empty()
            && self.task_memories.is_empty()
            && self.tasks.is_empty()
            && self.related.is_empty()
            && self.facts.is_empty()
            && self.proposed.is_empty()
    }
}

/// A digest is fresh when it was saved less than `days` ago; one dated in the future (a skewed
/// clock) is not.
pub fn is_fresh(digest_created_at: i64, now: i64, days: i64) -> bool {
    let age = now - digest_created_at;
    age >= 0 && age < days * MS_PER_DAY
}

/// Loads a wake-up. `store` is `None` when no store file exists yet: every section is empty,
/// which is not an error.
pub fn load(store: Option<&Store>, opts: &LoadOptions<'_>) -> Result<WakeUpData> {
    let limits = opts.limits;
    let query = sanitize_user_query(opts.user_query);
    let task_fetch_slack = 1 + limits.memory + limits.related;
    let task_fetch_limit = match &query {
        Some(_) if limits.task_memories > 0 => (limits.task_memories + task_fetch_slack).min(100),
        _ => 0,
    };
    let ranked_search_attempted = query.is_some() && task_fetch_limit > 0;
    let reader = opts.reader;

    let mut data = WakeUpData::default();
    let mut latest_digest = None;
    let mut candidates = Vec::new();
    if let Some(store) = store {
        let recent_limit = limits.memory.max(limits.memory_with_digest);
        let raw_recents = store.recent_memories(reader, None, recent_limit)?;
        latest_digest = store.latest_digest(&reader.project)?;
        data.facts = store.active_facts(reader, limits.knowledge)?;
        if limits.tasks > 0 {
            data.tasks = store.recent_memories(reader, Some("task"), limits.tasks)?;
        }
        if let (true, Some(query)) = (ranked_search_attempted, query.as_deref()) {
            candidates = store.search_memories(reader, &terms(query), task_fetch_limit)?;
        }
        if opts.include_proposed && limits.proposed > 0 {
            data.proposed = store.proposed_memories(&reader.project, limits.proposed)?;
            data.proposed_total = store.count_proposed(&reader.project)?;
        }

        data.digest = latest_digest.clone().filter(|d| is_fresh(d.created_at, opts.now, DIGEST_FRESHNESS_DAYS));
        let since = data.digest.as_ref().map(|d| d.created_at);
        let cap = if since.is_some() { limits.memory_with_digest } else { limits.memory };
        data.memories = raw_recents.into_iter().filter(|m| since.is_none_or(|t| m.created_at > t)).take(cap).collect();

        let mut surfaced: HashSet<i64> = data.memories.iter().map(|m| m.id).collect();
        if limits.related > 0 && !data.tasks.is_empty() {
            data.related = load_related(store, reader, &data.tasks, &surfaced, limits.related)?;
        }
        surfaced.extend(data.related.iter().map(|m| m.id));
        data.task_memories =
            candidates.into_iter().filter(|m| !surfaced.contains(&m.id)).take(limits.task_memories).collect();
    }

    if opts.include_coverage {
        data.coverage = Some(coverage(&data, latest_digest.as_ref(), query.as_deref(), ranked_search_attempted, opts));
    }
    Ok(data)
}

/// Memories that match the task inventory's titles, not already shown, not the tasks themselves.
fn load_related(
    store: &Store,
    reader: &Reader,
    tasks: &[Memory],
    surfaced: &HashSet<i64>,
    limit: usize,
) -> Result<Vec<Memory>> {
    let mut entities: Vec<String> = Vec::new();
    for task in tasks {
        let entity = task.title.trim();
        if entity.chars().count() >= 3 && !entities.iter().any(|e| e.to_lowercase() == entity.to_lowercase()) {
            entities.push(entity.to_string());
        }
    }
    entities.truncate(10);
    let task_ids: HashSet<i64> = tasks.iter().map(|t| t.id).collect();
    let window = (limit + surfaced.len() + task_ids.len()).min(100);
    let candidates = store.search_memories(reader, &terms(&entities.join(" ")), window)?;
    Ok(candidates.into_iter().filter(|m| !surfaced.contains(&m.id) && !task_ids.contains(&m.id)).take(limit).collect())
}

fn coverage(
    data: &WakeUpData,
    latest_digest: Option<&Digest>,
    query: Option<&str>,
    ranked: bool,
    opts: &LoadOptions<'_>,
) -> Coverage {
    let age = latest_digest.map(|d| opts.now - d.created_at).filter(|age| *age >= 0);
    Coverage {
        mode: if ranked { Mode::Ranked } else { Mode::Default },
        reason: (!ranked).then_some(reason::NO_RANKED_SEARCH),
        query_len: if ranked { query.map(utf16_len).unwrap_or(0) } else { 0 },
        caps: opts.caps,
        digest_available: latest_digest.is_some(),
        digest_fresh: data.digest.is_some(),
        digest_age_days: age.map(|age| age / MS_PER_DAY),
        sections: Sections {
            digest: usize::from(data.digest.is_some()),
            current_task: data.task_memories.len(),
            recent: data.memories.len(),
            related: data.related.len(),
            tasks: data.tasks.len(),
            facts: data.facts.len(),
            proposed_memories: if opts.include_proposed { data.proposed_total as usize } else { 0 },
            ..Sections::default()
        },
    }
}
