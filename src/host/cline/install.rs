//! `hookmux install cline`: one hook file per Cline event that hookmux answers, each running
//! `hookmux dispatch --host cline`, which runs the user's Claude Code hooks (their
//! `settings.json` files, found as Claude Code finds them) under Cline.
//!
//! Cline has no settings entry for a hook: it runs every file in its hook folders named after one
//! of its events ([`CLINE_EVENTS`], any case, with no extension or one of [`EXTENSIONS`]), all of
//! them, in path order. So install adds files and never edits one: with the default `--scope
//! user`, in `$CLINE_DIR/hooks/` (else `~/.cline/hooks/`), the folder the Cline CLI reads for every
//! workspace; with `--scope project`, in the project's `.clinerules/hooks/` (`.cline/hooks/` when
//! `.clinerules` is a rules file, not a folder). The user's own hook files stay as they are, and
//! install lists them, since Cline runs them beside hookmux's. A file of hookmux's is recognised by
//! its marker line ([`hook_file::MARKER`]), so `hookmux uninstall cline` removes exactly those
//! files, and then the hooks folder when that leaves it empty (as a fresh install made it).
//!
//! Cline runs a hook file through its `#!` line, else by its extension, else with `bash`; no
//! exec bit is needed, but the files get one (Cline's editor extension wants it). On Windows,
//! Cline's documented hook file is `<Event>.ps1`, which it runs with `powershell -File` (a file
//! without an extension it runs with `bash`); everything about the file's name and text is in
//! [`hook_file`], to be given a Windows form there.

