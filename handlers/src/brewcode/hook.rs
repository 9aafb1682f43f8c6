//! One brewcode hook call: the event as brewcode reads it, the project folder, the log, the
//! settings, and the file operations, with brewcode's error handling around them.
//!
//! Every brewcode hook has the same frame: read stdin, take `session_id` and `cwd` (falling back
//! to the process's folder), do its work, and on any exception log `Error: <message>` and answer
//! as if it had nothing to say (`{}`, or `{continue: true}` before a compaction). [`Hook::answer`]
//! is that frame. Inside it, helpers return [`Js`] results so that a failure that would have
//! thrown in brewcode ends the call the same way.

use super::config::{self, Config, Level};
use super::js::{self, errno, path, Js, JsError};
use crate::safe_fs;
use hookmux_platform::errno::Errno;
use hookmux_sdk::{Answer, Context};
use serde_json::{Map, Value};
use std::cell::{Cell, RefCell};
use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;

/// brewcode's log, relative to the project.
pub const LOG_FILE: &str = ".claude/tasks/logs/brewcode.log";

/// The context string brewcode's grepai reminders carry.
pub const GREPAI_REMINDER: &str = "grepai: USE grepai_search FIRST for code exploration";

/// Which session a log line is tagged with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    /// The event's `session_id` (`[7b6b5f32] `).
    Session,
    /// No tag: brewcode's helpers log without one.
    None,
}

/// The settings cache: brewcode keeps the last folder's settings, and after a settings file made
/// its loader throw, every folder not cached gets the defaults.
#[derive(Default)]
struct ConfigSlot {
    cached: Option<(String, Rc<Config>)>,
    poisoned: bool,
}

/// One call of a brewcode hook.
pub struct Hook<'a> {
    cx: &'a Context,
    input: &'a Map<String, Value>,
    cwd: String,
    /// Whether `cwd` was inside a project when the event came, decided once: the hook's own
    /// writes (a plan linked into `.claude/plans/`) must not turn a folder into one midway.
    cwd_in_project: bool,
    config: RefCell<ConfigSlot>,
    /// Whether the log was refused for a symbolic link, said once.
    log_refused: Cell<bool>,
}

/// What stdin held, as brewcode's `readStdin()` sees it.
enum Stdin {
    /// A JSON object, or JSON that is not an object (its fields all read as undefined).
    Usable,
    /// The JSON literal `null`: reading `session_id` from it throws.
    Null,
    /// Not JSON: `readStdin()` throws.
    Invalid(String),
}

impl<'a> Hook<'a> {
    /// Runs `body` in brewcode's frame. `prefix` and `word` make the error line (`[stop]`,
    /// `Error`); `fallback` is the answer after an error. Fails only where brewcode's process
    /// would itself crash: when logging the error throws again.
    pub fn answer(
        cx: &'a Context,
        prefix: &str,
        word: &str,
        fallback: Answer,
        body: impl FnOnce(&Hook<'a>) -> Js<Answer>,
    ) -> anyhow::Result<Answer> {
        let event = cx.event();
        let process_cwd = cx.cwd().to_string_lossy().into_owned();
        let early = match stdin_state(event) {
            Stdin::Usable => None,
            Stdin::Null => Some(JsError::new("Cannot read properties of null (reading 'session_id')")),
            Stdin::Invalid(error) => Some(JsError(error)),
        };
        let input = event.fields();
        let cwd = match input.get("cwd") {
            Some(Value::String(cwd)) if early.is_none() && !cwd.is_empty() => cwd.clone(),
            Some(other) if early.is_none() && js::truthy(Some(other)) => {
                // brewcode passes the value to `path.join`, which throws before anything is read
                // or written, and the log line about it cannot be written either.
                cx.note(format!(
                    "{prefix} {word}: The \"path\" argument must be of type string. Received type {} ({})",
                    js::type_name(other),
                    js::string_of(Some(other))
                ));
                return Ok(fallback);
            }
            _ => process_cwd,
        };
        let cwd_in_project = in_project(cx, &cwd);
        let hook = Hook { cx, input, cwd, cwd_in_project, config: RefCell::default(), log_refused: Default::default() };
        let (result, tag) = match early {
            Some(error) => (Err(error), Tag::None),
            None => (body(&hook), Tag::Session),
        };
        match result {
            Ok(answer) => Ok(answer),
            Err(error) => match hook.log(Level::Error, prefix, &format!("{word}: {error}"), tag) {
                Ok(()) => Ok(fallback),
                Err(again) => Err(anyhow::anyhow!("{again} (while reporting: {error})")),
            },
        }
    }

    pub fn cx(&self) -> &'a Context {
        self.cx
    }

