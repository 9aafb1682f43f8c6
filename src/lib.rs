//! # hookmux
//!
//! A hooks runtime for AI coding assistants. The data goes through the modules in this order:
//!
//! ```text
//! stdin event ─► sources (discover, parse) ─► plan (match, dedup, order; pure)
//!             ─► run (spawn / call built-ins, in parallel, timeouts) ─► outcome (classify)
//!             ─► combine ─► host (encode the one answer)
//! ```
//!
//! The binary is a thin layer over [`cli::main`]; a third-party binary that calls it gets every
//! built-in handler (this library links them) next to its own.

// Link the built-in handlers so that their registrations reach every binary built on this crate.
use hookmux_handlers as _;

pub mod builtin;
pub mod cli;
pub mod combine;
pub mod diagnostic;
pub mod dispatch;
pub mod dry_run;
pub mod host;
pub mod http;
pub mod install;
pub mod jsonpath;
pub mod listing;
pub mod matcher;
pub mod outcome;
pub mod plan;
pub mod process;
pub mod report;
pub mod rule;
pub mod run;
pub mod settings;
pub mod sources;
pub mod validate;

pub use hookmux_sdk as sdk;
