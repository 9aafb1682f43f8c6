//! `.lore.yaml`: where the store lives, which project the cwd belongs to, who is reading, and
//! whether wake-up is on. A real Lore `.lore.yaml` is read as it is: keys hookmux does not use
//! (`vault`, `profile`, `features`, most of `hooks`) are ignored, and no file at all means the
//! defaults.

use super::store::Location;
use crate::paths;
use hookmux_sdk::{Env, ProjectTrust};
use serde_yaml_ng::Value;
use std::path::{Path, PathBuf};

/// The file name looked for in the cwd and every folder above it.
pub const CONFIG_FILE: &str = ".lore.yaml";

/// One entry of `projects:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectEntry {
    pub name: String,
    /// Relative to the folder holding `.lore.yaml`; `.` or empty is the catch-all.
    pub path: String,
    pub description: String,
}

impl ProjectEntry {
    /// The entry for the whole tree: path `.` or empty.
    pub fn is_catch_all(&self) -> bool {
        matches!(self.path.trim(), "" | "." | "./")
    }
}

/// What hookmux reads from `.lore.yaml`, with defaults for everything absent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoreConfig {
    /// The file read, if one was found.
    pub file: Option<PathBuf>,
    /// `project:`.
    pub project: Option<String>,
    /// `projects:`.
    pub projects: Vec<ProjectEntry>,
    /// `identity:`, the reader narrow `user` scopes are matched against.
    pub identity: Option<String>,
    /// `store.path:`, already made absolute against the file's folder.
    pub store_path: Option<PathBuf>,
    /// `store.path:` when it is a `postgres://` URL instead of a file.
    pub store_url: Option<String>,
    /// `hooks.wakeUp:` (default true).
    pub wake_up: bool,
}

impl Default for LoreConfig {
    fn default() -> LoreConfig {
        LoreConfig {
            file: None,
            project: None,
            projects: Vec::new(),
            identity: None,
            store_path: None,
            store_url: None,
            wake_up: true,
        }
    }
}

impl LoreConfig {
    /// The folder holding the file: project paths are relative to it.
    pub fn root(&self) -> Option<&Path> {
        self.file.as_deref().and_then(Path::parent)
    }
}

/// The nearest `.lore.yaml` at or above `cwd`.
pub fn find_config_file(cwd: &Path) -> Option<PathBuf> {
    cwd.ancestors().map(|dir| dir.join(CONFIG_FILE)).find(|candidate| candidate.is_file())
}

/// Finds and reads `.lore.yaml`. The warnings are `[lore] …` lines for stderr: a file that does
/// not parse gives the defaults and one warning; a key of the wrong type gives its default and
/// one warning; the rest of the file is still used.
pub fn discover(cwd: &Path, env: &Env) -> (LoreConfig, Vec<String>) {
    let Some(file) = find_config_file(cwd) else {
        return (LoreConfig::default(), Vec::new());
    };
    let shown = display_path(&file, env);
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(err) => {
            return (LoreConfig::default(), vec![format!("[lore] Failed to load {shown}: {err}. Using hook defaults.")])
        }
    };
    match parse(&text, &file) {
        Ok((config, problems)) => {
            let warnings = problems.into_iter().map(|p| format!("[lore] {shown}: {p}")).collect();
            (config, warnings)
        }
        Err(err) => {
            (LoreConfig::default(), vec![format!("[lore] Failed to load {shown}: {err}. Using hook defaults.")])
        }
    }
}

/// Parses the text of `file`. `Err` only when it is not YAML or not a mapping; a key of the
/// wrong type is reported in the second value and left at its default.
pub fn parse(text: &str, file: &Path) -> Result<(LoreConfig, Vec<String>), String> {
    let value: Value = serde_yaml_ng::from_str(text).map_err(|err| err.to_string())?;
    let mut config = LoreConfig { file: Some(file.to_path_buf()), ..LoreConfig::default() };
    let map = match value {
        Value::Mapping(map) => map,
        // An empty file is an empty configuration.
        Value::Null => return Ok((config, Vec::new())),
        other => return Err(format!("the top level is {}, not a mapping of keys", kind(&other))),
    };
    let mut problems = Vec::new();
    let root = file.parent().unwrap_or(Path::new("."));

    config.project = string_at(&map, "project", "project", &mut problems);
    config.identity = string_at(&map, "identity", "identity", &mut problems);
    match map.get("projects") {
        None | Some(Value::Null) => {}
        Some(Value::Sequence(items)) => {
            for (index, item) in items.iter().enumerate() {
                match project_entry(item) {
                    Some(entry) => config.projects.push(entry),
                    None => problems
                        .push(format!("projects[{index}] needs `name` and `path` strings; that entry is ignored")),
                }
            }
        }
        Some(other) => problems.push(format!("`projects` is {}, not a list; it is ignored", kind(other))),
    }
    match map.get("store") {
        None | Some(Value::Null) => {}
        Some(Value::Mapping(store)) => {
            if let Some(path) = string_at(store, "path", "store.path", &mut problems) {
                if super::pgconf::is_url(&path) {
                    config.store_url = Some(path);
                } else {
                    config.store_path = Some(expand_store_path(&path, root));
                }
            }
        }
        Some(other) => problems.push(format!("`store` is {}, not a mapping; it is ignored", kind(other))),
    }
    match map.get("hooks") {
        None | Some(Value::Null) => {}
        Some(Value::Mapping(hooks)) => match hooks.get("wakeUp") {
            None | Some(Value::Null) => {}
            Some(Value::Bool(flag)) => config.wake_up = *flag,
            Some(other) => {
                problems.push(format!("`hooks.wakeUp` is {}, not true or false; wake-up stays on", kind(other)))
            }
        },
        Some(other) => problems.push(format!("`hooks` is {}, not a mapping; hook defaults apply", kind(other))),
    }
    Ok((config, problems))
}

