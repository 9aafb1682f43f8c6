//! The dispatch trace: one JSON line per dispatch in the user's state folder, so that "why
//! didn't my hook fire" and "which hook made my session slow" have an answer for the session
//! that just happened (`hookmux log`).
//!
//! The engine fills the [`Record`] as it goes (the sources, every group and whether it matched,
//! every handler and what it decided, the combined answer); the host adapter adds its name and
//! the answer it encoded and [`Recorder::finish`] writes the line, after the answer is computed
//! and before the process exits. By default the line holds names, ids, decisions, sizes and
//! timings, never a prompt, a tool input or a hook's output ([`TraceMode::Full`] adds those).
//! The trace never fails a dispatch: a folder it cannot write is a notice, once per session, and
//! the dispatch goes on without it.

pub mod record;
pub mod store;

pub use crate::engine::config::settings::TraceMode;
pub use record::Record;
pub use store::Store;

use crate::engine::config::settings::Scope;
use crate::engine::config::sources::Sources;
use hookmux_sdk::Env;
use std::sync::Mutex;
use std::time::{Instant, SystemTime};

/// The variable that switches the trace: `0` (or `off`, `false`, `no`) off, `full` in full,
/// anything else on. It wins over the settings.
pub const TRACE_VAR: &str = "HOOKMUX_TRACE";

/// The longest line written, in bytes: a record past it loses its detail first (see
/// [`shrink`]).
pub const MAX_LINE: usize = 256 * 1024;

/// The trace's mode for a dispatch: `$HOOKMUX_TRACE`, else `"$hookmux": {"trace": …}` of the
/// user's, a `--settings` or the managed settings (the last one read of the highest scope), else
/// on. A project's own settings cannot switch it: a cloned repository does not decide what the
/// user gets to see of its hooks.
pub fn mode(env: &Env, sources: &Sources) -> TraceMode {
    if let Some(value) = env.get(TRACE_VAR) {
        return match value.trim().to_ascii_lowercase().as_str() {
            "0" | "off" | "false" | "no" => TraceMode::Off,
            "full" => TraceMode::Full,
            _ => TraceMode::On,
        };
    }
    sources
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_usable() && matches!(f.scope, Scope::User | Scope::Flag | Scope::Managed))
        .filter_map(|(at, f)| f.trace.map(|mode| (f.scope.precedence(), at, mode)))
        .max_by_key(|(precedence, at, _)| (*precedence, *at))
        .map_or(TraceMode::On, |(_, _, mode)| mode)
}

/// The trace of one dispatch, from its start to the answer. Empty (and every call a no-op) until
/// [`Recorder::start`], and for dispatches that trace nothing (`dry-run`, the trace off).
#[derive(Debug, Default)]
pub struct Recorder {
    pending: Mutex<Option<Pending>>,
    /// Why the folder cannot be written, for the notice.
    problem: Mutex<Option<String>>,
}

#[derive(Debug)]
struct Pending {
    record: Record,
    store: Store,
    /// The trace's lock file, opened when the folder was checked.
    lock: std::fs::File,
    mode: TraceMode,
    started: Instant,
}

impl Recorder {
    /// Starts the trace of this dispatch, in `mode`: finds and prepares the folder. A folder that
    /// cannot be written leaves the recorder empty and its reason in [`Recorder::problem`].
    pub fn start(&self, env: &Env, mode: TraceMode, mut record: Record, started: (SystemTime, Instant)) {
        if mode == TraceMode::Off {
            return;
        }
        let Some(store) = Store::locate(env) else { return };
        let file = match store.prepare() {
            Ok(file) => file,
            Err(err) => {
                *lock(&self.problem) = Some(err.to_string());
                return;
            }
        };
        record.time = humantime::format_rfc3339_millis(started.0).to_string();
        *lock(&self.pending) = Some(Pending { record, store, lock: file, mode, started: started.1 });
    }

    /// The mode of the trace under way, if one is.
    pub fn mode(&self) -> Option<TraceMode> {
        lock(&self.pending).as_ref().map(|p| p.mode)
    }

    /// Why the trace cannot be written, when it cannot.
    pub fn problem(&self) -> Option<String> {
        lock(&self.problem).clone()
    }

    /// Adds to the record under way; nothing when there is none.
    pub fn update(&self, fill: impl FnOnce(&mut Record)) {
        if let Some(pending) = lock(&self.pending).as_mut() {
            fill(&mut pending.record);
        }
    }

