//! Test a handler in one line: feed it an event, with a fixed clock and a temporary project, and
//! get its answer.
//!
//! ```
//! # use hookmux_sdk::{Answer, Context, Handler, HandlerInfo, HookEvent};
//! # struct Echo;
//! # static INFO: HandlerInfo = HandlerInfo { name: "echo", description: "", events: &[HookEvent::UserPromptSubmit], matcher: None, options: &[] };
//! # impl Handler for Echo {
//! #     fn info(&self) -> &'static HandlerInfo { &INFO }
//! #     fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
//! #         Ok(Answer::text(cx.event().prompt().unwrap_or_default()))
//! #     }
//! # }
//! use hookmux_sdk::testing::TestRun;
//! use serde_json::json;
//!
//! let answer = TestRun::new(&Echo).event(json!({"prompt": "hi"})).answer();
//! assert_eq!(answer.output.as_deref(), Some("hi"));
//! ```
//!
//! The project is a fresh folder that becomes the event's `cwd` and `$CLAUDE_PROJECT_DIR`;
//! the home and temporary folders (`$HOME` and `$TMPDIR` on Unix) are fresh folders beside it,
//! and no other variable is set unless the test sets it. The clock reads 2026-01-01T00:00:00Z
//! unless the test sets another instant. The project is untrusted unless the test says
//! otherwise ([`TestRun::project_trust`]).

use crate::{Answer, Args, Context, Env, Event, FixedClock, Handler, ProjectTrust};
use hookmux_platform::dirs::{variable, Folder};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tempfile::TempDir;

/// 2026-01-01T00:00:00Z, the instant a [`TestRun`] clock reads by default.
pub const DEFAULT_NOW: Duration = Duration::from_secs(1_767_225_600);

/// The session id a [`TestRun`] event carries unless the test gives one.
pub const TEST_SESSION_ID: &str = "00000000-0000-4000-8000-000000000000";

/// One handler call under test. Methods consume and return the builder; [`run`](TestRun::run)
/// or [`answer`](TestRun::answer) performs the call.
pub struct TestRun {
    handler: &'static dyn Handler,
    fields: Map<String, Value>,
    fixture_cwd: Option<String>,
    args: Vec<String>,
    env: Vec<(String, String)>,
    unset: Vec<String>,
    now: SystemTime,
    dry: bool,
    trust: ProjectTrust,
    files: Vec<(PathBuf, Vec<u8>)>,
    project: Option<TempDir>,
}

/// What a [`TestRun`] produced. The temporary folders live as long as this value.
pub struct TestOutcome {
    pub answer: anyhow::Result<Answer>,
    pub diagnostics: Vec<String>,
    pub event: Event,
    root: TempDir,
}

impl TestOutcome {
    /// The project folder the handler ran in.
    pub fn project(&self) -> PathBuf {
        self.root.path().join("project")
    }

    /// The `$HOME` the handler saw.
    pub fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    /// Reads a project file as text; `None` when it does not exist.
    pub fn read(&self, relative: impl AsRef<Path>) -> Option<String> {
        std::fs::read_to_string(self.project().join(relative)).ok()
    }
}

impl TestRun {
    pub fn new(handler: &'static dyn Handler) -> TestRun {
        TestRun {
            handler,
            fields: Map::new(),
            fixture_cwd: None,
            args: Vec::new(),
            env: Vec::new(),
            unset: Vec::new(),
            now: UNIX_EPOCH + DEFAULT_NOW,
            dry: false,
            trust: ProjectTrust::Untrusted,
            files: Vec::new(),
            project: None,
        }
    }

    /// Sets event fields (a JSON object); they are laid over the defaults and over a fixture.
    /// Missing common fields (`session_id`, `transcript_path`, `cwd`, `hook_event_name`) are
    /// filled in: the event name is the handler's first declared event.
    pub fn event(mut self, fields: Value) -> TestRun {
        match fields {
            Value::Object(map) => self.fields.extend(map),
            other => panic!("TestRun::event wants a JSON object, got {other}"),
        }
        self
    }

