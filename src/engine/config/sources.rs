//! Which settings files hold hooks, in Claude Code's order, and reading them.
//!
//! Discovery: user (`$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`), project
//! (`<root>/.claude/settings.json`), local (`<root>/.claude/settings.local.json`), managed
//! (`managed-settings.json`, then `managed-settings.d/*.json` alphabetically, in
//! `$HOOKMUX_MANAGED_DIR`, default the folder Claude Code reads on this platform: [`MANAGED_DIRS`]).
//! `<root>` is `$CLAUDE_PROJECT_DIR`, else the event's `cwd`. Files named with `--settings` replace
//! all of that, managed included. Then, when asked, the hooks files of the plugins those settings
//! enable ([`super::plugins`]).
//!
//! hookmux's own dispatch entries are followed, never run: a file that holds one is followed by
//! the hooks files it names, read in its place, with its scope ([`super::entry`]). A file named
//! on purpose (`--settings`, an entry) that cannot be read is an error, where a discovered file
//! that is not there is normal.

use crate::engine::config::diagnostic::{Check, Diagnostic};
use crate::engine::config::entry::{self, DispatchEntry};
use crate::engine::config::jsonpath::JsonPath;
use crate::engine::config::plugins;
use crate::engine::config::settings::{FileState, HookKind, Scope, SettingsFile};
use crate::engine::config::trust::{self, HostTrust};
use hookmux_sdk::{Env, Event, HookEvent, ProjectTrust};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folder that holds the managed (policy) settings on each platform, as Claude Code 2.1.328
/// reads them: `managed-settings.json` and the `managed-settings.d/` folder beside it. Any other
/// platform reads Linux's.
pub const MANAGED_DIRS: [(&str, &str); 3] = [
    ("linux", "/etc/claude-code"),
    ("macos", "/Library/Application Support/ClaudeCode"),
    ("windows", r"C:\Program Files\ClaudeCode"),
];

/// The managed settings folder Claude Code reads on `os` (a [`std::env::consts::OS`] name).
pub fn managed_dir_for(os: &str) -> &'static str {
    MANAGED_DIRS.iter().find(|(name, _)| *name == os).map_or(MANAGED_DIRS[0].1, |(_, dir)| dir)
}

/// Where the managed settings live on the platform hookmux was built for, unless
/// `$HOOKMUX_MANAGED_DIR` says otherwise.
pub fn default_managed_dir() -> &'static str {
    managed_dir_for(std::env::consts::OS)
}

/// The inputs discovery depends on, gathered once so that discovery itself is easy to test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    pub home: Option<PathBuf>,
    pub config_dir: Option<PathBuf>,
    pub project_root: Option<PathBuf>,
    pub managed_dir: PathBuf,
    /// `--settings` files: when present, the only sources.
    pub explicit: Vec<PathBuf>,
    /// `dispatch --installed`: run only the hooks behind installed entries; the rest of each
    /// settings file is the host's to run.
    pub installed_only: bool,
    /// Whether the project's own files (project and local scope, and what built-in handlers
    /// read of the project) may be used: see [`super::trust`]. Claude Code's view, trusted, unless
    /// [`Discovery::for_host`] says.
    pub project_trust: ProjectTrust,
    /// Whether the enabled plugins' hooks are sources too ([`super::plugins`]): for hosts that do
    /// not run them themselves, and for the inspection commands.
    pub plugins: bool,
    /// Where the hooks run (the event's `cwd` when it is a folder, else the project root), and
    /// their environment: what an entry's file names are read against ([`entry::Places`]).
    pub hook_cwd: Option<PathBuf>,
    pub env: Env,
}

impl Discovery {
    /// From the environment hookmux runs in and the event it got.
    pub fn new(env: &Env, event: &Event, explicit: Vec<PathBuf>) -> Discovery {
        let project_root = project_root(env, event);
        let hook_cwd = event.cwd().filter(|cwd| cwd.is_dir()).or_else(|| project_root.clone());
        Discovery {
            home: hookmux_platform::dirs::home(env),
            config_dir: env.path("CLAUDE_CONFIG_DIR"),
            project_root,
            managed_dir: env.path("HOOKMUX_MANAGED_DIR").unwrap_or_else(|| PathBuf::from(default_managed_dir())),
            explicit,
            installed_only: false,
            project_trust: ProjectTrust::Trusted("the host asked the user"),
            plugins: false,
            hook_cwd,
            env: env.clone(),
        }
    }

