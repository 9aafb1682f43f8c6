//! The `LORE_DEBUG=1` line: one per wake-up attempt, content-free (no query text, titles, fact
//! text or bodies: only the mode, the caps, digest freshness and counts), in the `[lore] wakeup:
//! key=value …` shape, with the keys in a fixed order per variant so that saved greps and
//! aggregations keep working.

use std::fmt::Write as _;

/// Which path the attempt took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The prompt's relevance search ran.
    Ranked,
    /// It did not.
    Default,
    /// Loading failed.
    Error,
}

impl Mode {
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Ranked => "ranked",
            Mode::Default => "default",
            Mode::Error => "error",
        }
    }
}

/// Why the attempt was not ranked.
pub mod reason {
    /// No prompt to rank by (SessionStart, a slash command, no `prompt` field).
    pub const NO_RANKED_SEARCH: &str = "no-ranked-search";
    /// The session's wake-up already ran; nothing was loaded.
    pub const ALREADY_RANKED: &str = "already-ranked-for-session";
    /// The store could not be opened or read.
    pub const LOAD_FAILED: &str = "load-failed";
}

/// The per-section caps of a ranked attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    pub memory: usize,
    pub related: usize,
    pub knowledge: usize,
    pub task_memories: usize,
}

/// How many items each section held. The hook never renders decisions, the inbox, pinned
/// context or inherited memories, so those stay 0 there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sections {
    pub digest: usize,
    pub current_task: usize,
    pub recent: usize,
    pub related: usize,
    pub tasks: usize,
    pub facts: usize,
    pub decisions: usize,
    pub proposed_decisions: usize,
    pub overdue_decisions: usize,
    pub proposed_memories: usize,
    pub pinned_context: usize,
    pub inherited_memories: usize,
}

/// One attempt's counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    pub mode: Mode,
    /// Set unless the mode is `Ranked`.
    pub reason: Option<&'static str>,
    /// UTF-16 length of the query the ranking saw (0 unless ranked).
    pub query_len: usize,
    pub caps: Option<Caps>,
    /// A digest exists, fresh or not.
    pub digest_available: bool,
    /// It is younger than the freshness window (and not from the future).
    pub digest_fresh: bool,
    /// Whole days since it was saved; `None` without a digest or for a future-dated one.
    pub digest_age_days: Option<i64>,
    pub sections: Sections,
}

impl Coverage {
    /// The counters of an attempt that loaded nothing: an already-ranked session, or a failure.
    pub fn empty(mode: Mode, reason: &'static str) -> Coverage {
        Coverage {
            mode,
            reason: Some(reason),
            query_len: 0,
            caps: None,
            digest_available: false,
            digest_fresh: false,
            digest_age_days: None,
            sections: Sections::default(),
        }
    }

    /// The one-line form: `[lore] wakeup: mode=… shape=full ranked=… …`.
    pub fn line(&self) -> String {
        let mut line =
            format!("[lore] wakeup: mode={} shape=full ranked={}", self.mode.as_str(), self.mode == Mode::Ranked);
        match (self.mode, self.reason) {
            (Mode::Ranked, _) | (_, None) => {
                let _ = write!(line, " queryLen={}", self.query_len);
            }
            (_, Some(reason)) => {
                let _ = write!(line, " reason={reason}");
            }
        }
        if let Some(caps) = self.caps {
            let _ = write!(
                line,
                " memory={} related={} knowledge={} taskMemories={}",
                caps.memory, caps.related, caps.knowledge, caps.task_memories
            );
        }
        let age = self.digest_age_days.map_or_else(|| "none".to_string(), |days| days.to_string());
        let _ = write!(
            line,
            " digestAvailable={} digestFresh={} digestAgeDays={age}",
            self.digest_available, self.digest_fresh
        );
        let s = &self.sections;
        let ordered: [(&str, usize); 12] = if self.mode == Mode::Error {
            // The load-failed line keeps the key order operators already aggregate on.
            [
                ("digest", s.digest),
                ("currentTask", s.current_task),
                ("recent", s.recent),
                ("related", s.related),
                ("pinnedContext", s.pinned_context),
                ("inheritedMemories", s.inherited_memories),
                ("tasks", s.tasks),
                ("facts", s.facts),
                ("decisions", s.decisions),
                ("proposedDecisions", s.proposed_decisions),
                ("overdueDecisions", s.overdue_decisions),
                ("proposedMemories", s.proposed_memories),
            ]
        } else {
            [
                ("digest", s.digest),
                ("currentTask", s.current_task),
                ("recent", s.recent),
                ("related", s.related),
                ("tasks", s.tasks),
                ("facts", s.facts),
                ("decisions", s.decisions),
                ("proposedDecisions", s.proposed_decisions),
                ("overdueDecisions", s.overdue_decisions),
                ("proposedMemories", s.proposed_memories),
                ("pinnedContext", s.pinned_context),
                ("inheritedMemories", s.inherited_memories),
            ]
        };
        for (key, count) in ordered {
            let _ = write!(line, " sections.{key}={count}");
        }
        line
    }

    /// The report form `hookmux memory status` prints.
    pub fn report(&self) -> [String; 2] {
        ["Wake-up coverage:".to_string(), format!("  {}", self.line())]
    }
}
