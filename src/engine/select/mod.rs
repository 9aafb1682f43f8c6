//! Which handlers run for an event, in which order: matchers, `if` rules, built-in recognition
//! and the plan itself. Pure: nothing here reads a file or starts a process, so `dry-run` and
//! the tests can show a plan without running it.

pub mod builtin;
pub mod listing;
pub mod matcher;
pub mod plan;
pub mod rule;