    /// What an entry's words stand for where the hooks run.
    pub fn places(&self) -> entry::Places<'_> {
        entry::Places {
            project_root: self.project_root.as_deref(),
            cwd: self.hook_cwd.as_deref(),
            env: Some(&self.env),
        }
    }

    /// With the enabled plugins' hooks, or without.
    pub fn with_plugins(mut self, plugins: bool) -> Discovery {
        self.plugins = plugins;
        self
    }

    /// Claude Code's own folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub fn claude_dir(&self) -> Option<PathBuf> {
        self.config_dir.clone().or_else(|| self.home.as_ref().map(|home| home.join(".claude")))
    }

    /// For the host that sent the event: whether it, or hookmux's trust list, trusts the project.
    pub fn for_host(mut self, host: HostTrust, env: &Env) -> Discovery {
        self.project_trust = match &self.project_root {
            Some(root) => trust::decide(root, host, env),
            None => ProjectTrust::Trusted("there is no project"),
        };
        self
    }

    /// For `dispatch --installed`.
    pub fn installed_only(mut self) -> Discovery {
        self.installed_only = true;
        self
    }

    /// The files to read, in order. Listing `managed-settings.d/` is the only I/O.
    pub fn files(&self) -> Vec<(Scope, PathBuf)> {
        if !self.explicit.is_empty() {
            return self.explicit.iter().map(|path| (Scope::Flag, path.clone())).collect();
        }
        let mut files = Vec::new();
        if let Some(dir) = self.claude_dir() {
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
    /// Problems of the sources as a whole rather than of one file's text.
    pub notes: Vec<Diagnostic>,
    /// The project whose own settings were not read because it is not trusted, with those files.
    pub untrusted: Option<(PathBuf, Vec<PathBuf>)>,
}

impl Sources {
    /// Reads every file discovery names, following hookmux's entries.
    pub fn load(discovery: &Discovery) -> Sources {
        let found = discovery.files().into_iter().map(|(scope, path)| {
            let mut file = SettingsFile::load(&path, scope);
            if scope == Scope::Flag {
                file.required = true;
                require(&mut file, "named by --settings");
            }
            file
        });
        let mut sources = Sources::default();
        let mut follower = Follower {
            places: discovery.places(),
            installed_only: discovery.installed_only,
            loaded: BTreeSet::new(),
            entries: 0,
        };
        for file in found {
            follower.push(file, &mut sources.files, &mut Vec::new());
        }
        if !discovery.project_trust.is_trusted() {
            sources.untrusted = set_aside_project_files(&mut sources.files, discovery.project_root.as_deref());
        }
        if discovery.installed_only {
            // The host runs everything in these files but the entries: only what they name is ours.
            for file in sources.files.iter_mut().filter(|f| f.via.is_none()) {
                file.hooks.clear();
            }
            if follower.entries == 0 {
                let looked: Vec<String> = sources.files.iter().map(|f| f.path.display().to_string()).collect();
                let file = sources.files.first().map(|f| f.path.clone()).unwrap_or_default();
                sources.notes.push(
                    Diagnostic::error(
                        file,
                        JsonPath::root(),
                        format!(
                            "`hookmux dispatch {}` found no settings file that holds it (read: {}); no hooks ran",
                            entry::INSTALLED_FLAG,
                            looked.join(", ")
                        ),
                    )
                    .with_hint("run the host from the project, or set CLAUDE_PROJECT_DIR; `hookmux install claude` writes the entry")
                    .check(Check::NoInstalledEntry),
                );
            }
        }
        if let Some(dir) = discovery.claude_dir().filter(|_| discovery.plugins) {
            let (files, notes) = plugins::load(&dir, discovery.project_root.as_deref(), &sources.files);
            sources.files.extend(files);
            sources.notes.extend(notes);
        }
        sources
    }

    pub fn from_files(files: Vec<SettingsFile>) -> Sources {
        Sources { files, ..Sources::default() }
    }

    /// Every problem found in any file, in order, then those of the sources as a whole.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.files.iter().flat_map(|file| file.diagnostics.iter()).chain(&self.notes)
    }

    /// Whether a problem turns off hooks someone named on purpose: a named file that cannot be
    /// read, or an installed entry that finds nothing. Such problems are told on every event.
    pub fn switches_hooks_off(&self, diagnostic: &Diagnostic) -> bool {
        self.notes.iter().any(|note| std::ptr::eq(note, diagnostic))
            || self.files.iter().any(|file| {
                file.required && !file.is_usable() && file.diagnostics.iter().any(|d| std::ptr::eq(d, diagnostic))
            })
    }
}

