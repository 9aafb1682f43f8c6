//! The hook event: which lifecycle moment fired, and the payload the host sent with it.
//!
//! hookmux keeps the payload as the raw JSON the host wrote (key order included, so that it can be
//! handed on to child hooks unchanged) and offers typed accessors over it. Unknown fields are kept;
//! a missing or mistyped field reads as `None`, never as a panic.

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

macro_rules! hook_events {
    ($($variant:ident => $spec:expr),+ $(,)?) => {
        /// Every hook event Claude Code 2.1.328 sends, by its exact, case-sensitive name, and
        /// [`Other`](HookEvent::Other) for one hookmux does not know yet.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum HookEvent {
            $($variant,)+
            /// A PascalCase event name hookmux does not know (a host newer than hookmux sent
            /// it): its hooks run under [`EventSpec::GENERIC`].
            Other(&'static str),
        }

        impl HookEvent {
            /// The known events, in the order of the table below (the host's lifecycle).
            pub const ALL: &'static [HookEvent] = &[$(HookEvent::$variant),+];

            /// The event's name as it appears in settings and in `hook_event_name`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(HookEvent::$variant => stringify!($variant),)+
                    HookEvent::Other(name) => name,
                }
            }

            /// What the event can do: its row of the table below, or the generic row.
            pub const fn spec(self) -> &'static EventSpec {
                match self {
                    $(HookEvent::$variant => {
                        const SPEC: EventSpec = $spec;
                        &SPEC
                    })+
                    HookEvent::Other(_) => &EventSpec::GENERIC,
                }
            }
        }
    };
}

use Exit2::{Block, Deny, ExitCode, Nothing, Notice};

/// Decisions a PreToolUse hook may give in `hookSpecificOutput.permissionDecision`.
const TOOL_PERMISSION: &[&str] = &["allow", "deny", "ask", "defer"];
/// Decisions a PreModelSwitch hook may give (no `defer`).
const SWITCH_PERMISSION: &[&str] = &["allow", "deny", "ask"];

// The events and what each can do, as Claude Code 2.1.328 has them (its event list, its matcher
// table `getMatchingHooks`, its hook output schemas). Adding an event is adding its line here.
hook_events! {
    // event            => the field matchers test, what exit 2 does, what stdout and JSON give
    SessionStart        => EventSpec::on("source").exit2(Notice).plain_context().context(),
    Setup               => EventSpec::on("trigger").exit2(Notice).context(),
    InstructionsLoaded  => EventSpec::on("load_reason"),
    UserPromptSubmit    => EventSpec::all().exit2(Block).plain_context().context(),
    UserPromptExpansion => EventSpec::on("command_name").exit2(Block).plain_context().context(),
    MessageDisplay      => EventSpec::all(),
    PreToolUse          => EventSpec::tool().exit2(Deny).permission(TOOL_PERMISSION).context(),
    PermissionRequest   => EventSpec::tool(),
    PermissionDenied    => EventSpec::tool(),
    PostToolUse         => EventSpec::tool().exit2(Block).context(),
    PostToolUseFailure  => EventSpec::tool().exit2(Block).context(),
    PostToolBatch       => EventSpec::all().exit2(Block).context(),
    Notification        => EventSpec::on("notification_type"),
    SubagentStart       => EventSpec::on("agent_type").exit2(Notice).context(),
    SubagentStop        => EventSpec::on("agent_type").exit2(Block).context(),
    TaskCreated         => EventSpec::all().exit2(Block),
    TaskCompleted       => EventSpec::all().exit2(ExitCode),
    Stop                => EventSpec::all().exit2(Block).context(),
    StopFailure         => EventSpec::on("error"),
    TeammateIdle        => EventSpec::all().exit2(ExitCode),
    ConfigChange        => EventSpec::on("source").exit2(Block),
    CwdChanged          => EventSpec::all().exit2(Notice),
    DirectoryAdded      => EventSpec::on("source"),
    FileChanged         => EventSpec::on_basename("file_path").exit2(Notice),
    WorktreeCreate      => EventSpec::all().exit2(ExitCode),
    WorktreeRemove      => EventSpec::all(),
    PreCompact          => EventSpec::on("trigger").exit2(Block),
    PostCompact         => EventSpec::on("trigger").exit2(Notice),
    PreModelSwitch      => EventSpec::on("to_model").exit2(Deny).permission(SWITCH_PERMISSION),
    PostModelSwitch     => EventSpec::on("to_model").exit2(Block).plain_context().context(),
    Elicitation         => EventSpec::on("mcp_server_name").exit2(ExitCode),
    ElicitationResult   => EventSpec::on("mcp_server_name").exit2(ExitCode),
    SessionEnd          => EventSpec::on("reason").exit2(Notice),
}

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

