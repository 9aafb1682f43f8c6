//! `hookmux doctor [--json]`: what a user cannot see from inside a host, one line per check, each
//! problem with the file it concerns and what to do. Exit 1 when any check finds a problem.
//!
//! The checks: which `hookmux` each installed entry runs, whether every file an installed entry
//! names is there and parses, which hosts are wired (Claude Code's scopes, Codex, Gemini CLI,
//! Qwen Code, Cline, OpenCode), whether the current project is trusted, the enabled plugins'
//! hooks, the memory store's health, Node for the OpenCode plugin, the trace, and each host's hook
//! coverage of the last days.

use super::coverage::wired::{commands_in, dispatch_programs};
use crate::engine::config::entry::{self, DispatchEntry};
use crate::engine::config::settings::{FileState, HookKind, Scope, SettingsFile};
use crate::engine::config::sources::{self, Discovery, Sources};
use crate::engine::config::trust::{self, HostTrust, TrustList};
use crate::host::config_file;
use hookmux_platform::dirs::{variable, Folder};
use hookmux_platform::fs::FileId;
use hookmux_sdk::{Env, Event, ProjectTrust};
use serde::Serialize;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How a check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// All is well.
    Ok,
    /// Worth knowing; nothing is broken.
    Info,
    /// Works, but perhaps not as the user thinks.
    Warn,
    /// Hooks will not run as configured: doctor exits 1.
    Problem,
}

/// One line of the report.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// What was checked: `hookmux`, `claude`, `codex`, `gemini`, `qwen`, `cline`, `opencode`,
    /// `trust`, `plugins`, `memory`, `node`, `trace`, `coverage`.
    pub check: &'static str,
    pub status: Status,
    pub message: String,
    /// The file the check is about, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    fn new(check: &'static str, status: Status, message: impl Into<String>) -> Check {
        Check { check, status, message: message.into(), file: None, fix: None }
    }

    fn file(mut self, file: &Path) -> Check {
        self.file = Some(file.to_path_buf());
        self
    }

    fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }
}

