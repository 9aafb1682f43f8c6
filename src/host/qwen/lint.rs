//! What `hookmux hooks validate` and `hookmux doctor` find in Qwen Code's own settings files
//! (`~/.qwen/settings.json`, `$QWEN_HOME` standing for `~/.qwen`, and the project's
//! `.qwen/settings.json`). Qwen runs the hooks there itself, by its own rules, beside the Claude
//! hooks hookmux runs for it; two of its rules bite hooks written for Claude Code:
//!
//! * a `timeout` of 1000 or more is milliseconds to Qwen (`host-timeout-milliseconds`): 1200,
//!   meant as 20 minutes, kills the hook after 1.2 s; hookmux's own entry too;
//! * a hook kept in both places, as users who moved between the two hosts do, runs twice under
//!   Qwen once hookmux runs the Claude settings there (`host-duplicate-hook`).
//!
//! A file with comments (Qwen reads them) is not checked: hookmux reads plain JSON only.

use super::install::MILLISECONDS_FROM;
use crate::engine::config::diagnostic::{self, Check, Diagnostic};
use crate::engine::config::settings::{HookKind, Scope, SettingsFile};
use crate::engine::config::shell_words::{self, words};
use crate::engine::config::sources::Sources;
use hookmux_sdk::{Env, HookEvent};
use std::path::{Path, PathBuf};

/// Qwen's settings files for `project`: the user's, then the project's.
pub fn settings_files(env: &Env, project: &Path) -> Vec<PathBuf> {
    let user = super::qwen_dir(env).map(|dir| dir.join("settings.json"));
    let mut files: Vec<PathBuf> = user.into_iter().collect();
    let own = project.join(".qwen").join("settings.json");
    if !files.contains(&own) {
        files.push(own);
    }
    files
}

/// Whether `command` is hookmux's entry for Qwen: `hookmux dispatch --host qwen`.
pub fn is_entry(command: &str) -> bool {
    let Some(words) = words(command, |_| None) else { return false };
    let [program, dispatch, rest @ ..] = words.as_slice() else { return false };
    let host = rest.windows(2).any(|w| w[0] == "--host" && w[1] == "qwen") || rest.iter().any(|w| w == "--host=qwen");
    shell_words::is_hookmux(program) && dispatch == "dispatch" && host
}

/// The files among `files` that exist and are plain JSON, read.
fn read(files: &[PathBuf]) -> Vec<SettingsFile> {
    files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            serde_json::from_str::<serde_json::Value>(&text).ok()?;
            let scope = if path.ends_with(".qwen/settings.json") { Scope::Project } else { Scope::User };
            Some(SettingsFile::parse(path, scope, &text))
        })
        .collect()
}

/// Every command hook of a file, with its event.
fn commands(
    file: &SettingsFile,
) -> impl Iterator<Item = (HookEvent, &crate::engine::config::settings::HookSpec, &str)> {
    file.hooks.iter().flat_map(|(event, groups)| {
        groups.iter().flat_map(|group| &group.hooks).filter_map(move |spec| match &spec.kind {
            HookKind::Command { command, .. } => Some((*event, spec, command.as_str())),
            _ => None,
        })
    })
}

/// The findings in Qwen's settings `files`, given the Claude settings (`claude`) that hookmux
/// runs where its entries are installed; each placed at its line and column.
pub fn lint(files: &[PathBuf], claude: &Sources) -> Vec<Diagnostic> {
    let read = read(files);
    let routed: Vec<HookEvent> =
        read.iter().flat_map(commands).filter(|(_, _, command)| is_entry(command)).map(|(event, _, _)| event).collect();
    let claude_commands: Vec<(HookEvent, &str, &Path)> = claude
        .files
        .iter()
        .flat_map(|file| commands(file).map(move |(event, _, command)| (event, command, file.path.as_path())))
        .collect();
    let mut out = Vec::new();
    for file in &read {
        let text = file.text.as_deref().unwrap_or_default();
        for (event, spec, command) in commands(file) {
            let ours = is_entry(command);
            if let Some(timeout) = spec.timeout.filter(|t| *t >= MILLISECONDS_FROM) {
                let at = spec.path.key("timeout");
                let (message, hint) = if ours {
                    (
                        format!("Qwen Code reads a timeout of 1000 or more as milliseconds: hookmux's entry for {event} gets {} s, and the Claude hooks inside are cut off", timeout / 1000.0),
                        "run `hookmux install qwen` again: it writes 600 (seconds)".to_string(),
                    )
                } else {
                    (
                        format!("Qwen Code reads a timeout of 1000 or more as milliseconds: this hook is killed after {} s, not {timeout} s", timeout / 1000.0),
                        format!("write the seconds below 1000 (for {timeout} s, at most 999, or move the hook to your Claude settings, which hookmux runs under Qwen)"),
                    )
                };
                out.push(placed(
                    Diagnostic::error(&file.path, at, message).with_hint(hint),
                    text,
                    Check::HostTimeoutMilliseconds,
                ));
            }
            if ours || !routed.contains(&event) {
                continue;
            }
            if let Some((_, _, source)) = claude_commands.iter().find(|(e, c, _)| *e == event && *c == command) {
                let message = format!(
                    "this {event} hook is also in {}, which hookmux runs under Qwen Code: Qwen runs it twice",
                    source.display()
                );
                let hint = "keep it in one place: remove it here (hookmux runs your Claude settings under Qwen)";
                out.push(placed(
                    Diagnostic::warning(&file.path, spec.path.clone(), message).with_hint(hint),
                    text,
                    Check::HostDuplicateHook,
                ));
            }
        }
    }
    out
}

