//! `hookmux memory import FILE`: brewcode's `KNOWLEDGE.jsonl`, or hookmux's JSON format, told
//! apart by content.
//!
//! - A file that is one JSON array, or one JSON object with `memories`, `facts` or `digests`,
//!   is the JSON format (see `docs/src/handlers/wakeup.md`).
//! - Anything else is read as JSON Lines of brewcode knowledge entries
//!   (`{"ts": …, "t": "❌|✅|ℹ️", "txt": …, "src": …}`), one memory each.
//!
//! Every imported row carries a key derived from its content (or its `id`), so importing the
//! same file again adds nothing twice.

use super::dates;
use super::store::{NewFact, NewMemory, Status};
use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

/// Titles of imported knowledge entries are cut to this many characters.
pub const TITLE_CHARS: usize = 120;

/// Which format a file was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Knowledge,
    Json,
}

/// A digest to import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewDigest {
    pub title: String,
    pub body: String,
    pub created_at: i64,
    pub import_key: String,
}

/// What a file holds, ready to insert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub format: Format,
    pub memories: Vec<NewMemory>,
    pub facts: Vec<NewFact>,
    pub digests: Vec<NewDigest>,
    /// Entries skipped, each with where it is and why.
    pub warnings: Vec<String>,
}

/// Reads a file's text into a batch for `project`; `now` dates entries without a usable time.
/// `Err` names the JSON path of an entry the JSON format cannot take.
pub fn parse(text: &str, project: &str, now: i64) -> Result<Batch, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(items)) => {
            json_batch(&Map::from_iter([("memories".to_string(), Value::Array(items))]), project, now)
        }
        Ok(Value::Object(map)) if ["memories", "facts", "digests"].iter().any(|k| map.contains_key(*k)) => {
            json_batch(&map, project, now)
        }
        _ => Ok(knowledge_batch(text, project, now)),
    }
}

/// brewcode knowledge: each valid line is one memory; invalid lines are skipped with a warning.
fn knowledge_batch(text: &str, project: &str, now: i64) -> Batch {
    let mut batch =
        Batch { format: Format::Knowledge, memories: vec![], facts: vec![], digests: vec![], warnings: vec![] };
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let entry = match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(entry)) => entry,
            Ok(_) => {
                batch.warnings.push(format!("line {line_no}: not a JSON object; skipped"));
                continue;
            }
            Err(err) => {
                batch.warnings.push(format!("line {line_no}: not JSON ({err}); skipped"));
                continue;
            }
        };
        let Some(txt) = entry.get("txt").and_then(Value::as_str).filter(|t| !t.trim().is_empty()) else {
            batch.warnings.push(format!("line {line_no}: no `txt` text; skipped"));
            continue;
        };
        let t = entry.get("t").and_then(Value::as_str).unwrap_or("ℹ️");
        let src = entry.get("src").and_then(Value::as_str).filter(|s| !s.trim().is_empty());
        let ts = entry.get("ts").and_then(Value::as_str);
        let created_at = ts.and_then(dates::parse_timestamp).unwrap_or(now);
        let mut memory = NewMemory::new(project, &knowledge_title(txt), created_at);
        memory.body = txt.to_string();
        memory.kind = knowledge_kind(t).to_string();
        memory.source = src.unwrap_or("knowledge").to_string();
        memory.import_key = Some(key(&["knowledge", ts.unwrap_or_default(), t, txt, src.unwrap_or_default()]));
        batch.memories.push(memory);
    }
    batch
}

/// The first line of the text, trimmed, up to [`TITLE_CHARS`] characters.
pub fn knowledge_title(txt: &str) -> String {
    let first = txt.trim().lines().next().unwrap_or_default().trim();
    first.chars().take(TITLE_CHARS).collect()
}

/// brewcode's entry types as memory kinds.
pub fn knowledge_kind(t: &str) -> &'static str {
    match t.trim_end_matches('\u{fe0f}') {
        "❌" => "avoid",
        "✅" => "practice",
        "ℹ" => "info",
        _ => "note",
    }
}

fn json_batch(map: &Map<String, Value>, project: &str, now: i64) -> Result<Batch, String> {
    let mut batch = Batch { format: Format::Json, memories: vec![], facts: vec![], digests: vec![], warnings: vec![] };
    for (index, item) in list(map, "memories")?.iter().enumerate() {
        batch.memories.push(json_memory(item, &format!("memories[{index}]"), project, now)?);
    }
    for (index, item) in list(map, "facts")?.iter().enumerate() {
        batch.facts.push(json_fact(item, &format!("facts[{index}]"), project, now)?);
    }
    for (index, item) in list(map, "digests")?.iter().enumerate() {
        let at = format!("digests[{index}]");
        let entry = object(item, &at)?;
        let body = required(entry, "body", &at)?;
        batch.digests.push(NewDigest {
            title: optional(entry, "title", &at)?.unwrap_or_default(),
            body,
            created_at: timestamp(entry, "created_at", &at)?.unwrap_or(now),
            import_key: import_key(entry, item, "digest"),
        });
    }
    Ok(batch)
}

