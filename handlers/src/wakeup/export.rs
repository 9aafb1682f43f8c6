//! `hookmux memory export`: the whole store as JSON Lines, lossless, to move it between stores
//! (SQLite and PostgreSQL) or keep a copy; `hookmux memory import` reads it back into either.
//!
//! The first line names the format and its version, `{"format":"hookmux-memory-export",
//! "version":1}`, so an import never takes it for brewcode's `KNOWLEDGE.jsonl`. Every other line
//! is one row with every column: `{"type":"memory",…}`, `{"type":"fact",…}`,
//! `{"type":"digest",…}`. Times are milliseconds since the epoch, as stored. Ids are the source
//! store's: an import gives rows new ids and points each fact at its source memory's new id.

use super::store::{ExportRow, ImportDigest, ImportFact, ImportRows, NewFact, NewMemory, Status};
use serde_json::{json, Map, Value};

/// The `format` of the first line.
pub const FORMAT: &str = "hookmux-memory-export";
/// The version this build writes and reads.
pub const VERSION: u64 = 1;

/// The first line.
pub fn header() -> String {
    json!({"format": FORMAT, "version": VERSION}).to_string()
}

/// One row as a line (without the newline).
pub fn line(row: &ExportRow) -> String {
    let value = match row {
        ExportRow::Memory(m, key) => json!({
            "type": "memory", "id": m.id, "project": m.project, "title": m.title, "synopsis": m.synopsis,
            "body": m.body, "kind": m.kind, "source": m.source, "scope_kind": m.scope_kind,
            "scope_key": m.scope_key, "status": m.status.as_str(), "created_at": m.created_at,
            "expires_at": m.expires_at, "import_key": key,
        }),
        ExportRow::Fact(f, key) => json!({
            "type": "fact", "id": f.id, "project": f.project, "subject": f.subject, "predicate": f.predicate,
            "object": f.object, "status": if f.active { "active" } else { "retired" },
            "scope_kind": f.scope_kind, "scope_key": f.scope_key, "source_memory_id": f.source_memory_id,
            "created_at": f.created_at, "retired_at": f.retired_at, "expires_at": f.expires_at, "import_key": key,
        }),
        ExportRow::Digest(d, key) => json!({
            "type": "digest", "id": d.id, "project": d.project, "title": d.title, "body": d.body,
            "created_at": d.created_at, "import_key": key,
        }),
    };
    value.to_string()
}

/// Whether a file's text is an export: its first non-blank line is the header object.
pub fn is_export(text: &str) -> bool {
    let Some(first) = text.lines().find(|line| !line.trim().is_empty()) else { return false };
    matches!(serde_json::from_str::<Value>(first), Ok(Value::Object(map)) if map.get("format") == Some(&json!(FORMAT)))
}

/// Reads an export. Any line that is not a valid row is an error naming the line: an export is
/// imported whole or not at all.
pub fn parse(text: &str) -> Result<ImportRows, String> {
    let mut lines = text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty());
    let Some((_, first)) = lines.next() else { return Err("the file is empty".into()) };
    let header: Value = serde_json::from_str(first).map_err(|err| format!("line 1: not JSON ({err})"))?;
    match header.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(other) => {
            return Err(format!(
                "line 1: export version {other}; this hookmux reads version {VERSION} (upgrade hookmux)"
            ))
        }
        None => return Err("line 1: the header has no numeric `version`".into()),
    }
    let mut rows = ImportRows::default();
    for (index, text) in lines {
        let at = format!("line {}", index + 1);
        let value: Value = serde_json::from_str(text).map_err(|err| format!("{at}: not JSON ({err})"))?;
        let Value::Object(row) = value else { return Err(format!("{at}: not a JSON object")) };
        let field = Fields { row: &row, at: &at };
        match field.string("type")?.as_str() {
            "memory" => {
                let mut memory =
                    NewMemory::new(&field.string("project")?, &field.string("title")?, field.int("created_at")?);
                memory.synopsis = field.string("synopsis")?;
                memory.body = field.string("body")?;
                memory.kind = field.string("kind")?;
                memory.source = field.string("source")?;
                memory.scope_kind = field.optional_string("scope_kind")?;
                memory.scope_key = field.string("scope_key")?;
                let status = field.string("status")?;
                memory.status = Status::parse(&status)
                    .ok_or_else(|| format!("{at}.status: `{status}` is not one of active, proposed, rejected"))?;
                memory.expires_at = field.optional_string("expires_at")?;
                memory.import_key = field.optional_string("import_key")?;
                rows.memories.push((Some(field.int("id")?), memory));
            }
            "fact" => {
                let status = field.string("status")?;
                let retired_at = field.optional_int("retired_at")?;
                match (status.as_str(), retired_at) {
                    ("active", None) | ("retired", Some(_)) => {}
                    _ => return Err(format!("{at}: status `{status}` does not agree with retired_at")),
                }
                rows.facts.push(ImportFact {
                    fact: NewFact {
                        project: field.string("project")?,
                        subject: field.string("subject")?,
                        predicate: field.string("predicate")?,
                        object: field.string("object")?,
                        scope_kind: field.optional_string("scope_kind")?,
                        scope_key: field.string("scope_key")?,
                        source_memory_id: None,
                        created_at: field.int("created_at")?,
                        expires_at: field.optional_string("expires_at")?,
                        import_key: field.optional_string("import_key")?,
                    },
                    retired_at,
                    source_in_file: field.optional_int("source_memory_id")?,
                });
            }
            "digest" => rows.digests.push(ImportDigest {
                project: field.string("project")?,
                title: field.string("title")?,
                body: field.string("body")?,
                created_at: field.int("created_at")?,
                import_key: field.optional_string("import_key")?,
            }),
            other => return Err(format!("{at}.type: `{other}` is not memory, fact or digest")),
        }
    }
    Ok(rows)
}

/// A row's fields, each read with its line in the message.
struct Fields<'a> {
    row: &'a Map<String, Value>,
    at: &'a str,
}

impl Fields<'_> {
    fn optional_string(&self, key: &str) -> Result<Option<String>, String> {
        match self.row.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(_) => Err(format!("{}.{key}: must be a string or null", self.at)),
        }
    }

    fn string(&self, key: &str) -> Result<String, String> {
        self.optional_string(key)?.ok_or_else(|| format!("{}.{key}: is required", self.at))
    }

    fn optional_int(&self, key: &str) -> Result<Option<i64>, String> {
        match self.row.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => value.as_i64().map(Some).ok_or_else(|| format!("{}.{key}: must be an integer", self.at)),
        }
    }

    fn int(&self, key: &str) -> Result<i64, String> {
        self.optional_int(key)?.ok_or_else(|| format!("{}.{key}: is required", self.at))
    }
}