/// The diagnostic with its check and its line and column in `text`: its file is none of the
/// Claude sources, whose texts place the others.
fn placed(diagnostic: Diagnostic, text: &str, check: Check) -> Diagnostic {
    let diagnostic = diagnostic.check(check);
    match diagnostic::locate(text, &diagnostic.path) {
        Some((line, column)) => diagnostic.at(line, column),
        None => diagnostic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write(path: &Path, value: serde_json::Value) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    }

    #[test]
    fn timeouts_qwen_reads_as_milliseconds_are_errors_at_their_place() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        write(
            &file,
            json!({"hooks": {"Stop": [{"hooks": [
                {"type": "command", "command": "./slow.sh", "timeout": 1200},
                {"type": "command", "command": "./quick.sh", "timeout": 999},
                {"type": "command", "command": "/opt/hookmux dispatch --host qwen", "timeout": 600000},
            ]}]}}),
        );
        let found = lint(std::slice::from_ref(&file), &Sources::default());
        assert_eq!(found.len(), 2, "{found:#?}");
        assert!(found.iter().all(|d| d.check == Check::HostTimeoutMilliseconds && d.position.is_some()));
        assert!(found[0].message.contains("1.2 s"), "{}", found[0].message);
        assert_eq!(found[0].path.to_string(), "hooks.Stop[0].hooks[0].timeout");
        assert!(found[1].hint.as_deref().unwrap().contains("hookmux install qwen"), "{:?}", found[1].hint);
    }

    #[test]
    fn a_hook_also_in_the_claude_settings_runs_twice_only_where_hookmux_is_installed() {
        let dir = tempfile::tempdir().unwrap();
        let (user, project) = (dir.path().join("home/settings.json"), dir.path().join("p/.qwen/settings.json"));
        let claude_file = dir.path().join("p/.claude/settings.json");
        write(
            &claude_file,
            json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "./guard.sh"}]}]}}),
        );
        let claude = Sources::from_files(vec![SettingsFile::load(&claude_file, Scope::Project)]);
        write(
            &project,
            json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "./guard.sh"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "./guard.sh"}]}]}}),
        );
        assert!(lint(&[user.clone(), project.clone()], &claude).is_empty(), "not installed: Qwen runs it once");

        write(
            &user,
            json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookmux dispatch --host qwen", "timeout": 600}]}]}}),
        );
        let found = lint(&[user, project.clone()], &claude);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!((found[0].check, &found[0].file), (Check::HostDuplicateHook, &project));
        assert!(found[0].message.contains(".claude/settings.json"), "{}", found[0].message);
    }

    #[test]
    fn a_file_with_comments_or_missing_is_not_checked() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        std::fs::write(&file, "{\n  // Qwen reads comments\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"x\", \"timeout\": 5000}]}]}\n}\n").unwrap();
        assert!(lint(&[file, dir.path().join("none.json")], &Sources::default()).is_empty());
    }

    #[test]
    fn the_entry_is_recognised_by_its_words() {
        assert!(is_entry("'/opt/my tools/hookmux' dispatch --host qwen"));
        assert!(is_entry("hookmux dispatch --host=qwen"));
        assert!(!is_entry("hookmux dispatch --host gemini"));
        assert!(!is_entry("echo hookmux dispatch --host qwen"));
    }
}
