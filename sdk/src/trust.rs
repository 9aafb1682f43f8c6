//! Whether the project a handler runs in is trusted: what hookmux decided, handed to every handler.
//!
//! A cloned repository controls every file in its tree, so a handler that reads the project's
//! own configuration (the wake-up's `.lore.yaml`, say) must not let it decide anything that
//! reaches outside the project (which server to connect to, which commands to run) unless the
//! user trusts the project. The rule is hookmux's, the one that decides whether a project's
//! settings run at all: the host's own trust where it has one (Claude Code asks the user before it
//! runs any hook in a folder; Codex's `trust_level`, Gemini CLI's and Copilot CLI's trusted
//! folders), else hookmux's trust list (`hookmux trust`) or `HOOKMUX_TRUST`. The runtime decides,
//! since only it knows which host sent the event; a handler reads the decision with
//! [`Context::project_trust`](crate::Context::project_trust).

/// What hookmux decided about the project.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProjectTrust {
    /// Trusted, and by what: `the host asked the user`, `the host trusts it`, `hookmux trust`,
    /// `HOOKMUX_TRUST`.
    Trusted(&'static str),
    /// Not trusted, or not known to be: the project's own files may not decide anything that
    /// reaches outside it. What a handler is given when no one decided.
    #[default]
    Untrusted,
}

impl ProjectTrust {
    pub fn is_trusted(self) -> bool {
        matches!(self, ProjectTrust::Trusted(_))
    }
}