    /// An event field (`input.x`).
    pub fn field(&self, key: &str) -> Option<&'a Value> {
        self.input.get(key)
    }

    /// `input.session_id`.
    pub fn session(&self) -> Option<&'a Value> {
        self.input.get("session_id")
    }

    /// `session_id?.slice(0, 8) || 'unknown'`, which throws for a session id that is neither a
    /// string nor missing.
    pub fn session_short(&self) -> Js<String> {
        match self.session() {
            None | Some(Value::Null) => Ok("unknown".to_string()),
            Some(Value::String(s)) if s.is_empty() => Ok("unknown".to_string()),
            Some(Value::String(s)) => Ok(js::text::short_id(s)),
            Some(_) => Err(JsError::new("session_id?.slice is not a function")),
        }
    }

    /// The project folder as brewcode names it: the event's `cwd`, else the process's.
    pub fn cwd(&self) -> &str {
        &self.cwd
    }

    /// `path.join(cwd, ...parts)`.
    pub fn join(&self, parts: &[&str]) -> String {
        let mut all = vec![self.cwd.as_str()];
        all.extend_from_slice(parts);
        path::join(&all)
    }

    pub fn now_ms(&self) -> f64 {
        js::date::epoch_ms(self.cx.now())
    }

    pub fn now_iso(&self) -> String {
        js::date::iso_now(self.cx.now())
    }

    pub fn dry(&self) -> bool {
        self.cx.dry()
    }

    // --- files -------------------------------------------------------------------------------

    /// Where a path brewcode built resolves: relative paths against the hook's folder, as the
    /// process brewcode would have run in.
    pub fn fs_path(&self, p: &str) -> PathBuf {
        let p = PathBuf::from(p);
        if p.is_absolute() {
            p
        } else {
            self.cx.cwd().join(p)
        }
    }

    /// `existsSync(p)`: anything, symlinks followed.
    pub fn exists(&self, p: &str) -> bool {
        fs::metadata(self.fs_path(p)).is_ok()
    }

    /// `readFileSync(p, 'utf8')`, with Node's error message.
    pub fn read_text(&self, p: &str) -> Result<String, String> {
        let bytes = hookmux_platform::fs::read(&self.fs_path(p)).map_err(|err| {
            // Node opens first and reads second; only the open failure names the path.
            let syscall = if Errno::of(&err) == Some(Errno::IsADirectory) { "read" } else { "open" };
            let shown = (syscall == "open").then_some(p);
            errno::message(&err, syscall, shown, None)
        })?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// The folder below which a write refuses symbolic links: the hook's project (its `cwd`)
    /// when `p` is inside it, else `p`'s own folder.
    pub fn root_for(&self, p: &str) -> PathBuf {
        let target = crate::paths::normalize(&self.fs_path(p));
        let project = crate::paths::normalize(&self.fs_path(&self.cwd));
        match target.starts_with(&project) {
            true => project,
            false => target.parent().map(PathBuf::from).unwrap_or(target),
        }
    }

    /// `writeFileSync(tmp, text); renameSync(tmp, p)`: brewcode's atomic rewrite, through a
    /// temporary file with a random name (brewcode's `<p>.tmp`, fixed and truncated, could be a
    /// link planted to a file elsewhere). A symbolic link in the project between the `cwd` and
    /// `p` is refused.
    pub fn write_atomic(&self, p: &str, text: &str) -> Result<(), String> {
        let tmp = format!("{p}.tmp");
        safe_fs::replace(&self.root_for(p), &self.fs_path(p), text.as_bytes()).map_err(|(step, err)| match step {
            safe_fs::Step::Check => err.to_string(),
            safe_fs::Step::Write => errno::message(&err, "open", Some(&tmp), None),
            safe_fs::Step::Rename => errno::message(&err, "rename", Some(&tmp), Some(p)),
        })
    }

    /// `writeFileSync(p, '')`: `p` created or emptied, refusing a symbolic link at `p` or between
    /// the project and `p` (a link planted there would have its target emptied).
    pub fn create_empty(&self, p: &str) -> Result<fs::File, String> {
        let target = self.fs_path(p);
        safe_fs::check_no_links(&self.root_for(p), &target).map_err(|err| err.to_string())?;
        hookmux_platform::fs::open_no_follow(fs::OpenOptions::new().write(true).create(true).truncate(true), &target)
            .map_err(|err| errno::message(&err, "open", Some(p), None))
    }

    /// `unlinkSync(p)`, refusing a symbolic link between the project and `p`'s folder (a link at
    /// `p` itself is removed, not followed).
    pub fn unlink(&self, p: &str) -> Result<(), String> {
        let target = self.fs_path(p);
        if let Some(dir) = target.parent() {
            safe_fs::check_no_links(&self.root_for(p), dir).map_err(|err| err.to_string())?;
        }
        fs::remove_file(target).map_err(|err| errno::message(&err, "unlink", Some(p), None))
    }

    /// Whether `p` may be removed: no symbolic link between the project and `p`'s folder.
    pub fn unlink_allowed(&self, p: &str) -> bool {
        let target = self.fs_path(p);
        target.parent().is_none_or(|dir| safe_fs::check_no_links(&self.root_for(p), dir).is_ok())
    }

    /// `mkdirSync(p, {recursive: true})`, refusing a symbolic link between the project and `p`.
    pub fn mkdir_all(&self, p: &str) -> Result<(), String> {
        let target = self.fs_path(p);
        match safe_fs::create_dirs(&self.root_for(p), &target) {
            Err(err) if safe_fs::is_link_refused(&err) => Err(err.to_string()),
            // A file in the way: Node reports EEXIST for the path itself.
            Err(_) if target.exists() && !target.is_dir() => {
                Err(errno::message(&Errno::Exists.error(), "mkdir", Some(p), None))
            }
            other => other.map_err(|err| errno::message(&err, "mkdir", Some(p), None)),
        }
    }

    // --- settings and log --------------------------------------------------------------------

    /// `loadConfig(cwd)`: the settings for a project folder, cached for the last folder asked.
    pub fn config_for(&self, cwd: &str) -> Js<Rc<Config>> {
        {
            let slot = self.config.borrow();
            if let Some((cached_cwd, config)) = &slot.cached {
                if cached_cwd == cwd {
                    return Ok(config.clone());
                }
            }
            if slot.poisoned {
                return Ok(Rc::new(Config::default()));
            }
        }
        let file = path::join(&[cwd, config::CONFIG_FILE]);
        let user = match self.exists(&file) {
            false => Value::Object(Map::new()),
            true => match self.read_text(&file).and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
            {
                Ok(value) => value,
                Err(error) => {
                    self.cx.note(format!("[config] Failed to parse {file}: {error}"));
                    Value::Object(Map::new())
                }
            },
        };
        let (config, fallbacks) = match config::merge(&user) {
            Ok(merged) => merged,
            Err(error) => {
                self.config.borrow_mut().poisoned = true;
                return Err(error);
            }
        };
        let config = Rc::new(config);
        self.config.borrow_mut().cached = Some((cwd.to_string(), config.clone()));
        for fallback in fallbacks {
            self.log_in(cwd, Level::Warn, "[config]", &fallback.0, None)?;
        }
        Ok(config)
    }

    /// The settings of this hook's project.
    pub fn config(&self) -> Js<Rc<Config>> {
        self.config_for(&self.cwd)
    }

    /// `log(level, prefix, message, cwd, sessionId?)` in this hook's project.
    pub fn log(&self, level: Level, prefix: &str, message: &str, tag: Tag) -> Js<()> {
        let session = match tag {
            Tag::Session => self.session(),
            Tag::None => None,
        };
        self.log_in(&self.cwd, level, prefix, message, session)
    }

    /// `log(...)` for another project folder (brewcode derives one from a KNOWLEDGE.jsonl path).
    pub fn log_in(&self, cwd: &str, level: Level, prefix: &str, message: &str, session: Option<&Value>) -> Js<()> {
        if !self.config_for(cwd)?.logs(level) {
            return Ok(());
        }
        self.cx.note(escape_controls(&format!("{prefix} {message}")));
        let inside = if cwd == self.cwd { self.cwd_in_project } else { in_project(self.cx, cwd) };
        if self.dry() || !inside {
            return Ok(());
        }
        let tag = match session {
            Some(Value::String(sid)) if !sid.is_empty() => format!("[{}] ", js::text::short_id(sid)),
            _ => String::new(),
        };
        // The session id and most messages come from the event: unescaped, a newline in them
        // would start a line of the caller's choosing.
        let line = escape_controls(&format!("{} {} {tag}{prefix} {message}", self.now_iso(), level.tag())) + "\n";
        let log_path = path::join(&[cwd, LOG_FILE]);
        let log_dir = path::dirname(&log_path);
        // brewcode ignores every failure to write its log: a hook never fails for its log. A
        // symbolic link in the way is said, though: the line went to stderr only.
        let root = self.fs_path(cwd);
        let written = match self.exists(&log_dir) {
            true => Ok(()),
            false => safe_fs::create_dirs(&root, &self.fs_path(&log_dir)),
        };
        let written = written.and_then(|()| safe_fs::open_append(&root, &self.fs_path(&log_path)));
        match written {
            // One `write` on an `O_APPEND` descriptor: a line added while another process appends
            // is neither torn nor lost.
            Ok(mut file) => {
                let _ = file.write_all(line.as_bytes());
            }
            Err(err) if safe_fs::is_link_refused(&err) && !self.log_refused.replace(true) => {
                self.cx.note(format!("hookmux: brewcode's log is not written: {err}"));
            }
            Err(_) => {}
        }
        Ok(())
    }
}