    /// The host's name and the answer it encoded: writes the line. Best effort: the folder was
    /// checked at the start, and a write that fails now (a full disk) is not worth failing or
    /// slowing the answer for.
    pub fn finish(&self, host: &str, exit: i32, stdout: &str, stderr: &str) {
        let Some(Pending { mut record, store, lock: file, mode, started }) = lock(&self.pending).take() else {
            return;
        };
        record.host = host.to_string();
        record.answer.exit = exit;
        record.answer.stdout_bytes = stdout.len() as u64;
        record.answer.stderr_bytes = stderr.len() as u64;
        if mode == TraceMode::Full {
            record.answer.stdout = Some(record::capped(stdout.as_bytes()));
            record.answer.stderr = Some(record::capped(stderr.as_bytes()));
        }
        record.wall_ms = record::millis(started.elapsed());
        let limit = MAX_LINE.min(usize::try_from(store.file_bytes / 2).unwrap_or(MAX_LINE));
        if let Some(line) = line(&mut record, limit) {
            let _ = store.append(&file, line.as_bytes());
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The record as one line of at most `limit` bytes, newline included: [`shrink`]ed as needed.
pub fn line(record: &mut Record, limit: usize) -> Option<String> {
    for level in 0..=3 {
        if level > 0 {
            shrink(record, level);
        }
        // Room for a usual line (4 KiB for 20 groups) from the start, rather than growing to it.
        let mut bytes = Vec::with_capacity(8 * 1024);
        serde_json::to_writer(&mut bytes, record).ok()?;
        bytes.push(b'\n');
        let line = String::from_utf8(bytes).ok()?;
        if line.len() <= limit {
            return Some(line);
        }
    }
    None
}

/// Leaves out detail to fit a line: at level 1 the event and outputs, the groups that did not
/// match past the first 20, and notices past the first 10; at level 2 every list; at level 3 the
/// host's and the model's fields (a tool name of hundreds of KB) are cut, each saying so.
fn shrink(record: &mut Record, level: u8) {
    record.truncated = true;
    record.input = None;
    record.answer.stdout = None;
    record.answer.stderr = None;
    for hook in &mut record.hooks {
        hook.stdout = None;
        hook.stderr = None;
    }
    if level == 1 {
        let mut unmatched = 0;
        record.groups.retain(|g| {
            unmatched += usize::from(!g.matched);
            g.matched || unmatched <= 20
        });
        record.notices.truncate(10);
        record.skipped.truncate(20);
    } else if level == 3 {
        for field in
            [&mut record.event, &mut record.session, &mut record.tool, &mut record.tool_use_id, &mut record.query]
                .into_iter()
                .flatten()
        {
            record::cut(field, HOST_FIELD_CAP);
        }
        record::cut(&mut record.host, HOST_FIELD_CAP);
    } else {
        record.groups.clear();
        record.notices.clear();
        record.skipped.clear();
        record.sources.clear();
        record.hooks.truncate(50);
        for hook in &mut record.hooks {
            record::cut(&mut hook.name, 200);
            hook.origin.clear();
            hook.note = None;
        }
        if let Some(problem) = record.problem.as_mut() {
            record::cut(problem, 200);
        }
    }
}

/// The most of one of the host's fields (tool name, ids, the match query) a line keeps when the
/// line would not fit otherwise, in bytes.
const HOST_FIELD_CAP: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::settings::SettingsFile;
    use record::{GroupTrace, HookTrace};
    use std::path::Path;

    fn sources(files: &[(Scope, &str)]) -> Sources {
        Sources::from_files(
            files.iter().map(|(scope, text)| SettingsFile::parse(Path::new("s.json"), *scope, text)).collect(),
        )
    }

    #[test]
    fn the_variable_wins_then_the_users_settings_and_never_the_projects() {
        let off = r#"{"$hookmux": {"trace": false}}"#;
        let full = r#"{"$hookmux": {"trace": "full", "ignore": ["X1"]}}"#;
        let none = Env::empty();
        assert_eq!(mode(&none, &sources(&[])), TraceMode::On);
        assert_eq!(mode(&none, &sources(&[(Scope::User, off)])), TraceMode::Off);
        assert_eq!(mode(&none, &sources(&[(Scope::Project, off), (Scope::Local, off)])), TraceMode::On);
        assert_eq!(mode(&none, &sources(&[(Scope::User, off), (Scope::Managed, full)])), TraceMode::Full);
        for (value, want) in
            [("0", TraceMode::Off), ("off", TraceMode::Off), ("full", TraceMode::Full), ("1", TraceMode::On)]
        {
            let env: Env = [(TRACE_VAR, value)].into_iter().collect();
            assert_eq!(mode(&env, &sources(&[(Scope::User, off)])), want, "{value}");
        }
        // `$hookmux` is not hooks, and another key of it is not dispatch's business.
        let file = SettingsFile::parse(Path::new("s.json"), Scope::User, full);
        assert!(file.hooks.is_empty() && file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    }

    #[test]
    fn a_record_too_large_for_a_line_loses_detail_not_its_answer() {
        let mut record = Record {
            v: record::FORMAT,
            event: Some("PreToolUse".into()),
            tool_use_id: Some("toolu_1".into()),
            input: Some(serde_json::json!({"content": "é".repeat(100_000)})),
            ..Record::default()
        };
        record.answer.decision = "deny".into();
        record.groups = (0..5000)
            .map(|n| GroupTrace {
                file: format!("/p/{n}.json"),
                at: "hooks.PreToolUse[0]".into(),
                ..GroupTrace::default()
            })
            .collect();
        record.hooks = (0..400).map(|_| HookTrace { name: "ü".repeat(1000), ..HookTrace::default() }).collect();
        let line = line(&mut record, 64 * 1024).expect("a line");
        assert!(line.len() <= 64 * 1024 && line.ends_with('\n'));
        let back: Record = serde_json::from_str(&line).unwrap();
        assert!(back.truncated);
        assert_eq!((back.answer.decision.as_str(), back.tool_use_id.as_deref()), ("deny", Some("toolu_1")));
        assert!(back.input.is_none());
    }
}
