//! A temporary project that lives across several handler calls (a bind, then a check; a
//! reminder, then a throttled one), with brewcode's task layout at hand.

use hookmux_platform::dirs::{variable, Folder};
use hookmux_sdk::{Answer, Args, Context, Env, Event, FixedClock, Handler};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// 2026-02-01T12:00:00Z: the clock every call reads unless a test moves it.
pub const NOW: Duration = Duration::from_secs(1_769_947_200);
pub const SESSION: &str = "7b6b5f32-8486-4727-aaf9-dffe030c4e74";
pub const OTHER_SESSION: &str = "09110fd9-e94d-4dcf-ab61-cd5b8a24d6b2";
pub const TASK: &str = ".claude/tasks/20260201-120000_auth_refactor_task";
pub const TASK_PLAN: &str = ".claude/tasks/20260201-120000_auth_refactor_task/PLAN.md";
pub const LOCK: &str = ".claude/tasks/20260201-120000_auth_refactor_task/.lock";
pub const KNOWLEDGE: &str = ".claude/tasks/20260201-120000_auth_refactor_task/KNOWLEDGE.jsonl";
pub const LOG: &str = ".claude/tasks/logs/brewcode.log";
pub const CONFIG: &str = ".claude/tasks/cfg/brewcode.config.json";
pub const STATE: &str = ".claude/tasks/cfg/brewcode.state.json";

/// A v2 PLAN.md: phase 1 done, phase 1V a verification (not a phase), phase 2 half done,
/// phase 3 pending; role sections with comment lines.
pub const PLAN_V2: &str = "status: in progress\n\n# Plan: Auth refactor\n\n## Role Constraints\n\n\
<!-- ALL -->\n<!-- Global constraints -->\n- Keep public API signatures unchanged\n<!-- /ALL -->\n\n\
<!-- DEV -->\n- Use JOOQ DSLContext only\n<!-- /DEV -->\n\n<!-- TEST -->\n<!-- Tester-specific -->\n\
- `.as()` on EVERY assertion\n<!-- /TEST -->\n\n<!-- REVIEW -->\n- Flag missing null checks\n<!-- /REVIEW -->\n\n\
## Phases\n\n### Phase 1: Extract token service\n\n- [x] Move parsing\n- [x] Wire filter\n\n\
### Phase 1V: Verification\n\n**Check:** [x] Criteria met\n\n### Phase 2: Replace session store\n\n\
- [x] Add RedisSessionStore\n- [ ] Migrate sessions\n\n### Phase 3: Integration tests\n\n- [ ] Cover flows\n";

/// A v3 PLAN.md (used with a `phases/` folder).
pub const PLAN_V3: &str = "status: in progress\ncurrent_phase: 3\ntotal_phases: 5\n\n# Plan: Billing export\n\n\
<!-- ALL -->\n- Never log card numbers\n<!-- /ALL -->\n<!-- DEV -->\n- Stream rows\n<!-- /DEV -->\n";

/// `{{NOW-Nh}}` as an ISO time.
pub fn hours_ago(hours: u64) -> String {
    let at = (NOW - Duration::from_secs(hours * 3600)).as_millis() as f64;
    crate::brewcode::js::date::iso(at)
}

/// A lock for the test task; `None` leaves it unbound.
pub fn lock_json(session: Option<&str>, hours: u64) -> String {
    let mut lock = json!({"task_path": TASK_PLAN, "started_at": hours_ago(hours)});
    if let Some(session) = session {
        lock["session_id"] = json!(session);
        lock["bound_at"] = json!(hours_ago(hours));
    }
    serde_json::to_string_pretty(&lock).unwrap()
}