/// Runs every check and prints the report.
pub fn run(json: bool) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let cwd = super::process_cwd();
    let checks = checks(&env, &cwd);
    let problems = checks.iter().filter(|c| c.status == Status::Problem).count();
    let mut out = std::io::stdout().lock();
    if json {
        let report = serde_json::json!({ "ok": problems == 0, "problems": problems, "checks": checks });
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        for check in &checks {
            let label = match check.status {
                Status::Ok => "ok     ",
                Status::Info => "info   ",
                Status::Warn => "warn   ",
                Status::Problem => "PROBLEM",
            };
            write!(out, "{label} {:<8} {}", check.check, check.message)?;
            if let Some(fix) = &check.fix {
                write!(out, "; fix: {fix}")?;
            }
            writeln!(out)?;
        }
        match problems {
            0 => writeln!(out, "no problems found")?,
            1 => writeln!(out, "1 problem found")?,
            n => writeln!(out, "{n} problems found")?,
        }
    }
    Ok(if problems == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Every check, in the order of the report.
pub fn checks(env: &Env, cwd: &Path) -> Vec<Check> {
    let this = std::env::current_exe().ok().map(|exe| hookmux_platform::fs::canonicalize(&exe).unwrap_or(exe));
    let on_path = find_program(env, "hookmux");
    let mut checks = vec![this_hookmux(this.as_deref(), on_path.as_deref())];
    let event = Event::from_fields(serde_json::Map::from_iter([(
        "cwd".to_string(),
        Value::from(cwd.to_string_lossy().into_owned()),
    )]));
    let discovery = Discovery::new(env, &event, Vec::new()).with_plugins(true);
    let project = sources::project_root(env, &event).unwrap_or_else(|| cwd.to_path_buf());
    let sources = Sources::load(&discovery);
    let programs = Programs { env, this: this.as_deref() };
    checks.extend(claude(&discovery, &sources, &programs));
    let host_project = config_file::project_root(cwd);
    checks.extend(codex(env, &host_project, &programs));
    checks.extend(gemini(env, &host_project, &programs));
    checks.extend(cline(env, &host_project, &programs));
    checks.extend(qwen(env, &host_project, &sources, &programs));
    checks.extend(opencode(env, &host_project, &programs));
    checks.extend(trust_state(env, &project));
    checks.extend(redefinitions(&sources));
    checks.extend(plugins(&sources));
    checks.extend(memory(env, cwd));
    checks.push(trace(env, &sources));
    checks.extend(coverage(env, &sources, &project));
    checks
}

/// Each host's tool calls of the last days beside the trace (`hookmux log coverage`), one line
/// per host with sessions: a problem when a call a PreToolUse group would have matched was not
/// seen.
fn coverage(env: &Env, sources: &Sources, project: &Path) -> Vec<Check> {
    use super::coverage::{recent, Level, DOCTOR_DAYS};
    let line = |(level, message): (Level, String)| {
        let status = match level {
            Level::Ok => Status::Ok,
            Level::Info => Status::Info,
            Level::Problem => Status::Problem,
        };
        let check = Check::new("coverage", status, message);
        match level {
            Level::Problem => check
                .fix(format!("`hookmux log coverage --since {DOCTOR_DAYS}` lists the calls and why no hook saw them")),
            _ => check,
        }
    };
    recent(env, sources, project).into_iter().map(line).collect()
}

/// The dispatch trace: on or off (and why), and whether its folder can take it. Read only: a
/// folder not made yet is made by the first dispatch.
fn trace(env: &Env, sources: &Sources) -> Check {
    use crate::engine::trace::{self, store::Store, TraceMode};
    let mode = trace::mode(env, sources);
    if mode == TraceMode::Off {
        return Check::new(
            "trace",
            Status::Info,
            "the dispatch trace is off (HOOKMUX_TRACE=0, or `\"$hookmux\": {\"trace\": false}` in your settings)",
        );
    }
    let Some(store) = Store::locate(env) else {
        return Check::new("trace", Status::Warn, "no place for the dispatch trace: HOME is not set")
            .fix("set HOME, or HOOKMUX_TRACE_DIR to an absolute path");
    };
    let full = if mode == TraceMode::Full { ", with the events and hooks' outputs (HOOKMUX_TRACE=full)" } else { "" };
    if !store.dir.exists() {
        return Check::new(
            "trace",
            Status::Ok,
            format!("the dispatch trace is on{full}; the first dispatch makes its folder"),
        )
        .file(&store.dir);
    }
    match hookmux_handlers::safe_fs::check_private_dir(&store.dir) {
        Ok(()) => Check::new("trace", Status::Ok, format!("the dispatch trace is on{full}; `hookmux log` reads it"))
            .file(&store.dir),
        Err(err) => Check::new("trace", Status::Problem, format!("the dispatch trace cannot be written: {err}"))
            .file(&store.dir)
            .fix("`chmod 700` the folder, or remove it: the next dispatch makes it again, private"),
    }
}

fn this_hookmux(this: Option<&Path>, on_path: Option<&Path>) -> Check {
    let version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("HOOKMUX_COMMIT"), ")");
    let shown = this.map(|p| p.display().to_string()).unwrap_or_else(|| "an unknown path".to_string());
    let message = match on_path {
        Some(found) => format!("this is hookmux {version} at {shown}; `hookmux` on PATH is {}", found.display()),
        None => format!("this is hookmux {version} at {shown}; no `hookmux` on PATH"),
    };
    Check::new("hookmux", Status::Info, message)
}

/// The file a command's first word runs, found as the OS finds it (`PATHEXT` and `.exe` on
/// Windows, an execute bit on Unix).
fn find_program(env: &Env, word: &str) -> Option<PathBuf> {
    hookmux_platform::program::find(word, env)
}

/// Works out which program an entry's command starts.
struct Programs<'a> {
    env: &'a Env,
    this: Option<&'a Path>,
}