fn project_entry(item: &Value) -> Option<ProjectEntry> {
    let Value::Mapping(map) = item else { return None };
    let text = |key: &str| match map.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    Some(ProjectEntry {
        name: text("name").filter(|name| !name.trim().is_empty())?,
        path: text("path")?,
        description: text("description").unwrap_or_default(),
    })
}

fn string_at(map: &serde_yaml_ng::Mapping, key: &str, shown: &str, problems: &mut Vec<String>) -> Option<String> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(Value::String(_)) => None,
        Some(other) => {
            problems.push(format!("`{shown}` is {}, not a string; it is ignored", kind(other)));
            None
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

/// `~/x` is under `$HOME` (expanded later, when the environment is known), a relative path is
/// relative to the folder holding `.lore.yaml`.
fn expand_store_path(path: &str, root: &Path) -> PathBuf {
    if path == "~" || path.starts_with("~/") {
        return PathBuf::from(path);
    }
    paths::absolute(Path::new(path), root)
}

/// Shows `$HOME/...` as `~/...` in messages.
pub fn display_path(path: &Path, env: &Env) -> String {
    if let Some(home) = hookmux_platform::dirs::home(env) {
        if let Ok(rest) = path.strip_prefix(&home) {
            return format!("~/{}", rest.display());
        }
    }
    path.display().to_string()
}

/// Where the store is: `$LORE_DB`, else `.lore.yaml`'s `store.path`, else `hookmux/lore.db` in
/// the user's data folder (`${XDG_DATA_HOME:-~/.local/share}` on Unix). `None` when none of
/// these can be worked out (no `$HOME` and no `$XDG_DATA_HOME`).
pub fn store_path(config: &LoreConfig, env: &Env) -> Option<PathBuf> {
    if let Some(path) = env.path("LORE_DB") {
        return Some(path);
    }
    if let Some(path) = &config.store_path {
        return expand_home(path, env);
    }
    let data = hookmux_platform::dirs::data(env)?;
    Some(data.join("hookmux").join("lore.db"))
}

/// Where the store is, on either backend: `$LORE_DB`, else `.lore.yaml`'s `store.path`, each
/// either a file or a `postgres://` URL, else the default file (see [`store_path`]).
///
/// A URL in `.lore.yaml` is the repository's choice of a server, which sees the user's name and
/// the first prompt's search words and whose rows reach the model: it is used only for a project
/// `trust` says is trusted (asked only then). For any other project the store is the user's own,
/// and the second value is the one notice that says so.
pub fn store_location(
    config: &LoreConfig,
    env: &Env,
    trust: impl FnOnce() -> ProjectTrust,
) -> (Option<Location>, Option<String>) {
    let url = match env.path("LORE_DB") {
        Some(_) => env
            .get("LORE_DB")
            .filter(|value| super::pgconf::is_url(value))
            .map(|url| (url.to_string(), super::pgconf::Origin::User)),
        None => config.store_url.clone().map(|url| (url, super::pgconf::Origin::Project)),
    };
    let mut notice = None;
    if let Some((url, origin)) = url {
        if origin == super::pgconf::Origin::User || trust().is_trusted() {
            return (
                Some(match super::pgconf::PgTarget::parse_from(&url, env, origin) {
                    Ok(target) => Location::Postgres(Box::new(target)),
                    Err(err) => Location::Invalid(format!("{err:#}")),
                }),
                None,
            );
        }
        notice = Some(untrusted_url_notice(config, &url, env));
    }
    (store_path(config, env).map(Location::Sqlite), notice)
}

/// The notice for a `.lore.yaml` URL left unused because the project is not trusted.
fn untrusted_url_notice(config: &LoreConfig, url: &str, env: &Env) -> String {
    let file = config.file.as_deref().map_or_else(|| CONFIG_FILE.to_string(), |file| display_path(file, env));
    let own = store_path(config, env).map_or_else(|| "none: set LORE_DB".to_string(), |path| display_path(&path, env));
    format!(
        "[lore] {file} names the store {}, but this project is not trusted: using your own store ({own}). \
         Trust the project (`hookmux trust` in it) to use its store, or set LORE_DB.",
        super::pgconf::redact(url)
    )
}

fn expand_home(path: &Path, env: &Env) -> Option<PathBuf> {
    match path.strip_prefix("~") {
        Ok(rest) => hookmux_platform::dirs::home(env).map(|home| home.join(rest)),
        Err(_) => Some(path.to_path_buf()),
    }
}

/// How the project was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProjectSource {
    /// An entry of `projects:` whose path holds the cwd.
    Entry,
    /// The `projects:` entry with path `.`, when no other entry holds the cwd.
    CatchAll,
    /// `project:`.
    Key,
    /// No `.lore.yaml` names one: the project root itself.
    Root,
    /// `--project` on the command line.
    Explicit,
}