/// Six entries, one a duplicate, in file order: what `## K` is built from.
pub fn knowledge_lines() -> String {
    [
        json!({"ts": "2026-02-01T12:10:00.000Z", "t": "❌", "txt": "Avoid SELECT * in repository queries", "src": "sql_expert"}),
        json!({"ts": "2026-02-01T12:11:00.000Z", "t": "✅", "txt": "Use constructor injection for new services", "src": "developer"}),
        json!({"ts": "2026-02-01T12:12:00.000Z", "t": "ℹ️", "txt": "DB uses PostgreSQL 15", "src": "developer"}),
        json!({"ts": "2026-02-01T12:13:00.000Z", "t": "❌", "txt": "Don't use System.out for logging", "src": "reviewer"}),
        json!({"ts": "2026-02-01T12:15:00.000Z", "t": "❌", "txt": "Avoid SELECT * in repository queries", "src": "reviewer"}),
    ]
    .iter()
    .map(|entry| format!("{entry}\n"))
    .collect()
}

pub const K_BLOCK: &str = "## K\n❌ Avoid SELECT * in repository queries|Don't use System.out for logging\n\
✅ Use constructor injection for new services\nℹ️ DB uses PostgreSQL 15";

/// One handler call's result.
pub struct Outcome {
    pub answer: Answer,
    pub notes: Vec<String>,
}

/// A project folder with `home/` and `tmp/` beside it.
pub struct Project {
    root: tempfile::TempDir,
    env: Vec<(String, String)>,
    now: SystemTime,
}

impl Project {
    pub fn new() -> Project {
        let root = tempfile::Builder::new().prefix("hookmux-brewcode-").tempdir().expect("temp dir");
        for dir in ["project", "home", "tmp", "bin"] {
            std::fs::create_dir_all(root.path().join(dir)).expect("test folders");
        }
        let project = Project { root, env: Vec::new(), now: UNIX_EPOCH + NOW };
        // Claude Code names the project of every hook it runs; brewcode logs only inside one.
        let dir = project.dir().to_string_lossy().into_owned();
        project.env("CLAUDE_PROJECT_DIR", &dir)
    }

    /// A folder that is no project: no `$CLAUDE_PROJECT_DIR`, and no `.git` or `.claude` in it or
    /// above it up to this project's temporary folder, where `$GIT_CEILING_DIRECTORIES` stops the
    /// walk (a stray `/tmp/.git` must not make it a project).
    pub fn outside() -> Project {
        let ceiling = Project::new().without("CLAUDE_PROJECT_DIR");
        let root = ceiling.root.path().to_string_lossy().into_owned();
        ceiling.env("GIT_CEILING_DIRECTORIES", &root)
    }

    /// The same project without the variable `name`.
    pub fn without(mut self, name: &str) -> Project {
        self.env.retain(|(set, _)| set != name);
        self
    }

    /// A project with the test task: TASK.md, PLAN.md (v2), KNOWLEDGE.jsonl and a lock.
    pub fn with_task(lock: Option<String>) -> Project {
        let project = Project::new()
            .file(".claude/TASK.md", &format!("{TASK_PLAN}\n"))
            .file(TASK_PLAN, PLAN_V2)
            .file(KNOWLEDGE, &knowledge_lines());
        match lock {
            Some(lock) => project.file(LOCK, &lock),
            None => project,
        }
    }

    pub fn dir(&self) -> PathBuf {
        self.root.path().join("project")
    }

