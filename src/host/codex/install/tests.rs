use super::*;
use serde_json::json;

/// Hashes Codex 0.169.0 itself reported (`codex app-server`, `hooks/list`, `currentHash`) for
/// these hooks.json entries.
#[test]
fn hashes_match_what_codex_computes() {
    let cases = [
        (
            "PreToolUse",
            Some("Bash"),
            json!({"type": "command", "command": "echo a"}),
            "e858b0fa107866bd5702cb2dffd866040cad81f83f76ff7697d1c7fad904b5e5",
        ),
        (
            "PreToolUse",
            Some("Bash"),
            json!({"type": "command", "command": "echo b", "timeout": 5, "statusMessage": "hi"}),
            "1d35c59c8bcbac5f95ebc095dceac028b7e7bbbacf98f4a212f6cd082bf8174d",
        ),
        (
            "SessionStart",
            Some(""),
            json!({"type": "command", "command": "echo ss"}),
            "abeee3337bf23d96f82176e03f3709f20adb361c2ebd9c8b5b1f56b499386022",
        ),
        // SessionEnd's timeout is clamped to 3 s before hashing.
        (
            "SessionEnd",
            None,
            json!({"type": "command", "command": "echo e", "timeout": 600}),
            "1ff6092e569ba30737f0701ce3bc85083128c690fc914f300727ae4ea426d19f",
        ),
        (
            "UserPromptSubmit",
            None,
            json!({"type": "command", "command": "echo u", "async": true}),
            "5232549aacb5485fd46ada9c93b838aec647c16e1691b0c6719aed7d0d189f9c",
        ),
        // Stop takes no matcher: the one written is not part of the identity.
        (
            "Stop",
            Some("x"),
            json!({"type": "command", "command": "echo s"}),
            "b4f5d92cf8d9d7805c64e06a8543e27a7a478a8cf4ce5aa54ff7c1d014ae9f38",
        ),
    ];
    for (event, matcher, handler, hash) in cases {
        assert_eq!(trust_hash(event, matcher, &handler), format!("sha256:{hash}"), "{event} {handler}");
    }
}

#[test]
fn labels_are_codexs() {
    assert_eq!(event_label("PreToolUse"), "pre_tool_use");
    assert_eq!(event_label("UserPromptSubmit"), "user_prompt_submit");
    assert_eq!(event_label("SubagentStop"), "subagent_stop");
}

fn paths(root: &Path) -> Paths {
    Paths {
        codex_home: root.join("home/.codex"),
        project: root.join("proj"),
        command: "/opt/hookmux dispatch --host codex".into(),
    }
}

#[test]
fn a_fresh_install_writes_every_event_and_trusts_each_entry() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    let plan = plan(&paths, Scope::User, true).unwrap();
    apply(&plan, &paths).unwrap();
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(paths.codex_home.join("hooks.json")).unwrap()).unwrap();
    assert_eq!(hooks["hooks"].as_object().unwrap().len(), EVENTS.len());
    assert_eq!(
        hooks["hooks"]["PreToolUse"],
        json!([{"hooks": [{"type": "command", "command": "/opt/hookmux dispatch --host codex", "timeout": 600}]}])
    );
    assert_eq!(hooks["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 3);
    let config: toml_edit::DocumentMut = std::fs::read_to_string(paths.config_file()).unwrap().parse().unwrap();
    let key = format!("{}:pre_tool_use:0:0", paths.codex_home.join("hooks.json").display());
    let trusted = config["hooks"]["state"][key.as_str()]["trusted_hash"].as_str().unwrap();
    assert_eq!(trusted, trust_hash("PreToolUse", None, &hooks["hooks"]["PreToolUse"][0]["hooks"][0]));
}

#[test]
fn existing_hooks_and_config_are_kept() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    std::fs::create_dir_all(&paths.codex_home).unwrap();
    let mine = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-guard"}]}]}, "note": 1});
    std::fs::write(paths.codex_home.join("hooks.json"), mine.to_string()).unwrap();
    let config = "# my settings\nmodel = \"gpt-5.5\"  # keep this comment\n\n[hooks.state.\"other:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:abc\"\n";
    std::fs::write(paths.config_file(), config).unwrap();

    let plan = plan(&paths, Scope::User, true).unwrap();
    apply(&plan, &paths).unwrap();
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(paths.codex_home.join("hooks.json")).unwrap()).unwrap();
    assert_eq!(hooks["note"], 1);
    assert_eq!(hooks["hooks"]["PreToolUse"][0], mine["hooks"]["PreToolUse"][0]);
    assert_eq!(hooks["hooks"]["PreToolUse"][1]["hooks"][0]["command"], "/opt/hookmux dispatch --host codex");
    // Our PreToolUse entry is group 1, and that is the key Codex will look up.
    assert!(plan.trust.iter().any(|(key, _)| key.ends_with("hooks.json:pre_tool_use:1:0")), "{:?}", plan.trust);
    let written = std::fs::read_to_string(paths.config_file()).unwrap();
    assert!(written.starts_with("# my settings\nmodel = \"gpt-5.5\"  # keep this comment\n"), "{written}");
    assert!(written.contains("trusted_hash = \"sha256:abc\""));
}