/// The project memories are read from and written to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Project {
    /// The key rows are stored under.
    pub name: String,
    pub source: ProjectSource,
    /// The entry's path as written in `.lore.yaml` (empty otherwise).
    pub path: String,
    pub description: String,
    /// The other named `projects:` entries.
    pub siblings: Vec<String>,
}

/// Resolves the project as Lore does: the `projects:` entry whose path is the longest prefix of
/// `cwd`, else the catch-all entry (`.`), else `project:`, else the canonical project root.
pub fn resolve_project(config: &LoreConfig, cwd: &Path, project_root: &Path) -> Project {
    let cwd = paths::normalize(cwd);
    let mut best: Option<(usize, &ProjectEntry)> = None;
    let mut catch_all = None;
    if let Some(root) = config.root() {
        for entry in &config.projects {
            if entry.is_catch_all() {
                catch_all.get_or_insert(entry);
                continue;
            }
            let folder = paths::absolute(Path::new(entry.path.trim()), root);
            if cwd.starts_with(&folder) {
                let depth = folder.components().count();
                if best.is_none_or(|(best_depth, _)| depth > best_depth) {
                    best = Some((depth, entry));
                }
            }
        }
    }
    let siblings = |chosen: &ProjectEntry| -> Vec<String> {
        config.projects.iter().filter(|e| !e.is_catch_all() && e.name != chosen.name).map(|e| e.name.clone()).collect()
    };
    if let Some((_, entry)) = best {
        return Project {
            name: entry.name.clone(),
            source: ProjectSource::Entry,
            path: entry.path.trim().to_string(),
            description: entry.description.clone(),
            siblings: siblings(entry),
        };
    }
    if let Some(entry) = catch_all {
        return Project {
            name: entry.name.clone(),
            source: ProjectSource::CatchAll,
            path: String::new(),
            description: entry.description.clone(),
            siblings: siblings(entry),
        };
    }
    if let Some(name) = &config.project {
        return Project::named(name, ProjectSource::Key);
    }
    let canonical = hookmux_platform::fs::canonicalize(project_root).unwrap_or_else(|_| paths::normalize(project_root));
    Project::named(&canonical.to_string_lossy(), ProjectSource::Root)
}

impl Project {
    pub fn named(name: &str, source: ProjectSource) -> Project {
        Project {
            name: name.to_string(),
            source,
            path: String::new(),
            description: String::new(),
            siblings: Vec::new(),
        }
    }
}

/// The project root when no host says: `$CLAUDE_PROJECT_DIR`, else the nearest folder at or
/// above `cwd` holding `.git`, else `cwd`. The CLI uses this so that `hookmux memory add` in a
/// sub-folder writes to the project the hook reads.
pub fn project_root_for(cwd: &Path, env: &Env) -> PathBuf {
    if let Some(dir) = env.path("CLAUDE_PROJECT_DIR") {
        return dir;
    }
    cwd.ancestors().find(|dir| dir.join(".git").exists()).unwrap_or(cwd).to_path_buf()
}

/// Who reads: `.lore.yaml`'s `identity`, else `$USER`.
pub fn identity(config: &LoreConfig, env: &Env) -> Option<String> {
    config.identity.clone().or_else(|| env.get("USER").filter(|u| !u.is_empty()).map(str::to_string))
}
