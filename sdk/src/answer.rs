//! What a handler answers: a typed decision plus text, which the runtime encodes for the host.

use serde_json::{Map, Value};

/// A handler's verdict on the event.
///
/// Which verdicts mean something depends on the event: `Allow`, `Ask` and `Defer` are PreToolUse
/// permission decisions; `Deny` and `Block` both stop the action (a PreToolUse deny, or the
/// top-level `decision: "block"` of UserPromptSubmit, PostToolUse, Stop and the like). The runtime
/// encodes each in the form the event's host contract uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    Allow,
    Ask,
    Defer,
    Deny,
    Block,
}

impl Decision {
    pub const fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Defer => "defer",
            Decision::Deny => "deny",
            Decision::Block => "block",
        }
    }
}

/// Everything a handler can say. The empty answer (`Answer::default()`) says nothing: the host
/// goes on as if the handler were not there.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The verdict, if any. `None` is "no opinion", which is not the same as `Allow`: an allow
    /// skips the host's own permission prompt.
    pub decision: Option<Decision>,
    /// Why: shown to the model for a deny or a block, to the user for an ask.
    pub reason: Option<String>,
    /// Text added to the model's context next to where the event fired.
    pub additional_context: Option<String>,
    /// A full replacement for the tool input (PreToolUse), not a patch.
    pub updated_input: Option<Value>,
    /// A warning shown to the user.
    pub system_message: Option<String>,
    /// `Some(false)` stops the whole turn after the hooks run; `Some(true)` says so explicitly.
    pub continue_: Option<bool>,
    /// Shown to the user when `continue_` is `Some(false)`.
    pub stop_reason: Option<String>,
    /// Plain text for stdout. The host reads it as context only on UserPromptSubmit,
    /// UserPromptExpansion and SessionStart; elsewhere it reaches the debug log only.
    pub output: Option<String>,
    /// Further `hookSpecificOutput` fields for the event (`sessionTitle`, `updatedToolOutput`, …).
    pub extra: Map<String, Value>,
}

impl Answer {
    /// No opinion.
    pub fn none() -> Answer {
        Answer::default()
    }

    /// Deny (PreToolUse) with the reason the model will read.
    pub fn deny(reason: impl Into<String>) -> Answer {
        Answer { decision: Some(Decision::Deny), reason: Some(reason.into()), ..Answer::default() }
    }

    /// Block (UserPromptSubmit, PostToolUse, Stop, …) with the reason.
    pub fn block(reason: impl Into<String>) -> Answer {
        Answer { decision: Some(Decision::Block), reason: Some(reason.into()), ..Answer::default() }
    }

    /// Ask the user (PreToolUse), with the reason the prompt shows.
    pub fn ask(reason: impl Into<String>) -> Answer {
        Answer { decision: Some(Decision::Ask), reason: Some(reason.into()), ..Answer::default() }
    }

    /// Add context for the model.
    pub fn context(text: impl Into<String>) -> Answer {
        Answer { additional_context: Some(text.into()), ..Answer::default() }
    }

    /// Plain stdout text.
    pub fn text(text: impl Into<String>) -> Answer {
        Answer { output: Some(text.into()), ..Answer::default() }
    }

    /// Adds (or replaces) the additional context.
    pub fn with_context(mut self, text: impl Into<String>) -> Answer {
        self.additional_context = Some(text.into());
        self
    }

    /// Adds (or replaces) the user-facing system message.
    pub fn with_system_message(mut self, text: impl Into<String>) -> Answer {
        self.system_message = Some(text.into());
        self
    }

    /// True when the answer says nothing at all.
    pub fn is_empty(&self) -> bool {
        *self == Answer::default()
    }
}
