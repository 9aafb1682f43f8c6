//! Which settings files hold hooks, in Claude Code's order, and reading them.
//!
//! Discovery: user (`$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`), project
//! (`<root>/.claude/settings.json`), local (`<root>/.claude/settings.local.json`), managed
//! (`managed-settings.json`, then `managed-settings.d/*.json` alphabetically, in
//! `$HOOKMUX_MANAGED_DIR`, default `/etc/claude-code`). `<root>` is `$CLAUDE_PROJECT_DIR`, else
//! the event's `cwd`. Files named with `--settings` replace all of that, managed included.

use crate::engine::config::settings::{Scope, SettingsFile};
use hookmux_sdk::{Env, Event};
use std::path::{Path, PathBuf};

/// Where the managed (policy) settings live unless `$HOOKMUX_MANAGED_DIR` says otherwise.
pub const DEFAULT_MANAGED_DIR: &str = "/etc/claude-code";

/// The inputs discovery depends on, gathered once so that discovery itself is easy to test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    pub home: Option<PathBuf>,
    pub config_dir: Option<PathBuf>,
    pub project_root: Option<PathBuf>,
    pub managed_dir: PathBuf,
    /// `--settings` files: when present, the only sources.
    pub explicit: Vec<PathBuf>,
}

impl Discovery {
    /// From the environment hookmux runs in and the event it got.
    pub fn new(env: &Env, event: &Event, explicit: Vec<PathBuf>) -> Discovery {
        Discovery {
            home: env.path("HOME"),
            config_dir: env.path("CLAUDE_CONFIG_DIR"),
            project_root: project_root(env, event),
            managed_dir: env.path("HOOKMUX_MANAGED_DIR").unwrap_or_else(|| PathBuf::from(DEFAULT_MANAGED_DIR)),
            explicit,
        }
    }

    /// The files to read, in order. Listing `managed-settings.d/` is the only I/O.
    pub fn files(&self) -> Vec<(Scope, PathBuf)> {
        if !self.explicit.is_empty() {
            return self.explicit.iter().map(|path| (Scope::Flag, path.clone())).collect();
        }
        let mut files = Vec::new();
        let user_dir = self.config_dir.clone().or_else(|| self.home.as_ref().map(|home| home.join(".claude")));
        if let Some(dir) = user_dir {
            files.push((Scope::User, dir.join("settings.json")));
        }
        if let Some(root) = &self.project_root {
            files.push((Scope::Project, root.join(".claude").join("settings.json")));
            files.push((Scope::Local, root.join(".claude").join("settings.local.json")));
        }
        files.push((Scope::Managed, self.managed_dir.join("managed-settings.json")));
        files.extend(managed_drop_ins(&self.managed_dir).into_iter().map(|path| (Scope::Managed, path)));
        files
    }
}

/// The project root: `$CLAUDE_PROJECT_DIR`, else the event's `cwd`.
pub fn project_root(env: &Env, event: &Event) -> Option<PathBuf> {
    env.path("CLAUDE_PROJECT_DIR").or_else(|| event.cwd().filter(|cwd| !cwd.as_os_str().is_empty()))
}

/// `managed-settings.d/*.json`, alphabetically; hidden files and other extensions are ignored.
fn managed_drop_ins(managed_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(managed_dir.join("managed-settings.d")) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
            !name.starts_with('.') && name.ends_with(".json")
        })
        .collect();
    files.sort();
    files
}

/// Every settings file considered, read, in order.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    pub files: Vec<SettingsFile>,
}

impl Sources {
    pub fn load(discovery: &Discovery) -> Sources {
        Sources { files: discovery.files().iter().map(|(scope, path)| SettingsFile::load(path, *scope)).collect() }
    }

    pub fn from_files(files: Vec<SettingsFile>) -> Sources {
        Sources { files }
    }

    /// Every problem found in any file, in order.
    pub fn diagnostics(&self) -> impl Iterator<Item = &crate::engine::config::diagnostic::Diagnostic> {
        self.files.iter().flat_map(|file| file.diagnostics.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(cwd: &str) -> Event {
        Event::from_fields(json!({"hook_event_name": "Stop", "cwd": cwd}).as_object().unwrap().clone())
    }

    #[test]
    fn claude_code_order_with_project_dir_winning_over_cwd() {
        let env: Env =
            [("HOME", "/home/u"), ("CLAUDE_PROJECT_DIR", "/work/p"), ("HOOKMUX_MANAGED_DIR", "/nonexistent/m")]
                .into_iter()
                .collect();
        let files = Discovery::new(&env, &event("/work/p/sub"), vec![]).files();
        let expect = [
            (Scope::User, "/home/u/.claude/settings.json"),
            (Scope::Project, "/work/p/.claude/settings.json"),
            (Scope::Local, "/work/p/.claude/settings.local.json"),
            (Scope::Managed, "/nonexistent/m/managed-settings.json"),
        ];
        assert_eq!(files, expect.map(|(s, p)| (s, PathBuf::from(p))));
    }

    #[test]
    fn config_dir_replaces_home_and_cwd_is_the_fallback_root() {
        let env: Env = [("HOME", "/home/u"), ("CLAUDE_CONFIG_DIR", "/cfg")].into_iter().collect();
        let files = Discovery::new(&env, &event("/w"), vec![]).files();
        assert_eq!(files[0], (Scope::User, PathBuf::from("/cfg/settings.json")));
        assert_eq!(files[1], (Scope::Project, PathBuf::from("/w/.claude/settings.json")));
        assert_eq!(files[3].1, PathBuf::from("/etc/claude-code/managed-settings.json"));
    }

    #[test]
    fn explicit_settings_replace_everything() {
        let env: Env = [("HOME", "/home/u")].into_iter().collect();
        let files = Discovery::new(&env, &event("/w"), vec!["b.json".into(), "a.json".into()]).files();
        assert_eq!(files, [(Scope::Flag, PathBuf::from("b.json")), (Scope::Flag, PathBuf::from("a.json"))]);
    }

    #[test]
    fn managed_drop_ins_alphabetical_hidden_and_foreign_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("managed-settings.d");
        std::fs::create_dir_all(&d).unwrap();
        for name in ["20-b.json", "10-a.json", ".hidden.json", "notes.txt"] {
            std::fs::write(d.join(name), "{}").unwrap();
        }
        let env: Env = [("HOOKMUX_MANAGED_DIR", dir.path().as_os_str())].into_iter().collect();
        let files = Discovery::new(&env, &Event::parse("{}"), vec![]).files();
        let managed: Vec<_> = files.iter().filter(|(s, _)| *s == Scope::Managed).map(|(_, p)| p.clone()).collect();
        assert_eq!(managed, [dir.path().join("managed-settings.json"), d.join("10-a.json"), d.join("20-b.json")]);
    }
}
