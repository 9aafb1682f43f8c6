//! The task lock, `{task}/.lock`: which session runs the active task.
//!
//! `/brewcode:start` writes `{task_path, started_at}`; when the coordinator agent first finishes,
//! `task-bind` adds `session_id` and `bound_at`. From then on, only that session gets knowledge
//! injected, compaction handoffs and a blocked stop. A lock that cannot be trusted (not JSON,
//! fields missing, a `task_path` outside `.claude/tasks/*_task/PLAN.md`, a folder) is deleted
//! on sight; one older than 24 hours is stale.

use super::config::Level;
use super::hook::{Hook, Tag};
use super::js::{self, path, Js, JsError};
use super::task;
use serde_json::{Map, Value};
use std::fs;

/// A lock is stale after this long without a (re)bind.
pub const STALE_AFTER_MS: f64 = 24.0 * 60.0 * 60.0 * 1000.0;

/// A lock that passed brewcode's checks: an object whose `task_path` is a valid task path and
/// whose `started_at` is a non-empty string.
#[derive(Clone, Debug, PartialEq)]
pub struct Lock {
    pub fields: Map<String, Value>,
}

impl Lock {
    pub fn task_path(&self) -> &str {
        self.fields.get("task_path").and_then(Value::as_str).unwrap_or_default()
    }

    pub fn session_id(&self) -> Option<&Value> {
        self.fields.get("session_id")
    }

    /// A session has claimed the lock (`lock.session_id` is truthy).
    pub fn is_bound(&self) -> bool {
        js::truthy(self.session_id())
    }

    /// `lock.session_id === session`.
    pub fn is_owned_by(&self, session: Option<&Value>) -> bool {
        js::strict_equals(self.session_id(), session)
    }

    /// `isLockStale(lock)`: more than 24 h since `bound_at`, else `started_at`; a time that does
    /// not parse counts as stale.
    pub fn is_stale(&self, now_ms: f64) -> bool {
        let stamp = js::or_none(self.fields.get("bound_at")).or_else(|| js::or_none(self.fields.get("started_at")));
        let Some(stamp) = stamp else { return false };
        match js::date::time_of(Some(stamp)) {
            None => true,
            Some(at) => now_ms - at > STALE_AFTER_MS,
        }
    }
}

/// Why a lock read as JSON is not trusted.
fn schema_error(lock: &Value) -> Result<Option<&'static str>, JsError> {
    let object = match lock {
        Value::Null => return Err(JsError::new("Cannot read properties of null (reading 'task_path')")),
        Value::Object(object) => object,
        _ => return Ok(Some("missing")),
    };
    let is_text = |key: &str| matches!(object.get(key), Some(Value::String(s)) if !s.is_empty());
    if !is_text("task_path") || !is_text("started_at") {
        return Ok(Some("missing"));
    }
    if !task::is_valid_task_path(object.get("task_path")) {
        return Ok(Some("invalid"));
    }
    Ok(None)
}

/// `{dirname(taskPath)}/.lock`.
pub fn lock_path(task_path: &str) -> String {
    path::join(&[&path::dirname(task_path), ".lock"])
}

