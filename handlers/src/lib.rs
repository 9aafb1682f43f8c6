//! The handlers built into hookmux. Each folder is one handler (or a family that shares files)
//! and registers itself with `register_handler!`; nothing here is listed by hand elsewhere.
//!
//! The hookmux library names this crate (`use hookmux_handlers as _;`) so that the linker keeps
//! it, and with it every registration, in any binary built on hookmux.

pub mod brewcode;
mod paths;
mod protect_paths;
pub mod safe_fs;
pub mod transcript;
pub mod wakeup;
