//! KNOWLEDGE.jsonl: what agents learned about a task, one JSON object a line.
//!
//! `{"ts":"2026-02-09T12:00:00.000Z","t":"❌","txt":"Avoid SELECT *","src":"sql_expert"}`: `t` is
//! the kind (`❌` avoid, `✅` do, `ℹ️` know, in that priority), `txt` the lesson, `src` who
//! learned it. Three operations read or rewrite the file:
//!
//! - [`compress`] builds the `## K` block injected into agents' prompts: deduplicated by the
//!   first 100 characters of `txt` (the oldest entry wins), at most 10 per kind, texts cut to 50
//!   characters, one line per kind; over the token budget (characters / 4), 5/5/3 per kind.
//! - [`compact`] rewrites the file once it holds 80 % of `maxEntries`: deduplicated (the newest
//!   wins, an unreadable `ts` becomes the epoch), sorted by kind then newest first, cut to
//!   `maxEntries`.
//! - [`validate`] refuses entries that narrate instead of teach (`Done`, `Let me…`, `Phase 2…`).
//!
//! Lengths and cuts count UTF-16 code units, as JavaScript does (`❌` is one, `ℹ️` two).

use super::config::Level;
use super::hook::Hook;
use super::js::{self, text, Js, JsError};
use super::knowledge_file;
use super::patterns;
use super::task;
use serde_json::{Map, Value};

pub const AVOID: &str = "❌";
pub const BEST: &str = "✅";
pub const INFO: &str = "ℹ️";

/// The file beside a task's PLAN.md.
pub fn knowledge_path(task_path: &str) -> String {
    js::path::join(&[&js::path::dirname(task_path), "KNOWLEDGE.jsonl"])
}

/// One line of KNOWLEDGE.jsonl as JavaScript holds it after `readKnowledge`.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    Object(Map<String, Value>),
    /// An array line: JavaScript hangs `t` (always `ℹ️`) and `ts` on it as properties, which
    /// `JSON.stringify` then leaves out.
    Array {
        items: Vec<Value>,
        ts: Option<Value>,
    },
    /// `0`, `false` or `""`: kept, and without properties.
    Falsy(Value),
}

impl Entry {
    fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Entry::Object(fields) => fields.get(key),
            Entry::Array { ts, .. } if key == "ts" => ts.as_ref(),
            _ => None,
        }
    }

    /// `entry.t === kind`.
    fn is_kind(&self, kind: &str) -> bool {
        match self {
            Entry::Object(fields) => fields.get("t").and_then(Value::as_str) == Some(kind),
            Entry::Array { .. } => kind == INFO,
            Entry::Falsy(_) => false,
        }
    }

    /// `priorityOrder[entry.t] ?? 3`.
    fn priority(&self) -> u8 {
        let kind = match self {
            Entry::Object(fields) => js::string_of(fields.get("t")),
            Entry::Array { .. } => INFO.to_string(),
            Entry::Falsy(_) => return 3,
        };
        match kind.as_str() {
            AVOID => 0,
            BEST => 1,
            INFO => 2,
            _ => 3,
        }
    }

    pub fn txt(&self) -> Option<&Value> {
        self.get("txt")
    }

    fn set_ts(&mut self, value: Value) -> Js<()> {
        match self {
            Entry::Object(fields) => {
                fields.insert("ts".into(), value);
                Ok(())
            }
            Entry::Array { ts, .. } => {
                *ts = Some(value);
                Ok(())
            }
            Entry::Falsy(primitive) => Err(js::cannot_create_property("ts", primitive)),
        }
    }

    /// `JSON.stringify(entry)`.
    pub fn to_json(&self) -> String {
        match self {
            Entry::Object(fields) => serde_json::to_string(&OrderedMap(fields)).unwrap_or_default(),
            Entry::Array { items, .. } => {
                serde_json::to_string(&items.iter().map(js::Ordered).collect::<Vec<_>>()).unwrap_or_default()
            }
            Entry::Falsy(value) => js::stringify(value),
        }
    }
}

