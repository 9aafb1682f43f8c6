use super::*;

const COMMAND: &str = "/opt/hookmux dispatch --host qwen";

/// The harness's own user settings, which an install must keep as they are.
const USER: &str = r#"{
  "general": {
    "enableAutoUpdate": false
  },
  "security": {
    "auth": {
      "selectedType": "openai"
    }
  },
  "hooks": {
    "PreToolUse": [
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

fn ours(root: &Value, event: &str) -> Vec<Value> {
    let groups = root["hooks"][event].as_array().unwrap();
    groups.iter().flat_map(|g| g["hooks"].as_array().unwrap()).filter(|h| h["command"] == COMMAND).cloned().collect()
}

#[test]
fn every_event_gets_one_entry_in_seconds_and_the_rest_stays() {
    let dir = tempfile::tempdir().unwrap();
    let file = settings(dir.path(), USER);
    let root = installed(&file);
    for event in EVENTS {
        let ours = ours(&root, event);
        assert_eq!(ours.len(), 1, "{event}");
        let timeout = ours[0]["timeout"].as_f64().unwrap();
        assert!(timeout < MILLISECONDS_FROM, "Qwen reads {timeout} as milliseconds");
        assert_eq!(ours[0]["type"], "command");
    }
    assert_eq!(root["security"]["auth"]["selectedType"], "openai");
    assert_eq!(root["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "./mine.sh", "the user's own hook comes first");
    let keys: Vec<&String> = root.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["general", "security", "hooks"]);
}

#[test]
fn installing_twice_changes_nothing_and_a_changed_entry_is_put_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = settings(dir.path(), USER);
    let mut root = installed(&file);
    assert_eq!(plan(&file, COMMAND).unwrap(), Change::Unchanged);

    // Someone made the entry's timeout 600000 (Gemini's milliseconds): 10 minutes to Qwen only
    // below 1000.
    let group = root["hooks"]["Stop"].as_array_mut().unwrap().last_mut().unwrap();
    group["hooks"][0]["timeout"] = 600_000.into();
    std::fs::write(&file, serde_json::to_string_pretty(&root).unwrap()).unwrap();
    let root = installed(&file);
    assert_eq!(ours(&root, "Stop"), [entry(COMMAND)]);
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
}

#[test]
fn a_file_install_made_goes_even_after_qwen_stamped_its_version() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(".qwen/settings.json");
    let mut root = installed(&file);
    // What Qwen does to every settings file it loads.
    root["$version"] = 4.into();
    std::fs::write(&file, serde_json::to_string_pretty(&root).unwrap()).unwrap();
    let (change, removed) = plan_removal(&file, COMMAND).unwrap();
    assert_eq!((change.clone(), removed), (Change::Delete, EVENTS.len()));
    apply(&file, &change).unwrap();
    assert!(!file.exists());
}

#[test]
fn another_hookmux_and_the_users_hooks_are_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let other = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/usr/bin/hookmux dispatch --host qwen"}]}]}}"#;
    let file = settings(dir.path(), other);
    installed(&file);
    let (change, removed) = plan_removal(&file, COMMAND).unwrap();
    assert_eq!(removed, EVENTS.len());
    apply(&file, &change).unwrap();
    let left: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(left, serde_json::from_str::<Value>(other).unwrap());
}

#[test]
fn a_settings_file_it_cannot_read_is_refused_with_the_file_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = settings(dir.path(), "{\n  // a comment\n  \"hooks\": {}\n}\n");
    let error = plan(&file, COMMAND).unwrap_err().to_string();
    assert!(error.contains("settings.json") && error.contains("comments"), "{error}");
    let file = settings(dir.path(), r#"{"hooks": {"Stop": {}}}"#);
    let error = plan(&file, COMMAND).unwrap_err().to_string();
    assert!(error.contains("hooks.Stop"), "{error}");
}