impl Programs<'_> {
    /// Whether `program` (its real path) is this hookmux: by its path, or as the same file by
    /// another name (a hard link, or a spelling the real path does not settle on Windows: a
    /// short `PROGRA~1` name, another case).
    fn is_this(&self, program: &Path) -> bool {
        let Some(this) = self.this else { return false };
        program == this || FileId::of_path(program).is_ok_and(|id| FileId::of_path(this).is_ok_and(|this| id == this))
    }

    /// The check of the `hookmux` that `program` (an entry's first word) starts, for the entry
    /// `what` in `file`.
    fn check(&self, host: &'static str, program: &str, what: &str, file: &Path) -> Check {
        let this_folder = self.this.and_then(Path::parent).map(|d| d.display().to_string()).unwrap_or_default();
        let Some(found) = find_program(self.env, program) else {
            let (message, fix) = if hookmux_platform::program::is_path(program) {
                (
                    format!("{what} runs {program}, which does not exist: the host runs none of these hooks"),
                    format!("run `hookmux install {host}` again with the hookmux you use now"),
                )
            } else {
                (
                    format!("{what} runs `{program}`, and there is no `{program}` on PATH: the host runs none of these hooks"),
                    format!("add {this_folder} to PATH (or install hookmux with npm or cargo)"),
                )
            };
            return Check::new(host, Status::Problem, message).file(file).fix(fix);
        };
        let real = hookmux_platform::fs::canonicalize(&found).unwrap_or_else(|_| found.clone());
        if self.is_this(&real) {
            return Check::new(host, Status::Ok, format!("{what} runs {} (this hookmux)", found.display())).file(file);
        }
        if is_node_script(&real) {
            if find_program(self.env, "node").is_none() {
                return Check::new(
                    host,
                    Status::Problem,
                    format!("{what} runs {}, a Node script, and there is no `node` on PATH", found.display()),
                )
                .file(file)
                .fix("install Node.js 18 or later, or put the native hookmux binary first on PATH");
            }
            let launched = npm_binaries(&real, self.env);
            if launched.iter().any(|binary| self.is_this(binary)) {
                let native = self.this.map(|p| p.display().to_string()).unwrap_or_default();
                return Check::new(
                    host,
                    Status::Info,
                    format!(
                        "{what} runs {}, the npm launcher of this hookmux, which starts Node before hookmux on every hook",
                        found.display()
                    ),
                )
                .file(file)
                .fix(format!("for hooks that start faster, put a link to {native} named hookmux first on PATH"));
            }
        }
        Check::new(host, Status::Warn, format!("{what} runs {}, not this hookmux", found.display()))
            .file(file)
            .fix(format!("if that is not the one you mean, put {this_folder} first on PATH or remove the other"))
    }
}

/// The hookmux entries of a settings file, each once: the program and what it names, read as
/// dispatch reads them.
fn claude_entries(file: &SettingsFile, places: &entry::Places<'_>) -> Vec<entry::Entry> {
    let mut entries: Vec<entry::Entry> = Vec::new();
    for hook in file.hooks.iter().flat_map(|(_, groups)| groups).flat_map(|group| &group.hooks) {
        let HookKind::Command { command, args, .. } = &hook.kind else { continue };
        if let Some(found) = entry::read(command, args.as_deref(), places).filter(|found| !entries.contains(found)) {
            entries.push(found);
        }
    }
    entries
}

/// Claude Code: each settings scope that holds a hookmux entry, the `hookmux` it runs and the
/// hooks files it names.
fn claude(discovery: &Discovery, sources: &Sources, programs: &Programs) -> Vec<Check> {
    let mut checks = Vec::new();
    let mut wired = false;
    // Read afresh: the sources hold each entry replaced by the hooks it names.
    for (scope, path) in discovery.files() {
        let file = &SettingsFile::load(&path, scope);
        let scope = file.scope.as_str();
        match &file.state {
            FileState::Invalid(why) | FileState::Unreadable(why) => {
                checks.push(
                    Check::new(
                        "claude",
                        Status::Problem,
                        format!("{} ({scope} settings) cannot be read: {why}", file.path.display()),
                    )
                    .file(&file.path)
                    .fix(format!("fix {} (`hookmux hooks validate` shows where)", file.path.display())),
                );
                continue;
            }
            FileState::Untrusted | FileState::Missing | FileState::Loaded => {}
        }
        let entries = claude_entries(file, &discovery.places());
        let mut programs_checked: Vec<&str> = Vec::new();
        let mut named: Vec<PathBuf> = Vec::new();
        for found in &entries {
            wired = true;
            if !programs_checked.contains(&found.program.as_str()) {
                programs_checked.push(&found.program);
                let what = format!("Claude Code ({scope} scope) entry in {}", file.path.display());
                checks.push(programs.check("claude", &found.program, &what, &file.path));
            }
            match &found.names {
                DispatchEntry::Installed => named.push(entry::installed_hooks_file(&file.path)),
                DispatchEntry::Settings(files) => named.extend(files.iter().cloned()),
            }
        }
        named.dedup();
        for hooks_file in named {
            checks.push(named_file(sources, &hooks_file, &file.path, file.scope));
        }
    }
    if !wired {
        checks.push(
            Check::new(
                "claude",
                Status::Info,
                "Claude Code is not wired to hookmux in any scope (it runs its hooks itself)",
            )
            .fix("`hookmux install claude` routes a scope's hooks through hookmux"),
        );
    }
    checks
}

