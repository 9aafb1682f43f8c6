//! Claude Code plugins' hooks: the plugins the settings enable, found where `claude plugin
//! install` put them, each plugin's hooks files read as sources after every settings file.
//!
//! - **Enabled:** `enabledPlugins: {"NAME@MARKETPLACE": true}` in a settings file; a later scope
//!   overrides an earlier one (user → project → local → `--settings` → managed), as other
//!   settings do. An untrusted project's files are not read (see [`super::trust`]), so a cloned
//!   repository cannot switch a plugin on under a host that does not ask the user.
//! - **Installed:** `<config>/plugins/installed_plugins.json` (`<config>` is `$CLAUDE_CONFIG_DIR`,
//!   else `~/.claude`) holds a record of it that applies here: user scope, or a project or local
//!   scope whose `projectPath` is this project. Enabled but not installed: Claude Code does not
//!   run it, and neither does hookmux.
//! - **Root** (`CLAUDE_PLUGIN_ROOT`): for a marketplace added from a local folder, the plugin's
//!   folder in it (Claude Code reads those live, not the copy in `plugins/cache`); otherwise the
//!   record's `installPath`. **Data** (`CLAUDE_PLUGIN_DATA`): `<config>/plugins/data/<id>`, every
//!   character but letters, digits, `-` and `_` written as `-`.
//! - **Hooks:** `<root>/hooks/hooks.json`, then the files `.claude-plugin/plugin.json`'s `hooks`
//!   names (a path or a list of paths, relative to the root; the standard file once), or the
//!   hooks written in `plugin.json` itself. Only `hooks` is read from them: a plugin cannot
//!   switch off the user's hooks (`disableAllHooks`) or widen the http allow-lists.

use crate::engine::config::diagnostic::{Check, Diagnostic};
use crate::engine::config::jsonpath::JsonPath;
use crate::engine::config::settings::{FileState, Plugin, Scope, SettingsFile};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The enabled plugins' hooks files, as sources, and what kept a plugin from running.
pub fn load(
    config_dir: &Path,
    project_root: Option<&Path>,
    settings: &[SettingsFile],
) -> (Vec<SettingsFile>, Vec<Diagnostic>) {
    let mut files = Vec::new();
    let mut notes = Vec::new();
    let enabled = enabled(settings);
    if enabled.is_empty() {
        return (files, notes);
    }
    let installed_path = config_dir.join("plugins").join("installed_plugins.json");
    let installed = match read_json(&installed_path) {
        Ok(value) => value,
        Err(why) => {
            for (id, by) in &enabled {
                notes.push(
                    Diagnostic::warning(
                        &by.path,
                        JsonPath::root().key("enabledPlugins").key(id),
                        format!("plugin `{id}` is enabled but {why}; its hooks do not run"),
                    )
                    .with_hint(format!("install it: claude plugin install {id}"))
                    .check(Check::PluginNotInstalled),
                );
            }
            return (files, notes);
        }
    };
    let marketplaces = read_json(&config_dir.join("plugins").join("known_marketplaces.json")).unwrap_or(Value::Null);
    for (id, by) in enabled {
        let Some(record) = install_record(&installed, &id, project_root) else {
            notes.push(
                Diagnostic::warning(
                    &by.path,
                    JsonPath::root().key("enabledPlugins").key(&id),
                    format!(
                        "plugin `{id}` is enabled but not installed for this project ({} has no record of it); \
                         its hooks do not run",
                        installed_path.display()
                    ),
                )
                .with_hint(format!("install it: claude plugin install {id}"))
                .check(Check::PluginNotInstalled),
            );
            continue;
        };
        let install_path = record.get("installPath").and_then(Value::as_str).map(PathBuf::from);
        let Some(root) = local_marketplace_root(&marketplaces, &id).or(install_path) else {
            notes.push(
                Diagnostic::warning(
                    &installed_path,
                    JsonPath::root().key("plugins").key(&id),
                    format!("plugin `{id}` has no `installPath`; its hooks do not run"),
                )
                .check(Check::PluginNotInstalled),
            );
            continue;
        };
        let plugin = Plugin {
            version: record.get("version").and_then(Value::as_str).map(str::to_string),
            data: config_dir.join("plugins").join("data").join(storage_name(&id)),
            root,
            enabled_by: by.path.clone(),
            managed: by.scope == Scope::Managed,
            id,
        };
        for mut file in hooks_files(&plugin) {
            file.disable_all_hooks = None;
            file.allow_managed_hooks_only = None;
            file.allowed_http_hook_urls = None;
            file.http_hook_allowed_env_vars = None;
            file.enabled_plugins.clear();
            file.plugin = Some(plugin.clone());
            files.push(file);
        }
    }
    (files, notes)
}