/// What a hook's exit 2 does on an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit2 {
    /// It denies, as `permissionDecision: "deny"` with stderr as the reason (PreToolUse,
    /// PreModelSwitch).
    Deny,
    /// It blocks, as `decision: "block"` with stderr as the reason.
    Block,
    /// It blocks through the exit code only: the host reads exit 2 and stderr.
    ExitCode,
    /// Its stderr is shown to the user; nothing is blocked.
    Notice,
    /// Nothing the model or the user sees.
    Nothing,
}

/// One row of the events table: what an event's hooks can do on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventSpec {
    /// The payload field its matchers are tested against.
    pub matcher: MatchField,
    /// About one tool call: `if` rules are evaluated (elsewhere a handler with `if` never runs).
    pub tool: bool,
    pub exit2: Exit2,
    /// Plain stdout on exit 0 is context for the model.
    pub plain_stdout_is_context: bool,
    /// `hookSpecificOutput.additionalContext` is read.
    pub additional_context: bool,
    /// The values of `hookSpecificOutput.permissionDecision` it takes; empty when it takes none.
    pub permission: &'static [&'static str],
}

impl EventSpec {
    /// What hookmux does with an event it does not know: every group runs (it cannot know the
    /// matcher's field), `if` rules are not evaluated, exit 2 is handed back to the host as exit 2
    /// with its stderr, plain stdout is not context, and of the JSON the common fields
    /// (`continue`, `stopReason`, `systemMessage`, `suppressOutput`) and `hookSpecificOutput`'s
    /// `additionalContext` and other fields are handed on.
    pub const GENERIC: EventSpec = EventSpec::all().exit2(ExitCode).context();

    /// No matcher support: every group runs, whatever its matcher says.
    pub const fn all() -> EventSpec {
        EventSpec {
            matcher: MatchField::None,
            tool: false,
            exit2: Nothing,
            plain_stdout_is_context: false,
            additional_context: false,
            permission: &[],
        }
    }

    /// Matchers are tested against the top-level string `field`.
    pub const fn on(field: &'static str) -> EventSpec {
        EventSpec { matcher: MatchField::Field(field), ..EventSpec::all() }
    }

    /// Matchers are tested against the file name of the path in `field`.
    pub const fn on_basename(field: &'static str) -> EventSpec {
        EventSpec { matcher: MatchField::Basename(field), ..EventSpec::all() }
    }

    /// A tool event: matched on `tool_name`, with `if` rules.
    pub const fn tool() -> EventSpec {
        EventSpec { tool: true, ..EventSpec::on("tool_name") }
    }

    pub const fn exit2(self, exit2: Exit2) -> EventSpec {
        EventSpec { exit2, ..self }
    }

    pub const fn plain_context(self) -> EventSpec {
        EventSpec { plain_stdout_is_context: true, ..self }
    }

    pub const fn context(self) -> EventSpec {
        EventSpec { additional_context: true, ..self }
    }

    pub const fn permission(self, decisions: &'static [&'static str]) -> EventSpec {
        EventSpec { permission: decisions, ..self }
    }
}

impl HookEvent {
    /// Parses an exact known event name; `preToolUse` is not `PreToolUse`, and a name hookmux
    /// does not know is `None`.
    pub fn from_name(name: &str) -> Option<HookEvent> {
        HookEvent::ALL.iter().copied().find(|e| e.as_str() == name)
    }

