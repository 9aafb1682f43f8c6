//! Linux and macOS: what POSIX gives both, and (in `linux`, `macos`) what only one kernel has.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;