/// An entry's fields serialized in JavaScript's key order, without copying them.
struct OrderedMap<'m>(&'m Map<String, Value>);

impl serde::Serialize for OrderedMap<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        // Integer-like keys go first; that rare entry pays for a copy to be reordered.
        if self.0.keys().any(|key| js::array_index(key).is_some()) {
            return js::Ordered(&Value::Object(self.0.clone())).serialize(serializer);
        }
        let mut out = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            out.serialize_entry(key, &js::Ordered(value))?;
        }
        out.end()
    }
}

/// KNOWLEDGE.jsonl parsed as `readKnowledge` parses it.
pub struct Parsed {
    /// The entries, or the TypeError `readKnowledge` throws on a line that is a truthy primitive
    /// (`5`, `"text"`, `true`): it cannot hang a default `t` on it.
    pub entries: Js<Vec<Entry>>,
    /// Lines that are not JSON: 1-based line number and the line's first 50 characters.
    pub invalid: Vec<(usize, String)>,
}

/// Parses the file's text: blank lines skipped, lines that are not JSON dropped, `null` lines
/// dropped, and a missing or falsy `t` set to `ℹ️`.
pub fn parse(content: &str) -> Parsed {
    let mut invalid = Vec::new();
    let mut values = Vec::new();
    for (index, line) in content.split('\n').enumerate() {
        if text::trim(line).is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(value) => values.push(value),
            Err(_) => invalid.push((index + 1, text::prefix16(line, 50))),
        }
    }
    let entries = values
        .into_iter()
        .filter(|value| !value.is_null())
        .map(|value| match value {
            Value::Object(mut fields) => {
                if !js::truthy(fields.get("t")) {
                    fields.insert("t".into(), Value::from(INFO));
                }
                Ok(Entry::Object(fields))
            }
            Value::Array(items) => Ok(Entry::Array { items, ts: None }),
            falsy if !js::truthy(Some(&falsy)) => Ok(Entry::Falsy(falsy)),
            primitive => Err(js::cannot_create_property("t", &primitive)),
        })
        .collect();
    Parsed { entries, invalid }
}

/// `txt?.substring(0, 100) || ''` as a dedupe key; a `txt` that is neither a string nor missing
/// throws, as calling `.substring` on it does.
fn first_seen_key(entry: &Entry) -> Js<Vec<u16>> {
    match entry.txt() {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(text::key16(s, 100)),
        Some(_) => Err(JsError::new("e.txt?.substring is not a function")),
    }
}

/// `compressKnowledge(entries, maxTokens)`: the `## K` block, or `""` when nothing is worth
/// injecting.
pub fn compress(entries: &[Entry], max_tokens: f64) -> Js<String> {
    if entries.is_empty() {
        return Ok(String::new());
    }
    let mut kinds: Vec<(&str, Vec<&Entry>)> = Vec::new();
    for kind in [AVOID, BEST, INFO] {
        let mut seen = std::collections::HashSet::new();
        let mut kept = Vec::new();
        for entry in entries.iter().filter(|e| e.is_kind(kind)) {
            if seen.insert(first_seen_key(entry)?) {
                kept.push(entry);
            }
        }
        kept.truncate(10);
        kinds.push((kind, kept));
    }
    let render = |limits: [usize; 3]| -> String {
        let lines: Vec<String> = kinds
            .iter()
            .zip(limits)
            .filter_map(|((kind, kept), limit)| {
                let items: Vec<String> = kept.iter().take(limit).filter_map(|entry| cut(entry.txt())).collect();
                (!items.is_empty()).then(|| format!("{kind} {}", items.join("|")))
            })
            .collect();
        if lines.is_empty() {
            String::new()
        } else {
            format!("## K\n{}", lines.join("\n"))
        }
    };
    let result = render([10, 10, 10]);
    if result.is_empty() {
        return Ok(result);
    }
    let estimated_tokens = (text::len16(&result) as f64 / 4.0).ceil();
    if estimated_tokens > max_tokens {
        return Ok(render([5, 5, 3]));
    }
    Ok(result)
}

