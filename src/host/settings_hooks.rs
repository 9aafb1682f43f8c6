//! A host's own `settings.json` that takes hooks in Claude Code's layout (`{"hooks": {"Event":
//! [{"hooks": [handler]}]}}`): Gemini CLI's and Qwen Code's. What `install` merges into it and
//! `uninstall` takes out again: one group holding hookmux's entry per event, appended to the
//! event's list, nothing else touched; hookmux's entries are recognised by their command.

use super::config_file::{self, write_atomically};
use anyhow::{bail, Context as _};
use serde_json::{json, Value};
use std::path::Path;

/// What an install or uninstall changes in the settings file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Unchanged,
    Write(String),
    /// Only hookmux's entries were in it: an install created it.
    Delete,
}

/// The command of an installed entry: this executable as every shell the host may hand it to
/// reads it back (else the bare name `hookmux`, found on `PATH`: see
/// [`config_file::this_hookmux_word`]), then `dispatch --host HOST`. Refused when the host could
/// not name it (`label` says which host): a path that is not UTF-8, or one with a `$`, which the
/// host expands as a variable before any shell sees it.
pub fn entry_command(host: &str, label: &str) -> anyhow::Result<String> {
    let program = super::config_file::this_hookmux_word(&format!("{label}'s settings.json"))?;
    if program.contains('$') {
        bail!("this hookmux's path ({program}) has a `$`, which {label} would expand as a variable; move it");
    }
    Ok(format!("{program} dispatch --host {host}"))
}

/// The new settings text with `entry` (whose command is `entry["command"]`) for every event:
/// appended in a group of its own where the event has none, put back in its place where the
/// event has one that differs; `Unchanged` when every event has it as it is.
pub fn plan(file: &Path, events: &[&str], entry: &Value) -> anyhow::Result<Change> {
    let command = entry.get("command").and_then(Value::as_str).unwrap_or_default();
    let mut root = read_settings(file)?;
    let mut changed = false;
    let Some(hooks) = root.as_object_mut().and_then(|r| r.entry("hooks").or_insert_with(|| json!({})).as_object_mut())
    else {
        bail!("{}: `hooks` is not an object; fix or remove it, then run this again", file.display());
    };
    for event in events {
        let groups = hooks.entry(*event).or_insert_with(|| json!([]));
        let Some(groups) = groups.as_array_mut() else {
            bail!("{}: `hooks.{event}` is not an array; fix it, then run this again", file.display());
        };
        let ours = groups
            .iter_mut()
            .filter_map(|group| group.get_mut("hooks").and_then(Value::as_array_mut))
            .flatten()
            .find(|handler| handler.get("command").and_then(Value::as_str) == Some(command));
        match ours {
            Some(handler) if handler == entry => {}
            Some(handler) => {
                *handler = entry.clone();
                changed = true;
            }
            None => {
                groups.push(json!({"hooks": [entry]}));
                changed = true;
            }
        }
    }
    Ok(if changed { Change::Write(pretty(&root)) } else { Change::Unchanged })
}

/// The settings without the entries that run `command`, and how many went. A group left empty
/// by removing ours was an install's own and goes; so do an event list and a `hooks` object left
/// empty by that. A file left with nothing but keys in `stamps` (a version the host writes into
/// every settings file it reads) held only what install wrote, and is removed.
pub fn plan_removal(file: &Path, command: &str, stamps: &[&str]) -> anyhow::Result<(Change, usize)> {
    if !file.exists() {
        return Ok((Change::Unchanged, 0));
    }
    let mut root = read_settings(file)?;
    let Some(object) = root.as_object_mut() else { return Ok((Change::Unchanged, 0)) };
    let Some(hooks) = object.get_mut("hooks") else { return Ok((Change::Unchanged, 0)) };
    let Some(hooks) = hooks.as_object_mut() else {
        bail!("{}: `hooks` is not an object; fix or remove it, then run this again", file.display());
    };
    let mut removed = 0;
    let mut emptied_events = Vec::new();
    for (event, groups) in hooks.iter_mut() {
        let Some(groups) = groups.as_array_mut() else { continue };
        let before = groups.len();
        let mut emptied_any = false;
        groups.retain_mut(|group| {
            let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else { return true };
            let count = handlers.len();
            handlers.retain(|h| h.get("command").and_then(Value::as_str) != Some(command));
            let ours = count - handlers.len();
            removed += ours;
            let keep = !(ours > 0 && handlers.is_empty());
            emptied_any |= !keep;
            keep
        });
        if emptied_any && groups.is_empty() && before > 0 {
            emptied_events.push(event.clone());
        }
    }
    if removed == 0 {
        return Ok((Change::Unchanged, 0));
    }
    for event in emptied_events {
        hooks.remove(&event);
    }
    if hooks.is_empty() {
        object.remove("hooks");
    }
    let change = if object.keys().all(|key| stamps.contains(&key.as_str())) {
        Change::Delete
    } else {
        Change::Write(pretty(&root))
    };
    Ok((change, removed))
}

/// Writes or deletes the settings file.
pub fn apply(file: &Path, change: &Change) -> anyhow::Result<()> {
    match change {
        Change::Unchanged => Ok(()),
        Change::Write(text) => write_atomically(file, text),
        Change::Delete => std::fs::remove_file(file).with_context(|| format!("cannot remove {}", file.display())),
    }
}

/// What `install HOST` prints first: what it wrote, or would write.
pub fn install_report(
    file: &Path,
    change: &Change,
    dry_run: bool,
    events: usize,
    label: &str,
    command: &str,
) -> String {
    match change {
        Change::Write(text) if dry_run => format!("hookmux would write {}:\n{text}", file.display()),
        Change::Write(_) | Change::Delete => format!(
            "{}: {events} {label} events now run `{command}`, which runs your Claude Code hooks (~/.claude/settings.json, <project>/.claude/settings.json, .claude/settings.local.json, managed settings).\n",
            file.display(),
        ),
        Change::Unchanged => format!("{}: the hookmux entries are already there.\n", file.display()),
    }
}

/// What `uninstall HOST` prints.
pub fn removal_report(file: &Path, change: &Change, removed: usize, dry_run: bool, command: &str) -> String {
    let shown = file.display();
    let entries = if removed == 1 { "entry" } else { "entries" };
    match (change, dry_run) {
        (Change::Unchanged, _) => format!("{shown}: no hookmux entries (`{command}`) to remove.\n"),
        (Change::Write(text), true) => format!("hookmux would write {shown}:\n{text}"),
        (Change::Delete, true) => {
            format!("hookmux would remove {shown}: it holds only hookmux's {removed} {entries}.\n")
        }
        (Change::Delete, false) => format!("{shown}: removed, as it held only hookmux's {removed} {entries}.\n"),
        (Change::Write(_), false) => {
            format!("{shown}: removed hookmux's {removed} {entries}; the rest is as it was.\n")
        }
    }
}

/// An event that says only where it happens: what a host's trust is decided on outside dispatch.
pub fn event_in(project: &Path) -> hookmux_sdk::Event {
    hookmux_sdk::Event::from_fields(json!({"cwd": project.to_string_lossy()}).as_object().cloned().unwrap_or_default())
}

/// The settings file as a JSON object (an empty one when it is not there).
pub fn read_settings(path: &Path) -> anyhow::Result<Value> {
    config_file::read_json_object(
        path,
        json!({}),
        "not plain JSON (hookmux does not rewrite a settings file with comments)",
    )
}

fn pretty(root: &Value) -> String {
    format!("{}\n", serde_json::to_string_pretty(root).unwrap_or_default())
}
