use super::*;
use serde_json::json;

/// A Claude Code folder with plugins installed, and a project, in a temporary folder.
struct World {
    dir: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let world = World { dir: tempfile::tempdir().unwrap() };
        std::fs::create_dir_all(world.project()).unwrap();
        world
    }

    fn claude(&self) -> PathBuf {
        self.dir.path().join("home/.claude")
    }

    fn project(&self) -> PathBuf {
        self.dir.path().join("proj")
    }

    fn write(&self, path: &Path, value: &Value) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    }

    /// Installs `name@market` into the cache (as from a remote marketplace) with these hooks.
    fn install(&self, id: &str, version: &str, records: Value, hooks: Value) -> PathBuf {
        let (name, market) = id.split_once('@').unwrap();
        let root = self.claude().join("plugins/cache").join(market).join(name).join(version);
        self.write(&root.join("hooks/hooks.json"), &hooks);
        let installed_path = self.claude().join("plugins/installed_plugins.json");
        let mut installed: Value = std::fs::read_to_string(&installed_path)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_else(|| json!({"version": 2, "plugins": {}}));
        let mut records = records;
        for record in records.as_array_mut().unwrap() {
            record["installPath"] = json!(root);
            record["version"] = json!(version);
        }
        installed["plugins"][id] = records;
        self.write(&installed_path, &installed);
        root
    }

    fn settings(&self, scope: Scope, value: Value) -> SettingsFile {
        let path = match scope {
            Scope::User => self.claude().join("settings.json"),
            Scope::Project => self.project().join(".claude/settings.json"),
            Scope::Local => self.project().join(".claude/settings.local.json"),
            _ => self.dir.path().join("other.json"),
        };
        self.write(&path, &value);
        SettingsFile::load(&path, scope)
    }

    fn load(&self, settings: &[SettingsFile]) -> (Vec<SettingsFile>, Vec<Diagnostic>) {
        load(&self.claude(), Some(&self.project()), settings)
    }
}

fn hooks(command: &str) -> Value {
    json!({"description": "test", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}})
}

fn user_record() -> Value {
    json!([{"scope": "user"}])
}

#[test]
fn an_enabled_installed_plugin_brings_its_hooks_with_root_and_data() {
    let world = World::new();
    let root = world.install("alpha@tools", "1.2.0", user_record(), hooks("${CLAUDE_PLUGIN_ROOT}/hook.sh"));
    let user = world.settings(Scope::User, json!({"enabledPlugins": {"alpha@tools": true}}));
    let (files, notes) = world.load(&[user]);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(files.len(), 1);
    let plugin = files[0].plugin.as_ref().unwrap();
    assert_eq!(plugin.id, "alpha@tools");
    assert_eq!(plugin.version.as_deref(), Some("1.2.0"));
    assert_eq!(plugin.root, root);
    assert_eq!(plugin.data, world.claude().join("plugins/data/alpha-tools"));
    assert_eq!(plugin.enabled_by, world.claude().join("settings.json"));
    assert_eq!(files[0].scope, Scope::Plugin);
    assert_eq!(files[0].groups(hookmux_sdk::HookEvent::PreToolUse).len(), 1);
    assert_eq!(
        plugin.expand("${CLAUDE_PLUGIN_ROOT}/hook.sh", |p| p.display().to_string()),
        format!("{}/hook.sh", root.display())
    );
}

#[test]
fn a_later_scope_switches_a_plugin_off_and_a_disabled_one_never_loads() {
    let world = World::new();
    world.install("alpha@tools", "1.0.0", user_record(), hooks("a"));
    world.install("beta@tools", "1.0.0", user_record(), hooks("b"));
    let user = world.settings(Scope::User, json!({"enabledPlugins": {"alpha@tools": true, "beta@tools": false}}));
    let project = world.settings(Scope::Project, json!({"enabledPlugins": {"alpha@tools": false}}));
    let (files, _) = world.load(&[user.clone(), project]);
    assert!(files.is_empty(), "{files:?}");
    let local = world.settings(Scope::Local, json!({"enabledPlugins": {"alpha@tools": true}}));
    let (files, _) = world.load(&[user, local]);
    assert_eq!(files.iter().map(|f| f.plugin.as_ref().unwrap().id.as_str()).collect::<Vec<_>>(), ["alpha@tools"]);
}

#[test]
fn enabled_but_not_installed_is_a_warning_naming_the_setting() {
    let world = World::new();
    world.install("alpha@tools", "1.0.0", user_record(), hooks("a"));
    let project = world.settings(Scope::Project, json!({"enabledPlugins": {"ghost@tools": true}}));
    let (files, notes) = world.load(&[project]);
    assert!(files.is_empty());
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].file, world.project().join(".claude/settings.json"));
    assert_eq!(notes[0].path.to_string(), r#"enabledPlugins["ghost@tools"]"#);
    assert!(notes[0].message.contains("not installed"), "{}", notes[0].message);
}

#[test]
fn a_project_scoped_install_applies_to_its_own_project_only() {
    let world = World::new();
    let other = world.dir.path().join("elsewhere");
    world.install("alpha@tools", "1.0.0", json!([{"scope": "project", "projectPath": other}]), hooks("a"));
    let user = world.settings(Scope::User, json!({"enabledPlugins": {"alpha@tools": true}}));
    let (files, notes) = world.load(std::slice::from_ref(&user));
    assert!(files.is_empty());
    assert_eq!(notes.len(), 1);
    world.install("alpha@tools", "1.0.0", json!([{"scope": "local", "projectPath": world.project()}]), hooks("a"));
    let (files, _) = world.load(&[user]);
    assert_eq!(files.len(), 1);
}