/// A text cut to 50 characters (47 and `...`); `None` for an empty or missing one.
fn cut(txt: Option<&Value>) -> Option<String> {
    let txt = txt.and_then(Value::as_str).filter(|s| !s.is_empty())?;
    Some(if text::len16(txt) > 50 { format!("{}...", text::prefix16(txt, 47)) } else { txt.to_string() })
}

/// `localCompact`'s rewrite of the entries, or `None` below the threshold (80 % of `max_entries`,
/// rounded down: 80 entries compact under the default 100).
pub fn compact(entries: Vec<Entry>, max_entries: f64) -> Js<Option<Vec<Entry>>> {
    if (entries.len() as f64) < threshold(max_entries) {
        return Ok(None);
    }
    dedupe_and_sort(entries, max_entries).map(Some)
}

/// The entry count at which [`compact`] rewrites the file.
pub fn threshold(max_entries: f64) -> f64 {
    (max_entries * 0.8).floor()
}

/// [`compact`]'s rewrite without the threshold.
pub fn dedupe_and_sort(mut entries: Vec<Entry>, max_entries: f64) -> Js<Vec<Entry>> {
    // Keyed by the first 100 characters of txt; the newest ts wins and keeps the first one's place.
    let mut order: Vec<Vec<u16>> = Vec::new();
    let mut newest: std::collections::HashMap<Vec<u16>, (Entry, f64)> =
        std::collections::HashMap::with_capacity(entries.len());
    for mut entry in entries.drain(..) {
        let key = match js::or_none(entry.txt()) {
            Some(Value::String(txt)) => text::key16(txt, 100),
            Some(other) => text::key16(&js::string_of(Some(other)), 100),
            None => Vec::new(),
        };
        let at = match js::date::time_of(entry.get("ts")) {
            Some(at) => at,
            None => {
                entry.set_ts(Value::from(js::date::iso(0.0)))?;
                0.0
            }
        };
        match newest.get_mut(&key) {
            Some(existing) => {
                if at > existing.1 {
                    *existing = (entry, at);
                }
            }
            None => {
                order.push(key.clone());
                newest.insert(key, (entry, at));
            }
        }
    }
    let mut kept: Vec<(u8, f64, Entry)> =
        order.iter().filter_map(|key| newest.remove(key)).map(|(entry, at)| (entry.priority(), at, entry)).collect();
    kept.sort_by(|(a, at, _), (b, bt, _)| a.cmp(b).then(bt.total_cmp(at)));
    let limit = if max_entries >= kept.len() as f64 { kept.len() } else { max_entries.max(0.0) as usize };
    kept.truncate(limit);
    Ok(kept.into_iter().map(|(_, _, entry)| entry).collect())
}

/// The file text for entries: one `JSON.stringify` per line, with a final newline.
pub fn render(entries: &[Entry]) -> String {
    let mut out = entries.iter().map(Entry::to_json).collect::<Vec<_>>().join("\n");
    out.push('\n');
    out
}

/// Why `appendKnowledge` refuses an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotAnObject,
    MissingText,
    MissingType,
    SourceNotText,
    /// The entry narrates; the number is the blocklist pattern (0-based) and the text is the
    /// entry's first 30 characters.
    Blocklisted(usize, String),
}

impl Refusal {
    /// brewcode's reason text.
    pub fn reason(&self) -> String {
        match self {
            Refusal::NotAnObject => "not an object".into(),
            Refusal::MissingText => "missing txt".into(),
            Refusal::MissingType => "missing type".into(),
            Refusal::SourceNotText => "invalid src type".into(),
            Refusal::Blocklisted(_, start) => format!("blocklist: {start}"),
        }
    }
}

/// The narration patterns, as brewcode writes them, for messages.
pub use patterns::BLOCKLIST;