    /// Parses an event name as a host may send it: a known name, or any other PascalCase name
    /// (`[A-Z][A-Za-z0-9]*`, at most 64 bytes) as [`HookEvent::Other`]. A known name written in
    /// another case (`preToolUse`, `PretoolUse`) is `None`: it is a mistake, not a new event.
    pub fn named(name: &str) -> Option<HookEvent> {
        if let Some(known) = HookEvent::from_name(name) {
            return Some(known);
        }
        let pascal = name.len() <= 64
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && name.chars().all(|c| c.is_ascii_alphanumeric());
        let wrong_case = HookEvent::ALL.iter().any(|e| e.as_str().eq_ignore_ascii_case(name));
        (pascal && !wrong_case).then(|| HookEvent::Other(intern(name)))
    }

    /// Whether hookmux knows this event (it is not [`HookEvent::Other`]).
    pub const fn is_known(self) -> bool {
        !matches!(self, HookEvent::Other(_))
    }

    /// The field a matcher is tested against (Claude Code's `getMatchingHooks` table).
    pub const fn match_field(self) -> MatchField {
        self.spec().matcher
    }

    /// Events about one tool call: the ones where a handler's `if` rule is evaluated.
    pub const fn is_tool_event(self) -> bool {
        self.spec().tool
    }

    /// Whether the host reads plain stdout on exit 0 as context for the model.
    pub const fn plain_stdout_is_context(self) -> bool {
        self.spec().plain_stdout_is_context
    }
}

