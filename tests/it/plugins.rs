//! Claude Code plugins' hooks through `hookmux dispatch`: left to Claude Code, which runs them
//! itself, and run by dispatch under the other hosts, with the plugin's variables, deduplicated
//! within the plugin only, and switched on only by settings hookmux may read.

use crate::common;

use common::Hookmux;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A home with one plugin installed at user scope, and a project.
struct World {
    dir: tempfile::TempDir,
}

impl World {
    fn new(plugin_hooks: Value) -> World {
        let world = World { dir: tempfile::tempdir().unwrap() };
        let root = world.plugin_root();
        write(&root.join("hooks/hooks.json"), &json!({"hooks": plugin_hooks}));
        write(&root.join(".claude-plugin/plugin.json"), &json!({"name": "probe", "version": "0.4.0"}));
        write(
            &world.home().join(".claude/plugins/installed_plugins.json"),
            &json!({"version": 2, "plugins": {"probe@tools": [
                {"scope": "user", "installPath": root, "version": "0.4.0"}
            ]}}),
        );
        std::fs::create_dir_all(world.project().join(".claude")).unwrap();
        world
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn plugin_root(&self) -> PathBuf {
        self.home().join(".claude/plugins/cache/tools/probe/0.4.0")
    }

    fn user_settings(&self, value: Value) -> &World {
        write(&self.home().join(".claude/settings.json"), &value);
        self
    }

    fn project_settings(&self, value: Value) -> &World {
        write(&self.project().join(".claude/settings.json"), &value);
        self
    }

    fn dispatch(&self, args: &[&str], stdin: String) -> common::Output {
        Hookmux::new(["dispatch"].iter().chain(args).copied())
            .env("HOME", self.home())
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env("TMPDIR", self.dir.path())
            .env("HOOKMUX_MANAGED_DIR", self.dir.path().join("managed"))
            .env("DUMP", self.dir.path())
            .cwd(self.project())
            .stdin(stdin)
            .run()
    }

    fn ran(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("ran.txt"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn bash_event(&self) -> String {
        json!({
            "session_id": "s-plugins", "hook_event_name": "PreToolUse", "cwd": self.project(),
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"
        })
        .to_string()
    }
}

fn write(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

fn ran(name: &str) -> Value {
    json!({"type": "command", "command": format!("echo {name} >> \"$DUMP/ran.txt\"")})
}

fn pre(hooks: Value) -> Value {
    json!({"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]})
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn under_claude_code_the_plugins_hooks_are_left_to_it_unless_asked() {
    let world = World::new(pre(json!([ran("plugin")])));
    world.user_settings(json!({"enabledPlugins": {"probe@tools": true}}));
    world.project_settings(json!({"hooks": pre(json!([ran("settings")]))}));
    let output = world.dispatch(&[], world.bash_event());
    assert_eq!(output.code, Some(0), "{}", output.stderr);
    assert_eq!(world.ran(), ["settings"], "Claude Code runs its plugins' hooks itself");

    std::fs::remove_file(world.dir.path().join("ran.txt")).unwrap();
    world.dispatch(&["--plugins"], world.bash_event());
    let mut ran = world.ran();
    ran.sort();
    assert_eq!(ran, ["plugin", "settings"]);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_plugin_command_gets_its_root_and_a_made_data_folder() {
    let world = World::new(pre(json!([{"type": "command", "command":
        "printf '%s\\n%s\\n' \"$CLAUDE_PLUGIN_ROOT\" \"$CLAUDE_PLUGIN_DATA\" > \"$DUMP/env.txt\"; test -d \"$CLAUDE_PLUGIN_DATA\" && echo made >> \"$DUMP/env.txt\""}])));
    world.user_settings(json!({"enabledPlugins": {"probe@tools": true}}));
    let output = world.dispatch(&["--plugins"], world.bash_event());
    assert_eq!(output.code, Some(0), "{}", output.stderr);
    let env = std::fs::read_to_string(world.dir.path().join("env.txt")).unwrap();
    let data = world.home().join(".claude/plugins/data/probe-tools");
    assert_eq!(env, format!("{}\n{}\nmade\n", world.plugin_root().display(), data.display()));
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn the_same_command_runs_once_per_plugin_and_once_for_the_settings() {
    let world = World::new(pre(json!([ran("shared"), ran("twice"), ran("twice")])));
    world.user_settings(json!({"enabledPlugins": {"probe@tools": true}}));
    world.project_settings(json!({"hooks": pre(json!([ran("shared")]))}));
    world.dispatch(&["--plugins"], world.bash_event());
    let mut ran = world.ran();
    ran.sort();
    assert_eq!(ran, ["shared", "shared", "twice"], "as Claude Code 2.1.328 does (scenario order-dedup)");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_plugin_denies_and_disable_all_hooks_switches_it_off() {
    let deny = json!({"type": "command", "command":
        "printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"plugin says no\"}}'"});
    let world = World::new(pre(json!([deny])));
    world.user_settings(json!({"enabledPlugins": {"probe@tools": true}}));
    let answer = world.dispatch(&["--plugins"], world.bash_event()).json();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{answer}");
    assert_eq!(answer["hookSpecificOutput"]["permissionDecisionReason"], "plugin says no");

    world.project_settings(json!({"disableAllHooks": true}));
    let output = world.dispatch(&["--plugins"], world.bash_event());
    assert!(!output.stdout.contains("deny"), "{}", output.stdout);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn under_codex_the_plugins_hooks_run_but_an_untrusted_project_cannot_enable_one() {
    let world = World::new(pre(json!([ran("plugin")])));
    let event = common::event_text("events/codex/PreToolUse-Bash.json", &world.project());
    world.project_settings(json!({"enabledPlugins": {"probe@tools": true}}));
    let untrusted = world.dispatch(&["--host", "codex"], event.clone());
    assert_eq!(untrusted.code, Some(0), "{}", untrusted.stderr);
    assert!(world.ran().is_empty(), "a cloned repository switched a plugin on");

    world.user_settings(json!({"enabledPlugins": {"probe@tools": true}}));
    world.dispatch(&["--host", "codex"], event);
    assert_eq!(world.ran(), ["plugin"]);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn a_plugin_the_managed_settings_enable_survives_allow_managed_hooks_only() {
    let world = World::new(pre(json!([ran("plugin")])));
    world.user_settings(json!({"enabledPlugins": {"probe@tools": true}}));
    world.project_settings(json!({"hooks": pre(json!([ran("project")]))}));
    let managed = world.dir.path().join("managed/managed-settings.json");
    write(&managed, &json!({"allowManagedHooksOnly": true, "hooks": pre(json!([ran("managed")]))}));
    world.dispatch(&["--plugins"], world.bash_event());
    assert_eq!(world.ran(), ["managed"], "a plugin the user enabled is not managed (managed-only-user-plugins)");

    std::fs::remove_file(world.dir.path().join("ran.txt")).unwrap();
    write(
        &managed,
        &json!({"allowManagedHooksOnly": true, "enabledPlugins": {"probe@tools": true}, "hooks": pre(json!([ran("managed")]))}),
    );
    world.dispatch(&["--plugins"], world.bash_event());
    let mut ran = world.ran();
    ran.sort();
    assert_eq!(ran, ["managed", "plugin"], "one the managed settings enable is (managed-only-managed-plugin)");
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn install_claude_leaves_the_plugins_hooks_to_claude_code_and_says_so() {
    let world = World::new(pre(json!([ran("plugin")])));
    world.user_settings(json!({"enabledPlugins": {"probe@tools": true}}));
    world.project_settings(json!({"hooks": pre(json!([ran("settings")]))}));
    let plugin_hooks = world.plugin_root().join("hooks/hooks.json");
    let before = std::fs::read_to_string(&plugin_hooks).unwrap();
    let install = Hookmux::new(["install", "claude", "--scope", "project"])
        .env("HOME", world.home())
        .env("CLAUDE_PROJECT_DIR", world.project())
        .env("HOOKMUX_MANAGED_DIR", world.dir.path().join("managed"))
        .cwd(world.project())
        .run();
    assert_eq!(install.code, Some(0), "{}{}", install.stdout, install.stderr);
    assert!(
        install.stdout.contains("1 hook of the enabled plugins (probe@tools 0.4.0) stays with Claude Code"),
        "{}",
        install.stdout
    );
    assert_eq!(std::fs::read_to_string(&plugin_hooks).unwrap(), before);
    let settings = std::fs::read_to_string(world.project().join(".claude/settings.json")).unwrap();
    assert!(settings.contains("hookmux dispatch --installed"), "{settings}");

    // The installed entry runs the moved settings hook and, under Claude Code, not the plugin's.
    world.dispatch(&["--installed"], world.bash_event());
    assert_eq!(world.ran(), ["settings"]);
}

#[test]
#[cfg_attr(windows, ignore = "runs its command hooks through the shell, on Windows Git Bash, which Wine does not have")]
fn under_opencode_the_plugins_hooks_run_too() {
    let world = World::new(pre(json!([ran("plugin")])));
    world.user_settings(json!({"enabledPlugins": {"probe@tools": true}}));
    let event = json!({"hook": "tool.execute.before", "directory": world.project(),
        "input": {"tool": "bash", "sessionID": "ses_1", "callID": "c1"}, "output": {"args": {"command": "ls"}}});
    let output = world.dispatch(&["--host", "opencode"], event.to_string());
    assert_eq!(output.code, Some(0), "{}{}", output.stdout, output.stderr);
    assert_eq!(world.ran(), ["plugin"], "{}", output.stdout);
}
