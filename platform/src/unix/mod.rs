//! Linux and macOS: what POSIX gives both, and (in `linux`, `macos`) what only one kernel has.

pub(crate) mod dirs;
pub(crate) mod errno;
pub(crate) mod fs;
pub(crate) mod lock;
pub(crate) mod program;
pub(crate) mod shell;

pub mod detached;
pub mod process;
mod spawn;

#[cfg(any(target_os = "macos", test))]
mod procargs;

// What only one kernel has: its process table (`kernel::ProcTable`, `kernel::running`) and how
// it tells that a child exited (`kernel::ExitWatch`).
#[cfg(target_os = "linux")]
mod linux;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod mathlib;
#[cfg(target_os = "linux")]
use linux as kernel;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
use macos as kernel;
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
mod kernel {
    //! Elsewhere no process table is read (a timed-out hook's process group alone is signalled)
    //! and exits are looked for on a backoff.

    use crate::tree::{Proc, Row, Table};

    pub struct ExitWatch;

    impl ExitWatch {
        pub fn new() -> ExitWatch {
            ExitWatch
        }

        pub fn add(&mut self, _pid: libc::pid_t) -> bool {
            false
        }

        pub fn remove(&mut self, _pid: libc::pid_t) {}

        pub fn fds(&self) -> impl Iterator<Item = (std::os::fd::RawFd, Option<libc::pid_t>)> + '_ {
            std::iter::empty()
        }

        pub fn exited(&mut self) -> Vec<libc::pid_t> {
            Vec::new()
        }
    }

    pub fn running(_pid: i32) -> Option<Proc> {
        None
    }

    pub struct ProcTable;

    impl ProcTable {
        pub fn read() -> ProcTable {
            ProcTable
        }
    }

    impl Table for ProcTable {
        fn rows(&self) -> &[Row] {
            &[]
        }

        fn environ_holds(&self, _pid: i32, _entry: &[u8]) -> bool {
            false
        }
    }
}
