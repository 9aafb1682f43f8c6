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
        let holds = procargs::environ(&buffer[..size]).any(|pair| pair == entry);
        holds
    }
}

/// Tells when watched children exit: one kqueue with an `EVFILT_PROC`/`NOTE_EXIT` filter per
/// child, itself polled for reading by the loop (a kqueue is readable while events are pending).
/// Where it cannot be made or a child cannot be added, that child's exit is looked for on a
/// backoff.
pub struct ExitWatch {
    queue: Option<std::os::fd::OwnedFd>,
    watched: usize,
}

impl ExitWatch {
    pub fn new() -> ExitWatch {
        use std::os::fd::FromRawFd;
        // SAFETY: kqueue takes nothing and returns a new descriptor or -1; a kqueue is not
        // inherited by children.
        let fd = unsafe { libc::kqueue() };
        // SAFETY: the descriptor was just made and belongs to nothing else.
        let queue = (fd >= 0).then(|| unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) });
        ExitWatch { queue, watched: 0 }
    }

    /// Starts watching child `pid`; whether its exit will make one of [`Self::fds`] readable.
    pub fn add(&mut self, pid: libc::pid_t) -> bool {
        use std::os::fd::AsRawFd;
        let Some(queue) = &self.queue else { return false };
        let Ok(ident) = libc::uintptr_t::try_from(pid) else { return false };
        let change = libc::kevent {
            ident,
            filter: libc::EVFILT_PROC,
            flags: libc::EV_ADD | libc::EV_ONESHOT,
            fflags: libc::NOTE_EXIT,
            data: 0,
            udata: std::ptr::null_mut(),
        };
        // SAFETY: one valid change, no events asked for; the queue is open.
        let added =
            unsafe { libc::kevent(queue.as_raw_fd(), &change, 1, std::ptr::null_mut(), 0, std::ptr::null()) } == 0;
        self.watched += usize::from(added);
        added
    }

    /// Stops watching `pid`: its one-shot filter is gone once it fired, and a child is reaped
    /// only after it exited.
    pub fn remove(&mut self, _pid: libc::pid_t) {
        self.watched = self.watched.saturating_sub(1);
    }

    /// Every descriptor to poll for reading, with the pid it tells about (`None`: any of them).
    pub fn fds(&self) -> impl Iterator<Item = (std::os::fd::RawFd, Option<libc::pid_t>)> + '_ {
        use std::os::fd::AsRawFd;
        self.queue.iter().filter(|_| self.watched > 0).map(|queue| (queue.as_raw_fd(), None))
    }

    /// After the queue polled readable: the pids whose exits it reported.
    pub fn exited(&mut self) -> Vec<libc::pid_t> {
        use std::os::fd::AsRawFd;
        let Some(queue) = &self.queue else { return Vec::new() };
        let mut pids = Vec::new();
        let zero = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        loop {
            // SAFETY: kevent is plain data; all zeroes is a valid value of it.
            let mut events: [libc::kevent; 32] = unsafe { std::mem::zeroed() };
            // SAFETY: room for 32 events, no changes, a zero timeout; the queue is open.
            let got = unsafe { libc::kevent(queue.as_raw_fd(), std::ptr::null(), 0, events.as_mut_ptr(), 32, &zero) };
            let Ok(got) = usize::try_from(got) else { return pids };
            pids.extend(
                events[..got.min(32)]
                    .iter()
                    .filter(|event| event.filter == libc::EVFILT_PROC)
                    .filter_map(|event| libc::pid_t::try_from(event.ident).ok()),
            );
            if got < 32 {
                return pids;
            }
        }
    }
}