/// One `&'static str` per distinct name, so that [`HookEvent`] stays `Copy`. Names are at most
/// 64 bytes of a PascalCase word, and a process sees few of them.
fn intern(name: &str) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES.get_or_init(Mutex::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(known) = names.get(name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(leaked);
    leaked
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How deep the parsed [`Event::fields`] go. A value nested deeper (an MCP call's input can be
/// nested as deep as the model likes) is kept as the host's JSON text and reads as `null` in the
/// fields: no limit of the JSON reader turns away an event, and nothing walks a tree deep enough
/// to overflow the stack. The hooks' stdin carries such values unchanged.
pub const FIELD_DEPTH: usize = 64;

/// One hook event as the host sent it.
///
/// `Event` never fails to exist: a payload that is not a JSON object (or not JSON at all) is kept
/// as raw text with [`Event::parse_error`] set, and every accessor then reads `None`. Handlers
/// decide what a malformed event means for them, which is almost always "do nothing" (a guard
/// says otherwise: see [`Handler::guards`](crate::Handler::guards)).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The payload as text; bytes that are not UTF-8 read as U+FFFD here.
    raw: Arc<str>,
    /// The host's bytes, when they are not UTF-8 (then `raw` is not them).
    bytes: Option<Arc<[u8]>>,
    /// Parsed from what the host sent, rather than built from fields.
    received: bool,
    fields: Map<String, Value>,
    /// Values nested deeper than [`FIELD_DEPTH`], as the host's JSON text, by JSON pointer; each
    /// reads as `null` in `fields`.
    deep: Arc<BTreeMap<String, String>>,
    parse_error: Option<String>,
}

impl Event {
    /// Parses a payload. Invalid JSON, or JSON that is not an object, gives an event with no
    /// fields and a [`parse_error`](Event::parse_error).
    pub fn parse(raw: &str) -> Event {
        Event::parse_text(raw.into(), None)
    }

    /// Parses the bytes a host wrote. Bytes that are not UTF-8 read as U+FFFD in the fields, and
    /// [`raw_bytes`](Event::raw_bytes) keeps them as they came.
    pub fn parse_bytes(bytes: Vec<u8>) -> Event {
        match String::from_utf8(bytes) {
            Ok(text) => Event::parse_text(text.into(), None),
            Err(err) => {
                let bytes: Arc<[u8]> = err.into_bytes().into();
                Event::parse_text(String::from_utf8_lossy(&bytes).into(), Some(bytes))
            }
        }
    }

    fn parse_text(raw: Arc<str>, bytes: Option<Arc<[u8]>>) -> Event {
        let mut deep = BTreeMap::new();
        let parsed = if raw.trim().is_empty() {
            Err("the event is empty".to_string())
        } else {
            let mut read = read_shallow(&raw, &mut deep);
            if read.is_err() {
                // A string holding half a surrogate pair is valid JSON (JavaScript writes one as
                // `\ud800`) that serde_json will not read: the fields get U+FFFD in its place.
                if let Some(text) = without_lone_surrogates(&raw) {
                    deep.clear();
                    read = read_shallow(&text, &mut deep);
                }
            }
            match read {
                Ok(Value::Object(fields)) => Ok(fields),
                Ok(other) => Err(format!("the event is a JSON {}, not an object", json_kind(&other))),
                Err(err) => Err(format!("the event is not valid JSON: {err}")),
            }
        };
        match parsed {
            Ok(fields) => Event { raw, bytes, received: true, fields, deep: Arc::new(deep), parse_error: None },
            Err(message) => Event {
                raw,
                bytes,
                received: true,
                fields: Map::new(),
                deep: Arc::default(),
                parse_error: Some(message),
            },
        }
    }

    /// An event built from fields (tests, fixtures, host adapters).
    pub fn from_fields(fields: Map<String, Value>) -> Event {
        let raw = Value::Object(fields.clone()).to_string();
        Event { raw: raw.into(), bytes: None, received: false, fields, deep: Arc::default(), parse_error: None }
    }

    /// An event built from fields taken from this one (a host adapter's translation): values too
    /// deep for the fields that are still where they were read come back into its JSON.
    pub fn with_fields(&self, fields: Map<String, Value>) -> Event {
        self.translated(fields, &[("", "")])
    }

    /// An event built from fields taken from this one, some of them moved: `moves` are JSON
    /// pointers, each `(from, to)` taking a value too deep for the fields from under `from` in
    /// this event to under `to` in the new one (OpenCode's `/output/args` is Claude's
    /// `/tool_input`). Deep values under no `from` are left out.
    pub fn translated(&self, fields: Map<String, Value>, moves: &[(&str, &str)]) -> Event {
        if self.deep.is_empty() {
            return Event::from_fields(fields);
        }
        let mut deep = BTreeMap::new();
        for (pointer, text) in self.deep.iter() {
            let moved = moves.iter().find_map(|(from, to)| {
                let rest = pointer.strip_prefix(from)?;
                (rest.is_empty() || rest.starts_with('/')).then(|| format!("{to}{rest}"))
            });
            if let Some(moved) = moved {
                deep.insert(moved, text.clone());
            }
        }
        let raw = splice(&fields, &deep);
        Event { raw: raw.into(), bytes: None, received: false, fields, deep: Arc::new(deep), parse_error: None }
    }

    /// The payload as text: as received for a parsed event (with U+FFFD for bytes that are not
    /// UTF-8), the JSON of the fields for a built one.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// The payload exactly as received, byte for byte: what command hooks get on stdin under a
    /// host whose events need no translation.
    pub fn raw_bytes(&self) -> &[u8] {
        self.bytes.as_deref().unwrap_or(self.raw.as_bytes())
    }

    /// What a command hook gets on stdin: the host's bytes unchanged for an event as received;
    /// for one built from fields (a host adapter's translation), its JSON and a newline. Shared
    /// with the event rather than copied: an event can be as large as the host can send.
    pub fn hook_stdin(&self) -> Arc<[u8]> {
        match (&self.bytes, self.received) {
            (Some(bytes), true) => bytes.clone(),
            (None, true) => Arc::<[u8]>::from(self.raw.clone()),
            (_, false) => {
                let mut stdin = Vec::with_capacity(self.raw.len() + 1);
                stdin.extend_from_slice(self.raw.as_bytes());
                stdin.push(b'\n');
                stdin.into()
            }
        }
    }

    /// Why the payload could not be read as a JSON object, if it could not.
    pub fn parse_error(&self) -> Option<&str> {
        self.parse_error.as_deref()
    }

    /// The payload's fields, in the host's order. Values nested deeper than [`FIELD_DEPTH`]
    /// read as `null`.
    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// The payload as compact JSON in the host's key order, deep values included.
    pub fn to_compact_json(&self) -> String {
        if self.parse_error.is_some() {
            return self.raw.trim().to_string();
        }
        if self.deep.is_empty() {
            return Value::Object(self.fields.clone()).to_string();
        }
        splice(&self.fields, &self.deep)
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

    /// `hook_event_name` as an event: a known one, or [`HookEvent::Other`] for a PascalCase
    /// name hookmux does not know; `None` when absent or not an event name.
    pub fn kind(&self) -> Option<HookEvent> {
        self.name().and_then(HookEvent::named)
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

fn read_shallow(text: &str, deep: &mut BTreeMap<String, String>) -> serde_json::Result<Value> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let seed = Shallow { depth: 0, pointer: &mut String::new(), deep };
    let value = seed.deserialize(&mut reader)?;
    reader.end()?;
    Ok(value)
}

/// `text` with every `\u` escape of a lone surrogate made `\ufffd`, or `None` when it has none.
fn without_lone_surrogates(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let unit = |at: usize| {
        let hex = bytes.get(at..at + 6).filter(|e| e.starts_with(b"\\u"))?;
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    };
    let mut lone = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at += 1;
            continue;
        }
        match unit(at) {
            Some(0xD800..=0xDBFF) if matches!(unit(at + 6), Some(0xDC00..=0xDFFF)) => at += 12,
            Some(0xD800..=0xDFFF) => {
                lone.push(at);
                at += 6;
            }
            Some(_) => at += 6,
            // Any other escape is two characters: `\\` must not start one with its second.
            None => at += 2,
        }
    }
    if lone.is_empty() {
        return None;
    }
    let mut fixed = text.as_bytes().to_vec();
    for at in lone {
        fixed[at..at + 6].copy_from_slice(b"\\ufffd");
    }
    String::from_utf8(fixed).ok()
}

/// Reads a JSON value as a [`Value`] down to [`FIELD_DEPTH`], and below that as the text it is:
/// serde_json skips over a value it keeps as text without recursing, so depth costs no stack.
struct Shallow<'a> {
    depth: usize,
    pointer: &'a mut String,
    deep: &'a mut BTreeMap<String, String>,
}

impl<'de> DeserializeSeed<'de> for Shallow<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        if self.depth < FIELD_DEPTH {
            return deserializer.deserialize_any(self);
        }
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        if raw.get().starts_with(['[', '{']) {
            self.deep.insert(self.pointer.clone(), raw.get().to_string());
            return Ok(Value::Null);
        }
        serde_json::from_str(raw.get()).map_err(serde::de::Error::custom)
    }
}

