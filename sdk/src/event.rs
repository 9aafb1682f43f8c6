//! The hook event: which lifecycle moment fired, and the payload the host sent with it.
//!
//! hookmux keeps the payload as the raw JSON the host wrote (key order included, so that it can be
//! handed on to child hooks unchanged) and offers typed accessors over it. Unknown fields are kept;
//! a missing or mistyped field reads as `None`, never as a panic.

use serde_json::{Map, Value};
use std::fmt;
use std::path::PathBuf;

macro_rules! hook_events {
    ($($variant:ident),+ $(,)?) => {
        /// Every hook event Claude Code knows (its hooks reference, 2026), by its exact, case-sensitive name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum HookEvent { $($variant),+ }

        impl HookEvent {
            /// All events, in the order of the hooks reference's lifecycle table.
            pub const ALL: &'static [HookEvent] = &[$(HookEvent::$variant),+];

            /// The event's name as it appears in settings and in `hook_event_name`.
            pub const fn as_str(self) -> &'static str {
                match self { $(HookEvent::$variant => stringify!($variant)),+ }
            }
        }
    };
}

hook_events!(
    SessionStart,
    Setup,
    InstructionsLoaded,
    UserPromptSubmit,
    UserPromptExpansion,
    MessageDisplay,
    PreToolUse,
    PermissionRequest,
    PermissionDenied,
    PostToolUse,
    PostToolUseFailure,
    PostToolBatch,
    Notification,
    SubagentStart,
    SubagentStop,
    TaskCreated,
    TaskCompleted,
    Stop,
    StopFailure,
    TeammateIdle,
    ConfigChange,
    CwdChanged,
    DirectoryAdded,
    FileChanged,
    WorktreeCreate,
    WorktreeRemove,
    PreCompact,
    PostCompact,
    Elicitation,
    ElicitationResult,
    SessionEnd,
);