use crate::engine::config::diagnostic::{Check, Diagnostic};
use crate::engine::config::jsonpath::JsonPath;
use crate::engine::config::trust::HostTrust;
use crate::host::config_file::{self, project_root, shell_quote};
use anyhow::{bail, Context as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub use crate::host::codex::install::Scope;

/// Cline's events that hookmux answers, one hook file each, in Cline's order. TaskCancel (an
/// interrupt) has no Claude counterpart, and Cline never runs PreCompact files.
pub const EVENTS: &[&str] = &[
    "TaskStart",
    "TaskResume",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "TaskComplete",
    "TaskError",
    "SessionShutdown",
];

/// Every event Cline 3.0.65 runs a hook file for (PreCompact: discovered, never run).
pub const CLINE_EVENTS: &[&str] = &[
    "TaskStart",
    "TaskResume",
    "TaskCancel",
    "TaskComplete",
    "TaskError",
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "PreCompact",
    "SessionShutdown",
];

/// The endings Cline takes after an event's name; a file with any other is not a hook file.
pub const EXTENSIONS: &[&str] =
    &["", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"];

/// The name and text of hookmux's hook files: everything an OS changes about them.
pub mod hook_file {
    /// The line that marks a hook file as hookmux's, so that uninstall removes it and nothing else.
    pub const MARKER: &str = "# hookmux: runs your Claude Code hooks for Cline's";

    /// The names hookmux's file for `event` may take, in order of preference: the plain event
    /// name (what Cline's documentation shows for Linux and macOS), else, when a file of the
    /// user's has it, with `.sh`.
    pub fn names(event: &str) -> [String; 2] {
        [event.to_string(), format!("{event}.sh")]
    }

    /// The file's text: `sh` starts hookmux, which reads the event on the stdin it inherits.
    pub fn text(event: &str, program: &str) -> String {
        format!(
            "#!/bin/sh\n{MARKER} {event}; `hookmux uninstall cline` removes this file.\nexec {program} dispatch --host cline\n"
        )
    }

    /// Whether a hook file's text is one of hookmux's.
    pub fn is_ours(text: &str) -> bool {
        text.lines().any(|line| line.starts_with(MARKER))
    }
}

/// `hookmux install cline`'s options.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Args {
    /// Where the hook files go: `user` is ~/.cline/hooks/ ($CLINE_DIR/hooks/; every workspace),
    /// `project` is <project>/.clinerules/hooks/.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Show what would be written, write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `hookmux uninstall cline`'s options.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct UninstallArgs {
    /// Which hooks folder to remove hookmux's hook files from.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Show what would be removed, remove nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// Where things are: found from the environment by [`Paths::discover`], or given by tests.
#[derive(Clone, Debug)]
pub struct Paths {
    /// The folder Cline takes for `~` (`$HOME`).
    pub home: PathBuf,
    /// Cline's own folder: `$CLINE_DIR`, else `~/.cline`.
    pub cline_dir: PathBuf,
    /// The workspace: the nearest folder up with `.git`, as Cline finds it, else the current one.
    pub project: PathBuf,
    /// This hookmux, as a word for `sh`.
    pub program: String,
}

impl Paths {
    pub fn discover() -> anyhow::Result<Paths> {
        let cwd = std::env::current_dir().context("cannot read the current folder")?;
        let Some(paths) = Paths::of(&hookmux_sdk::Env::from_process(), &cwd) else {
            bail!("HOME is not set (or not an absolute path), so there is no Cline folder to install into")
        };
        let exe = std::env::current_exe().context("cannot tell where this hookmux executable is")?;
        let exe = exe.canonicalize().unwrap_or(exe);
        let Some(exe) = exe.to_str() else {
            bail!("this hookmux's path is not UTF-8 ({}); a hook file cannot name it", exe.display())
        };
        Ok(Paths { program: shell_quote(exe), ..paths })
    }

    /// Cline's folders for a user (`$HOME`, `$CLINE_DIR`) working in `cwd`, with no program
    /// (for looking, not installing); `None` without a home.
    pub fn of(env: &hookmux_sdk::Env, cwd: &Path) -> Option<Paths> {
        let home = env.path("HOME").filter(|h| h.is_absolute())?;
        let cline_dir = env.path("CLINE_DIR").filter(|d| d.is_absolute()).unwrap_or_else(|| home.join(".cline"));
        Some(Paths { home, cline_dir, project: project_root(cwd), program: String::new() })
    }

    /// The folder install writes to for `scope`.
    pub fn hooks_dir(&self, scope: Scope) -> PathBuf {
        match scope {
            Scope::User => self.cline_dir.join("hooks"),
            Scope::Project if self.project.join(".clinerules").is_file() => self.project.join(".cline").join("hooks"),
            Scope::Project => self.project.join(".clinerules").join("hooks"),
        }
    }

    /// Every folder Cline reads hook files from, in its order.
    pub fn cline_folders(&self) -> Vec<PathBuf> {
        let mut folders = vec![
            self.home.join("Documents").join("Cline").join("Hooks"),
            self.cline_dir.join("hooks"),
            self.project.join(".clinerules").join("hooks"),
            self.project.join(".cline").join("hooks"),
        ];
        folders.dedup();
        folders
    }
}

/// A file in one of Cline's hook folders that Cline runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookFile {
    pub path: PathBuf,
    /// The event, as Cline spells it.
    pub event: &'static str,
    pub ours: bool,
}

/// The event a file name stands for in Cline's eyes, if any.
pub fn event_of(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    CLINE_EVENTS.iter().copied().find(|event| {
        let event = event.to_ascii_lowercase();
        EXTENSIONS.iter().any(|ext| lower.strip_suffix(ext).is_some_and(|stem| stem.trim() == event))
    })
}

/// The hook files Cline runs from `dir`, sorted by path as Cline runs them; nothing when the
/// folder is not there.
pub fn hook_files(dir: &Path) -> Vec<HookFile> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<HookFile> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_file())
        .filter_map(|entry| {
            let event = event_of(entry.file_name().to_str()?)?;
            let ours =
                std::fs::read(entry.path()).is_ok_and(|bytes| hook_file::is_ours(&String::from_utf8_lossy(&bytes)));
            Some(HookFile { path: entry.path(), event, ours })
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// The user's own hook files in every folder Cline reads: Cline runs them beside hookmux's.
pub fn users_hook_files(paths: &Paths) -> Vec<PathBuf> {
    paths.cline_folders().iter().flat_map(|dir| hook_files(dir)).filter(|f| !f.ours).map(|f| f.path).collect()
}

/// The files in Cline's hook folders that look like hooks but that Cline never runs: named after
/// a Claude Code event (Cline has none of that name), ending in an extension Cline does not run,
/// or PreCompact (discovered, never run). For `hooks validate`.
pub fn never_run(paths: &Paths) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for dir in paths.cline_folders() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut names: Vec<(PathBuf, String)> = entries
            .filter_map(Result::ok)
            .filter(|entry| entry.path().is_file())
            .filter_map(|entry| Some((entry.path(), entry.file_name().to_str()?.to_string())))
            .collect();
        names.sort();
        for (path, name) in names {
            let stem = match name.rfind('.') {
                Some(at) if at > 0 => &name[..at],
                _ => name.as_str(),
            };
            let why = match event_of(&name) {
                Some("PreCompact") => "Cline 3.0.65 finds PreCompact hook files but never runs them".to_string(),
                Some(_) => continue,
                None if CLINE_EVENTS.iter().any(|e| e.eq_ignore_ascii_case(stem)) => format!(
                    "Cline runs a hook file only without an extension or with one of {}; it never runs this one",
                    EXTENSIONS[1..].join(" ")
                ),
                None if hookmux_sdk::HookEvent::named(stem).is_some() => {
                    format!(
                        "`{stem}` is a Claude Code event, and Cline has no hook by that name: it never runs this file"
                    )
                }
                None => continue,
            };
            found.push(
                Diagnostic::warning(&path, JsonPath::root(), why)
                    .with_hint(
                        "Cline's hook files are named TaskStart, TaskResume, TaskCancel, TaskComplete, TaskError, PreToolUse, \
                         PostToolUse, UserPromptSubmit, SessionShutdown; for Claude Code hooks, keep them in \
                         .claude/settings.json and run `hookmux install cline`",
                    )
                    .check(Check::ClineHookNeverRuns),
            );
        }
    }
    found
}

