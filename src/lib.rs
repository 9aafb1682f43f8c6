//! # hookmux
//!
//! A hooks runtime for AI coding assistants. The folders are layers, and a module uses only
//! modules of its own layer or the layers below it:
//!
//! ```text
//! cli        clap's definitions and routing
//! commands   one file per subcommand: gather, then render
//! host       one folder per host: decode ─► engine ─► encode, and its installer
//! engine     one event ─► one verdict:
//!              config (sources, settings) ─► select (match, plan; pure) ─► execute (spawn,
//!              call built-ins, in parallel, timeouts) ─► verdict (classify, combine) ─► dispatch
//! protocol   Claude Code's wire format: reading a hook's stdout, printing an answer
//! ```
//!
//! `tests/it/layers.rs` fails when a module imports from a layer above its own. The binary is a
//! thin layer over [`cli::main`]; a third-party binary that calls it gets every built-in handler
//! (this library links them) next to its own.

// Link the built-in handlers so that their registrations reach every binary built on this crate.
use hookmux_handlers as _;

pub mod cli;
pub mod commands;
pub mod engine;
pub mod host;
pub mod protocol;

pub use hookmux_sdk as sdk;
