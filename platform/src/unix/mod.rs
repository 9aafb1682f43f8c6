//! Linux and macOS: what POSIX gives both, and (in `linux`, `macos`) what only one kernel has.

pub(crate) mod dirs;
pub(crate) mod errno;
pub(crate) mod fs;
pub(crate) mod lock;
pub(crate) mod program;
pub(crate) mod shell;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;