/// `validateEntry`: an object with a non-empty text, a kind, a text source if any, and a text
/// that does not narrate.
pub fn validate(entry: &Value) -> Result<(), Refusal> {
    let Value::Object(fields) = entry else { return Err(Refusal::NotAnObject) };
    let Some(Value::String(txt)) = fields.get("txt").filter(|v| js::truthy(Some(v))) else {
        return Err(Refusal::MissingText);
    };
    if !js::truthy(fields.get("t")) {
        return Err(Refusal::MissingType);
    }
    if fields.get("src").is_some_and(|src| !src.is_string()) {
        return Err(Refusal::SourceNotText);
    }
    match patterns::blocklisted(txt) {
        Some(index) => Err(Refusal::Blocklisted(index, text::prefix16(txt, 30))),
        None => Ok(()),
    }
}

/// The line `appendKnowledge` writes: the entry's fields, then `ts` (kept if given, else now).
pub fn entry_line(entry: &Map<String, Value>, now_iso: &str) -> String {
    let mut fields = entry.clone();
    let ts = fields.get("ts").filter(|ts| js::truthy(Some(ts))).cloned().unwrap_or_else(|| Value::from(now_iso));
    fields.insert("ts".into(), ts);
    format!("{}\n", js::stringify(&Value::Object(fields)))
}

impl Hook<'_> {
    /// `readKnowledge(path)`, logging unreadable lines in the task's project.
    pub fn read_knowledge(&self, path: &str) -> Js<Vec<Entry>> {
        if !self.exists(path) {
            return Ok(Vec::new());
        }
        let project = task::project_of(path);
        let content = match self.read_text(path) {
            Ok(content) => content,
            Err(error) => {
                self.log_in(&project, Level::Warn, "[knowledge]", &format!("Failed to read {path}: {error}"), None)?;
                return Ok(Vec::new());
            }
        };
        let parsed = parse(&content);
        for (line, start) in parsed.invalid.iter().take(3) {
            self.log_in(
                &project,
                Level::Warn,
                "[knowledge]",
                &format!("Invalid JSON at line {line}: {start}..."),
                None,
            )?;
        }
        let entries = parsed.entries?;
        if parsed.invalid.len() > 3 {
            let message = format!("{} total invalid lines in KNOWLEDGE.jsonl", parsed.invalid.len());
            self.log_in(&project, Level::Warn, "[knowledge]", &message, None)?;
        }
        Ok(entries)
    }

    /// `localCompact(path, maxEntries, cwd)`: `true` when the file was rewritten.
    pub fn compact_knowledge(&self, path: &str, max_entries: f64) -> Js<bool> {
        if !self.exists(path) {
            return Ok(false);
        }
        // Held from the read to the rename: an entry another hookmux writer appends meanwhile
        // would go to the file the rename replaces. A dry run writes nothing, the sidecar
        // included.
        let _lock = match self.dry() {
            true => None,
            false => match knowledge_file::WriterLock::acquire(&self.root_for(path), &self.fs_path(path)) {
                Ok(lock) => Some(lock),
                Err(failure) => {
                    let message = format!("localCompact skipped, cannot lock: {}", failure_message(&failure));
                    self.log(Level::Error, "[knowledge]", &message, super::hook::Tag::None)?;
                    return Ok(false);
                }
            },
        };
        let entries = self.read_knowledge(path)?;
        let Some(compacted) = compact(entries, max_entries)? else { return Ok(false) };
        if self.dry() {
            return Ok(true);
        }
        match self.write_atomic(path, &render(&compacted)) {
            Ok(()) => Ok(true),
            Err(error) => {
                self.log(
                    Level::Error,
                    "[knowledge]",
                    &format!("localCompact write failed: {error}"),
                    super::hook::Tag::None,
                )?;
                Ok(false)
            }
        }
    }

    /// `appendKnowledge(path, entry)`: `false` (logged) when refused or when the write fails.
    pub fn append_knowledge(&self, path: &str, entry: &Map<String, Value>) -> Js<bool> {
        let project = task::project_of(path);
        if let Err(refusal) = validate(&Value::Object(entry.clone())) {
            let message = format!("Skipped invalid entry: {}", refusal.reason());
            self.log_in(&project, Level::Debug, "[knowledge]", &message, None)?;
            return Ok(false);
        }
        if self.dry() {
            return Ok(true);
        }
        match knowledge_file::append_line(
            &self.root_for(path),
            &self.fs_path(path),
            &entry_line(entry, &self.now_iso()),
        ) {
            Ok(()) => Ok(true),
            Err(failure) => {
                let message = format!("appendKnowledge failed: {}", failure_message(&failure));
                self.log_in(&project, Level::Error, "[knowledge]", &message, None)?;
                Ok(false)
            }
        }
    }
}

