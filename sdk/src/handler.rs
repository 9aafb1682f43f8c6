//! The handler model: a synchronous function from an event to an answer, plus the metadata that
//! `hookmux handlers`, `hooks validate` and the argument parser read.

use crate::{Answer, Context, HookEvent};

/// A hook handler compiled into hookmux.
///
/// `handle` runs on whatever thread the runtime picks (a standalone `hookmux run`, or a worker
/// thread inside `hookmux dispatch`), so a handler is `Sync` and keeps no per-call state in
/// itself: everything it needs comes through the [`Context`]. It must honour
/// [`Context::dry`] by writing no state, and should read the environment, the clock and the
/// working directory through the context so that tests can fix them.
///
/// An `Err` is a failed hook: the host sees a non-blocking error (exit 1, the message on stderr)
/// and carries on. Return `Ok(Answer::none())` for "nothing to say".
pub trait Handler: Sync + 'static {
    /// Name, description, events, options.
    fn info(&self) -> &'static HandlerInfo;

    /// Answers one event.
    fn handle(&self, cx: &Context) -> anyhow::Result<Answer>;

    /// Whether the handler is a guard: it denies what it cannot approve, so that the model cannot
    /// get past it by the shape of what it sends. When `hookmux dispatch` cannot read an event
    /// at all (not JSON, cut off), it cannot tell which hooks the event is for: it skips every
    /// hook and lets each configured guard deny the event on its behalf, whatever the guard's
    /// event or matcher. Override to return `true` only for a handler whose whole job is to
    /// deny; a guard's `handle` itself is then never called with an unreadable event.
    fn guards(&self) -> bool {
        false
    }
}

/// What a handler is and how to configure it.
#[derive(Debug)]
pub struct HandlerInfo {
    /// The name users write after `hookmux run`: lowercase words joined by `-`.
    pub name: &'static str,
    /// One line, shown by `hookmux handlers`.
    pub description: &'static str,
    /// The events the handler is meant for.
    pub events: &'static [HookEvent],
    /// The matcher to configure it with, if it only makes sense for some tools or sources.
    pub matcher: Option<&'static str>,
    /// The options `hookmux run NAME` accepts.
    pub options: &'static [OptionSpec],
}

impl HandlerInfo {
    /// The option named `name` (without the leading `--`).
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options.iter().find(|option| option.name == name)
    }
}

/// One `--option` of a handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// Written `--name` on the command line.
    pub name: &'static str,
    pub kind: OptionKind,
    /// The value when the option is not given, as the user would write it.
    pub default: Option<&'static str>,
    pub help: &'static str,
}

/// The shape of an option's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `--name`, no value; off unless given.
    Flag,
    /// `--name VALUE` or `--name=VALUE`, once.
    String,
    /// `--name N`, a whole number, once.
    Integer,
    /// `--name VALUE`, repeatable; the values accumulate.
    List,
}

impl OptionKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            OptionKind::Flag => "flag",
            OptionKind::String => "string",
            OptionKind::Integer => "integer",
            OptionKind::List => "list",
        }
    }
}
