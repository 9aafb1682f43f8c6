//! The operating system's part of hookmux, in one place.
//!
//! Everything hookmux does that depends on the operating system lives here, behind functions and
//! types that mean the same on every OS family: processes and their trees, telling when a pipe's
//! writers are gone, file locks, owner-only files and folders, refusing links, the user's
//! folders. Both crates that do I/O (`hookmux` and `hookmux-handlers`) use it; neither has a
//! `cfg` of its own for the operating system.
//!
//! Each public module is the portable face of one concern; the code under it is one module per
//! OS family, chosen here:
//!
//! - `unix/`: what Linux and macOS share (POSIX), with `unix/linux.rs` and `unix/macos.rs` for
//!   what only one kernel has (the process table: `/proc` on Linux, libproc on macOS);
//! - `windows/`: Win32.
//!
//! A behaviour that rests on one kernel's semantics is a bug on the others: where the kernels
//! differ, the portable face says what it promises, and each OS module keeps that promise its
//! own way (and says how in its module doc).

pub mod dirs;
pub mod errno;
pub mod fs;
pub mod lock;
pub mod path;

#[cfg(unix)]
mod unix;

#[cfg(windows)]
mod windows;
