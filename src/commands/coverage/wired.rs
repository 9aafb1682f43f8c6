//! Whether hookmux is installed for a host, and since when: the entries `hookmux install` writes
//! (or the OpenCode plugin), found where the host reads them for the current folder and the
//! user. A session of that host that began after them and none of whose events reached hookmux
//! is a host that stopped running its hooks (an update, a setting that turns hooks off), not a
//! host the user chose to run without hookmux.
//!
//! "Since when" is the newest modification time among the files holding the entries: the
//! entries were there from then on at the latest. A file changed after a session (a hook added,
//! say) puts its time after the session's, and the session is then not judged on it: the check
//! errs towards "not wired", never towards a false alarm.

use crate::engine::config::entry;
use crate::engine::config::shell_words::{self, words};
use crate::host::Host;
use hookmux_sdk::Env;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// When hookmux's entries for `host` were last written, where the host reads them for
/// `project` and the user; `None` when hookmux is not installed for it.
pub fn since(host: Host, env: &Env, project: &Path) -> Option<SystemTime> {
    let home = hookmux_platform::dirs::home(env).filter(|h| h.is_absolute());
    let wired: Vec<PathBuf> = match host {
        Host::Claude | Host::Copilot => {
            let user = env.path("CLAUDE_CONFIG_DIR").filter(|p| p.is_absolute()).or(home.map(|h| h.join(".claude")));
            let files = user
                .map(|dir| dir.join("settings.json"))
                .into_iter()
                .chain([project.join(".claude/settings.json"), project.join(".claude/settings.local.json")]);
            files
                .filter(|file| {
                    commands(file)
                        .iter()
                        .any(|c| entry::recognise(c, None, &entry::Places::project(Some(project))).is_some())
                })
                .collect()
        }
        Host::Codex => {
            let user = env.path("CODEX_HOME").filter(|p| p.is_absolute()).or(home.map(|h| h.join(".codex")));
            let files = user.map(|dir| dir.join("hooks.json")).into_iter().chain([project.join(".codex/hooks.json")]);
            files.filter(|file| dispatches_for(&commands(file), "codex")).collect()
        }
        Host::Gemini => {
            let user = env.path("GEMINI_CLI_HOME").filter(|p| p.is_absolute()).or(home);
            let files = user
                .map(|h| h.join(".gemini/settings.json"))
                .into_iter()
                .chain([project.join(".gemini/settings.json")]);
            files.filter(|file| dispatches_for(&commands(file), "gemini")).collect()
        }
        Host::Qwen => {
            let user = crate::host::qwen::qwen_dir(env).map(|dir| dir.join("settings.json"));
            let files = user.into_iter().chain([project.join(".qwen/settings.json")]);
            files.filter(|file| dispatches_for(&commands(file), "qwen")).collect()
        }
        Host::Cline => {
            use crate::host::cline::install::{hook_files, Paths};
            let paths = Paths::of(env, project)?;
            paths.cline_folders().iter().flat_map(|dir| hook_files(dir)).filter(|f| f.ours).map(|f| f.path).collect()
        }
        Host::Opencode => {
            let config = hookmux_platform::dirs::config(env).map(|dir| dir.join("opencode"));
            let dirs = std::iter::once(project.join(".opencode")).chain(config);
            dirs.flat_map(|dir| ["plugins", "plugin"].map(|sub| dir.join(sub).join("hookmux.js")))
                .filter(|file| file.is_file())
                .collect()
        }
    };
    wired.iter().filter_map(|file| std::fs::metadata(file).and_then(|m| m.modified()).ok()).max()
}

/// Every `command` string of a host's JSON file; none when it is not there or not JSON.
fn commands(file: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(value) = std::fs::read_to_string(file).ok().and_then(|text| serde_json::from_str(&text).ok()) {
        commands_in(&value, &mut out);
    }
    out
}

/// Whether one of `commands` is `hookmux dispatch … --host HOST`.
fn dispatches_for(commands: &[String], host: &str) -> bool {
    !dispatch_programs(commands, host).is_empty()
}

/// Every `command` string anywhere in a host's JSON file.
pub(crate) fn commands_in(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields {
                match field {
                    Value::String(text) if key == "command" => out.push(text.clone()),
                    _ => commands_in(field, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| commands_in(item, out)),
        _ => {}
    }
}

/// The programs of the `hookmux dispatch --host HOST` commands among `commands`.
pub(crate) fn dispatch_programs(commands: &[String], host: &str) -> Vec<String> {
    let mut programs: Vec<String> = Vec::new();
    for command in commands {
        let Some(words) = words(command, |_| None) else { continue };
        let [program, dispatch, rest @ ..] = words.as_slice() else { continue };
        let host_flag = rest.windows(2).any(|w| w[0] == "--host" && w[1] == host)
            || rest.iter().any(|w| w.strip_prefix("--host=") == Some(host));
        if shell_words::is_hookmux(program) && dispatch == "dispatch" && host_flag && !programs.contains(program) {
            programs.push(program.clone());
        }
    }
    programs
}