impl Hook<'_> {
    /// `getLock(cwd)`: the active task's lock, deleting it when it cannot be trusted.
    pub fn get_lock(&self) -> Js<Option<Lock>> {
        let Some(active) = self.active_task_path()? else { return Ok(None) };
        let lock_file = lock_path(&active);
        if !self.exists(&lock_file) {
            return Ok(None);
        }
        match self.read_lock(&lock_file) {
            Ok(lock) => Ok(lock),
            Err(error) => {
                self.log(Level::Error, "[lock]", &format!("Failed to read: {error}"), Tag::None)?;
                self.remove_quietly(&lock_file);
                Ok(None)
            }
        }
    }

    /// The body of `getLock`'s `try`: everything that throws lands in its `catch`.
    fn read_lock(&self, lock_file: &str) -> Js<Option<Lock>> {
        let metadata = fs::metadata(self.fs_path(lock_file))
            .map_err(|err| JsError(js::errno::message(&err, "stat", Some(lock_file), None)))?;
        if !metadata.is_file() {
            self.log(Level::Warn, "[lock]", &format!("Lock is a directory, removing: {lock_file}"), Tag::None)?;
            // Never through a symbolic link to a folder elsewhere (a link itself is removed).
            if !self.dry() && self.unlink_allowed(lock_file) {
                let _ =
                    fs::remove_dir_all(self.fs_path(lock_file)).or_else(|_| fs::remove_file(self.fs_path(lock_file)));
            }
            return Ok(None);
        }
        let text = self.read_text(lock_file).map_err(JsError)?;
        let lock: Value = serde_json::from_str(&text).map_err(|err| JsError(err.to_string()))?;
        match schema_error(&lock)? {
            Some("invalid") => {
                let shown = js::string_of(js::prop(Some(&lock), "task_path"));
                self.log(
                    Level::Error,
                    "[lock]",
                    &format!("Corrupted lock (invalid task_path: {shown}) — deleting"),
                    Tag::None,
                )?;
                self.remove_quietly(lock_file);
                Ok(None)
            }
            Some(_) => {
                let message = "Corrupted lock (missing task_path or started_at) — deleting";
                self.log(Level::Error, "[lock]", message, Tag::None)?;
                self.remove_quietly(lock_file);
                Ok(None)
            }
            None => Ok(lock.as_object().map(|fields| Lock { fields: fields.clone() })),
        }
    }

    /// `checkLock(cwd, sessionId)`: the lock when this session owns it.
    pub fn check_lock(&self) -> Js<Option<Lock>> {
        let Some(lock) = self.get_lock()? else { return Ok(None) };
        if !lock.is_bound() {
            self.log(Level::Debug, "[lock]", "Lock has no session_id", Tag::Session)?;
            return Ok(None);
        }
        let session = self.session();
        if !lock.is_owned_by(session) {
            let lock_id = match lock.session_id() {
                Some(Value::String(s)) => js::text::short_id(s),
                _ => "invalid".to_string(),
            };
            let current_id = match session {
                Some(Value::String(s)) => js::text::short_id(s),
                _ => "null".to_string(),
            };
            let message = format!("Session mismatch: lock={lock_id}, current={current_id}");
            self.log(Level::Debug, "[lock]", &message, Tag::Session)?;
            return Ok(None);
        }
        let short = match session {
            Some(Value::String(s)) if !s.is_empty() => js::text::short_id(s),
            // Owned and truthy but not a string: brewcode calls `.slice` on it and throws.
            _ => return Err(JsError::new("sessionId?.slice is not a function")),
        };
        self.log(Level::Debug, "[lock]", &format!("Session matched: {short}"), Tag::Session)?;
        Ok(Some(lock))
    }

    /// `bindLockSession(cwd, sessionId)`: claims an unbound lock for this session. `false` when
    /// the session id is unusable, the lock is gone or corrupt, or another session won.
    pub fn bind_lock_session(&self) -> Js<bool> {
        let session = match self.session() {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => {
                self.log(Level::Warn, "[lock]", "Cannot bind: invalid sessionId", Tag::None)?;
                return Ok(false);
            }
        };
        let Some(active) = self.active_task_path()? else { return Ok(false) };
        let lock_file = lock_path(&active);
        if !self.exists(&lock_file) {
            return Ok(false);
        }
        match self.bind(&lock_file, &session) {
            Ok(bound) => Ok(bound),
            Err(error) => {
                self.log(Level::Error, "[lock]", &format!("Failed to bind session: {error}"), Tag::Session)?;
                Ok(false)
            }
        }
    }

    /// The body of `bindLockSession`'s `try`.
    fn bind(&self, lock_file: &str, session: &str) -> Js<bool> {
        let text = self.read_text(lock_file).map_err(JsError)?;
        let lock: Value = serde_json::from_str(&text).map_err(|err| JsError(err.to_string()))?;
        if schema_error(&lock)?.is_some_and(|why| why == "missing") {
            let message = "Corrupted lock (missing task_path or started_at) — deleting";
            self.log(Level::Error, "[lock]", message, Tag::Session)?;
            self.remove_quietly(lock_file);
            return Ok(false);
        }
        let Value::Object(mut fields) = lock else { return Ok(false) };
        if js::truthy(fields.get("session_id")) {
            return Ok(true);
        }
        fields.insert("session_id".into(), Value::from(session));
        fields.insert("bound_at".into(), Value::from(self.now_iso()));
        if !self.dry() {
            self.write_atomic(lock_file, &js::stringify_pretty(&Value::Object(fields))).map_err(JsError)?;
            let won = self.get_lock()?.is_some_and(|verify| verify.is_owned_by(Some(&Value::from(session))));
            if !won {
                self.log(Level::Warn, "[lock]", "Lost bind race, another session bound first", Tag::Session)?;
                return Ok(false);
            }
        }
        let message = format!("Session bound: {}", js::text::short_id(session));
        self.log(Level::Info, "[lock]", &message, Tag::Session)?;
        Ok(true)
    }

    /// `deleteLock(cwd, taskPath)`: removes the lock beside `task_path` (which may be another
    /// folder than the active task's: brewcode passes the lock's own `task_path`).
    pub fn delete_lock(&self, task_path: &str) -> Js<()> {
        let lock_file = lock_path(task_path);
        if !self.exists(&lock_file) {
            return Ok(());
        }
        if self.dry() {
            return Ok(());
        }
        match self.unlink(&lock_file) {
            Ok(()) => self.log(Level::Debug, "[lock]", "Deleted lock file", Tag::None),
            Err(error) => self.log(Level::Error, "[lock]", &format!("Failed to delete: {error}"), Tag::None),
        }
    }

    /// `try { unlinkSync(p) } catch {}`.
    fn remove_quietly(&self, p: &str) {
        if !self.dry() {
            let _ = self.unlink(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lock(value: Value) -> Lock {
        Lock { fields: value.as_object().cloned().unwrap() }
    }

    #[test]
    fn staleness_uses_bound_at_then_started_at() {
        let now = js::date::parse("2026-02-02T12:00:00.000Z").unwrap();
        let fresh = lock(json!({"started_at": "2026-01-01T00:00:00.000Z", "bound_at": "2026-02-01T13:00:00.000Z"}));
        assert!(!fresh.is_stale(now));
        let old = lock(json!({"started_at": "2026-02-01T11:59:59.999Z"}));
        assert!(old.is_stale(now));
        let exactly = lock(json!({"started_at": "2026-02-01T12:00:00.000Z"}));
        assert!(!exactly.is_stale(now), "24 h exactly is not more than 24 h");
        let garbage = lock(json!({"started_at": "yesterday"}));
        assert!(garbage.is_stale(now));
        let unbound_falsy = lock(json!({"started_at": "2026-02-02T11:00:00.000Z", "bound_at": ""}));
        assert!(!unbound_falsy.is_stale(now));
    }

    #[test]
    fn schema_checks() {
        assert_eq!(schema_error(&json!({"task_path": ".claude/tasks/a_task/PLAN.md", "started_at": "x"})), Ok(None));
        assert_eq!(schema_error(&json!({"task_path": ".claude/tasks/a_task/PLAN.md"})), Ok(Some("missing")));
        assert_eq!(schema_error(&json!({"task_path": "../x_task/PLAN.md", "started_at": "x"})), Ok(Some("invalid")));
        assert_eq!(schema_error(&json!([1])), Ok(Some("missing")));
        assert!(schema_error(&json!(null)).is_err());
    }
}
