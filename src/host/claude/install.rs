//! `hookmux install claude` and `uninstall claude`: move a settings file's hooks into a hooks file
//! beside it and route every event they used through one `hookmux dispatch --installed` entry, the
//! same in every scope; and put them back.
//!
//! Install is a pure function from the settings text to the new settings text and the hooks file.
//! The hooks file records what install wrote (hashes of both files) so that uninstall can restore
//! the original byte for byte when nothing changed since; otherwise it removes the dispatch
//! entries and puts every hook of the hooks file back in its event, keeping the user's later
//! edits. Reinstalling uninstalls first, so installing twice changes nothing.
//!
//! Hooks dispatch cannot run stay native: `prompt`, `agent` and `mcp_tool` handlers (they need the
//! host's model or MCP client) and `async` command hooks (only the host can deliver their output
//! on the next turn).

use crate::engine::config::entry::{self, DispatchEntry};
use crate::engine::config::settings::MAX_TIMEOUT;
use hookmux_sdk::HookEvent;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The key in the hooks file under which install records what it did.
pub const RECORD_KEY: &str = "hookmuxInstall";

/// Added to a dispatch entry's timeout beyond its slowest hook, so that dispatch can stop a hook
/// that overran (SIGTERM, grace, SIGKILL) and still answer before the host gives up on it.
const ENTRY_MARGIN: Duration = Duration::from_secs(5);

/// Which settings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// `~/.claude/settings.json` (or `$CLAUDE_CONFIG_DIR/settings.json`)
    User,
    /// `<project>/.claude/settings.json`
    Project,
    /// `<project>/.claude/settings.local.json`
    Local,
}

/// The files of one scope, and the entry that runs its moved hooks.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub settings: PathBuf,
    pub hooks_file: PathBuf,
    pub backup: PathBuf,
    /// The project, which `$CLAUDE_PROJECT_DIR` in an older entry stands for.
    pub project: PathBuf,
    /// The command every moved event runs instead: the same in every scope, so that the host,
    /// which runs an identical command once, runs it once however many scopes hold it.
    pub dispatch_command: String,
    /// The moved hooks of the other scopes already installed, read so that the entry's timeout
    /// covers theirs too: the host keeps one of the identical entries, and its timeout.
    pub peer_hooks: Vec<Value>,
}

impl Layout {
    pub fn new(scope: Scope, config_dir: &Path, project: &Path) -> Layout {
        let (settings, hooks_file) = match scope {
            Scope::User => (config_dir.join("settings.json"), config_dir.join("hookmux-hooks.json")),
            Scope::Project => (project.join(".claude/settings.json"), project.join(".claude/hookmux-hooks.json")),
            Scope::Local => {
                (project.join(".claude/settings.local.json"), project.join(".claude/hookmux-hooks.local.json"))
            }
        };
        let mut backup = settings.clone().into_os_string();
        backup.push(".hookmux-backup");
        Layout {
            settings,
            hooks_file,
            backup: PathBuf::from(backup),
            project: project.to_path_buf(),
            dispatch_command: format!("hookmux dispatch {}", entry::INSTALLED_FLAG),
            peer_hooks: Vec::new(),
        }
    }

    /// The hooks files every scope's install writes, this one's included.
    pub fn all_hooks_files(config_dir: &Path, project: &Path) -> [PathBuf; 3] {
        [Scope::User, Scope::Project, Scope::Local].map(|scope| Layout::new(scope, config_dir, project).hooks_file)
    }
}

/// What install would write.
#[derive(Clone, Debug, PartialEq)]
pub struct Installed {
    pub settings_text: String,
    pub hooks_text: String,
    pub moved: usize,
    pub kept_native: usize,
    pub events: Vec<String>,
}

