//! Linux and macOS: what POSIX gives both, and (in `linux`, `macos`) what only one kernel has.

pub mod process;
mod spawn;

#[cfg(any(target_os = "macos", test))]
mod procargs;

// The process table: `procs::ProcTable` and `procs::running`.
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as procs;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
use macos as procs;
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
mod procs {
    //! Elsewhere no process table is read: a timed-out hook's process group alone is signalled.

    use crate::tree::{Proc, Row, Table};

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