/// A hooks file an entry names: there and parsed.
fn named_file(sources: &Sources, hooks_file: &Path, settings: &Path, scope: Scope) -> Check {
    let scope = scope.as_str();
    let reinstall = format!(
        "run `hookmux install claude --scope {scope}` again, or `hookmux uninstall claude --scope {scope}` to put the hooks back into {}",
        settings.display()
    );
    let loaded = sources.files.iter().find(|f| f.path == hooks_file);
    let state = match loaded {
        Some(file) => file.state.clone(),
        // Not read by discovery (a project the host does not trust): read it here.
        None => match std::fs::read_to_string(hooks_file) {
            Ok(text) => match serde_json::from_str::<Value>(&text) {
                Ok(value) if value.is_object() => FileState::Loaded,
                Ok(_) => FileState::Invalid("not a JSON object".to_string()),
                Err(err) => FileState::Invalid(err.to_string()),
            },
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => FileState::Missing,
            Err(err) => FileState::Unreadable(err.to_string()),
        },
    };
    let shown = hooks_file.display();
    match state {
        FileState::Loaded | FileState::Untrusted => {
            let count = loaded
                .map(|f| f.hooks.iter().flat_map(|(_, groups)| groups).map(|g| g.hooks.len()).sum::<usize>())
                .unwrap_or(0);
            let hooks = if loaded.is_some() {
                format!(" ({count} hook{})", if count == 1 { "" } else { "s" })
            } else {
                String::new()
            };
            Check::new("claude", Status::Ok, format!("{shown} is there and parses{hooks}")).file(hooks_file)
        }
        FileState::Missing => {
            let mut backup = settings.as_os_str().to_owned();
            backup.push(".hookmux-backup");
            let backup = PathBuf::from(backup);
            let fix = if backup.is_file() {
                format!(
                    "copy {} over {} (the hooks as they were before install), then run `hookmux install claude --scope {scope}`",
                    backup.display(),
                    settings.display()
                )
            } else {
                format!("remove the hookmux entries from {}, or put the hooks back into {shown}", settings.display())
            };
            Check::new(
                "claude",
                Status::Problem,
                format!("{shown} is missing: the entry in {} runs no hooks", settings.display()),
            )
            .file(hooks_file)
            .fix(fix)
        }
        FileState::Invalid(why) | FileState::Unreadable(why) => Check::new(
            "claude",
            Status::Problem,
            format!("{shown} cannot be read: {why}; the entry in {} runs no hooks", settings.display()),
        )
        .file(hooks_file)
        .fix(format!("fix the file (`hookmux hooks validate` shows where), or {reinstall}")),
    }
}

/// A host's JSON configuration file with hookmux entries in it: whether it parses, and the
/// `hookmux` each entry runs. `None` when the file is not there.
fn host_file(
    check: &'static str,
    host: &str,
    label: &str,
    file: &Path,
    strict: bool,
    programs: &Programs,
) -> Option<Vec<Check>> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
        Err(err) => {
            return Some(vec![Check::new(check, Status::Problem, format!("{} cannot be read: {err}", file.display()))
                .file(file)
                .fix(format!("make {} readable", file.display()))])
        }
    };
    let mut commands = Vec::new();
    match serde_json::from_str::<Value>(&text) {
        Ok(value) => commands_in(&value, &mut commands),
        Err(err) => {
            let status = if strict { Status::Problem } else { Status::Warn };
            let fix = if strict {
                format!("fix the JSON of {}, or run `hookmux install {check}` after moving it away", file.display())
            } else {
                "comments are fine for the host; doctor only checks plain JSON".to_string()
            };
            let mut checks = vec![Check::new(
                check,
                status,
                format!("{} is not plain JSON ({err}); {label} may not read it", file.display()),
            )
            .file(file)
            .fix(fix)];
            // Still find the entries, line by line.
            commands.extend(text.lines().filter(|l| l.contains("dispatch")).filter_map(|line| {
                let start = line.find("hookmux")?;
                let rest = &line[..line.rfind('"').filter(|&end| end > start).unwrap_or(line.len())];
                let before = rest[..start].rfind('"').map_or(0, |q| q + 1);
                Some(rest[before..].to_string())
            }));
            checks.extend(
                dispatch_programs(&commands, host)
                    .iter()
                    .map(|p| programs.check(check, p, &format!("{label} entry in {}", file.display()), file)),
            );
            return Some(checks);
        }
    }
    let found = dispatch_programs(&commands, host);
    if found.is_empty() {
        return Some(Vec::new());
    }
    Some(
        found.iter().map(|p| programs.check(check, p, &format!("{label} entry in {}", file.display()), file)).collect(),
    )
}