/// Empties the project's own files (and the hooks files their entries named), which an untrusted
/// repository controls: not one of their hooks runs, and none of their switches
/// (`disableAllHooks`, the http allow-lists) touches the user's hooks. Returns the project and the
/// files that held something, when any did.
fn set_aside_project_files(files: &mut [SettingsFile], root: Option<&Path>) -> Option<(PathBuf, Vec<PathBuf>)> {
    let mut set_aside = Vec::new();
    for file in files.iter_mut().filter(|f| matches!(f.scope, Scope::Project | Scope::Local)) {
        if file.state == FileState::Missing {
            continue;
        }
        set_aside.push(file.path.clone());
        let (path, scope, via) = (file.path.clone(), file.scope, file.via.clone());
        *file = SettingsFile::untrusted(path, scope);
        file.via = via;
    }
    (!set_aside.is_empty()).then(|| (root.map(Path::to_path_buf).unwrap_or_default(), set_aside))
}

/// Adds the error for a named file that is not there (other failures have theirs already).
fn require(file: &mut SettingsFile, named_by: &str) {
    if file.state == FileState::Missing {
        let message = format!("the file does not exist ({named_by}); its hooks do not run");
        file.diagnostics.push(
            Diagnostic::error(&file.path, JsonPath::root(), message)
                .with_hint("restore it, or remove what names it; `hookmux uninstall claude` puts installed hooks back")
                .check(Check::MissingFile),
        );
    }
}

/// Reads the hooks files that hookmux's entries name, each after the file that names it.
struct Follower<'a> {
    places: entry::Places<'a>,
    installed_only: bool,
    /// The files read so far (as real paths where they exist): each is read once.
    loaded: BTreeSet<PathBuf>,
    /// How many entries were followed.
    entries: usize,
}

impl Follower<'_> {
    /// Adds `file`, then every file its entries name, depth first. `chain` holds the files whose
    /// entries led here: one of them named again is a loop, reported and not followed.
    fn push(&mut self, mut file: SettingsFile, out: &mut Vec<SettingsFile>, chain: &mut Vec<PathBuf>) {
        let key = real_path(&file.path);
        self.loaded.insert(key.clone());
        let named = self.take_entries(&mut file);
        let (path, scope) = (file.path.clone(), file.scope);
        let index = out.len();
        out.push(file);
        chain.push(key);
        for (target, at, events) in named {
            self.entries += 1;
            let target_key = real_path(&target);
            if chain.contains(&target_key) {
                let message = format!(
                    "this hookmux entry names {} again, which leads back here: a loop; it is not followed",
                    target.display()
                );
                out[index].diagnostics.push(
                    Diagnostic::error(&path, at, message)
                        .with_hint("remove the entry from one of the files")
                        .check(Check::EntryLoop),
                );
                continue;
            }
            if !self.loaded.insert(target_key) {
                continue;
            }
            let mut hooks = SettingsFile::load(&target, scope);
            hooks.via = Some(path.clone());
            hooks.required = true;
            hooks.hooks.retain(|(event, _)| events.contains(event));
            require(&mut hooks, &format!("named by the hookmux entry in {} at {at}", path.display()));
            self.push(hooks, out, chain);
        }
        chain.pop();
    }

    /// Removes hookmux's entries from the file's groups, and returns what each named: the file,
    /// where the entry is, and the events it stands in for.
    fn take_entries(&self, file: &mut SettingsFile) -> Vec<(PathBuf, JsonPath, BTreeSet<HookEvent>)> {
        let mut named: Vec<(PathBuf, JsonPath, BTreeSet<HookEvent>)> = Vec::new();
        let settings_path = file.path.clone();
        for (event, groups) in &mut file.hooks {
            for group in groups.iter_mut() {
                group.hooks.retain(|spec| {
                    let HookKind::Command { command, args, .. } = &spec.kind else {
                        return true;
                    };
                    let targets = match entry::recognise(command, args.as_deref(), &self.places) {
                        Some(DispatchEntry::Installed) => vec![entry::installed_hooks_file(&settings_path)],
                        Some(DispatchEntry::Settings(files)) if !self.installed_only => files,
                        _ => return true,
                    };
                    for target in targets {
                        match named.iter_mut().find(|(t, _, _)| *t == target) {
                            Some((_, _, events)) => {
                                events.insert(*event);
                            }
                            None => named.push((target, spec.path.clone(), BTreeSet::from([*event]))),
                        }
                    }
                    false
                });
            }
        }
        named
    }
}