    /// Loads a real payload from a file. Its `cwd` is moved into the test project: every string
    /// in the event that starts with the fixture's `cwd` is rewritten to start with the
    /// project's path, so `file_path`s keep pointing inside the project.
    pub fn fixture(mut self, path: impl AsRef<Path>) -> TestRun {
        let path = path.as_ref();
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|err| panic!("cannot read fixture {}: {err}", path.display()));
        let Value::Object(map) = serde_json::from_str::<Value>(&text)
            .unwrap_or_else(|err| panic!("fixture {} is not JSON: {err}", path.display()))
        else {
            panic!("fixture {} is not a JSON object", path.display());
        };
        self.fixture_cwd = map.get("cwd").and_then(Value::as_str).map(str::to_string);
        let mut merged = map;
        merged.extend(std::mem::take(&mut self.fields));
        self.fields = merged;
        self
    }

    /// The handler's command-line arguments (what follows `hookmux run NAME`): an array, a
    /// slice or a `Vec` of `&str` or `String`.
    pub fn args<I, S>(mut self, args: I) -> TestRun
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.args.extend(args.into_iter().map(|arg| arg.as_ref().to_string()));
        self
    }

    /// Sets an environment variable for the handler.
    pub fn env(mut self, name: impl Into<String>, value: impl Into<String>) -> TestRun {
        self.env.push((name.into(), value.into()));
        self
    }

    /// Removes a variable the helper would otherwise set (`HOME`, `TMPDIR`, `CLAUDE_PROJECT_DIR`, `USER`).
    pub fn unset_env(mut self, name: impl Into<String>) -> TestRun {
        self.unset.push(name.into());
        self
    }

    /// Fixes the clock at `now`.
    pub fn now(mut self, now: SystemTime) -> TestRun {
        self.now = now;
        self
    }

    /// Writes a file into the project before the call (parent folders are created).
    pub fn file(mut self, relative: impl Into<PathBuf>, contents: impl Into<Vec<u8>>) -> TestRun {
        self.files.push((relative.into(), contents.into()));
        self
    }

    /// Runs in a temporary folder the test already made (to call a handler twice on one project).
    /// The folder gets `project/`, `home/` and `tmp/` inside it if they are missing.
    pub fn in_dir(mut self, root: TempDir) -> TestRun {
        self.project = Some(root);
        self
    }

    /// Marks the call as a dry run.
    pub fn dry(mut self) -> TestRun {
        self.dry = true;
        self
    }

    /// What hookmux decided about the project's trust (see [`ProjectTrust`]); untrusted unless set.
    pub fn project_trust(mut self, trust: ProjectTrust) -> TestRun {
        self.trust = trust;
        self
    }

    /// Performs the call. Panics on a test-setup mistake (unknown option, unwritable temp dir),
    /// never on what the handler does.
    pub fn run(self) -> TestOutcome {
        let root = match self.project {
            Some(root) => root,
            None => tempfile::Builder::new().prefix("hookmux-test-").tempdir().expect("create a temp dir"),
        };
        let project = root.path().join("project");
        let home = root.path().join("home");
        let tmp = root.path().join("tmp");
        for dir in [&project, &home, &tmp] {
            std::fs::create_dir_all(dir).expect("create test folders");
        }
        for (relative, contents) in &self.files {
            let path = project.join(relative);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("create a project folder");
            }
            std::fs::write(&path, contents).expect("write a project file");
        }

        let info = self.handler.info();
        let project_str = project.to_string_lossy().into_owned();
        let mut fields = self.fields;
        if let Some(old) = self.fixture_cwd.filter(|old| !old.is_empty()) {
            for value in fields.values_mut() {
                reroot(value, &old, &project_str);
            }
        }
        let defaults = [
            ("session_id", Value::from(TEST_SESSION_ID)),
            ("transcript_path", Value::from(format!("{}/.claude/transcript.jsonl", home.display()))),
            ("cwd", Value::from(project_str.clone())),
            ("hook_event_name", Value::from(info.events.first().map(|e| e.as_str()).unwrap_or("PreToolUse"))),
        ];
        for (key, value) in defaults {
            fields.entry(key).or_insert(value);
        }
        let event = Event::from_fields(fields);

        let mut env: Env = [
            (variable(Folder::Home), home.as_os_str().to_owned()),
            (variable(Folder::Temp), tmp.as_os_str().to_owned()),
            ("CLAUDE_PROJECT_DIR", project.as_os_str().to_owned()),
            ("USER", "tester".into()),
        ]
        .into_iter()
        .collect();
        for name in &self.unset {
            env.remove(name);
        }
        for (name, value) in self.env {
            env.set(name, value);
        }

        let args = Args::parse(info, &self.args).unwrap_or_else(|err| panic!("bad test arguments: {err}"));
        let cwd = event.cwd().filter(|cwd| cwd.is_dir()).unwrap_or_else(|| project.clone());
        let project_root = env.path("CLAUDE_PROJECT_DIR").unwrap_or_else(|| cwd.clone());
        let cx = Context::new(Arc::new(event.clone()), args, cwd, project_root, Arc::new(env))
            .with_clock(Arc::new(FixedClock(self.now)))
            .with_dry(self.dry)
            .with_project_trust({
                let trust = self.trust;
                Arc::new(move || trust)
            });
        let answer = self.handler.handle(&cx);
        TestOutcome { answer, diagnostics: cx.diagnostics().lines(), event, root }
    }

    /// Performs the call and returns the answer, panicking if the handler failed.
    pub fn answer(self) -> Answer {
        let name = self.handler.info().name;
        match self.run().answer {
            Ok(answer) => answer,
            Err(err) => panic!("handler `{name}` failed: {err:#}"),
        }
    }
}

fn reroot(value: &mut Value, old: &str, new: &str) {
    match value {
        Value::String(s) => {
            if let Some(rest) = s.strip_prefix(old) {
                if rest.is_empty() || rest.starts_with('/') {
                    *s = format!("{new}{rest}");
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| reroot(v, old, new)),
        Value::Object(map) => map.values_mut().for_each(|v| reroot(v, old, new)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HandlerInfo, HookEvent, OptionKind, OptionSpec};

    struct Say;
    static INFO: HandlerInfo = HandlerInfo {
        name: "say",
        description: "",
        events: &[HookEvent::UserPromptSubmit],
        matcher: None,
        options: &[OptionSpec { name: "say", kind: OptionKind::List, default: None, help: "" }],
    };
    impl Handler for Say {
        fn info(&self) -> &'static HandlerInfo {
            &INFO
        }
        fn handle(&self, cx: &Context) -> anyhow::Result<Answer> {
            Ok(Answer::text(cx.args().values("say").join(",")))
        }
    }

    #[test]
    fn args_take_arrays_slices_and_owned_strings() {
        // A helper that passes its `&[&str]` parameter on is the common case in handler tests.
        let slice: &[&str] = &["--say", "a"];
        assert_eq!(TestRun::new(&Say).args(slice).answer().output.as_deref(), Some("a"));
        let owned = vec!["--say".to_string(), "b".to_string()];
        let answer = TestRun::new(&Say).args(&owned).args(["--say", "c"]).args(owned).answer();
        assert_eq!(answer.output.as_deref(), Some("b,c,b"));
    }
}
