use super::*;

const COMMAND: &str = "/opt/hookmux dispatch --host gemini";

/// The harness's own user settings, which an install must keep as they are.
const USER: &str = r#"{
  "general": {
    "enableAutoUpdate": false
  },
  "security": {
    "auth": {
      "selectedType": "gemini-api-key"
    }
  },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file",
        "hooks": [
          {
            "type": "command",
            "command": "./mine.sh"
          }
        ]
      }
    ]
  }
}
"#;

fn settings(dir: &Path, text: &str) -> PathBuf {
    let file = dir.join("settings.json");
    std::fs::write(&file, text).unwrap();
    file
}

fn installed(file: &Path) -> Value {
    let change = plan(file, COMMAND).unwrap();
    apply(file, &change).unwrap();
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

#[test]
fn every_event_gets_one_entry_and_the_rest_stays() {
    let dir = tempfile::tempdir().unwrap();
    let file = settings(dir.path(), USER);
    let root = installed(&file);
    for event in EVENTS {
        let groups = root["hooks"][event].as_array().unwrap();
        let ours: Vec<&Value> =
            groups.iter().flat_map(|g| g["hooks"].as_array().unwrap()).filter(|h| h["command"] == COMMAND).collect();
        assert_eq!(ours.len(), 1, "{event}");
        assert_eq!(ours[0]["timeout"], 600_000, "Gemini's timeouts are milliseconds");
        assert_eq!(ours[0]["type"], "command");
    }
    assert_eq!(root["general"]["enableAutoUpdate"], false);
    assert_eq!(root["security"]["auth"]["selectedType"], "gemini-api-key");
    assert_eq!(root["hooks"]["BeforeTool"][0]["hooks"][0]["command"], "./mine.sh", "the user's own hook comes first");
    // Keys keep their order.
    let keys: Vec<&String> = root.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["general", "security", "hooks"]);
}

#[test]
fn installing_twice_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = settings(dir.path(), USER);
    installed(&file);
    assert_eq!(plan(&file, COMMAND).unwrap(), Change::Unchanged);
}

#[test]
fn uninstall_gives_back_the_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = settings(dir.path(), USER);
    installed(&file);
    let (change, removed) = plan_removal(&file, COMMAND).unwrap();
    assert_eq!(removed, EVENTS.len());
    apply(&file, &change).unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), USER);
    assert_eq!(plan_removal(&file, COMMAND).unwrap(), (Change::Unchanged, 0));
}

#[test]
fn a_file_the_install_created_goes_with_the_uninstall() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(".gemini").join("settings.json");
    installed(&file);
    let (change, _) = plan_removal(&file, COMMAND).unwrap();
    assert_eq!(change, Change::Delete);
    apply(&file, &change).unwrap();
    assert!(!file.exists());
}

#[test]
fn another_hookmux_entry_and_the_users_hooks_in_our_group_stay() {
    let dir = tempfile::tempdir().unwrap();
    let file = settings(dir.path(), USER);
    let mut root = installed(&file);
    // The user added a hook of their own into our group, and another hookmux is installed too.
    root["hooks"]["AfterTool"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "command", "command": "./after.sh"}));
    root["hooks"]["SessionEnd"]
        .as_array_mut()
        .unwrap()
        .push(json!({"hooks": [{"type": "command", "command": "/other/hookmux dispatch --host gemini"}]}));
    std::fs::write(&file, serde_json::to_string_pretty(&root).unwrap()).unwrap();
    let (change, _) = plan_removal(&file, COMMAND).unwrap();
    apply(&file, &change).unwrap();
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(after["hooks"]["AfterTool"], json!([{"hooks": [{"type": "command", "command": "./after.sh"}]}]));
    assert_eq!(after["hooks"]["SessionEnd"][0]["hooks"][0]["command"], "/other/hookmux dispatch --host gemini");
}

#[test]
fn settings_it_cannot_read_are_left_alone_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let commented = settings(dir.path(), "{ // a comment\n \"a\": 1 }");
    let err = plan(&commented, COMMAND).unwrap_err().to_string();
    assert!(err.contains("not plain JSON"), "{err}");
    let bad_hooks = settings(dir.path(), r#"{"hooks": []}"#);
    assert!(plan(&bad_hooks, COMMAND).unwrap_err().to_string().contains("`hooks` is not an object"));
    let bad_event = settings(dir.path(), r#"{"hooks": {"BeforeTool": {}}}"#);
    assert!(plan(&bad_event, COMMAND).unwrap_err().to_string().contains("`hooks.BeforeTool` is not an array"));
}

#[test]
fn scopes_name_gemini_settings_files() {
    let paths = Paths { home: "/h".into(), project: "/p".into(), command: COMMAND.into() };
    assert_eq!(paths.settings_file(Scope::User), Path::new("/h/.gemini/settings.json"));
    assert_eq!(paths.settings_file(Scope::Project), Path::new("/p/.gemini/settings.json"));
}
