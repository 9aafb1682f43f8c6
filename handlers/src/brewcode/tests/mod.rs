//! The seven handlers over real files in a temporary project, one test module each, row by row
//! through each handler's condition table.

mod compact_handoff;
mod grepai_reminder;
mod grepai_status;
mod knowledge_compact;
mod knowledge_inject;
mod links;
mod stop_guard;
mod support;
mod task_bind;