/// Whether a file is a script run by Node (`#!/usr/bin/env node` and the like).
fn is_node_script(file: &Path) -> bool {
    let Ok(bytes) = std::fs::read(file) else { return false };
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    first.starts_with(b"#!") && first.windows(4).any(|w| w == b"node")
}

/// The native binaries the npm package's launcher (`<node_modules>/hookmux/bin/hookmux.js`) may
/// start: `@hookmux/cli-*/bin/hookmux` (`hookmux.exe` on Windows) where Node's resolution finds it.
fn npm_binaries(launcher: &Path, env: &Env) -> Vec<PathBuf> {
    let Some(package) = launcher.parent().and_then(Path::parent) else { return Vec::new() };
    let folders = [Some(package.join("node_modules")), package.parent().map(Path::to_path_buf)];
    folders
        .into_iter()
        .flatten()
        .filter_map(|folder| std::fs::read_dir(folder.join("@hookmux")).ok())
        .flat_map(|entries| entries.filter_map(Result::ok))
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("cli-"))
        .filter_map(|entry| hookmux_platform::program::file_at(&entry.path().join("bin").join("hookmux"), env))
        .collect()
}

fn home_or(env: &Env, var: &str) -> Option<PathBuf> {
    env.path(var).filter(|p| p.is_absolute()).or_else(|| hookmux_platform::dirs::home(env))
}

