//! The hosts hookmux answers: Claude Code natively, Codex and OpenCode through adapters that map
//! the host's event to Claude Code's before planning and encode the one verdict in the form the
//! host honours after combining.

pub mod claude;
pub mod codex;
pub mod codex_install;
pub mod opencode;

/// Which host sent the event, and so which protocol the answer must speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Host {
    /// Claude Code's hook protocol (and any host that speaks it).
    #[default]
    Claude,
    /// Codex CLI hooks (0.169.0): Claude's JSON shape with Codex's rules.
    Codex,
    /// The OpenCode plugin in `integrations/opencode/`: hookmux's own documented JSON.
    Opencode,
}