/// Why install or uninstall cannot proceed; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("{0} does not exist: there are no hooks to install")]
    NoSettings(PathBuf),
    #[error("{path} is not valid JSON ({reason}); it is left untouched: fix it and run install again")]
    InvalidSettings { path: PathBuf, reason: String },
    #[error("{path} has no `hooks` object: nothing to install")]
    NoHooks { path: PathBuf },
    #[error("{path} holds only hooks dispatch cannot run (prompt, agent, mcp_tool, async); nothing to move")]
    NothingToMove { path: PathBuf },
    #[error("{path} is not valid JSON ({reason}); it is left untouched: fix it and run the command again")]
    InvalidHooksFile { path: PathBuf, reason: String },
    #[error("{0} does not exist: hookmux is not installed for this scope")]
    NotInstalled(PathBuf),
    #[error("cannot read {path}: {reason}")]
    Unreadable { path: PathBuf, reason: String },
}

fn parse_object(text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err("not a JSON object".to_string()),
        Err(err) => Err(format!("line {} column {}: {err}", err.line(), err.column())),
    }
}

/// Whether a handler stays in the host's settings.
fn stays_native(handler: &Value) -> bool {
    match handler.get("type").and_then(Value::as_str) {
        Some("command") => is_detached(handler),
        Some("http") => false,
        // prompt, agent, mcp_tool, and anything malformed: left exactly as it was.
        _ => true,
    }
}

/// hookmux's entry for this scope: the installed one, or the older `--settings` form naming this
/// scope's hooks file, which reinstalling replaces.
fn is_our_entry(handler: &Value, layout: &Layout) -> bool {
    let Some(command) = handler.get("command").and_then(Value::as_str) else { return false };
    match entry::recognise(command, None, &entry::Places::project(Some(&layout.project))) {
        Some(DispatchEntry::Installed) => true,
        Some(DispatchEntry::Settings(files)) => files == [layout.hooks_file.clone()],
        None => false,
    }
}

/// Moves the hooks of `settings_text` into a hooks file.
pub fn install(settings_text: &str, layout: &Layout) -> Result<Installed, Refusal> {
    let settings = parse_object(settings_text)
        .map_err(|reason| Refusal::InvalidSettings { path: layout.settings.clone(), reason })?;
    let Some(Value::Object(hooks)) = settings.get("hooks").cloned() else {
        return Err(Refusal::NoHooks { path: layout.settings.clone() });
    };

    let mut moved_hooks = Map::new();
    let mut new_hooks = Map::new();
    let (mut moved, mut kept_native) = (0, 0);
    let mut events = Vec::new();
    for (event, value) in hooks {
        // Only what dispatch can run moves: a known event, or a PascalCase name it runs with the
        // generic rules. A wrong-case name (`preToolUse`) stays where the host reads it as it will.
        let (Value::Array(groups), Some(_)) = (&value, HookEvent::named(&event)) else {
            new_hooks.insert(event, value);
            continue;
        };
        let groups = groups.clone();
        let mut native_groups = Vec::new();
        let mut moved_groups = Vec::new();
        for group in groups {
            let Some(handlers) = group.get("hooks").and_then(Value::as_array).cloned() else {
                native_groups.push(group);
                continue;
            };
            let (stay, go): (Vec<Value>, Vec<Value>) =
                handlers.into_iter().partition(|h| stays_native(h) || is_our_entry(h, layout));
            kept_native += stay.iter().filter(|h| !is_our_entry(h, layout)).count();
            moved += go.len();
            if !go.is_empty() {
                let mut moved_group = group.as_object().cloned().unwrap_or_default();
                moved_group.insert("hooks".into(), Value::Array(go));
                moved_groups.push(Value::Object(moved_group));
            }
            if !stay.is_empty() {
                let mut native_group = group.as_object().cloned().unwrap_or_default();
                native_group.insert("hooks".into(), Value::Array(stay));
                native_groups.push(Value::Object(native_group));
            }
        }
        if !moved_groups.is_empty() {
            let peer_groups: Vec<Value> = layout
                .peer_hooks
                .iter()
                .filter_map(|hooks| hooks.get(&event).and_then(Value::as_array))
                .flatten()
                .cloned()
                .collect();
            let timeout = entry_timeout(&event, &[moved_groups.as_slice(), &peer_groups].concat());
            let mut entry = json!({"type": "command", "command": layout.dispatch_command});
            if let Some(seconds) = timeout {
                entry["timeout"] = json!(seconds);
            }
            native_groups.push(json!({"hooks": [entry]}));
            events.push(event.clone());
            moved_hooks.insert(event.clone(), Value::Array(moved_groups));
        }
        new_hooks.insert(event, Value::Array(native_groups));
    }
    if moved == 0 {
        return Err(Refusal::NothingToMove { path: layout.settings.clone() });
    }
    route_failures_of_commands(&mut new_hooks, &mut events, &moved_hooks, layout);
    route_session_end(&mut new_hooks, &mut events, &moved_hooks, layout);
    let settings_text = with_hooks(settings_text, &Value::Object(new_hooks));

    let mut hooks_file = Map::new();
    hooks_file.insert("hooks".into(), Value::Object(moved_hooks.clone()));
    // dispatch reads only this file: the http allow-lists must come along for moved http hooks.
    for key in ["allowedHttpHookUrls", "httpHookAllowedEnvVars"] {
        if let Some(value) = settings.get(key) {
            hooks_file.insert(key.into(), value.clone());
        }
    }
    hooks_file.insert(
        RECORD_KEY.into(),
        json!({
            "note": "written by `hookmux install claude`; `hookmux uninstall claude` puts these hooks back",
            "settings": layout.settings,
            "settingsSha256": sha256(&settings_text),
            "hooksSha256": sha256(&Value::Object(moved_hooks).to_string()),
        }),
    );
    let hooks_text = format!("{}\n", serde_json::to_string_pretty(&Value::Object(hooks_file)).unwrap_or_default());
    Ok(Installed { settings_text, hooks_text, moved, kept_native, events })
}