/// Codex: `$CODEX_HOME/hooks.json` (else `~/.codex/hooks.json`) and the project's
/// `.codex/hooks.json`.
fn codex(env: &Env, project: &Path, programs: &Programs) -> Vec<Check> {
    let user = env
        .path("CODEX_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| hookmux_platform::dirs::home(env).map(|h| h.join(".codex")));
    let files: Vec<PathBuf> =
        user.map(|dir| dir.join("hooks.json")).into_iter().chain([project.join(".codex/hooks.json")]).collect();
    wired_host("codex", "codex", "Codex", &files, true, programs)
}

/// Gemini CLI: `~/.gemini/settings.json` (`~` is `$GEMINI_CLI_HOME`, else `$HOME`) and the
/// project's `.gemini/settings.json`.
fn gemini(env: &Env, project: &Path, programs: &Programs) -> Vec<Check> {
    let user = home_or(env, "GEMINI_CLI_HOME").map(|home| home.join(".gemini/settings.json"));
    let files: Vec<PathBuf> = user.into_iter().chain([project.join(".gemini/settings.json")]).collect();
    wired_host("gemini", "gemini", "Gemini CLI", &files, false, programs)
}

/// Cline CLI: hookmux's hook files in the folders Cline reads (`~/Documents/Cline/Hooks/`,
/// `$CLINE_DIR/hooks/` else `~/.cline/hooks/`, the project's `.clinerules/hooks/` and
/// `.cline/hooks/`), the `hookmux` they run, and the user's own hook files, which Cline runs too.
fn cline(env: &Env, project: &Path, programs: &Programs) -> Vec<Check> {
    use crate::host::cline::install::{hook_files, Paths, EVENTS};
    let Some(paths) = Paths::of(env, project) else { return Vec::new() };
    let files: Vec<_> = paths.cline_folders().iter().flat_map(|dir| hook_files(dir)).collect();
    let ours: Vec<_> = files.iter().filter(|f| f.ours).collect();
    let mut checks = Vec::new();
    let mut seen: Vec<(String, PathBuf)> = Vec::new();
    for file in &ours {
        let text = std::fs::read_to_string(&file.path).unwrap_or_default();
        let commands: Vec<String> =
            text.lines().filter_map(|l| l.trim().strip_prefix("exec ")).map(str::to_string).collect();
        for program in dispatch_programs(&commands, "cline") {
            let folder = file.path.parent().map(Path::to_path_buf).unwrap_or_default();
            if !seen.contains(&(program.clone(), folder.clone())) {
                let what = format!("the Cline hook files in {}", folder.display());
                checks.push(programs.check("cline", &program, &what, &file.path));
                seen.push((program, folder));
            }
        }
    }
    let mut folders: Vec<PathBuf> = ours.iter().filter_map(|f| f.path.parent().map(Path::to_path_buf)).collect();
    folders.dedup();
    for folder in &folders {
        let missing: Vec<&str> = EVENTS
            .iter()
            .copied()
            .filter(|e| !ours.iter().any(|f| f.event == *e && f.path.parent() == Some(folder)))
            .collect();
        if !missing.is_empty() {
            checks.push(
                Check::new(
                    "cline",
                    Status::Warn,
                    format!("{} has no hookmux hook file for {}", folder.display(), missing.join(", ")),
                )
                .file(folder)
                .fix("run `hookmux install cline` again (with the same --scope)"),
            );
        }
    }
    let theirs: Vec<String> = files.iter().filter(|f| !f.ours).map(|f| f.path.display().to_string()).collect();
    if !theirs.is_empty() {
        checks.push(Check::new(
            "cline",
            Status::Info,
            format!("Cline also runs hook files that are not hookmux's: {}", theirs.join(", ")),
        ));
    }
    if ours.is_empty() {
        checks.push(
            Check::new("cline", Status::Info, "Cline is not wired to hookmux")
                .fix("`hookmux install cline` runs your Claude Code hooks under Cline"),
        );
    }
    checks
}

/// Qwen Code: `~/.qwen/settings.json` (`$QWEN_HOME` standing for `~/.qwen`) and the project's
/// `.qwen/settings.json`; then what Qwen's own rules do to the hooks there (see
/// [`crate::host::qwen::lint`]): a timeout Qwen reads as milliseconds is a problem, a hook that
/// runs twice a warning.
fn qwen(env: &Env, project: &Path, sources: &Sources, programs: &Programs) -> Vec<Check> {
    use crate::engine::config::check::Check as Rule;
    use crate::host::qwen::lint;
    let files = lint::settings_files(env, project);
    let mut checks = wired_host("qwen", "qwen", "Qwen Code", &files, false, programs);
    checks.extend(lint::lint(&files, sources).into_iter().map(|found| {
        let status = if found.check == Rule::HostTimeoutMilliseconds { Status::Problem } else { Status::Warn };
        let message = format!("{} at {}: {}", found.file.display(), found.path, found.message);
        let mut check = Check::new("qwen", status, message).file(&found.file);
        if let Some(hint) = found.hint {
            check = check.fix(hint);
        }
        check
    }));
    checks
}

fn wired_host(
    check: &'static str,
    host: &str,
    label: &str,
    files: &[PathBuf],
    strict: bool,
    programs: &Programs,
) -> Vec<Check> {
    let mut seen = Vec::new();
    let mut checks = Vec::new();
    for file in files {
        if seen.contains(file) {
            continue;
        }
        seen.push(file.clone());
        checks.extend(host_file(check, host, label, file, strict, programs).unwrap_or_default());
    }
    if checks.is_empty() {
        checks.push(
            Check::new(check, Status::Info, format!("{label} is not wired to hookmux"))
                .fix(format!("`hookmux install {check}` runs your Claude Code hooks under {label}")),
        );
    }
    checks
}

/// OpenCode: the plugin file in the project's `.opencode/plugins/` or in
/// `~/.config/opencode/plugins/`, or `hookmux` among `opencode.json`'s plugins; then the
/// `hookmux` it starts (`$HOOKMUX_BIN`, else the one on PATH) and Node.
fn opencode(env: &Env, project: &Path, programs: &Programs) -> Vec<Check> {
    let config = hookmux_platform::dirs::config(env).map(|dir| dir.join("opencode"));
    let mut dirs = vec![project.join(".opencode")];
    dirs.extend(config);
    let mut places = Vec::new();
    for dir in &dirs {
        for sub in ["plugins", "plugin"] {
            let file = dir.join(sub).join("hookmux.js");
            if file.is_file() {
                places.push(file);
            }
        }
        for name in ["opencode.json", "opencode.jsonc"] {
            let file = dir.join(name);
            if std::fs::read_to_string(&file).is_ok_and(|text| names_hookmux_plugin(&text)) {
                places.push(file);
            }
        }
    }
    for name in ["opencode.json", "opencode.jsonc"] {
        let file = project.join(name);
        if std::fs::read_to_string(&file).is_ok_and(|text| names_hookmux_plugin(&text)) {
            places.push(file);
        }
    }
    let Some(first) = places.first() else {
        return vec![Check::new("opencode", Status::Info, "OpenCode is not wired to hookmux")
            .fix("add the plugin: see docs/src/hosts/opencode.md")];
    };
    let mut checks = Vec::new();
    let program = env.get("HOOKMUX_BIN").filter(|b| !b.is_empty()).unwrap_or("hookmux").to_string();
    let listed: Vec<String> = places.iter().map(|p| p.display().to_string()).collect();
    checks.push(programs.check("opencode", &program, &format!("OpenCode plugin ({})", listed.join(", ")), first));
    checks.push(node(env, &program));
    checks
}

/// Whether an `opencode.json` lists a hookmux plugin in `"plugin"`.
fn names_hookmux_plugin(text: &str) -> bool {
    let Some(at) = text.find("\"plugin\"") else { return false };
    let list = &text[at..];
    let list = &list[..list.find(']').unwrap_or(list.len())];
    list.contains("\"hookmux") || list.contains("/hookmux")
}

/// Node for the OpenCode plugin: needed when the `hookmux` the plugin starts is the npm
/// package's launcher (a Node script); otherwise only worth knowing.
fn node(env: &Env, program: &str) -> Check {
    let launcher = find_program(env, program);
    let needs_node = launcher.is_some_and(|file| is_node_script(&file));
    match find_program(env, "node") {
        Some(node) => Check::new("node", Status::Ok, format!("node is {}", node.display())),
        None if needs_node => Check::new(
            "node",
            Status::Problem,
            format!("the `{program}` the OpenCode plugin starts is the npm launcher, and there is no `node` on PATH"),
        )
        .fix("install Node.js 18 or later, or put the native hookmux binary first on PATH"),
        None => Check::new(
            "node",
            Status::Warn,
            "no `node` on PATH; the OpenCode plugin runs inside OpenCode and does not need it",
        )
        .fix("install Node.js 18 or later only to install hookmux with npm or run the plugin's tests"),
    }
}

/// Whether the project's own settings run under the hosts that do not ask first.
fn trust_state(env: &Env, project: &Path) -> Vec<Check> {
    let mut checks = Vec::new();
    if let Err(err) = TrustList::load(env) {
        let file = TrustList::file(env).ok();
        let mut check = Check::new("trust", Status::Problem, err.to_string())
            .fix("make the trust list readable, or remove it and trust your projects again with `hookmux trust`");
        if let Some(file) = file {
            check = check.file(&file);
        }
        checks.push(check);
    }
    let has_own = ["settings.json", "settings.local.json"].iter().any(|n| project.join(".claude").join(n).is_file());
    let shown = project.display();
    checks.push(match trust::decide(project, HostTrust::Unknown, env) {
        ProjectTrust::Trusted(why) => Check::new(
            "trust",
            Status::Ok,
            format!("{shown} is trusted ({why}): its own .claude hooks run under every host"),
        ),
        ProjectTrust::Untrusted if has_own => Check::new(
            "trust",
            Status::Info,
            format!("{shown} is not trusted: its own .claude hooks run under Claude Code (which asks), not under Codex or OpenCode"),
        )
        .fix(format!("`hookmux trust {shown}` if you trust this project")),
        ProjectTrust::Untrusted => {
            Check::new("trust", Status::Info, format!("{shown} is not trusted; it has no .claude settings of its own"))
        }
    });
    checks
}

/// Hooks of the user's or managed settings that a project's settings redefine so that they no
/// longer block in time (`hooks validate`'s `weakened-redefinition`).
fn redefinitions(sources: &Sources) -> Vec<Check> {
    crate::engine::validate::weakened_redefinitions(sources)
        .into_iter()
        .map(|found| {
            Check::new("hooks", Status::Warn, format!("{} at {}: {}", found.file.display(), found.path, found.message))
                .file(&found.file)
                .fix(found.hint.unwrap_or_default())
        })
        .collect()
}

/// The enabled Claude Code plugins whose hooks hookmux reads.
fn plugins(sources: &Sources) -> Vec<Check> {
    let mut checks = Vec::new();
    let mut found: Vec<(String, usize)> = Vec::new();
    for file in sources.files.iter() {
        let Some(plugin) = &file.plugin else { continue };
        if let FileState::Invalid(why) | FileState::Unreadable(why) = &file.state {
            checks.push(
                Check::new(
                    "plugins",
                    Status::Warn,
                    format!("{} ({}) cannot be read: {why}", file.path.display(), plugin.label()),
                )
                .file(&file.path)
                .fix("update or reinstall the plugin in Claude Code (/plugin)"),
            );
            continue;
        }
        let count = file.hooks.iter().flat_map(|(_, groups)| groups).map(|g| g.hooks.len()).sum::<usize>();
        match found.iter_mut().find(|(label, _)| *label == plugin.label()) {
            Some((_, total)) => *total += count,
            None => found.push((plugin.label(), count)),
        }
    }
    for note in &sources.notes {
        let mut check = Check::new("plugins", Status::Warn, note.message.clone()).file(&note.file);
        if let Some(hint) = &note.hint {
            check = check.fix(hint.clone());
        }
        checks.push(check);
    }
    let listed: Vec<String> =
        found.iter().map(|(label, n)| format!("{label} ({n} hook{})", if *n == 1 { "" } else { "s" })).collect();
    checks.insert(
        0,
        if listed.is_empty() {
            Check::new("plugins", Status::Info, "no enabled Claude Code plugin has hooks")
        } else {
            Check::new("plugins", Status::Ok, format!("enabled plugins with hooks: {}", listed.join(", ")))
        },
    );
    checks
}

/// The wake-up memory store: `PRAGMA integrity_check` on it, read-only.
fn memory(env: &Env, cwd: &Path) -> Vec<Check> {
    use hookmux_handlers::wakeup::store::{Location, Store};
    use hookmux_handlers::wakeup::Workspace;
    let workspace = Workspace::resolve(cwd, env, |root| crate::host::project_trust(root, env));
    let mut checks: Vec<Check> = workspace
        .warnings
        .iter()
        .chain(&workspace.untrusted_store)
        .map(|w| Check::new("memory", Status::Warn, w.trim_start_matches("[lore] ").to_string()))
        .collect();
    let Some(db) = workspace.db else {
        checks.push(
            Check::new(
                "memory",
                Status::Warn,
                format!(
                    "no place for the memory store: none of LORE_DB, {}, {} is set",
                    variable(Folder::Data),
                    variable(Folder::Home)
                ),
            )
            .fix(format!("set {} (or LORE_DB)", variable(Folder::Home))),
        );
        return checks;
    };
    let db = match db {
        Location::Sqlite(path) => path,
        Location::Invalid(reason) => {
            checks.push(Check::new(
                "memory",
                Status::Problem,
                format!("the memory store setting is unusable: {reason}"),
            ));
            return checks;
        }
        Location::Postgres(target) => {
            let shown = target.display().to_string();
            let bound = std::time::Duration::from_secs(5);
            checks.push(match Store::open_existing_within(&Location::Postgres(target), false, bound) {
                Ok(Some(store)) => match store.schema_version() {
                    Ok(version) => {
                        Check::new("memory", Status::Ok, format!("the memory store {shown} answers (schema {version})"))
                    }
                    Err(err) => Check::new("memory", Status::Problem, format!("{shown}: {err:#}")),
                },
                Ok(None) => {
                    Check::new("memory", Status::Info, format!("no memory store yet in {shown} (made on first write)"))
                }
                Err(err) => Check::new("memory", Status::Problem, format!("{err:#}")).fix(
                    "check the server, the URL in LORE_DB or .lore.yaml, and the password (PGPASSWORD, ~/.pgpass)",
                ),
            });
            return checks;
        }
    };
    let shown = db.display();
    if !db.exists() {
        checks.push(
            Check::new("memory", Status::Info, format!("no memory store yet at {shown} (made on first use)")).file(&db),
        );
        return checks;
    }
    let aside =
        format!("move it aside (`mv {shown} {shown}.broken`): hookmux makes a new, empty store on the next wake-up");
    checks.push(match integrity(&db) {
        Ok(lines) if lines.len() == 1 && lines[0] == "ok" => {
            Check::new("memory", Status::Ok, format!("the memory store {shown} passes its integrity check")).file(&db)
        }
        Ok(lines) => Check::new(
            "memory",
            Status::Problem,
            format!(
                "the memory store {shown} is damaged: {}",
                lines.into_iter().take(3).collect::<Vec<_>>().join("; ")
            ),
        )
        .file(&db)
        .fix(aside),
        Err(err) => Check::new("memory", Status::Problem, format!("the memory store {shown} cannot be checked: {err}"))
            .file(&db)
            .fix(aside),
    });
    checks
}

fn integrity(db: &Path) -> rusqlite::Result<Vec<String>> {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = rusqlite::Connection::open_with_flags(db, flags)?;
    let mut statement = conn.prepare("PRAGMA integrity_check")?;
    let rows = statement.query_map([], |row| row.get::<_, String>(0))?;
    rows.collect()
}
