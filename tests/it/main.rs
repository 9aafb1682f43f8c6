//! The integration tests, one binary: a module per subject, most running the built `hookmux` as
//! a host would. One binary links once, where a file per test under `tests/` would link each on
//! its own.

mod common;

mod bounded_matching;
mod brewcode_conformance;
mod brewcode_knowledge_cli;
mod brewcode_knowledge_writers;
mod brewcode_processes;
mod brewcode_run;
mod claude_plugin;
mod cli_help;
mod cline;
mod codex_dispatch;
mod codex_install;
mod copilot;
mod coverage;
mod dispatch;
mod dispatch_conformance;
mod docs;
mod doctor;
mod event_shape;
mod gemini;
mod hookmux_key;
mod inspect;
mod install;
mod installed;
mod large_output;
mod layers;
mod opencode_plugin;
mod platform_layer;
mod plugins;
mod properties;
mod qwen;
mod run_protect_paths;
mod shipping;
mod trace;
mod trust;
mod wakeup_cli;
mod wakeup_hook;
mod wakeup_postgres;
