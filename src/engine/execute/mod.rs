//! Running a plan: commands as processes (with timeouts, killed by process group), http hooks,
//! and built-in handlers in-process, all in parallel. Each gives a [`RawOutput`].

pub mod builtin;
pub mod detached;
pub mod http;
mod output;
pub mod process;
pub mod run;

pub use output::RawOutput;