/// GitHub Copilot CLI, which runs this file's entries too, reports a command that exits non-zero
/// as PostToolUse, where Claude Code fires PostToolUseFailure; dispatch turns the one into the
/// other, but only if it runs: so moved PostToolUseFailure hooks route PostToolUse as well. Under
/// Claude Code that entry finds no PostToolUse hooks and answers nothing.
fn route_failures_of_commands(
    new_hooks: &mut Map<String, Value>,
    events: &mut Vec<String>,
    moved_hooks: &Map<String, Value>,
    layout: &Layout,
) {
    let (failure, post) = (HookEvent::PostToolUseFailure.as_str(), HookEvent::PostToolUse.as_str());
    let Some(Value::Array(failure_groups)) = moved_hooks.get(failure) else { return };
    if moved_hooks.contains_key(post) {
        return;
    }
    let mut entry = json!({"type": "command", "command": layout.dispatch_command});
    if let Some(seconds) = entry_timeout(failure, failure_groups) {
        entry["timeout"] = json!(seconds);
    }
    let groups = new_hooks.entry(post).or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(groups) = groups {
        groups.push(json!({"hooks": [entry]}));
        events.push(post.to_string());
    }
}

/// dispatch ends the `async` hooks it started for a session when that session's SessionEnd
/// reaches it: so SessionEnd is routed whenever the hooks the entry runs (this scope's moved hooks
/// and every installed scope's hooks file, which a user may edit) hold one, SessionEnd hooks or
/// not. Without SessionEnd hooks the entry has no timeout: the host keeps its own SessionEnd budget.
fn route_session_end(
    new_hooks: &mut Map<String, Value>,
    events: &mut Vec<String>,
    moved_hooks: &Map<String, Value>,
    layout: &Layout,
) {
    let end = HookEvent::SessionEnd.as_str();
    if moved_hooks.contains_key(end) {
        return;
    }
    let detached = |hooks: &Map<String, Value>| {
        hooks
            .values()
            .filter_map(Value::as_array)
            .flatten()
            .filter_map(|group| group.get("hooks").and_then(Value::as_array))
            .flatten()
            .any(is_detached)
    };
    if !detached(moved_hooks) && !layout.peer_hooks.iter().filter_map(Value::as_object).any(detached) {
        return;
    }
    let peer_groups: Vec<Value> = layout
        .peer_hooks
        .iter()
        .filter_map(|hooks| hooks.get(end).and_then(Value::as_array))
        .flatten()
        .cloned()
        .collect();
    let mut entry = json!({"type": "command", "command": layout.dispatch_command});
    if let Some(seconds) = entry_timeout(end, &peer_groups) {
        entry["timeout"] = json!(seconds);
    }
    let groups = new_hooks.entry(end).or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(groups) = groups {
        if !groups
            .iter()
            .filter_map(|g| g.get("hooks").and_then(Value::as_array))
            .flatten()
            .any(|h| is_our_entry(h, layout))
        {
            groups.push(json!({"hooks": [entry]}));
        }
        events.push(end.to_string());
    }
}

