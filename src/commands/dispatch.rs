//! `hookmux dispatch [--host HOST] [--settings PATH… | --installed]`: one event on stdin, every matching hook
//! run, one answer out in the host's protocol.

use crate::engine::dispatch::{DispatchOptions, World};
use crate::host::{self, Host};
use hookmux_sdk::Env;
use std::io::Write;
use std::process::ExitCode;

/// `hookmux dispatch`: exit 0 unless an event blocks by exit code only.
pub fn run(options: DispatchOptions, host: Host) -> ExitCode {
    let world = World::new(Env::from_process(), super::process_cwd());
    let stdin = super::read_stdin();
    let encoded = host::dispatch(host, stdin, &world, &options);
    let _ = std::io::stdout().write_all(encoded.stdout.as_bytes());
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(encoded.stderr.as_bytes());
    ExitCode::from(encoded.exit_code.clamp(0, 255) as u8)
}
