//! `grepai-reminder` (PreToolUse `Glob|Grep`), brewcode's `grepai-reminder.mjs`: when the project
//! has a grepai index, reminds the model to search semantically first, at most once a minute.
//!
//! | condition | answer |
//! |---|---|
//! | no `.grepai/` or no `.grepai/index.gob` | none |
//! | `.grepai/.reminder-ts` modified less than 60 s ago | none (the file is left alone) |
//! | otherwise | `additionalContext: grepai: USE grepai_search FIRST for code exploration`, and `.reminder-ts` is rewritten (empty) |
//!
//! Claude Code 2.1.328 has no Glob or Grep tool: searches run as Bash commands. With
//! `--bash-search` (and the handler also wired to `Bash`), a Bash call reminds only when its
//! command runs `grep`, `egrep`, `fgrep`, `ugrep`, `rg`, `ag`, `ack`, `find`, `bfs` or `fd` (at
//! the start, or after `|`, `;`, `&`, `(`, `&&`, `||` or a new line), as later brewcode versions
//! do; other Bash commands get no answer and leave the throttle alone.

use super::config::Level;
use super::hook::{Hook, Tag, GREPAI_REMINDER};
use super::js::{self, date, errno, Js};
use super::patterns;
use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent, OptionKind, OptionSpec};
use serde_json::Value;
use std::fs;

pub struct GrepaiReminder;

static INFO: HandlerInfo = HandlerInfo {
    name: "grepai-reminder",
    description:
        "brewcode's nudge towards grepai_search on Glob/Grep (and, with --bash-search, searching Bash commands)",
    events: &[HookEvent::PreToolUse],
    matcher: Some("Glob|Grep"),
    options: &[OptionSpec {
        name: "bash-search",
        kind: OptionKind::Flag,
        default: None,
        help:
            "also remind on Bash commands that search (grep, rg, find, ag, fd, ...); wire with matcher Glob|Grep|Bash",
    }],
};

/// At most one reminder in this window.
const THROTTLE_MS: f64 = 60_000.0;

impl Handler for GrepaiReminder {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        Hook::answer(cx, "[grepai-reminder]", "Error", Answer::none(), remind)
    }
}

register_handler!(GrepaiReminder);

fn remind(h: &Hook) -> Js<Answer> {
    if h.cx().args().flag("bash-search") && h.field("tool_name").and_then(Value::as_str) == Some("Bash") {
        let command = js::prop(h.field("tool_input"), "command").and_then(Value::as_str).unwrap_or_default();
        if !patterns::runs_search_tool(command) {
            return Ok(Answer::none());
        }
    }
    if !(h.exists(&h.join(&[".grepai"])) && h.exists(&h.join(&[".grepai", "index.gob"]))) {
        return Ok(Answer::none());
    }
    match throttle(h, &h.join(&[".grepai", ".reminder-ts"])) {
        Ok(Throttle::Wait) => return Ok(Answer::none()),
        Ok(Throttle::Remind) => {}
        Err(error) => {
            h.log(Level::Warn, "[grepai-reminder]", &format!("Throttle write failed: {error}"), Tag::Session)?
        }
    }
    h.log(Level::Debug, "[grepai-reminder]", "Reminder triggered", Tag::Session)?;
    Ok(Answer::context(GREPAI_REMINDER))
}

enum Throttle {
    Wait,
    Remind,
}

/// Reads the stamp file's age and, when a reminder is due, rewrites it stamped with the
/// context's clock (so that a test's fixed clock and the file agree).
fn throttle(h: &Hook, stamp: &str) -> Result<Throttle, String> {
    if h.exists(stamp) {
        let modified = fs::metadata(h.fs_path(stamp))
            .and_then(|m| m.modified())
            .map_err(|err| errno::message(&err, "stat", Some(stamp), None))?;
        if h.now_ms() - date::epoch_ms_fraction(modified) < THROTTLE_MS {
            return Ok(Throttle::Wait);
        }
    }
    if h.dry() {
        return Ok(Throttle::Remind);
    }
    let file = h.create_empty(stamp)?;
    let _ = file.set_modified(h.cx().now());
    Ok(Throttle::Remind)
}