/// Whether a handler runs detached under dispatch (`async` or `asyncRewake`).
fn is_detached(handler: &Value) -> bool {
    ["async", "asyncRewake"].iter().any(|key| handler.get(*key).and_then(Value::as_bool).unwrap_or(false))
}

/// The dispatch entry's timeout in seconds, over the hooks of every installed scope: for
/// SessionEnd, whose budget the host derives from the timeouts it sees, the largest SessionEnd
/// timeout (none if none was set); elsewhere the slowest hook's timeout (or the host's default)
/// plus a margin.
fn entry_timeout(event: &str, groups: &[Value]) -> Option<u64> {
    let timeouts = groups
        .iter()
        .filter_map(|g| g.get("hooks").and_then(Value::as_array))
        .flatten()
        .map(|h| h.get("timeout").and_then(Value::as_f64).map(|t| t.min(MAX_TIMEOUT.as_secs_f64())));
    if event == "SessionEnd" {
        return timeouts
            .flatten()
            .fold(None, |max: Option<f64>, t| Some(max.map_or(t, |m| m.max(t))))
            .map(|t| t.ceil() as u64);
    }
    let default = match event {
        "UserPromptSubmit" => 30.0,
        "MessageDisplay" => 10.0,
        _ => 600.0,
    };
    let slowest = timeouts.map(|t| t.unwrap_or(default)).fold(0.0_f64, f64::max);
    Some((slowest + ENTRY_MARGIN.as_secs_f64()).ceil() as u64)
}

/// The settings text with its top-level `hooks` value replaced (`None`: removed) and every other
/// byte as it was, so that install and uninstall touch nothing else in the user's file.
fn replace_hooks(text: &str, hooks: Option<&Value>) -> String {
    use jsonc_parser::ast::Value as Node;
    use jsonc_parser::common::Ranged;
    let parsed = jsonc_parser::parse_to_ast(text, &Default::default(), &Default::default()).ok();
    let Some(Node::Object(object)) = parsed.and_then(|p| p.value) else {
        return fallback_text(text, hooks);
    };
    let indent_of = |offset: usize| {
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        text[line_start..offset].chars().take_while(|c| c.is_whitespace()).collect::<String>()
    };
    match (object.properties.iter().find(|p| p.name.as_str() == "hooks"), hooks) {
        (Some(property), Some(hooks)) => {
            let range = property.value.range();
            let rendered = indented(hooks, &indent_of(property.range().start));
            format!("{}{}{}", &text[..range.start], rendered, &text[range.end..])
        }
        (Some(property), None) => {
            // Remove the property with the comma that joins it to a neighbour.
            let range = property.range();
            let after = &text[range.end..];
            let trailing_comma = after.trim_start().starts_with(',');
            if trailing_comma {
                let comma = range.end + after.find(',').unwrap_or(0) + 1;
                let line_start = text[..range.start].rfind('\n').map_or(range.start, |i| i + 1);
                let next = comma + text[comma..].find(|c: char| !c.is_whitespace() || c == '\n').unwrap_or(0);
                let next = if text[next..].starts_with('\n') { next + 1 } else { next };
                format!("{}{}", &text[..line_start], &text[next..])
            } else {
                let before = text[..range.start].trim_end();
                let cut = if before.ends_with(',') { before.len() - 1 } else { range.start };
                format!("{}{}", &text[..cut], &text[range.end..])
            }
        }
        (None, Some(hooks)) => {
            // Add it after the last property (or into the empty object).
            let close = object.range().end - 1;
            let body = text[object.range().start + 1..close].trim();
            let indent =
                object.properties.first().map(|p| indent_of(p.range().start)).unwrap_or_else(|| "  ".to_string());
            let rendered = indented(hooks, &indent);
            let head = text[..close].trim_end();
            let separator = if body.is_empty() { "" } else { "," };
            format!("{head}{separator}\n{indent}\"hooks\": {rendered}\n{}", &text[close..])
        }
        (None, None) => text.to_string(),
    }
}

