//! # hookmux-sdk: write handlers for hookmux
//!
//! A handler is a synchronous function from a hook event to an [`Answer`]. hookmux runs it as a
//! standalone hook command (`hookmux run NAME`) or in-process inside `hookmux dispatch`, and
//! encodes its answer in the form the host (Claude Code, Codex, OpenCode) expects.
//!
//! ```
//! use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent};
//! use hookmux_sdk::{OptionKind, OptionSpec};
//!
//! /// Refuses `rm -rf` in Bash commands.
//! struct NoRmRf;
//!
//! static INFO: HandlerInfo = HandlerInfo {
//!     name: "no-rm-rf",
//!     description: "Denies Bash commands that run rm -rf",
//!     events: &[HookEvent::PreToolUse],
//!     matcher: Some("Bash"),
//!     options: &[OptionSpec {
//!         name: "reason",
//!         kind: OptionKind::String,
//!         default: Some("rm -rf is not allowed here"),
//!         help: "what the model is told",
//!     }],
//! };
//!
//! impl Handler for NoRmRf {
//!     fn info(&self) -> &'static HandlerInfo {
//!         &INFO
//!     }
//!
//!     fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
//!         let command = cx.event().tool_input_str("command").unwrap_or_default();
//!         if command.contains("rm -rf") {
//!             return Ok(Answer::deny(cx.args().value("reason").unwrap_or_default()));
//!         }
//!         Ok(Answer::none())
//!     }
//! }
//!
//! register_handler!(NoRmRf);
//!
//! // One-line test:
//! let answer = hookmux_sdk::testing::TestRun::new(&NoRmRf)
//!     .event(serde_json::json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}))
//!     .answer();
//! assert_eq!(answer.decision, Some(hookmux_sdk::Decision::Deny));
//! ```

mod answer;
mod args;
pub mod bash;
pub mod bound;
mod context;
mod event;
mod handler;
mod registry;
pub mod testing;
mod trust;

pub use answer::{Answer, Decision};
pub use args::{Args, ArgsError};
pub use context::{Clock, Context, Diagnostics, Env, FixedClock, SystemClock, TrustDecider};
pub use event::{json_kind, Event, EventSpec, Exit2, HookEvent, MatchField};
pub use handler::{Handler, HandlerInfo, OptionKind, OptionSpec};
pub use registry::{DuplicateHandler, Location, Registration, Registry};
pub use trust::ProjectTrust;

/// Re-exported so that handler crates need no direct dependency on them.
pub use anyhow;
pub use serde_json;

#[doc(hidden)]
pub mod __private {
    pub use inventory;
}