    pub fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir().join(relative)
    }

    /// `relative` in the project as brewcode names it in what it prints: the project's folder,
    /// `/` and `relative`, as Node's POSIX `path.join` builds it (`C:\…\project/.claude/…` on
    /// Windows).
    pub fn shown(&self, relative: &str) -> String {
        format!("{}/{relative}", self.dir().display())
    }

    pub fn file(self, relative: &str, contents: &str) -> Project {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        self
    }

    pub fn folder(self, relative: &str) -> Project {
        std::fs::create_dir_all(self.path(relative)).unwrap();
        self
    }

    /// A file of `size` zero bytes (grepai's index).
    pub fn sized(self, relative: &str, size: u64) -> Project {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::File::create(&path).unwrap().set_len(size).unwrap();
        self
    }

    pub fn env(mut self, name: &str, value: &str) -> Project {
        self.env.push((name.to_string(), value.to_string()));
        self
    }

    /// Moves the clock of later calls.
    pub fn at(&mut self, now: SystemTime) {
        self.now = now;
    }

    pub fn now(&self) -> SystemTime {
        self.now
    }

    /// Sets a file's modification time.
    pub fn touch(&self, path: &Path, at: SystemTime) {
        hookmux_platform::fs::set_modified(path, at).unwrap();
    }

    pub fn exists(&self, relative: &str) -> bool {
        self.path(relative).exists()
    }

    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).unwrap_or_else(|err| panic!("{relative}: {err}"))
    }

    pub fn json(&self, relative: &str) -> Value {
        serde_json::from_str(&self.read(relative)).unwrap()
    }

    /// The log's lines with the time cut off: `INFO  [7b6b5f32] [stop] …`.
    pub fn log(&self) -> Vec<String> {
        if !self.exists(LOG) {
            return Vec::new();
        }
        self.read(LOG).lines().map(|line| line.split_once(' ').map(|(_, rest)| rest.to_string()).unwrap()).collect()
    }

    /// An event with brewcode's common fields (this project as cwd, the test session).
    pub fn event(&self, name: &str, fields: Value) -> Map<String, Value> {
        let mut event = json!({
            "session_id": SESSION,
            "transcript_path": self.home().join(".claude/projects/x.jsonl").to_string_lossy(),
            "cwd": self.dir().to_string_lossy(),
            "hook_event_name": name,
        });
        for (key, value) in fields.as_object().cloned().unwrap_or_default() {
            if value.is_null() {
                event.as_object_mut().unwrap().remove(&key);
            } else {
                event[&key] = value;
            }
        }
        event.as_object().cloned().unwrap()
    }

    /// Calls a handler on an event (`null` fields are removed from the defaults).
    pub fn call(&self, handler: &'static dyn Handler, name: &str, fields: Value, args: &[&str]) -> Outcome {
        self.call_raw(handler, Event::from_fields(self.event(name, fields)), args, false)
    }

    pub fn call_dry(&self, handler: &'static dyn Handler, name: &str, fields: Value, args: &[&str]) -> Outcome {
        self.call_raw(handler, Event::from_fields(self.event(name, fields)), args, true)
    }

    pub fn call_raw(&self, handler: &'static dyn Handler, event: Event, args: &[&str], dry: bool) -> Outcome {
        let mut env: Env = [
            (variable(Folder::Home), self.home().into_os_string()),
            (variable(Folder::Temp), self.root.path().join("tmp").into_os_string()),
            ("PATH", self.root.path().join("bin").into_os_string()),
        ]
        .into_iter()
        .collect();
        for (name, value) in &self.env {
            env.set(name, value);
        }
        let args = Args::parse(handler.info(), args).expect("test arguments");
        let cx = Context::new(Arc::new(event), args, self.dir(), self.dir(), Arc::new(env))
            .with_clock(Arc::new(FixedClock(self.now)))
            .with_dry(dry);
        let answer = handler.handle(&cx).expect("brewcode handlers answer even when they fail");
        Outcome { answer, notes: cx.diagnostics().lines() }
    }

    /// Every project file and its content, to compare before and after a dry run.
    pub fn snapshot(&self) -> Vec<(PathBuf, Vec<u8>)> {
        fn walk(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
            let Ok(entries) = std::fs::read_dir(dir) else { return };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    out.push((path.clone(), Vec::new()));
                    walk(&path, out);
                } else {
                    out.push((path.clone(), std::fs::read(&path).unwrap_or_default()));
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.dir(), &mut out);
        out.sort();
        out
    }
}

/// The answer's context, or "".
pub fn context(answer: &Answer) -> &str {
    answer.additional_context.as_deref().unwrap_or_default()
}
