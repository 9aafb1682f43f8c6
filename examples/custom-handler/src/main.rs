//! hookmux, with bash-guard next to the built-ins: every hookmux command (`run`, `dispatch`,
//! `handlers`, `hooks validate`, …) sees the handlers of every crate linked into this binary.

// A crate the binary never names is not linked, and its `register_handler!` would vanish with it.
use hookmux_bash_guard as _;

fn main() -> std::process::ExitCode {
    hookmux::cli::main()
}
