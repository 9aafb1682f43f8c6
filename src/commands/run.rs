//! `hookmux run NAME [ARGS]`: one built-in handler as a hook command, event on stdin.

use crate::engine::dispatch::Unreadable;
use crate::engine::execute::builtin::{self, Invocation};
use crate::engine::execute::run::DRY_RUN_MARKER;
use hookmux_sdk::{Env, Event, Registry};
use std::io::Write;
use std::process::ExitCode;

/// `hookmux run NAME [ARGS]`: a handler failure or an unknown name is a non-blocking error
/// (exit 1), never a block.
pub fn run(name: &str, args: &[String], dry: bool) -> ExitCode {
    let registry = match Registry::global() {
        Ok(registry) => registry,
        Err(err) => {
            eprintln!("hookmux: {err}");
            return ExitCode::from(1);
        }
    };
    let Some(handler) = registry.get(name) else {
        let known = registry.names().collect::<Vec<_>>().join(", ");
        eprintln!("hookmux: no handler named `{name}`; the handlers are: {known} (see `hookmux handlers`)");
        return ExitCode::from(1);
    };
    let event = Event::parse_bytes(super::read_stdin());
    if let Some(error) = event.parse_error() {
        // The same rule as dispatch's: a guard cannot approve what it cannot read.
        if handler.guards() {
            let denial = Unreadable { guards: vec![handler.info().name], skipped: 0 }.denial(error);
            eprintln!("{}", denial.unwrap_or_default());
            return ExitCode::from(2);
        }
        if !event.raw().trim().is_empty() {
            eprintln!("hookmux: {error}; `{name}` sees an empty event");
        }
    }
    let cwd = super::process_cwd();
    let env = Env::from_process();
    let dry = dry || env.get(DRY_RUN_MARKER) == Some("1");
    let mut invocation = Invocation::for_process(event, env, cwd, dry);
    // Decided when the handler asks, from the hosts' records: no host said which it is.
    let (root, env) = (invocation.project_root.clone(), invocation.env.clone());
    invocation.project_trust = std::sync::Arc::new(move || crate::host::project_trust(&root, &env));
    let output = builtin::call(handler, args, &invocation);
    let _ = std::io::stdout().write_all(&output.stdout);
    let _ = std::io::stderr().write_all(&output.stderr);
    ExitCode::from(output.exit_code.unwrap_or(1).clamp(0, 255) as u8)
}
