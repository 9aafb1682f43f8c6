//! A settings file's `"$hookmux"` key: `hooks validate` reads its `ignore` list; dispatch and
//! `hooks list` read nothing in it, not even what looks like hooks.

use crate::common::Hookmux;
use serde_json::json;
use std::path::Path;

fn settings(dir: &Path, value: serde_json::Value) -> String {
    let path = dir.join("settings.json");
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    path.to_string_lossy().into_owned()
}

fn hookmux(dir: &Path, args: &[&str]) -> crate::common::Output {
    Hookmux::new(args.iter().copied())
        .env("HOME", dir)
        .env("CLAUDE_PROJECT_DIR", dir)
        .env("HOOKMUX_MANAGED_DIR", dir.join("managed"))
        .env("TMPDIR", dir)
        .cwd(dir)
        .run()
}

#[test]
fn dispatch_and_list_do_not_treat_the_key_as_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let touch = format!("touch {}", marker.display());
    let file = settings(
        dir.path(),
        json!({
            "$hookmux": {"ignore": ["sudo"], "trace": false, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": touch}]}]}},
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}
        }),
    );
    let event = json!({"hook_event_name": "Stop", "session_id": "s", "cwd": dir.path()}).to_string();
    let out = Hookmux::new(["dispatch", "--settings", &file])
        .env("HOME", dir.path())
        .env("TMPDIR", dir.path())
        .cwd(dir.path())
        .stdin(event)
        .run();
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!marker.exists(), "a hook under `$hookmux` ran");
    assert!(out.stderr.is_empty() && !out.stdout.contains("$hookmux"), "{out:?}");

    let list = hookmux(dir.path(), &["hooks", "list", "--settings", &file, "--json"]);
    assert_eq!(list.code, Some(0), "{list:?}");
    assert!(!list.stdout.contains("touch") && !list.stdout.contains("$hookmux"), "{}", list.stdout);
    assert!(list.stdout.contains("\"true\""), "the file's own hook is listed: {}", list.stdout);
}

#[test]
fn ignore_silences_its_own_files_findings_only() {
    let dir = tempfile::tempdir().unwrap();
    let risky = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sudo true", "timeout": 5000}]}]}});
    let mut silenced = risky.clone();
    silenced["$hookmux"] = json!({"ignore": ["sudo", "timeout-milliseconds"]});
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    let loud = settings(&other, risky);
    let quiet = settings(dir.path(), silenced);

    let out =
        hookmux(dir.path(), &["hooks", "validate", "--settings", &quiet, "--settings", &loud, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let found: Vec<(String, String)> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["file"].as_str().unwrap().to_string(), f["rule"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(found, [(loud.clone(), "sudo".to_string()), (loud.clone(), "timeout-milliseconds".to_string())]);
    assert_eq!(json["summary"]["silenced"], 2);
    assert_eq!(json["silenced"][0]["file"], quiet.as_str());
    // The loud file still has an error: exit 1.
    assert_eq!(out.code, Some(1));

    // Alone, the quiet file has none left: exit 0, and the text says what was silenced.
    let out = hookmux(dir.path(), &["hooks", "validate", "--settings", &quiet]);
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert!(out.stdout.contains("0 errors, 0 warnings, 2 silenced by `$hookmux.ignore`"), "{}", out.stdout);

    // In SARIF, a silenced finding is a suppressed result.
    let out = hookmux(dir.path(), &["hooks", "validate", "--settings", &quiet, "--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert!(results.iter().all(|r| r["suppressions"][0]["kind"] == "inSource"), "{results:?}");

    // `--no-ignore`: a reviewer of the repository sees what it silenced, and the error fails.
    let out = hookmux(dir.path(), &["hooks", "validate", "--settings", &quiet, "--no-ignore", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["findings"].as_array().unwrap().len(), 2, "{}", out.stdout);
    assert_eq!(json["summary"]["silenced"], 0);
    assert_eq!(out.code, Some(1));
}

#[test]
fn a_wrong_key_is_a_finding_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    for (value, rule, at) in [
        (json!("sudo"), "invalid-hookmux-key", "[\"$hookmux\"]"),
        (json!({"ignore": "sudo"}), "invalid-hookmux-key", "[\"$hookmux\"].ignore"),
        (json!({"ignore": [null]}), "invalid-hookmux-key", "[\"$hookmux\"].ignore[0]"),
        (json!({"ignore": ["sudoo"]}), "unknown-rule-in-ignore", "[\"$hookmux\"].ignore[0]"),
    ] {
        let file = settings(dir.path(), json!({"$hookmux": value, "hooks": {}}));
        let out = hookmux(dir.path(), &["hooks", "validate", "--settings", &file, "--format", "json"]);
        assert_eq!(out.code, Some(0), "a warning: {out:?}");
        let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let findings = json["findings"].as_array().unwrap();
        assert_eq!(findings.len(), 1, "{value}: {findings:?}");
        assert_eq!((findings[0]["rule"].as_str(), findings[0]["json_path"].as_str()), (Some(rule), Some(at)));
        assert!(findings[0]["line"].as_u64().is_some_and(|line| line > 1), "located: {:?}", findings[0]);
    }
    // Other keys (other hookmux settings) are not findings.
    let file = settings(dir.path(), json!({"$hookmux": {"trace": false, "future": {"x": 1}}, "hooks": {}}));
    let out = hookmux(dir.path(), &["hooks", "validate", "--settings", &file, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["findings"], json!([]), "{}", out.stdout);
}