#[test]
fn installing_twice_changes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    apply(&plan(&paths, Scope::User, true).unwrap(), &paths).unwrap();
    let again = plan(&paths, Scope::User, true).unwrap();
    assert_eq!((again.hooks_json.as_ref(), again.config_toml.as_ref()), (None, None));
    let report = report(&again, &paths, &Args { scope: Scope::User, trust: true, dry_run: false });
    assert!(report.contains("already there") && report.contains("already trusted"), "{report}");
}

#[test]
fn without_trust_it_says_how_and_leaves_the_config_alone() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    let plan = plan(&paths, Scope::User, false).unwrap();
    apply(&plan, &paths).unwrap();
    assert!(!paths.config_file().exists());
    let report = report(&plan, &paths, &Args::default());
    assert!(report.contains("/hooks") && report.contains("--trust"), "{report}");
}

#[test]
fn project_scope_writes_the_projects_file_and_checks_its_trust() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    let plan = plan(&paths, Scope::Project, true).unwrap();
    assert_eq!(plan.hooks_file, paths.project.join(".codex/hooks.json"));
    assert_eq!(plan.project_trusted, Some(false));
    let args = Args { scope: Scope::Project, trust: true, dry_run: true };
    assert!(report(&plan, &paths, &args).contains("trusted project"));
    std::fs::create_dir_all(&paths.codex_home).unwrap();
    // TOML literal strings ('…') here and below: a Windows path's backslashes are no escapes there.
    std::fs::write(
        paths.config_file(),
        format!("[projects.'{}']\ntrust_level = \"trusted\"\n", paths.project.display()),
    )
    .unwrap();
    assert_eq!(super::plan(&paths, Scope::Project, true).unwrap().project_trusted, Some(true));
}

#[test]
fn broken_files_are_reported_and_left_alone() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    std::fs::create_dir_all(&paths.codex_home).unwrap();
    std::fs::write(paths.codex_home.join("hooks.json"), "{ nope").unwrap();
    let err = plan(&paths, Scope::User, true).unwrap_err().to_string();
    assert!(err.contains("hooks.json: not valid JSON"), "{err}");
    std::fs::write(paths.codex_home.join("hooks.json"), r#"{"hooks": {"Stop": {}}}"#).unwrap();
    let err = plan(&paths, Scope::User, true).unwrap_err().to_string();
    assert!(err.contains("`hooks.Stop` is not an array"), "{err}");
    std::fs::write(paths.codex_home.join("hooks.json"), "{}").unwrap();
    std::fs::write(paths.config_file(), "model = ").unwrap();
    let err = format!("{:#}", plan(&paths, Scope::User, true).unwrap_err());
    assert!(err.contains("config.toml: not valid TOML"), "{err}");
    assert_eq!(std::fs::read_to_string(paths.config_file()).unwrap(), "model = ");
}

#[test]
fn a_missing_project_folder_is_its_own_root() {
    assert_eq!(project_root(Path::new("/nonexistent/a/b")), Path::new("/nonexistent/a/b"));
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

#[test]
fn uninstalling_a_fresh_install_removes_the_files_it_created() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    apply(&plan(&paths, Scope::User, true).unwrap(), &paths).unwrap();
    let removal = plan_removal(&paths, Scope::User).unwrap();
    assert_eq!((removal.entries, removal.untrusted), (EVENTS.len(), EVENTS.len()));
    assert_eq!((&removal.hooks_json, &removal.config_toml), (&Change::Delete, &Change::Delete));
    apply_removal(&removal, &paths).unwrap();
    assert_eq!(read(&paths.codex_home.join("hooks.json")), None);
    assert_eq!(read(&paths.config_file()), None);
    let again = plan_removal(&paths, Scope::User).unwrap();
    assert_eq!((again.entries, &again.hooks_json), (0, &Change::Unchanged));
    assert!(removal_report(&again, &paths, false).contains("no hookmux entries"));
}

