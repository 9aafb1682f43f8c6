//! `bash-guard`: deny (or ask about) Bash commands that match dangerous patterns.
//!
//! A third-party handler as its author writes it: this file is all the hookmux-specific code,
//! and it depends on `hookmux-sdk` only. What the patterns match is in [`guard`].

pub mod guard;

use guard::{Guard, Verdict};
use hookmux_sdk::{anyhow, register_handler, Answer, Context, Handler, HandlerInfo, HookEvent, OptionKind, OptionSpec};
use std::sync::Arc;

pub struct BashGuard;

static INFO: HandlerInfo = HandlerInfo {
    name: "bash-guard",
    description: "Denies Bash commands that match dangerous patterns (rm -rf /, force-push to main, curl | sh)",
    events: &[HookEvent::PreToolUse],
    matcher: Some("Bash"),
    options: &[
        OptionSpec {
            name: "deny",
            kind: OptionKind::List,
            default: None,
            help: "another pattern to deny: a JavaScript regular expression, tested against each command and pipeline",
        },
        OptionSpec {
            name: "ask",
            kind: OptionKind::List,
            default: None,
            help: "a pattern to ask the user about instead of denying",
        },
        OptionSpec {
            name: "allow",
            kind: OptionKind::List,
            default: None,
            help: "a pattern exempt from the others: a command or pipeline it matches is let through",
        },
        OptionSpec {
            name: "no-defaults",
            kind: OptionKind::Flag,
            default: None,
            help: "drop the default patterns: rm-root, git-force-push-main, curl-pipe-shell, disk-wipe",
        },
        OptionSpec {
            name: "hint",
            kind: OptionKind::String,
            default: Some("Ask the user to run it themselves if it is really needed."),
            help: "the sentence that ends a deny reason",
        },
    ],
};

impl Handler for BashGuard {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    // A guard: when dispatch cannot read an event at all, it denies the event in this handler's
    // name rather than let the command through unseen.
    fn guards(&self) -> bool {
        true
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        let event = cx.event();
        let Some(command) = event.tool_input_str("command").filter(|_| event.tool_name() == Some("Bash")) else {
            return Ok(Answer::none());
        };
        let args = cx.args();
        let guard =
            Guard::new(args.values("deny"), args.values("ask"), args.values("allow"), !args.flag("no-defaults"));
        let guard = Arc::new(guard);
        let answer = match guard.check_within(command, guard::CHECK_BOUND) {
            None => Answer::none(),
            Some(hit) if hit.pattern == guard::TOO_SLOW => Answer::deny(format!(
                "hookmux bash-guard: `{}` is not allowed: its patterns did not finish checking it within {} ms. {}",
                shorten(&hit.text),
                guard::CHECK_BOUND.as_millis(),
                args.value("hint").unwrap_or_default()
            )),
            Some(hit) if hit.pattern == guard::TOO_DEEP => Answer::deny(format!(
                "hookmux bash-guard: `{}` is not allowed: its `$( … )` or backticks nest more than {} deep, \
                 too deep to check. {}",
                shorten(&hit.text),
                hookmux_sdk::bash::MAX_DEPTH,
                args.value("hint").unwrap_or_default()
            )),
            Some(hit) if hit.verdict == Verdict::Deny => Answer::deny(format!(
                "hookmux bash-guard: `{}` is not allowed: it matches the guarded pattern `{}`. {}",
                shorten(&hit.text),
                hit.pattern,
                args.value("hint").unwrap_or_default()
            )),
            Some(hit) => Answer::ask(format!(
                "hookmux bash-guard: `{}` matches the pattern `{}`: run it?",
                shorten(&hit.text),
                hit.pattern
            )),
        };
        // A mistyped pattern must not switch the guard off: the others still decide, and the
        // mistake is told (as a hook error when nothing matched, so the user sees it).
        match guard.errors() {
            [] => Ok(answer),
            errors if answer.is_empty() => anyhow::bail!("bash-guard: {}", errors.join("; ")),
            errors => Ok(answer.with_system_message(format!("bash-guard ignored {}", errors.join("; ")))),
        }
    }
}

register_handler!(BashGuard);

/// Long commands (a heredoc, a generated script) are cut in the reason, on a character boundary.
fn shorten(text: &str) -> String {
    const MAX: usize = 200;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
