//! `hookmux completions SHELL`: the shell's completion script for the whole command tree, on
//! stdout.

use clap_complete::Shell;
use std::process::ExitCode;

/// Writes `shell`'s completion script for `command` to stdout.
pub fn run(shell: Shell, mut command: clap::Command) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "hookmux", &mut script);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &script)?;
    Ok(ExitCode::SUCCESS)
}