/// A writer's failure worded as Node words it (`ENOSPC: no space left on device, write`).
fn failure_message(failure: &knowledge_file::Failure) -> String {
    let path = failure.path.as_ref().map(|p| p.to_string_lossy());
    js::errno::message(&failure.error, failure.syscall, path.as_deref(), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entries(lines: &[Value]) -> Vec<Entry> {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        parse(&text).entries.unwrap()
    }

    fn e(t: &str, txt: &str, ts: &str) -> Value {
        json!({"ts": ts, "t": t, "txt": txt, "src": "dev"})
    }

    #[test]
    fn parse_skips_blank_and_bad_lines_and_defaults_the_kind() {
        let parsed = parse("{\"txt\":\"a\"}\n\n  \nnot json\nnull\n0\n[1]\n{\"t\":\"\",\"txt\":\"b\"}\n");
        assert_eq!(parsed.invalid, [(4, "not json".to_string())]);
        let entries = parsed.entries.unwrap();
        assert_eq!(entries.len(), 4);
        assert!(entries[0].is_kind(INFO) && entries[3].is_kind(INFO));
        assert!(matches!(entries[1], Entry::Falsy(_)) && entries[2].is_kind(INFO));
        assert_eq!(parse("5\n").entries.unwrap_err().0, "Cannot create property 't' on number '5'");
    }

    #[test]
    fn compress_orders_kinds_and_keeps_the_oldest_duplicate() {
        let list = entries(&[
            e(INFO, "DB is Postgres", "2026-01-01T00:00:00.000Z"),
            e(AVOID, "No SELECT *", "2026-01-02T00:00:00.000Z"),
            e(BEST, "Use streams", "2026-01-03T00:00:00.000Z"),
            e(AVOID, "No SELECT *", "2026-01-04T00:00:00.000Z"),
            e("?", "unknown kinds are left out", "2026-01-04T00:00:00.000Z"),
            e(AVOID, "No System.out", "2026-01-05T00:00:00.000Z"),
        ]);
        assert_eq!(
            compress(&list, 500.0).unwrap(),
            "## K\n❌ No SELECT *|No System.out\n✅ Use streams\nℹ️ DB is Postgres"
        );
        assert_eq!(compress(&[], 500.0).unwrap(), "");
        assert_eq!(compress(&entries(&[json!({"t": AVOID, "txt": ""})]), 500.0).unwrap(), "");
    }

    #[test]
    fn compress_cuts_long_texts_in_code_units() {
        let long = format!("{}😀tail", "a".repeat(46));
        let list = entries(&[json!({"t": AVOID, "txt": long})]);
        // 46 units, then the first half of the emoji makes 47.
        assert_eq!(compress(&list, 500.0).unwrap(), format!("## K\n❌ {}\u{FFFD}...", "a".repeat(46)));
    }

    #[test]
    fn compress_over_budget_keeps_five_five_three() {
        let mut lines = Vec::new();
        for kind in [AVOID, BEST, INFO] {
            for i in 0..12 {
                lines.push(json!({"t": kind, "txt": format!("{kind} lesson number {i:02} with some words")}));
            }
        }
        let all = compress(&entries(&lines), 10_000.0).unwrap();
        assert_eq!(all.lines().nth(1).unwrap().matches('|').count(), 9);
        let reduced = compress(&entries(&lines), 10.0).unwrap();
        let counts: Vec<usize> = reduced.lines().skip(1).map(|l| l.matches('|').count() + 1).collect();
        assert_eq!(counts, [5, 5, 3]);
    }

    #[test]
    fn compress_throws_on_a_text_that_is_not_a_string() {
        assert!(compress(&entries(&[json!({"t": AVOID, "txt": 5})]), 500.0).is_err());
        assert!(compress(&entries(&[json!({"t": AVOID, "txt": null})]), 500.0).is_ok());
    }

    #[test]
    fn compact_waits_for_eighty_percent() {
        let list: Vec<Value> = (0..79).map(|i| e(BEST, &format!("lesson {i}"), "2026-01-01T00:00:00.000Z")).collect();
        assert_eq!(compact(entries(&list), 100.0).unwrap(), None);
        let mut list = list;
        list.push(e(BEST, "lesson 79", "2026-01-01T00:00:00.000Z"));
        assert_eq!(compact(entries(&list), 100.0).unwrap().unwrap().len(), 80);
    }

    #[test]
    fn compact_keeps_the_newest_duplicate_in_the_first_place_and_sorts() {
        let list = entries(&[
            e(INFO, "same", "2026-01-01T00:00:00.000Z"),
            e(BEST, "b", "2026-01-02T00:00:00.000Z"),
            e(INFO, "same", "2026-01-03T00:00:00.000Z"),
            e(AVOID, "a", "bad time"),
            json!({"t": "?", "txt": "other", "ts": "2026-01-09T00:00:00.000Z"}),
            e(AVOID, "c", "2026-01-04T00:00:00.000Z"),
        ]);
        let out = compact(list, 5.0).unwrap().unwrap();
        let texts: Vec<String> = out.iter().map(|e| js::string_of(e.txt())).collect();
        assert_eq!(texts, ["c", "a", "b", "same", "other"]);
        assert_eq!(out[1].get("ts"), Some(&json!("1970-01-01T00:00:00.000Z")));
        assert_eq!(out[3].get("ts"), Some(&json!("2026-01-03T00:00:00.000Z")));
        let trimmed = compact(
            entries(&[e(AVOID, "x", "2026-01-01T00:00:00.000Z"), e(BEST, "y", "2026-01-01T00:00:00.000Z")]),
            1.0,
        );
        assert_eq!(trimmed.unwrap().unwrap().len(), 1);
    }

    #[test]
    fn compact_throws_where_javascript_cannot_set_ts() {
        assert_eq!(
            compact(parse("0\n").entries.unwrap(), 1.0).unwrap_err().0,
            "Cannot create property 'ts' on number '0'"
        );
    }

    #[test]
    fn validation_is_the_blocklist() {
        assert_eq!(validate(&json!({"t": AVOID, "txt": "Avoid N+1 queries"})), Ok(()));
        for narration in ["Done with it", "let me check", "Phase 3 started", "task completed", "Then I ran", "LGTM"] {
            assert!(
                matches!(validate(&json!({"t": BEST, "txt": narration})), Err(Refusal::Blocklisted(..))),
                "{narration}"
            );
        }
        assert_eq!(validate(&json!({"t": BEST})), Err(Refusal::MissingText));
        assert_eq!(validate(&json!({"txt": "x"})), Err(Refusal::MissingType));
        assert_eq!(validate(&json!({"t": BEST, "txt": "x", "src": 1})), Err(Refusal::SourceNotText));
        assert_eq!(validate(&json!("x")), Err(Refusal::NotAnObject));
        assert_eq!(
            validate(&json!({"t": BEST, "txt": "Finished the whole migration of everything"})).unwrap_err().reason(),
            "blocklist: Finished the whole migration o"
        );
    }

    #[test]
    fn entry_lines_put_ts_last() {
        let entry = json!({"t": BEST, "txt": "x", "src": "s"});
        assert_eq!(
            entry_line(entry.as_object().unwrap(), "2026-01-01T00:00:00.000Z"),
            "{\"t\":\"✅\",\"txt\":\"x\",\"src\":\"s\",\"ts\":\"2026-01-01T00:00:00.000Z\"}\n"
        );
    }
}