/// Whether `cwd` is inside a project: Claude Code named one (`$CLAUDE_PROJECT_DIR`), or the folder
/// or one above it holds `.git` or `.claude`. brewcode creates its log folder under whatever `cwd`
/// the event names; outside a project that would put a `.claude/` into any folder the caller picks
/// (`/etc`, when run as root), so there is no log there. The `.claude` in `$HOME` is the user's own
/// settings, not a project's. The walk up stops below a folder of `$GIT_CEILING_DIRECTORIES`, as
/// git's own search for a repository does.
fn in_project(cx: &Context, cwd: &str) -> bool {
    let env = cx.env();
    if env.get_os("CLAUDE_PROJECT_DIR").is_some_and(|dir| !dir.is_empty()) {
        return true;
    }
    let home = hookmux_platform::dirs::home(env);
    let ceilings: Vec<PathBuf> = env
        .get_os("GIT_CEILING_DIRECTORIES")
        .map(|list| std::env::split_paths(list).filter(|dir| dir.is_absolute()).collect())
        .unwrap_or_default();
    // A relative cwd resolves as every other brewcode path does: against the hook's folder.
    let start = cx.cwd().join(cwd);
    let mut folders = start.ancestors();
    let mut folder = folders.next();
    while let Some(dir) = folder {
        if dir.join(".git").exists() || (home.as_deref() != Some(dir) && dir.join(".claude").exists()) {
            return true;
        }
        folder = folders.next().filter(|parent| !ceilings.iter().any(|ceiling| ceiling == parent));
    }
    false
}

/// A log line with its control characters (C0, DEL, C1, and the Unicode line and paragraph
/// separators) written as JSON escapes, so that one call can only ever add one line.
fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// Classifies the raw event as brewcode's `JSON.parse` would.
fn stdin_state(event: &hookmux_sdk::Event) -> Stdin {
    if event.parse_error().is_none() {
        return Stdin::Usable;
    }
    let raw = event.raw();
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Null) => Stdin::Null,
        Ok(_) => Stdin::Usable,
        Err(error) => {
            let reason = if raw.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r')).is_empty() {
                "Unexpected end of JSON input".to_string()
            } else {
                error.to_string()
            };
            Stdin::Invalid(format!("Invalid stdin JSON: {reason}. Input: {}", js::text::prefix16(raw, 100)))
        }
    }
}