/// Pretty JSON whose inner lines are indented from `indent`, to sit at that level of a file.
fn indented(value: &Value, indent: &str) -> String {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut lines = pretty.lines();
    let mut out = lines.next().unwrap_or_default().to_string();
    for line in lines {
        out.push('\n');
        out.push_str(indent);
        out.push_str(line);
    }
    out
}

/// When the text cannot be edited in place (it did parse as JSON, so this is only a guard).
fn fallback_text(text: &str, hooks: Option<&Value>) -> String {
    let mut object = parse_object(text).unwrap_or_default();
    match hooks {
        Some(hooks) => object.insert("hooks".into(), hooks.clone()),
        None => object.remove("hooks"),
    };
    let mut out = serde_json::to_string_pretty(&Value::Object(object)).unwrap_or_default();
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn with_hooks(text: &str, hooks: &Value) -> String {
    replace_hooks(text, Some(hooks))
}

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Restores the settings from the current settings, the hooks file and the backup, if any.
/// Byte for byte from the backup when neither file changed since install; otherwise the dispatch
/// entries are removed and the hooks file's hooks are appended back to their events.
pub fn uninstall(
    settings_text: &str,
    hooks_text: &str,
    backup: Option<&str>,
    layout: &Layout,
) -> Result<String, Refusal> {
    let hooks_file = parse_object(hooks_text)
        .map_err(|reason| Refusal::InvalidHooksFile { path: layout.hooks_file.clone(), reason })?;
    let moved = hooks_file.get("hooks").cloned().unwrap_or_else(|| json!({}));
    let record = hooks_file.get(RECORD_KEY);
    let untouched = record.is_some_and(|r| {
        r.get("settingsSha256").and_then(Value::as_str) == Some(sha256(settings_text).as_str())
            && r.get("hooksSha256").and_then(Value::as_str) == Some(sha256(&moved.to_string()).as_str())
    });
    if let (true, Some(original)) = (untouched, backup) {
        return Ok(original.to_string());
    }

    let settings = parse_object(settings_text)
        .map_err(|reason| Refusal::InvalidSettings { path: layout.settings.clone(), reason })?;
    let mut hooks = match settings.get("hooks") {
        Some(Value::Object(hooks)) => hooks.clone(),
        _ => Map::new(),
    };
    for groups in hooks.values_mut() {
        if let Value::Array(groups) = groups {
            for group in groups.iter_mut() {
                if let Some(Value::Array(handlers)) = group.get_mut("hooks") {
                    handlers.retain(|h| !is_our_entry(h, layout));
                }
            }
            groups.retain(|g| g.get("hooks").and_then(Value::as_array).is_none_or(|h| !h.is_empty()));
        }
    }
    if let Value::Object(moved) = moved {
        for (event, groups) in moved {
            let Value::Array(groups) = groups else { continue };
            match hooks.get_mut(&event) {
                Some(Value::Array(existing)) => existing.extend(groups),
                _ => {
                    hooks.insert(event, Value::Array(groups));
                }
            }
        }
    }
    hooks.retain(|_, groups| groups.as_array().is_none_or(|g| !g.is_empty()));
    Ok(if hooks.is_empty() {
        replace_hooks(settings_text, None)
    } else {
        with_hooks(settings_text, &Value::Object(hooks))
    })
}

/// Reads a file that may be missing.
pub fn read_optional(path: &Path) -> Result<Option<String>, Refusal> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(Refusal::Unreadable { path: path.to_path_buf(), reason: err.to_string() }),
    }
}

pub use crate::host::config_file::write_atomically;

/// A unified diff of a file's old and new text, for `--dry-run`.
pub fn diff(path: &Path, old: Option<&str>, new: Option<&str>) -> String {
    let name = path.display().to_string();
    similar::TextDiff::from_lines(old.unwrap_or(""), new.unwrap_or(""))
        .unified_diff()
        .context_radius(3)
        .header(if old.is_some() { &name } else { "/dev/null" }, if new.is_some() { &name } else { "/dev/null" })
        .to_string()
}

#[cfg(test)]
mod tests;
