//! Reading the hook event: the user's first prompt (the only place it is extracted), the
//! event's name and session, and the query cut to the length the ranking accepts.
//!
//! Every malformed shape degrades to "no query" or "no metadata": wake-up must never fail
//! because a host changed its payload.

use serde_json::Value;

/// The longest query, in UTF-16 code units (as JavaScript's `String.length` counts them), that
/// reaches the ranking. Pasted logs past this add noise, not relevance.
pub const MAX_USER_QUERY_UTF16: usize = 1000;

/// The event fields wake-up reads besides the prompt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventMetadata {
    /// `hook_event_name`, when it is a string.
    pub hook_event_name: Option<String>,
    /// `session_id`, when it is a string that is not blank.
    pub session_id: Option<String>,
    /// `source` (SessionStart's `startup`, `resume`, …): never used as a query.
    pub source: Option<String>,
}

/// The event's JSON object, or `None` for blank input, invalid JSON, and anything that is not
/// an object (an array included).
fn event_object(raw: Option<&str>) -> Option<serde_json::Map<String, Value>> {
    let raw = raw?;
    if js_trim(raw).is_empty() {
        return None;
    }
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// The user's prompt when the event carries a real one: a UserPromptSubmit event (or one with no
/// string `hook_event_name`, as stripped legacy forwarders send), a string `prompt` that is not
/// blank and is not a slash command. The prompt comes back trimmed, not yet cut to length.
pub fn parse_user_query_from_event(raw: Option<&str>) -> Option<String> {
    let event = event_object(raw)?;
    if let Some(Value::String(name)) = event.get("hook_event_name") {
        if name != "UserPromptSubmit" {
            return None;
        }
    }
    let Some(Value::String(prompt)) = event.get("prompt") else {
        return None;
    };
    let trimmed = js_trim(prompt);
    if trimmed.is_empty() || trimmed.starts_with('/') {
        return None;
    }
    Some(trimmed.to_string())
}

/// The event's name, session and source; empty for anything that is not a JSON object.
pub fn parse_event_metadata(raw: Option<&str>) -> EventMetadata {
    let Some(event) = event_object(raw) else {
        return EventMetadata::default();
    };
    let string = |key: &str| event.get(key).and_then(Value::as_str).map(str::to_string);
    EventMetadata {
        hook_event_name: string("hook_event_name"),
        session_id: string("session_id").filter(|id| !js_trim(id).is_empty()),
        source: string("source"),
    }
}

/// The query the ranking sees: trimmed, `None` when blank, and cut to
/// [`MAX_USER_QUERY_UTF16`] code units. A character that would straddle the cut is dropped
/// whole, which is what JavaScript's `slice` followed by removing a trailing lone high surrogate
/// gives.
pub fn sanitize_user_query(raw: Option<&str>) -> Option<String> {
    let trimmed = js_trim(raw?);
    if trimmed.is_empty() {
        return None;
    }
    let mut units = 0;
    let mut end = trimmed.len();
    for (index, c) in trimmed.char_indices() {
        if units + c.len_utf16() > MAX_USER_QUERY_UTF16 {
            end = index;
            break;
        }
        units += c.len_utf16();
    }
    Some(trimmed[..end].to_string())
}

/// The length JavaScript reports for `text`: UTF-16 code units.
pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// `String.prototype.trim`: Unicode white space plus the byte-order mark, which Rust's `trim`
/// keeps.
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}