/// What install writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub dir: PathBuf,
    /// Hook files to write (new, or an older install's), with their text.
    pub writes: Vec<(PathBuf, String)>,
    /// hookmux's hook files already as they should be.
    pub unchanged: Vec<PathBuf>,
}

/// Computes the files to write without writing anything.
pub fn plan(paths: &Paths, scope: Scope) -> anyhow::Result<Plan> {
    let dir = paths.hooks_dir(scope);
    if dir.exists() && !dir.is_dir() {
        bail!("{} is not a folder; move it away, then run this again", dir.display());
    }
    let present = hook_files(&dir);
    let mut plan = Plan { dir: dir.clone(), ..Plan::default() };
    for event in EVENTS {
        let text = hook_file::text(event, &paths.program);
        if let Some(file) = present.iter().find(|f| f.ours && f.event == *event) {
            let current = std::fs::read_to_string(&file.path).unwrap_or_default();
            if current == text {
                plan.unchanged.push(file.path.clone());
            } else {
                plan.writes.push((file.path.clone(), text));
            }
            continue;
        }
        let free = hook_file::names(event).into_iter().map(|name| dir.join(name)).find(|path| {
            // Not there, in any case: Cline reads names case-insensitively.
            !present.iter().any(|f| f.path.to_string_lossy().eq_ignore_ascii_case(&path.to_string_lossy()))
        });
        let Some(path) = free else {
            bail!(
                "{}: your own hook files take every name hookmux's {event} file could have ({}); rename one, then run this again",
                dir.display(),
                hook_file::names(event).join(", ")
            );
        };
        plan.writes.push((path, text));
    }
    Ok(plan)
}

/// Writes the plan's files.
pub fn apply(plan: &Plan) -> anyhow::Result<()> {
    for (path, text) in &plan.writes {
        config_file::write_executable(path, text)?;
    }
    Ok(())
}

/// `hookmux install cline`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let paths = Paths::discover()?;
    let plan = plan(&paths, args.scope)?;
    if !args.dry_run {
        apply(&plan)?;
    }
    print!("{}", report(&plan, &paths, args.dry_run));
    Ok(ExitCode::SUCCESS)
}