impl<'de> Visitor<'de> for Shallow<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        let len = self.pointer.len();
        loop {
            self.pointer.truncate(len);
            self.pointer.push('/');
            self.pointer.push_str(&items.len().to_string());
            let seed = Shallow { depth: self.depth + 1, pointer: &mut *self.pointer, deep: &mut *self.deep };
            match seq.next_element_seed(seed)? {
                Some(item) => items.push(item),
                None => break,
            }
        }
        self.pointer.truncate(len);
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        let len = self.pointer.len();
        while let Some(key) = map.next_key::<String>()? {
            self.pointer.truncate(len);
            push_token(self.pointer, &key);
            let seed = Shallow { depth: self.depth + 1, pointer: &mut *self.pointer, deep: &mut *self.deep };
            let value = map.next_value_seed(seed)?;
            fields.insert(key, value);
        }
        self.pointer.truncate(len);
        Ok(Value::Object(fields))
    }
}

/// Appends `/key` to a JSON pointer (RFC 6901: `~` is `~0`, `/` is `~1`).
fn push_token(pointer: &mut String, key: &str) {
    pointer.push('/');
    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
}

/// The JSON of `fields` with the values kept as text back where they were read: a `null` at a
/// pointer of `deep` is that text.
fn splice(fields: &Map<String, Value>, deep: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    write_object(&mut out, fields, &mut String::new(), deep);
    out
}

fn write_object(out: &mut String, fields: &Map<String, Value>, pointer: &mut String, deep: &BTreeMap<String, String>) {
    let len = pointer.len();
    out.push('{');
    for (index, (key, value)) in fields.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str(&Value::from(key.as_str()).to_string());
        out.push(':');
        push_token(pointer, key);
        write_value(out, value, pointer, deep);
        pointer.truncate(len);
    }
    out.push('}');
}

