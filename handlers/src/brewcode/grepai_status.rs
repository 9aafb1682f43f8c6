//! `grepai-status` (SessionStart), brewcode's `grepai-session.mjs`: reports whether grepai's
//! parts run, and starts its watcher when only the watcher is missing. It never blocks: every
//! problem is a word in the status line.
//!
//! | condition | status |
//! |---|---|
//! | no `.grepai/` | `grepai: not configured` |
//! | ollama does not answer | `ollama: stopped` |
//! | `.grepai/index.gob` under 20 000 bytes | `index: ⚠️ <KB>KB` (and a warning in the log) |
//! | under 100 000 bytes / larger | `index: <KB>KB` / `index: <MB>MB` |
//! | no index | `index: missing` |
//! | no mcp-serve process | `mcp-serve: stopped` |
//! | no watch process, with an index and ollama | starts `grepai watch --background`: `watch: starting` |
//! | no watch process otherwise | `watch: stopped` |
//! | nothing wrong | `grepai: ready \| index: <size>` |
//!
//! The problems are joined with `, ` and followed by ` | index: <size>` when there is an index.
//! When index, ollama and mcp-serve are all there, the model also gets
//! `grepai: USE grepai_search FIRST for code exploration`.

use super::config::Level;
use super::grepai::{self, Processes};
use super::hook::{Hook, Tag, GREPAI_REMINDER};
use super::js::{errno, Js};
use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent, OptionKind, OptionSpec};
use std::fs;

pub struct GrepaiStatus;

static INFO: HandlerInfo = HandlerInfo {
    name: "grepai-status",
    description: "brewcode's grepai check at session start: index, ollama, watch, mcp-serve; starts the watcher",
    events: &[HookEvent::SessionStart],
    matcher: None,
    options: &[OptionSpec {
        name: "ollama",
        kind: OptionKind::String,
        default: Some(grepai::DEFAULT_OLLAMA),
        help: "where ollama listens (host:port)",
    }],
};

impl Handler for GrepaiStatus {
    fn info(&self) -> &'static HandlerInfo {
        &INFO
    }

    fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
        Hook::answer(cx, "[grepai]", "Hook error", Answer::none(), |h| {
            h.log(Level::Info, "[grepai]", "SessionStart hook triggered", Tag::Session)?;
            let (answer, late_warning) = check(h)?;
            h.log(Level::Debug, "[grepai]", "Hook completed", Tag::Session)?;
            // Node reports a watcher that could not be found after the hook has answered.
            if let Some(warning) = late_warning {
                h.log(Level::Warn, "[grepai]", &warning, Tag::Session)?;
            }
            Ok(answer)
        })
    }
}

register_handler!(GrepaiStatus);

fn running(word: bool) -> &'static str {
    if word {
        "running"
    } else {
        "stopped"
    }
}

/// The answer, and a warning to log after everything else (a watcher that failed to start).
fn check(h: &Hook) -> Js<(Answer, Option<String>)> {
    let grepai_dir = h.join(&[".grepai"]);
    let index = h.join(&[".grepai", "index.gob"]);
    let logs = h.join(&[".grepai", "logs"]);
    if !h.exists(&grepai_dir) {
        h.log(Level::Debug, "[grepai]", "Not configured", Tag::Session)?;
        return Ok((Answer { system_message: Some("grepai: not configured".into()), ..Answer::none() }, None));
    }
    let mut problems: Vec<&str> = Vec::new();

    let ollama = grepai::ollama_answers(h.cx().args().value("ollama").unwrap_or(grepai::DEFAULT_OLLAMA));
    h.log(Level::Debug, "[grepai]", &format!("ollama: {}", running(ollama)), Tag::Session)?;
    if !ollama {
        problems.push("ollama: stopped");
    }

    let has_index = h.exists(&index);
    let mut index_status = None;
    if has_index {
        match fs::metadata(h.fs_path(&index)) {
            Ok(metadata) => {
                let size = grepai::index_size(metadata.len());
                let level = if size.small { Level::Warn } else { Level::Debug };
                h.log(level, "[grepai]", &size.log, Tag::Session)?;
                index_status = Some(size.status);
            }
            Err(err) => {
                let message = format!("index stat failed: {}", errno::message(&err, "stat", Some(&index), None));
                h.log(Level::Warn, "[grepai]", &message, Tag::Session)?;
                index_status = Some("error".to_string());
            }
        }
    } else {
        h.log(Level::Debug, "[grepai]", "index: missing", Tag::Session)?;
        problems.push("index: missing");
    }

    let search_path = h.cx().env().get("PATH");
    let mut processes = Processes::new();
    let watch = grepai::pid_file_alive(&h.fs_path(&h.join(&[".grepai", "watch.pid"])))
        || processes.any_contains("grepai watch", search_path);
    h.log(Level::Debug, "[grepai]", &format!("watch: {}", running(watch)), Tag::Session)?;
    let auto_start = !watch && has_index && ollama;

    let mcp = grepai::pid_file_alive(&h.fs_path(&h.join(&[".grepai", "mcp-serve.pid"])))
        || processes.any_contains("grepai mcp-serve", search_path);
    h.log(Level::Debug, "[grepai]", &format!("mcp-serve: {}", running(mcp)), Tag::Session)?;
    if !mcp {
        problems.push("mcp-serve: stopped");
    }

    let mut late_warning = None;
    if auto_start {
        h.log(Level::Info, "[grepai]", "Auto-starting watch", Tag::Session)?;
        match start_watch(h, &logs) {
            Ok(spawn_error) => {
                late_warning = spawn_error;
                h.log(Level::Info, "[grepai]", "Watch spawn initiated", Tag::Session)?;
                problems.push("watch: starting");
            }
            Err(error) => {
                h.log(Level::Warn, "[grepai]", &format!("Watch auto-start failed: {error}"), Tag::Session)?;
                problems.push("watch: start failed");
            }
        }
    } else if !watch {
        problems.push("watch: stopped");
    }

    let status = match (problems.is_empty(), &index_status) {
        (true, Some(size)) => format!("ready | index: {size}"),
        (true, None) => "ready".to_string(),
        (false, Some(size)) => format!("{} | index: {size}", problems.join(", ")),
        (false, None) => problems.join(", "),
    };
    h.log(Level::Info, "[grepai]", &format!("Status: {status}"), Tag::Session)?;
    let mut answer = Answer { system_message: Some(format!("grepai: {status}")), ..Answer::none() };
    if has_index && ollama && mcp {
        answer.additional_context = Some(GREPAI_REMINDER.to_string());
    }
    Ok((answer, late_warning))
}

/// Makes the log folder and starts the watcher. `Err` is a failure brewcode sees at once (the
/// folder, an unusual spawn error); `Ok(Some(warning))` a missing or unusable program, which Node
/// reports only afterwards while the status already says `watch: starting`.
fn start_watch(h: &Hook, logs: &str) -> Result<Option<String>, String> {
    if h.dry() {
        return Ok(None);
    }
    if !h.exists(logs) {
        h.mkdir_all(logs)?;
    }
    match grepai::spawn_watch(&h.fs_path(h.cwd()), logs, h.cx().env()) {
        Ok(()) => Ok(None),
        Err(err) => {
            let code = errno::code(&err);
            let message = format!("spawn grepai {code}");
            let reported_later = matches!(code.as_str(), "ENOENT" | "EACCES" | "EAGAIN" | "EMFILE" | "ENFILE");
            if reported_later {
                Ok(Some(format!("Watch spawn error: {message}")))
            } else {
                Err(message)
            }
        }
    }
}