/// What `install cline` prints.
pub fn report(plan: &Plan, paths: &Paths, dry_run: bool) -> String {
    let mut out = String::new();
    let verb = if dry_run { "would write" } else { "wrote" };
    for (path, text) in &plan.writes {
        out.push_str(&format!("hookmux {verb} {}\n", path.display()));
        if dry_run {
            out.push_str(text);
        }
    }
    if plan.writes.is_empty() {
        out.push_str(&format!("{}: hookmux's hook files are already there.\n", plan.dir.display()));
    } else if !dry_run {
        out.push_str(&format!(
            "Cline's {} now run `{} dispatch --host cline`, which runs your Claude Code hooks (~/.claude/settings.json, \
             <project>/.claude/settings.json, .claude/settings.local.json, managed settings).\n",
            EVENTS.join(", "),
            paths.program
        ));
    }
    let theirs = users_hook_files(paths);
    if !theirs.is_empty() {
        out.push_str("Cline also runs these hook files of yours, beside hookmux's (install leaves them alone):\n");
        for file in theirs {
            out.push_str(&format!("  {}\n", file.display()));
        }
    }
    // Cline keeps no trust of its own.
    if let Some(offer) = config_file::untrusted_offer(&paths.project, HostTrust::Unknown, "Cline", None) {
        out.push_str(&offer);
        out.push('\n');
    }
    out
}

/// What uninstall removes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Removal {
    pub files: Vec<PathBuf>,
    /// Folders left empty by that (the hooks folder, and the `.clinerules` or `.cline` around it
    /// when it held only that), innermost first.
    pub dirs: Vec<PathBuf>,
}

/// Computes what uninstall removes without removing anything.
pub fn plan_removal(paths: &Paths, scope: Scope) -> Removal {
    let dirs: Vec<PathBuf> = match scope {
        Scope::User => vec![paths.cline_dir.join("hooks")],
        Scope::Project => {
            vec![paths.project.join(".clinerules").join("hooks"), paths.project.join(".cline").join("hooks")]
        }
    };
    let mut removal = Removal::default();
    for dir in dirs {
        let files = hook_files(&dir);
        let ours: Vec<PathBuf> = files.iter().filter(|f| f.ours).map(|f| f.path.clone()).collect();
        if ours.is_empty() {
            continue;
        }
        let others = std::fs::read_dir(&dir).map(|entries| entries.count()).unwrap_or(0).saturating_sub(ours.len());
        removal.files.extend(ours);
        if others == 0 {
            removal.dirs.push(dir.clone());
            let parent = dir.parent().filter(|p| *p != paths.project && *p != paths.home);
            if let Some(parent) = parent.filter(|p| std::fs::read_dir(p).map(|e| e.count()).unwrap_or(0) == 1) {
                removal.dirs.push(parent.to_path_buf());
            }
        }
    }
    removal
}

/// Removes the files, then the folders.
pub fn apply_removal(removal: &Removal) -> anyhow::Result<()> {
    for file in &removal.files {
        std::fs::remove_file(file).with_context(|| format!("cannot remove {}", file.display()))?;
    }
    for dir in &removal.dirs {
        std::fs::remove_dir(dir).with_context(|| format!("cannot remove {}", dir.display()))?;
    }
    Ok(())
}

/// `hookmux uninstall cline`.
pub fn uninstall(args: &UninstallArgs) -> anyhow::Result<ExitCode> {
    let paths = Paths::discover()?;
    let removal = plan_removal(&paths, args.scope);
    if !args.dry_run {
        apply_removal(&removal)?;
    }
    let verb = if args.dry_run { "would remove" } else { "removed" };
    if removal.files.is_empty() {
        println!("{}: no hook files of hookmux's to remove.", paths.hooks_dir(args.scope).display());
    }
    for path in removal.files.iter().chain(&removal.dirs) {
        println!("hookmux {verb} {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests;