#[test]
fn a_local_folder_marketplace_is_read_live_not_from_the_cache() {
    let world = World::new();
    world.install("alpha@local", "1.0.0", user_record(), hooks("cached copy"));
    let market = world.dir.path().join("market");
    world.write(
        &market.join(".claude-plugin/marketplace.json"),
        &json!({"name": "local", "plugins": [{"name": "alpha", "source": "./plugins/alpha"}]}),
    );
    world.write(&market.join("plugins/alpha/hooks/hooks.json"), &hooks("live copy"));
    world.write(
        &world.claude().join("plugins/known_marketplaces.json"),
        &json!({"local": {"source": {"source": "directory", "path": market}, "installLocation": market}}),
    );
    let user = world.settings(Scope::User, json!({"enabledPlugins": {"alpha@local": true}}));
    let (files, _) = world.load(&[user]);
    assert_eq!(files[0].plugin.as_ref().unwrap().root, market.join("plugins/alpha"));
    let spec = &files[0].groups(hookmux_sdk::HookEvent::PreToolUse)[0].hooks[0];
    assert_eq!(spec.kind.label(), "live copy");
}

#[test]
fn the_manifest_names_more_hooks_files_and_the_standard_one_loads_once() {
    let world = World::new();
    let root = world.install("alpha@tools", "1.0.0", user_record(), hooks("standard"));
    world.write(&root.join("extra.json"), &hooks("extra"));
    world.write(
        &root.join(".claude-plugin/plugin.json"),
        &json!({"name": "alpha", "hooks": ["./hooks/hooks.json", "./extra.json", "./missing.json"]}),
    );
    let user = world.settings(Scope::User, json!({"enabledPlugins": {"alpha@tools": true}}));
    let (files, _) = world.load(std::slice::from_ref(&user));
    let labels: Vec<String> = files
        .iter()
        .flat_map(|f| f.groups(hookmux_sdk::HookEvent::PreToolUse).iter().flat_map(|g| &g.hooks))
        .map(|spec| spec.kind.label())
        .collect();
    assert_eq!(labels, ["standard", "extra"]);
    let missing = files.iter().find(|f| f.path.ends_with("missing.json")).unwrap();
    assert!(missing.diagnostics[0].message.contains("does not exist"), "{:?}", missing.diagnostics);

    // Hooks written in the manifest itself.
    world.write(
        &root.join(".claude-plugin/plugin.json"),
        &json!({"name": "alpha", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "inline"}]}]}}),
    );
    let (files, _) = world.load(&[user]);
    assert_eq!(files.len(), 2);
    assert_eq!(files[1].groups(hookmux_sdk::HookEvent::Stop)[0].hooks[0].kind.label(), "inline");
    assert_eq!(files[1].groups(hookmux_sdk::HookEvent::Stop)[0].hooks[0].path.to_string(), "hooks.Stop[0].hooks[0]");
}

#[test]
fn a_plugin_sets_nothing_but_hooks() {
    let world = World::new();
    let mut hooks = hooks("a");
    hooks["disableAllHooks"] = json!(true);
    hooks["allowedHttpHookUrls"] = json!(["*"]);
    hooks["enabledPlugins"] = json!({"other@tools": true});
    world.install("alpha@tools", "1.0.0", user_record(), hooks);
    let user = world.settings(Scope::User, json!({"enabledPlugins": {"alpha@tools": true}}));
    let (files, _) = world.load(&[user]);
    assert_eq!(files[0].disable_all_hooks, None);
    assert_eq!(files[0].allowed_http_hook_urls, None);
    assert!(files[0].enabled_plugins.is_empty());
}

#[test]
fn enabled_plugins_that_do_not_read_are_reported() {
    let world = World::new();
    let user = world.settings(Scope::User, json!({"enabledPlugins": {"alpha@tools": "yes", "beta@tools": true}}));
    assert_eq!(user.enabled_plugins, [("beta@tools".to_string(), true)]);
    assert_eq!(user.diagnostics[0].path.to_string(), r#"enabledPlugins["alpha@tools"]"#);
    let user = world.settings(Scope::User, json!({"enabledPlugins": ["alpha@tools"]}));
    assert!(user.enabled_plugins.is_empty());
    assert!(user.diagnostics[0].message.contains("must be an object"), "{:?}", user.diagnostics);
}

#[test]
fn no_installed_plugins_file_is_one_warning_per_enabled_plugin() {
    let world = World::new();
    let user = world.settings(Scope::User, json!({"enabledPlugins": {"alpha@tools": true, "beta@tools": true}}));
    let (files, notes) = world.load(&[user]);
    assert!(files.is_empty());
    assert_eq!(notes.len(), 2);
    assert!(notes[0].message.contains("installed_plugins.json does not exist"), "{}", notes[0].message);
}

#[test]
fn a_plugin_the_managed_settings_enable_is_managed() {
    let world = World::new();
    world.install("alpha@tools", "1.0.0", user_record(), hooks("a"));
    world.install("beta@tools", "1.0.0", user_record(), hooks("b"));
    let user = world.settings(Scope::User, json!({"enabledPlugins": {"alpha@tools": true}}));
    let managed = world.settings(Scope::Managed, json!({"enabledPlugins": {"beta@tools": true}}));
    let (files, _) = world.load(&[user, managed]);
    let managed: Vec<(&str, bool)> =
        files.iter().map(|f| (f.plugin.as_ref().unwrap().id.as_str(), f.is_managed())).collect();
    assert_eq!(managed, [("alpha@tools", false), ("beta@tools", true)]);
}
