//! brewcode's seven hooks as native handlers.
//!
//! brewcode (a Claude Code plugin for long, phased tasks) runs seven Node scripts as hooks: it
//! binds a session to the active task's lock, injects what agents learned (KNOWLEDGE.jsonl) and
//! the plan's role constraints into subagent prompts, compacts that knowledge and hands the task
//! off before a context compaction, blocks stopping while the task is unfinished, and nudges
//! agents towards grepai's semantic search. These handlers do the same, in-process:
//!
//! | handler | event | brewcode hook |
//! |---|---|---|
//! | `compact-handoff` | SessionStart | `session-start.mjs` |
//! | `grepai-status` | SessionStart | `grepai-session.mjs` |
//! | `knowledge-inject` | PreToolUse `Task\|Agent` | `pre-task.mjs` |
//! | `grepai-reminder` | PreToolUse `Glob\|Grep` | `grepai-reminder.mjs` |
//! | `task-bind` | PostToolUse `Task\|Agent` | `post-task.mjs` |
//! | `knowledge-compact` | PreCompact | `pre-compact.mjs` |
//! | `stop-guard` | Stop | `stop.mjs` |
//!
//! The reference is brewcode v3.4.20's behaviour, quirks included: the same fields read, the same
//! answers, the same files written (the log `.claude/tasks/logs/brewcode.log` line for line), the
//! same settings file. Every failure is informational: a handler logs it as brewcode does and
//! answers as if it had nothing to say, so a broken task never blocks the host.

mod compact_handoff;
mod config;
mod grepai;
mod grepai_reminder;
mod grepai_status;
mod hook;
mod js;
mod knowledge;
mod knowledge_compact;
mod knowledge_file;
mod knowledge_inject;
mod lock;
mod patterns;
mod state;
mod stop_guard;
mod task;
mod task_bind;

pub mod cli;

pub use compact_handoff::CompactHandoff;
pub use grepai_reminder::GrepaiReminder;
pub use grepai_status::GrepaiStatus;
pub use knowledge_compact::KnowledgeCompact;
pub use knowledge_inject::KnowledgeInject;
pub use stop_guard::StopGuard;
pub use task_bind::TaskBind;

/// A time as JavaScript's `toISOString()` writes it (`2026-02-01T12:00:00.000Z`): the format of
/// every time brewcode stores, for tests and tools that build brewcode files.
pub fn to_iso_string(time: std::time::SystemTime) -> String {
    js::date::iso_now(time)
}

#[cfg(test)]
mod tests;