#[test]
fn install_then_uninstall_leaves_the_users_files_as_they_were() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    std::fs::create_dir_all(&paths.codex_home).unwrap();
    let mine = json!({"note": 1, "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-guard"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "my-stop", "timeout": 5}]}],
    }});
    let hooks_text = format!("{}\n", serde_json::to_string_pretty(&mine).unwrap());
    let hooks_file = paths.codex_home.join("hooks.json");
    std::fs::write(&hooks_file, &hooks_text).unwrap();
    let config = format!(
        "# my settings\nmodel = \"gpt-5.5\"  # keep this comment\n\n[hooks.state.'{}:pre_tool_use:0:0']\ntrusted_hash = \"sha256:abc\"\n",
        hooks_file.display()
    );
    std::fs::write(paths.config_file(), &config).unwrap();

    apply(&plan(&paths, Scope::User, true).unwrap(), &paths).unwrap();
    assert_ne!(read(&hooks_file).unwrap(), hooks_text);
    let removal = plan_removal(&paths, Scope::User).unwrap();
    assert_eq!((removal.entries, removal.untrusted, removal.rekeyed), (EVENTS.len(), EVENTS.len(), 0));
    apply_removal(&removal, &paths).unwrap();
    assert_eq!(read(&hooks_file).unwrap(), hooks_text);
    assert_eq!(read(&paths.config_file()).unwrap(), config);
    let report = removal_report(&removal, &paths, false);
    assert!(report.contains("your other hooks are as they were"), "{report}");
}

#[test]
fn a_hook_added_after_ours_keeps_its_trust_when_ours_goes() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    apply(&plan(&paths, Scope::User, true).unwrap(), &paths).unwrap();
    let hooks_file = paths.codex_home.join("hooks.json");
    let mut hooks: Value = serde_json::from_str(&read(&hooks_file).unwrap()).unwrap();
    let later = json!({"type": "command", "command": "my-later-guard"});
    hooks["hooks"]["PreToolUse"].as_array_mut().unwrap().push(json!({"matcher": "Edit", "hooks": [later]}));
    std::fs::write(&hooks_file, serde_json::to_string(&hooks).unwrap()).unwrap();
    let hash = trust_hash("PreToolUse", Some("Edit"), &later);
    let mut config = read(&paths.config_file()).unwrap();
    config
        .push_str(&format!("\n[hooks.state.'{}:pre_tool_use:1:0']\ntrusted_hash = \"{hash}\"\n", hooks_file.display()));
    std::fs::write(paths.config_file(), config).unwrap();

    let removal = plan_removal(&paths, Scope::User).unwrap();
    assert_eq!(removal.rekeyed, 1);
    apply_removal(&removal, &paths).unwrap();
    let hooks: Value = serde_json::from_str(&read(&hooks_file).unwrap()).unwrap();
    assert_eq!(hooks, json!({"hooks": {"PreToolUse": [{"matcher": "Edit", "hooks": [later]}]}}));
    let config: toml_edit::DocumentMut = read(&paths.config_file()).unwrap().parse().unwrap();
    let state = config["hooks"]["state"].as_table_like().unwrap();
    let keys: Vec<&str> = state.iter().map(|(key, _)| key).collect();
    // Codex now finds the user's hook at 0:0, under the hash it trusted.
    assert_eq!(keys, [format!("{}:pre_tool_use:0:0", hooks_file.display())]);
    assert_eq!(config["hooks"]["state"][keys[0]]["trusted_hash"].as_str(), Some(hash.as_str()));
}

#[test]
fn another_hookmuxs_entries_are_named_and_left_alone() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    std::fs::create_dir_all(&paths.codex_home).unwrap();
    let other = "/old/place/hookmux dispatch --host codex";
    let text = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": other}]}]}}).to_string();
    std::fs::write(paths.codex_home.join("hooks.json"), &text).unwrap();
    let removal = plan_removal(&paths, Scope::User).unwrap();
    assert_eq!((removal.entries, &removal.hooks_json), (0, &Change::Unchanged));
    apply_removal(&removal, &paths).unwrap();
    assert_eq!(read(&paths.codex_home.join("hooks.json")).unwrap(), text);
    let report = removal_report(&removal, &paths, false);
    assert!(report.contains(other) && report.contains("uninstall with that hookmux"), "{report}");
}

#[test]
fn uninstall_reports_broken_files_and_changes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let paths = paths(root.path());
    std::fs::create_dir_all(&paths.codex_home).unwrap();
    std::fs::write(paths.codex_home.join("hooks.json"), "{ nope").unwrap();
    let err = plan_removal(&paths, Scope::User).unwrap_err().to_string();
    assert!(err.contains("hooks.json: not valid JSON"), "{err}");
    std::fs::write(paths.codex_home.join("hooks.json"), r#"{"hooks": {"Stop": {}}}"#).unwrap();
    let err = plan_removal(&paths, Scope::User).unwrap_err().to_string();
    assert!(err.contains("`hooks.Stop` is not an array"), "{err}");
}
