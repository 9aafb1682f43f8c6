//! Windows: the portable face of [`crate::process`], not written yet. Every start fails with
//! `ErrorKind::Unsupported`, so a command hook gives a clear error and never runs half-watched.
//!
//! What it is to be (see [`crate::process`]): each hook in a Job Object (created suspended,
//! assigned, resumed), no console window; a thread per pipe doing blocking `ReadFile`
//! (`ERROR_BROKEN_PIPE` is the end) and one writing stdin, reporting into one channel that
//! `wait` reads with its deadline; exits through `WaitForSingleObject` on the process handle;
//! `end` with `TerminateJobObject` (there is no request to end a console-less process that it
//! could catch, so `Ending::Ask` does nothing).

use crate::process::{Ending, Event, HookCommand, HookId};
use std::io;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

fn unsupported() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "hookmux cannot start hooks on Windows yet")
}

pub fn start_detached(_command: &HookCommand<'_>, _stdin: Arc<[u8]>) -> io::Result<JoinHandle<()>> {
    Err(unsupported())
}

pub fn detach(command: &mut std::process::Command) {
    use std::os::windows::process::CommandExt;
    const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
    command.creation_flags(CREATE_NEW_PROCESS_GROUP);
}

/// Not written yet (`OpenProcess` and `GetExitCodeProcess`): no process is ever taken for alive.
pub fn exists(_pid: u32) -> bool {
    false
}

/// Never made: [`launch`] refuses every start.
pub struct Launched;

pub fn launch(_command: &HookCommand<'_>, _stdin: Arc<[u8]>) -> io::Result<Launched> {
    Err(unsupported())
}

pub struct Hooks;

impl Hooks {
    pub fn new() -> Hooks {
        Hooks
    }

    pub fn adopt(&mut self, _launched: Launched) -> HookId {
        HookId(0)
    }

    pub fn wait(&mut self, _until: Option<Instant>, _sink: &mut dyn FnMut(Event<'_>)) {}

    pub fn read_now(&mut self, _hook: HookId, _sink: &mut dyn FnMut(Event<'_>)) {}

    pub fn end(&mut self, _hook: HookId, _how: Ending) {}

    pub fn release(&mut self, _hook: HookId) {}
}