fn json_memory(item: &Value, at: &str, project: &str, now: i64) -> Result<NewMemory, String> {
    let entry = object(item, at)?;
    let title = required(entry, "title", at)?;
    let mut memory = NewMemory::new(project, title.trim(), timestamp(entry, "created_at", at)?.unwrap_or(now));
    memory.synopsis = optional(entry, "synopsis", at)?.unwrap_or_default();
    memory.body = optional(entry, "body", at)?.unwrap_or_default();
    if let Some(kind) = optional(entry, "kind", at)? {
        memory.kind = kind;
    }
    if let Some(source) = optional(entry, "source", at)? {
        memory.source = source;
    }
    if let Some(status) = optional(entry, "status", at)? {
        memory.status = Status::parse(&status)
            .ok_or_else(|| format!("{at}.status: `{status}` is not one of active, proposed, rejected"))?;
    }
    (memory.scope_kind, memory.scope_key) = scope(entry, at)?;
    memory.expires_at = expiry(entry, at)?;
    memory.import_key = Some(import_key(entry, item, "memory"));
    Ok(memory)
}

fn json_fact(item: &Value, at: &str, project: &str, now: i64) -> Result<NewFact, String> {
    let entry = object(item, at)?;
    let (scope_kind, scope_key) = scope(entry, at)?;
    Ok(NewFact {
        project: project.to_string(),
        subject: required(entry, "subject", at)?,
        predicate: required(entry, "predicate", at)?,
        object: required(entry, "object", at)?,
        scope_kind,
        scope_key,
        source_memory_id: None,
        created_at: timestamp(entry, "created_at", at)?.unwrap_or(now),
        expires_at: expiry(entry, at)?,
        import_key: Some(import_key(entry, item, "fact")),
    })
}

fn list<'a>(map: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(format!("{key}: must be a list")),
    }
}

fn object<'a>(item: &'a Value, at: &str) -> Result<&'a Map<String, Value>, String> {
    item.as_object().ok_or_else(|| format!("{at}: must be an object"))
}

fn optional(entry: &Map<String, Value>, key: &str, at: &str) -> Result<Option<String>, String> {
    match entry.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("{at}.{key}: must be a string")),
    }
}

fn required(entry: &Map<String, Value>, key: &str, at: &str) -> Result<String, String> {
    optional(entry, key, at)?.filter(|s| !s.trim().is_empty()).ok_or_else(|| format!("{at}.{key}: is required"))
}

fn timestamp(entry: &Map<String, Value>, key: &str, at: &str) -> Result<Option<i64>, String> {
    match optional(entry, key, at)? {
        None => Ok(None),
        Some(text) => dates::parse_timestamp(&text)
            .map(Some)
            .ok_or_else(|| format!("{at}.{key}: `{text}` is not an RFC 3339 timestamp or a YYYY-MM-DD date")),
    }
}

fn expiry(entry: &Map<String, Value>, at: &str) -> Result<Option<String>, String> {
    match optional(entry, "expires_at", at)? {
        None => Ok(None),
        Some(text) => match dates::parse_date(&text) {
            Some(_) => Ok(Some(text.trim().to_string())),
            None => Err(format!("{at}.expires_at: `{text}` is not a YYYY-MM-DD date")),
        },
    }
}

/// `"scope": {"kind": "user", "key": "alice"}` or `"scope": "user:alice"`.
fn scope(entry: &Map<String, Value>, at: &str) -> Result<(Option<String>, String), String> {
    match entry.get("scope") {
        None | Some(Value::Null) => Ok((None, String::new())),
        Some(Value::String(text)) => parse_scope(text).map_err(|err| format!("{at}.scope: {err}")),
        Some(Value::Object(scope)) => {
            let kind = optional(scope, "kind", &format!("{at}.scope"))?;
            let key = optional(scope, "key", &format!("{at}.scope"))?.unwrap_or_default();
            let text = match kind {
                Some(kind) if key.is_empty() => kind,
                Some(kind) => format!("{kind}:{key}"),
                None => return Ok((None, String::new())),
            };
            parse_scope(&text).map_err(|err| format!("{at}.scope: {err}"))
        }
        Some(_) => Err(format!("{at}.scope: must be a string such as `user:alice` or an object")),
    }
}

/// `KIND` or `KIND:KEY`. Broadcast kinds (team, project, global) take no key; narrow kinds
/// (user, agent, session) need one.
pub fn parse_scope(text: &str) -> Result<(Option<String>, String), String> {
    let (kind, key) = match text.split_once(':') {
        Some((kind, key)) => (kind.trim(), key.trim()),
        None => (text.trim(), ""),
    };
    if super::store::BROADCAST_SCOPES.contains(&kind) {
        return Ok((Some(kind.to_string()), key.to_string()));
    }
    if super::store::NARROW_SCOPES.contains(&kind) {
        if key.is_empty() {
            return Err(format!("a `{kind}` scope needs a key, such as `{kind}:NAME`"));
        }
        return Ok((Some(kind.to_string()), key.to_string()));
    }
    Err(format!("`{kind}` is not a scope kind; use team, project, global, user:KEY, agent:KEY or session:KEY"))
}

/// The entry's own `id` when it has one, else a hash of its content.
fn import_key(entry: &Map<String, Value>, item: &Value, what: &str) -> String {
    match entry.get("id") {
        Some(Value::String(id)) if !id.is_empty() => format!("{what}:id:{id}"),
        Some(Value::Number(id)) => format!("{what}:id:{id}"),
        _ => key(&[what, &item.to_string()]),
    }
}

fn key(parts: &[&str]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.finalize().iter().map(|byte| format!("{byte:02x}")).collect()
}
