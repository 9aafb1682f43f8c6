//! The hosts hookmux answers, one folder each. Every host is an adapter of the same shape:
//! decode the host's event into Claude Code events, run them through the one
//! [`engine::dispatch`](crate::engine::dispatch::dispatch), and encode the verdict in the form the
//! host honours. Each host also owns its installer.

pub mod claude;
pub mod cline;
pub mod codex;
pub mod config_file;
pub mod copilot;
pub mod gemini;
pub mod history;
pub mod opencode;
pub mod qwen;

mod answer;
pub mod patch;
mod session_state;
pub mod settings_hooks;
mod state;
mod transcript;

use crate::engine::config::trust::{self, HostTrust};
use crate::engine::dispatch::{DispatchOptions, World};
use crate::protocol::Encoded;
use hookmux_sdk::{Env, ProjectTrust};
use std::path::Path;

/// Which host sent the event, and so which protocol the answer must speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Host {
    /// Claude Code's hook protocol (and any host that speaks it).
    #[default]
    Claude,
    /// Codex CLI hooks (0.169.0): Claude's JSON shape with Codex's rules.
    Codex,
    /// Gemini CLI hooks (0.61.0): its own event and tool names, answered in its own fields.
    Gemini,
    /// The OpenCode plugin in `integrations/opencode/`: hookmux's own documented JSON.
    Opencode,
    /// GitHub Copilot CLI hooks (1.0.102), which it runs from Claude Code's settings files too.
    Copilot,
    /// Cline CLI hook files (3.0.65): its own events and tools, answered with `cancel`,
    /// `contextModification` and `overrideInput`.
    Cline,
    /// Qwen Code hooks (0.24.4): Claude's names and layout, in Qwen's own settings files.
    Qwen,
}

/// Runs dispatch for `host` on the raw event the host sent, and writes the trace of what it did
/// (see [`crate::engine::trace`]) once the answer is ready.
pub fn dispatch(host: Host, stdin: Vec<u8>, world: &World, options: &DispatchOptions) -> Encoded {
    let host = match host {
        // Copilot runs the entries of Claude Code's settings files too: its events get its answers.
        Host::Claude if copilot::sent_by_copilot(&world.env, &stdin) => Host::Copilot,
        host => host,
    };
    let options = &DispatchOptions { host: host.name(), ..options.clone() };
    let (name, encoded) = match host {
        Host::Claude => (host, claude::dispatch(stdin, world, options)),
        Host::Codex => (host, codex::dispatch(stdin, world, options)),
        Host::Gemini => (host, gemini::dispatch(stdin, world, options)),
        Host::Opencode => (host, opencode::dispatch(stdin, world, options)),
        Host::Copilot => (host, copilot::dispatch(stdin, world, options)),
        Host::Cline => (host, cline::dispatch(stdin, world, options)),
        Host::Qwen => (host, qwen::dispatch(stdin, world, options)),
    };
    world.trace.finish(name.name(), encoded.exit_code, &encoded.stdout, &encoded.stderr);
    encoded
}

/// A project's trust (see [`trust`]) where hookmux is not told which host runs it: `hookmux run
/// NAME` started by a host itself, and the commands a user types (`hookmux memory …`). Claude Code
/// marks its hooks' environment (`CLAUDECODE=1`) and runs no hook in a folder the user has not
/// trusted; otherwise a project that Claude Code, Codex, Gemini CLI or Copilot CLI records as
/// trusted is trusted, else hookmux's trust list and `HOOKMUX_TRUST` decide.
pub fn project_trust(project: &Path, env: &Env) -> ProjectTrust {
    let host = if env.get("CLAUDECODE") == Some("1") {
        HostTrust::Prompted
    } else {
        let real = trust::real(project);
        [claude::recorded_trust, codex::recorded_trust, gemini::recorded_trust, copilot::recorded_trust]
            .into_iter()
            .map(|recorded| recorded(env, &real))
            .find(|host| *host != HostTrust::Unknown)
            .unwrap_or_default()
    };
    trust::decide(project, host, env)
}

impl Host {
    /// The host's name, as `--host` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Host::Claude => "claude",
            Host::Codex => "codex",
            Host::Gemini => "gemini",
            Host::Opencode => "opencode",
            Host::Copilot => "copilot",
            Host::Cline => "cline",
            Host::Qwen => "qwen",
        }
    }
}
