//! macOS only: the process table from libproc and `sysctl`.
//!
//! The pids come from `proc_listallpids`; each process's parent, state and start time from
//! `proc_pidinfo(PROC_PIDTBSDINFO)` (the start time in microseconds since the epoch, which with
//! the pid names one process for good); its environment as exec'd from `sysctl(KERN_PROCARGS2)`,
//! readable for the user's own processes, as `ps -E` reads it.

use super::procargs;
use crate::tree::{Proc, Row, Table};
use std::cell::RefCell;

/// The row of `pid`, if it is in the table and its information can be read.
fn read_row(pid: i32) -> Option<Row> {
    // SAFETY: proc_bsdinfo is plain data; all zeroes is a valid value of it.
    let mut info: libc::proc_bsdinfo = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::proc_bsdinfo>() as libc::c_int;
    // SAFETY: the buffer is `size` bytes of writable memory that lives across the call.
    let got =
        unsafe { libc::proc_pidinfo(pid, libc::PROC_PIDTBSDINFO, 0, (&raw mut info).cast::<libc::c_void>(), size) };
    if got != size {
        return None;
    }
    let start = info.pbi_start_tvsec.saturating_mul(1_000_000).saturating_add(info.pbi_start_tvusec);
    let ppid = i32::try_from(info.pbi_ppid).ok()?;
    Some(Row { proc: Proc { pid, start }, ppid, zombie: info.pbi_status == libc::SZOMB })
}

/// The process that has `pid` now, if it runs (a zombie does not).
pub fn running(pid: i32) -> Option<Proc> {
    read_row(pid).filter(|row| !row.zombie).map(|row| row.proc)
}

/// Every pid in the system at one moment. `proc_listallpids` with no buffer estimates the
/// count; processes started since may not fit, so the buffer is grown until they do.
fn all_pids() -> Vec<i32> {
    // SAFETY: a null buffer of size 0 asks for the count only.
    let estimate = unsafe { libc::proc_listallpids(std::ptr::null_mut(), 0) };
    let mut room = usize::try_from(estimate).unwrap_or(0).max(256) + 64;
    loop {
        let mut pids = vec![0i32; room];
        let bytes = libc::c_int::try_from(room * std::mem::size_of::<i32>()).unwrap_or(libc::c_int::MAX);
        // SAFETY: `pids` is `bytes` bytes of writable memory that lives across the call.
        let count = unsafe { libc::proc_listallpids(pids.as_mut_ptr().cast::<libc::c_void>(), bytes) };
        let Ok(count) = usize::try_from(count) else { return Vec::new() };
        if count < room || room >= 1 << 20 {
            pids.truncate(count.min(room));
            return pids;
        }
        room *= 2;
    }
}

/// The largest `KERN_PROCARGS2` answer (`kern.argmax`).
fn arg_max() -> usize {
    let mut mib = [libc::CTL_KERN, libc::KERN_ARGMAX];
    let mut value: libc::c_int = 0;
    let mut size = std::mem::size_of::<libc::c_int>();
    // SAFETY: `value` is `size` bytes of writable memory; nothing is written to the kernel.
    let ok = unsafe {
        libc::sysctl(mib.as_mut_ptr(), 2, (&raw mut value).cast::<libc::c_void>(), &mut size, std::ptr::null_mut(), 0)
    } == 0;
    match usize::try_from(value) {
        Ok(value) if ok && value > 0 => value,
        // The documented default of recent macOS releases.
        _ => 1 << 20,
    }
}

/// Every process the table lists, read once.
pub struct ProcTable {
    rows: Vec<Row>,
    /// One buffer for every `KERN_PROCARGS2` read, `kern.argmax` bytes long.
    args: RefCell<Vec<u8>>,
}

impl ProcTable {
    pub fn read() -> ProcTable {
        let rows = all_pids().into_iter().filter(|pid| *pid > 0).filter_map(read_row).collect();
        ProcTable { rows, args: RefCell::new(Vec::new()) }
    }

    /// `KERN_PROCARGS2` of `pid` into the shared buffer; how many bytes it holds.
    fn read_args(&self, pid: i32, buffer: &mut Vec<u8>) -> Option<usize> {
        if buffer.is_empty() {
            buffer.resize(arg_max(), 0);
        }
        let mut mib = [libc::CTL_KERN, libc::KERN_PROCARGS2, pid];
        let mut size = buffer.len();
        // SAFETY: `buffer` is `size` bytes of writable memory; nothing is written to the kernel.
        let ok = unsafe {
            libc::sysctl(
                mib.as_mut_ptr(),
                3,
                buffer.as_mut_ptr().cast::<libc::c_void>(),
                &mut size,
                std::ptr::null_mut(),
                0,
            )
        } == 0;
        ok.then_some(size.min(buffer.len()))
    }
}

impl Table for ProcTable {
    fn rows(&self) -> &[Row] {
        &self.rows
    }

    fn environ_holds(&self, pid: i32, entry: &[u8]) -> bool {
        let mut buffer = self.args.borrow_mut();
        let Some(size) = self.read_args(pid, &mut buffer) else { return false };
        procargs::environ(&buffer[..size]).any(|pair| pair == entry)
    }
}
