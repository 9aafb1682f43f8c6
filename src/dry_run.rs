//! `hookmux dry-run`: what a fixture event would do under the current settings, before it
//! happens: the sources read, every group's verdict, the handlers in order, and with `--exec`
//! what each did and the answer dispatch would give.

use hookmux_sdk::{Event, HookEvent};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// Placeholders for common fields a short fixture leaves out. They are plainly not real.
pub const FAKE_SESSION_ID: &str = "hookmux-dry-run-session";
pub const FAKE_TRANSCRIPT_PATH: &str = "/nonexistent/hookmux-dry-run/transcript.jsonl";
pub const FAKE_TOOL_USE_ID: &str = "toolu_hookmux_dry_run";

/// A fixture ready to plan.
#[derive(Debug)]
pub struct Fixture {
    pub path: PathBuf,
    pub event: Event,
    /// The fields hookmux filled in, in order.
    pub filled: Vec<&'static str>,
}

/// Reads a fixture: a real payload, or a short one such as
/// `{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}`.
/// Missing common fields are filled: `session_id`, `transcript_path` and `tool_use_id` with the
/// fake values above, `cwd` with `cwd` (the folder dry-run runs in, so that the project's
/// settings are the ones read), `permission_mode` with `default` where the host sends one.
pub fn load(path: &Path, cwd: &Path) -> Result<Fixture, String> {
    let text =
        std::fs::read_to_string(path).map_err(|err| format!("{}: cannot read the fixture: {err}", path.display()))?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|err| format!("{}: not JSON (line {} column {}): {err}", path.display(), err.line(), err.column()))?;
    let Value::Object(given) = value else {
        return Err(format!("{}: a fixture is one JSON object (an event payload)", path.display()));
    };
    let Some(name) = given.get("hook_event_name").and_then(Value::as_str) else {
        return Err(format!(
            "{}: the fixture has no `hook_event_name`; add one, e.g. \"hook_event_name\": \"PreToolUse\"",
            path.display()
        ));
    };
    let Some(kind) = HookEvent::from_name(name) else {
        let hint = crate::settings::suggest_event(name).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
        return Err(format!("{}: `{name}` is not a hook event{hint}", path.display()));
    };
    let (fields, filled) = complete(given, kind, cwd);
    Ok(Fixture { path: path.to_path_buf(), event: Event::from_fields(fields), filled })
}

/// Adds the missing common fields, in the order the host writes them.
fn complete(given: Map<String, Value>, kind: HookEvent, cwd: &Path) -> (Map<String, Value>, Vec<&'static str>) {
    let carries_permission_mode = kind.is_tool_event()
        || matches!(
            kind,
            HookEvent::UserPromptSubmit | HookEvent::Stop | HookEvent::SubagentStop | HookEvent::PostToolBatch
        );
    let carries_tool_use_id = kind.is_tool_event() && kind != HookEvent::PermissionRequest;
    let defaults: [(&'static str, Option<Value>); 5] = [
        ("session_id", Some(FAKE_SESSION_ID.into())),
        ("transcript_path", Some(FAKE_TRANSCRIPT_PATH.into())),
        ("cwd", Some(cwd.to_string_lossy().into_owned().into())),
        ("permission_mode", carries_permission_mode.then(|| "default".into())),
        ("tool_use_id", carries_tool_use_id.then(|| FAKE_TOOL_USE_ID.into())),
    ];
    let mut fields = Map::new();
    let mut filled = Vec::new();
    for (key, default) in defaults.iter().take(4) {
        match given.get(*key) {
            Some(value) => {
                fields.insert(key.to_string(), value.clone());
            }
            None => {
                if let Some(value) = default {
                    fields.insert(key.to_string(), value.clone());
                    filled.push(*key);
                }
            }
        }
    }
    for (key, value) in given.iter() {
        if !fields.contains_key(key) {
            fields.insert(key.clone(), value.clone());
        }
    }
    if let (false, Some(value)) = (fields.contains_key("tool_use_id"), &defaults[4].1) {
        fields.insert("tool_use_id".to_string(), value.clone());
        filled.push("tool_use_id");
    }
    (fields, filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e.json");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn short_fixtures_are_completed_with_fake_values() {
        let (_dir, path) =
            write(r#"{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}"#);
        let fixture = load(&path, Path::new("/work/p")).unwrap();
        assert_eq!(fixture.filled, ["session_id", "transcript_path", "cwd", "permission_mode", "tool_use_id"]);
        let keys: Vec<&String> = fixture.event.fields().keys().collect();
        assert_eq!(
            keys,
            [
                "session_id",
                "transcript_path",
                "cwd",
                "permission_mode",
                "hook_event_name",
                "tool_name",
                "tool_input",
                "tool_use_id"
            ]
        );
        assert_eq!(fixture.event.session_id(), Some(FAKE_SESSION_ID));
        assert_eq!(fixture.event.cwd().unwrap(), Path::new("/work/p"));
    }

    #[test]
    fn real_payloads_are_left_alone() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/events/Stop.json")).unwrap();
        let (_dir, path) = write(&text);
        let fixture = load(&path, Path::new("/x")).unwrap();
        assert!(fixture.filled.is_empty());
        assert_eq!(fixture.event.fields(), serde_json::from_str::<Value>(&text).unwrap().as_object().unwrap());
    }

    #[test]
    fn bad_fixtures_say_what_to_do() {
        let cases = [
            ("[1]", "one JSON object"),
            ("{nope", "not JSON (line 1 column 2)"),
            (r#"{"tool_name": "Bash"}"#, "has no `hook_event_name`"),
            (r#"{"hook_event_name": "preToolUse"}"#, "did you mean `PreToolUse`?"),
        ];
        for (text, expected) in cases {
            let (_dir, path) = write(text);
            let err = load(&path, Path::new("/")).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
        assert!(load(Path::new("/nonexistent/e.json"), Path::new("/")).unwrap_err().contains("cannot read"));
    }
}