fn write_value(out: &mut String, value: &Value, pointer: &mut String, deep: &BTreeMap<String, String>) {
    match value {
        Value::Null => out.push_str(deep.get(pointer.as_str()).map_or("null", String::as_str)),
        Value::Object(fields) => write_object(out, fields, pointer, deep),
        Value::Array(items) => {
            let len = pointer.len();
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                pointer.push('/');
                pointer.push_str(&index.to_string());
                write_value(out, item, pointer, deep);
                pointer.truncate(len);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
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
        assert_eq!(HookEvent::named("PreModelSwitch"), Some(HookEvent::PreModelSwitch));
        assert_eq!(HookEvent::named("preToolUse"), None);
        assert_eq!(HookEvent::named("PretoolUse"), None);
        assert_eq!(HookEvent::named("pre-tool-use"), None);
        let future = HookEvent::named("PreFutureThing");
        assert_eq!(future, Some(HookEvent::Other("PreFutureThing")));
        assert_eq!(future.map(HookEvent::as_str), Some("PreFutureThing"));
        assert_eq!(future.map(HookEvent::spec), Some(&EventSpec::GENERIC));
    }

    #[test]
    fn every_event_of_the_host_is_known() {
        // Claude Code 2.1.328's own event list.
        let host = [
            "PreToolUse",
            "PostToolUse",
            "PostToolUseFailure",
            "PostToolBatch",
            "Notification",
            "UserPromptSubmit",
            "UserPromptExpansion",
            "SessionStart",
            "SessionEnd",
            "Stop",
            "StopFailure",
            "SubagentStart",
            "SubagentStop",
            "PreCompact",
            "PostCompact",
            "PreModelSwitch",
            "PostModelSwitch",
            "PermissionRequest",
            "PermissionDenied",
            "Setup",
            "TeammateIdle",
            "TaskCreated",
            "TaskCompleted",
            "Elicitation",
            "ElicitationResult",
            "ConfigChange",
            "WorktreeCreate",
            "WorktreeRemove",
            "InstructionsLoaded",
            "CwdChanged",
            "FileChanged",
            "DirectoryAdded",
            "MessageDisplay",
        ];
        assert_eq!(HookEvent::ALL.len(), host.len());
        for name in host {
            assert!(HookEvent::from_name(name).is_some(), "{name}");
        }
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
    fn depth_beyond_the_fields_is_kept_as_text() {
        let depth = 200_000;
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let raw = format!(r#"{{"hook_event_name":"PreToolUse","tool_input":{{"file_path":".env","x":{deep}}},"z":1}}"#);
        let event = Event::parse(&raw);
        assert_eq!(event.parse_error(), None);
        assert_eq!(event.tool_input_str("file_path"), Some(".env"));
        assert_eq!(event.to_compact_json(), raw);
        let translated = event.with_fields(event.fields().clone());
        assert_eq!(translated.raw(), raw);
        let mut fields = Map::new();
        fields.insert("args".into(), event.fields()["tool_input"].clone());
        let moved = event.translated(fields, &[("/tool_input", "/args")]);
        assert_eq!(moved.raw(), format!(r#"{{"args":{{"file_path":".env","x":{deep}}}}}"#));
        // Built from the fields alone, the deep value is the null it reads as.
        assert!(Event::from_fields(event.fields().clone()).raw().len() < 1000);
    }

    #[test]
    fn lone_surrogates_read_as_replacement_characters() {
        let event = Event::parse(r#"{"prompt":"a\ud800b\\ud800\ud83d\ude00\udc00"}"#);
        assert_eq!(event.parse_error(), None);
        assert_eq!(event.prompt(), Some("a\u{fffd}b\\ud800\u{1f600}\u{fffd}"));
        assert_eq!(without_lone_surrogates(r#"{"a":"\\ud800"}"#), None);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_kept() {
        let bytes = b"{\"prompt\":\"a\xffb\"}".to_vec();
        let event = Event::parse_bytes(bytes.clone());
        assert_eq!(event.prompt(), Some("a\u{fffd}b"));
        assert_eq!(event.raw_bytes(), bytes);
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
        let e = Event::parse(r#"{"hook_event_name":"PostModelSwitch","to_model":"claude-opus-4-6"}"#);
        assert_eq!(e.match_query().as_deref(), Some("claude-opus-4-6"));
        let e = Event::parse(r#"{"hook_event_name":"PreFutureThing","tool_name":"Bash"}"#);
        assert_eq!(e.kind(), Some(HookEvent::Other("PreFutureThing")));
        assert_eq!(e.match_query(), None);
    }
}
