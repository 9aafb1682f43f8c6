//! Linux only: the process table from `/proc`.
//!
//! A process's row is `/proc/PID/stat` (parent, state, and the start time in clock ticks since
//! boot), its environment as exec'd is `/proc/PID/environ`, readable for the user's own processes
//! unless one made itself not dumpable.

use crate::tree::{Proc, Row, Table};

/// `/proc/PID/stat`: `pid (comm) state ppid pgrp session … starttime …`. The command name may hold
/// spaces and parentheses, so the fields are counted from its last `)`.
fn read_row(pid: i32) -> Option<Row> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 1..)?.split_whitespace().collect();
    let state = *fields.first()?;
    let ppid = fields.get(1)?.parse().ok()?;
    // starttime is field 22; state, the first field after the name, is field 3.
    let start = fields.get(22 - 3)?.parse().ok()?;
    Some(Row { proc: Proc { pid, start }, ppid, zombie: matches!(state, "Z" | "X" | "x") })
}

/// The process that has `pid` now, if it runs (a zombie does not).
pub fn running(pid: i32) -> Option<Proc> {
    read_row(pid).filter(|row| !row.zombie).map(|row| row.proc)
}

/// Every process `/proc` lists, read once.
pub struct ProcTable {
    rows: Vec<Row>,
}

impl ProcTable {
    pub fn read() -> ProcTable {
        let Ok(entries) = std::fs::read_dir("/proc") else { return ProcTable { rows: Vec::new() } };
        let rows = entries
            .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(read_row)
            .collect();
        ProcTable { rows }
    }
}

impl Table for ProcTable {
    fn rows(&self) -> &[Row] {
        &self.rows
    }

    fn environ_holds(&self, pid: i32, entry: &[u8]) -> bool {
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|environ| environ.split(|byte| *byte == 0).any(|pair| pair == entry))
    }
}

/// Tells when watched children exit: a pidfd each (Linux 5.3), readable once its process has
/// exited. Where the kernel has no pidfds, nothing is watched and exits are looked for on a
/// backoff.
pub struct ExitWatch {
    pidfds: std::collections::HashMap<libc::pid_t, std::os::fd::OwnedFd>,
}

impl ExitWatch {
    pub fn new() -> ExitWatch {
        ExitWatch { pidfds: std::collections::HashMap::new() }
    }

    /// Starts watching child `pid`; whether its exit will make one of [`Self::fds`] readable.
    pub fn add(&mut self, pid: libc::pid_t) -> bool {
        use std::os::fd::FromRawFd;
        // SAFETY: pidfd_open takes a pid and flags, and returns a new descriptor (close-on-exec)
        // or -1. The pid is an unreaped child of this process, so it names that child.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        let Ok(fd) = std::os::fd::RawFd::try_from(fd) else { return false };
        if fd < 0 {
            return false;
        }
        // SAFETY: the descriptor was just made and belongs to nothing else.
        self.pidfds.insert(pid, unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) });
        true
    }

    /// Stops watching `pid` (reaped, or no longer anyone's concern).
    pub fn remove(&mut self, pid: libc::pid_t) {
        self.pidfds.remove(&pid);
    }

    /// Every descriptor to poll for reading, with the pid it tells about (`None`: any of them).
    pub fn fds(&self) -> impl Iterator<Item = (std::os::fd::RawFd, Option<libc::pid_t>)> + '_ {
        use std::os::fd::AsRawFd;
        self.pidfds.iter().map(|(pid, fd)| (fd.as_raw_fd(), Some(*pid)))
    }

    /// After a descriptor for any pid polled readable: the pids that may have exited. A pidfd
    /// names its pid, so there is nothing to read.
    pub fn exited(&mut self) -> Vec<libc::pid_t> {
        Vec::new()
    }
}
