//! Windows: detached (`async`) hooks, started through [`super::process::start_detached`]. Not
//! yet ended at their session's end: no process is named here (no pid and creation time is read
//! yet), so none is recorded and [`end`] ends nothing. To come: the creation time from
//! `GetProcessTimes` to name a process as Unix names it, and the hook's Job Object to end it with
//! what it started.

use crate::process::{DetachedRun, HookCommand};
use crate::tree::Proc;
use std::ffi::OsStr;
use std::io;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

pub fn start(command: &HookCommand<'_>, input: Arc<[u8]>) -> io::Result<(Option<Proc>, JoinHandle<()>)> {
    super::process::start_detached(command, input).map(|writer| (None, writer))
}

pub fn still_runs(_proc: Proc) -> bool {
    false
}

pub fn end(_runs: &[DetachedRun], _session: &OsStr, _grace: Duration) -> usize {
    0
}