/// Every plugin `enabledPlugins` switches on, sorted by id, with the file that decided it.
fn enabled(settings: &[SettingsFile]) -> BTreeMap<String, &SettingsFile> {
    let mut decided: BTreeMap<String, (u8, usize, bool, &SettingsFile)> = BTreeMap::new();
    for (index, file) in settings.iter().enumerate().filter(|(_, f)| f.is_usable()) {
        let rank = file.scope.precedence();
        for (id, on) in &file.enabled_plugins {
            let later = decided.get(id).is_none_or(|(r, i, _, _)| (rank, index) >= (*r, *i));
            if later {
                decided.insert(id.clone(), (rank, index, *on, file));
            }
        }
    }
    decided.into_iter().filter(|(_, (_, _, on, _))| *on).map(|(id, (_, _, _, by))| (id, by)).collect()
}

/// The install record of `id` that applies here: the one for this project (project or local
/// scope), else the user's.
fn install_record<'v>(installed: &'v Value, id: &str, project_root: Option<&Path>) -> Option<&'v Value> {
    let records = installed.get("plugins")?.get(id)?.as_array()?;
    let for_project = |record: &&Value| {
        let path = record.get("projectPath").and_then(Value::as_str).map(Path::new);
        matches!((path, project_root), (Some(path), Some(root)) if same_dir(path, root))
    };
    let scope = |record: &&Value| record.get("scope").and_then(Value::as_str).unwrap_or("user").to_string();
    records
        .iter()
        .find(|r| matches!(scope(r).as_str(), "local" | "project") && for_project(r))
        .or_else(|| records.iter().find(|r| matches!(scope(r).as_str(), "user" | "managed")))
}

fn same_dir(a: &Path, b: &Path) -> bool {
    a == b
        || matches!((hookmux_platform::fs::canonicalize(a), hookmux_platform::fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b)
}

/// The plugin's folder inside a marketplace added from a local folder (`"source": "directory"`):
/// the marketplace's `.claude-plugin/marketplace.json` names it with a relative `source`.
fn local_marketplace_root(marketplaces: &Value, id: &str) -> Option<PathBuf> {
    let (name, marketplace) = id.rsplit_once('@')?;
    let known = marketplaces.get(marketplace)?;
    if known.get("source")?.get("source")?.as_str()? != "directory" {
        return None;
    }
    let dir = known
        .get("installLocation")
        .or_else(|| known.get("source")?.get("path"))
        .and_then(Value::as_str)
        .map(PathBuf::from)?;
    let manifest = read_json(&dir.join(".claude-plugin").join("marketplace.json")).ok()?;
    let entry =
        manifest.get("plugins")?.as_array()?.iter().find(|p| p.get("name").and_then(Value::as_str) == Some(name))?;
    let source = entry.get("source")?.as_str()?;
    // `./plugins/x` inside the marketplace, written without the `.`.
    let root: PathBuf = dir.join(source).components().collect();
    root.is_dir().then_some(root)
}

/// `demo@tools` → `demo-tools`: the plugin's folder under `plugins/data/`.
fn storage_name(id: &str) -> String {
    id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect()
}

/// The plugin's hooks files: the standard one, then what the manifest names, each once.
fn hooks_files(plugin: &Plugin) -> Vec<SettingsFile> {
    let standard = plugin.root.join("hooks").join("hooks.json");
    let manifest_path = plugin.root.join(".claude-plugin").join("plugin.json");
    let mut files = Vec::new();
    let mut read: Vec<PathBuf> = Vec::new();
    let mut add = |path: PathBuf, files: &mut Vec<SettingsFile>, required: bool| {
        let path: PathBuf = path.components().collect();
        let key = hookmux_platform::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if read.contains(&key) {
            return;
        }
        read.push(key);
        let mut file = SettingsFile::load(&path, Scope::Plugin);
        if required && file.state == FileState::Missing {
            file.diagnostics.push(
                Diagnostic::error(
                    &path,
                    JsonPath::root(),
                    format!(
                        "plugin `{}` names this hooks file in {}, and it does not exist",
                        plugin.id,
                        manifest_path.display()
                    ),
                )
                .check(Check::MissingFile),
            );
        }
        files.push(file);
    };
    if standard.exists() {
        add(standard, &mut files, false);
    }
    let manifest = read_json(&manifest_path).ok();
    match manifest.as_ref().and_then(|m| m.get("hooks")) {
        Some(Value::String(path)) => add(plugin.root.join(path), &mut files, true),
        Some(Value::Array(paths)) => {
            for path in paths.iter().filter_map(Value::as_str) {
                add(plugin.root.join(path), &mut files, true);
            }
        }
        Some(Value::Object(_)) => add(manifest_path.clone(), &mut files, true),
        _ => {}
    }
    files
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => format!("{} does not exist", path.display()),
        _ => format!("{} cannot be read ({err})", path.display()),
    })?;
    serde_json::from_str(&text).map_err(|err| format!("{} is not valid JSON ({err})", path.display()))
}

#[cfg(test)]
mod tests;