/// The file's real path when it exists, so that two names of one file are one file.
fn real_path(path: &Path) -> PathBuf {
    hookmux_platform::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookmux_platform::dirs::{variable, Folder};
    use serde_json::json;

    fn event(cwd: &str) -> Event {
        Event::from_fields(json!({"hook_event_name": "Stop", "cwd": cwd}).as_object().unwrap().clone())
    }

    #[test]
    fn claude_code_order_with_project_dir_winning_over_cwd() {
        let env: Env = [
            (variable(Folder::Home), "/home/u"),
            ("CLAUDE_PROJECT_DIR", "/work/p"),
            ("HOOKMUX_MANAGED_DIR", "/nonexistent/m"),
        ]
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
        let env: Env = [(variable(Folder::Home), "/home/u"), ("CLAUDE_CONFIG_DIR", "/cfg")].into_iter().collect();
        let files = Discovery::new(&env, &event("/w"), vec![]).files();
        assert_eq!(files[0], (Scope::User, PathBuf::from("/cfg/settings.json")));
        assert_eq!(files[1], (Scope::Project, PathBuf::from("/w/.claude/settings.json")));
        assert_eq!(files[3].1, PathBuf::from(default_managed_dir()).join("managed-settings.json"));
    }

    #[test]
    fn managed_folder_per_platform() {
        // Claude Code 2.1.328's folders, with the file and drop-in folder each platform reads.
        let expect = [
            ("linux", "/etc/claude-code/managed-settings.json", "/etc/claude-code/managed-settings.d"),
            (
                "macos",
                "/Library/Application Support/ClaudeCode/managed-settings.json",
                "/Library/Application Support/ClaudeCode/managed-settings.d",
            ),
            (
                "windows",
                r"C:\Program Files\ClaudeCode\managed-settings.json",
                r"C:\Program Files\ClaudeCode\managed-settings.d",
            ),
        ];
        for (os, file, drop_ins) in expect {
            let dir = managed_dir_for(os);
            let sep = if os == "windows" { '\\' } else { '/' };
            assert_eq!(format!("{dir}{sep}managed-settings.json"), file, "{os}");
            assert_eq!(format!("{dir}{sep}managed-settings.d"), drop_ins, "{os}");
        }
        // Another Unix reads Linux's folder.
        assert_eq!(managed_dir_for("freebsd"), "/etc/claude-code");
        // Discovery reads the file and then the drop-ins of the folder it is given.
        let env: Env = [(variable(Folder::Home), "/home/u"), ("HOOKMUX_MANAGED_DIR", managed_dir_for("macos"))]
            .into_iter()
            .collect();
        let files = Discovery::new(&env, &event("/w"), vec![]).files();
        assert_eq!(
            files.last(),
            Some(&(Scope::Managed, PathBuf::from("/Library/Application Support/ClaudeCode/managed-settings.json")))
        );
    }

    #[test]
    fn explicit_settings_replace_everything() {
        let env: Env = [(variable(Folder::Home), "/home/u")].into_iter().collect();
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