/// Which part of the payload an event's matchers are tested against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchField {
    /// The event has no matcher support: every group runs, whatever its matcher says.
    None,
    /// The named top-level string field.
    Field(&'static str),
    /// The final path component of the named field (FileChanged matches `basename(file_path)`).
    Basename(&'static str),
}

impl HookEvent {
    /// Parses an exact event name; `preToolUse` is not `PreToolUse`.
    pub fn from_name(name: &str) -> Option<HookEvent> {
        HookEvent::ALL.iter().copied().find(|e| e.as_str() == name)
    }

    /// The field a matcher is tested against (Claude Code's `getMatchingHooks` table).
    pub const fn match_field(self) -> MatchField {
        use HookEvent::*;
        match self {
            PreToolUse | PostToolUse | PostToolUseFailure | PermissionRequest | PermissionDenied => {
                MatchField::Field("tool_name")
            }
            SessionStart | ConfigChange | DirectoryAdded => MatchField::Field("source"),
            Setup | PreCompact | PostCompact => MatchField::Field("trigger"),
            Notification => MatchField::Field("notification_type"),
            SessionEnd => MatchField::Field("reason"),
            StopFailure => MatchField::Field("error"),
            SubagentStart | SubagentStop => MatchField::Field("agent_type"),
            Elicitation | ElicitationResult => MatchField::Field("mcp_server_name"),
            InstructionsLoaded => MatchField::Field("load_reason"),
            UserPromptExpansion => MatchField::Field("command_name"),
            FileChanged => MatchField::Basename("file_path"),
            UserPromptSubmit | MessageDisplay | PostToolBatch | TaskCreated | TaskCompleted | Stop | TeammateIdle
            | CwdChanged | WorktreeCreate | WorktreeRemove => MatchField::None,
        }
    }

    /// Events about one tool call: the ones where a handler's `if` rule is evaluated.
    pub const fn is_tool_event(self) -> bool {
        matches!(
            self,
            HookEvent::PreToolUse
                | HookEvent::PostToolUse
                | HookEvent::PostToolUseFailure
                | HookEvent::PermissionRequest
                | HookEvent::PermissionDenied
        )
    }

    /// Whether the host reads plain stdout on exit 0 as context for the model.
    pub const fn plain_stdout_is_context(self) -> bool {
        matches!(self, HookEvent::UserPromptSubmit | HookEvent::UserPromptExpansion | HookEvent::SessionStart)
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One hook event as the host sent it.
///
/// `Event` never fails to exist: a payload that is not a JSON object (or not JSON at all) is kept
/// as raw text with [`Event::parse_error`] set, and every accessor then reads `None`. Handlers
/// decide what a malformed event means for them, which is almost always "do nothing".
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    raw: String,
    fields: Map<String, Value>,
    parse_error: Option<String>,
}

impl Event {
    /// Parses a payload. Invalid JSON, or JSON that is not an object, gives an event with no
    /// fields and a [`parse_error`](Event::parse_error).
    pub fn parse(raw: &str) -> Event {
        let parsed = if raw.trim().is_empty() {
            Err("the event is empty".to_string())
        } else {
            match serde_json::from_str::<Value>(raw) {
                Ok(Value::Object(fields)) => Ok(fields),
                Ok(other) => Err(format!("the event is a JSON {}, not an object", json_kind(&other))),
                Err(err) => Err(format!("the event is not valid JSON: {err}")),
            }
        };
        match parsed {
            Ok(fields) => Event { raw: raw.to_string(), fields, parse_error: None },
            Err(message) => Event { raw: raw.to_string(), fields: Map::new(), parse_error: Some(message) },
        }
    }

    /// An event built from fields (tests, fixtures, host adapters).
    pub fn from_fields(fields: Map<String, Value>) -> Event {
        let raw = Value::Object(fields.clone()).to_string();
        Event { raw, fields, parse_error: None }
    }

    /// The payload exactly as received.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// Why the payload could not be read as a JSON object, if it could not.
    pub fn parse_error(&self) -> Option<&str> {
        self.parse_error.as_deref()
    }

    /// The payload's fields, in the host's order.
    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// The payload as compact JSON in the host's key order: what child hooks get on stdin.
    pub fn to_compact_json(&self) -> String {
        if self.parse_error.is_some() {
            return self.raw.trim().to_string();
        }
        Value::Object(self.fields.clone()).to_string()
    }

    /// Any top-level field.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }

    /// A top-level string field; `None` when absent or not a string.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.fields.get(key).and_then(Value::as_str)
    }

    /// `hook_event_name` as sent, even when hookmux does not know the event.
    pub fn name(&self) -> Option<&str> {
        self.str("hook_event_name")
    }

    /// `hook_event_name` when it names a known event.
    pub fn kind(&self) -> Option<HookEvent> {
        self.name().and_then(HookEvent::from_name)
    }

    pub fn session_id(&self) -> Option<&str> {
        self.str("session_id")
    }

    pub fn transcript_path(&self) -> Option<&str> {
        self.str("transcript_path")
    }

    pub fn cwd(&self) -> Option<PathBuf> {
        self.str("cwd").map(PathBuf::from)
    }

    pub fn permission_mode(&self) -> Option<&str> {
        self.str("permission_mode")
    }

    pub fn tool_name(&self) -> Option<&str> {
        self.str("tool_name")
    }

    pub fn tool_input(&self) -> Option<&Map<String, Value>> {
        self.fields.get("tool_input").and_then(Value::as_object)
    }

    /// A string field of `tool_input`, such as `command` or `file_path`.
    pub fn tool_input_str(&self, key: &str) -> Option<&str> {
        self.tool_input().and_then(|input| input.get(key)).and_then(Value::as_str)
    }

    pub fn tool_use_id(&self) -> Option<&str> {
        self.str("tool_use_id")
    }

    pub fn tool_response(&self) -> Option<&Value> {
        self.fields.get("tool_response")
    }

    pub fn prompt(&self) -> Option<&str> {
        self.str("prompt")
    }

    /// SessionStart's `source`: `startup`, `resume`, `clear`, `compact`.
    pub fn source(&self) -> Option<&str> {
        self.str("source")
    }

    /// PreCompact/PostCompact/Setup `trigger`.
    pub fn trigger(&self) -> Option<&str> {
        self.str("trigger")
    }

    pub fn agent_id(&self) -> Option<&str> {
        self.str("agent_id")
    }

    pub fn agent_type(&self) -> Option<&str> {
        self.str("agent_type")
    }

    /// Stop/SubagentStop: true when the host is already continuing because of a Stop hook.
    pub fn stop_hook_active(&self) -> bool {
        self.fields.get("stop_hook_active").and_then(Value::as_bool).unwrap_or(false)
    }

    /// The value a matcher is tested against for this event (`tool_name`, `source`, …), or `None`
    /// when the event has no matcher support or the field is absent.
    pub fn match_query(&self) -> Option<String> {
        match self.kind()?.match_field() {
            MatchField::None => None,
            MatchField::Field(key) => self.str(key).map(str::to_string),
            MatchField::Basename(key) => {
                let path = self.str(key)?;
                Some(path.rsplit(['/', '\\']).next().unwrap_or(path).to_string())
            }
        }
    }
}

/// The JSON type of a value as a word for messages: `object`, `array`, `string`, …
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for event in HookEvent::ALL {
            assert_eq!(HookEvent::from_name(event.as_str()), Some(*event));
        }
        assert_eq!(HookEvent::from_name("preToolUse"), None);
    }

    #[test]
    fn malformed_payloads_read_as_empty() {
        for raw in ["", "  ", "{", "[1]", "\"x\"", "null"] {
            let event = Event::parse(raw);
            assert!(event.parse_error().is_some(), "{raw:?}");
            assert_eq!(event.tool_name(), None);
            assert_eq!(event.kind(), None);
        }
    }

    #[test]
    fn compact_json_keeps_key_order() {
        let event = Event::parse(r#"{ "z": 1, "a": {"y": 2, "b": 3} }"#);
        assert_eq!(event.to_compact_json(), r#"{"z":1,"a":{"y":2,"b":3}}"#);
    }

    #[test]
    fn match_query_per_event() {
        let e = Event::parse(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash"}"#);
        assert_eq!(e.match_query().as_deref(), Some("Bash"));
        let e = Event::parse(r#"{"hook_event_name":"FileChanged","file_path":"/p/.envrc"}"#);
        assert_eq!(e.match_query().as_deref(), Some(".envrc"));
        let e = Event::parse(r#"{"hook_event_name":"Stop","tool_name":"Bash"}"#);
        assert_eq!(e.match_query(), None);
        let e = Event::parse(r#"{"hook_event_name":"SessionStart","source":"compact"}"#);
        assert_eq!(e.match_query().as_deref(), Some("compact"));
    }
}
