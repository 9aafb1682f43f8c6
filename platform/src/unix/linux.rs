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
