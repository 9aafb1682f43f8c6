//! `hookmux install qwen`: route Qwen Code's hook events through `hookmux dispatch --host qwen`,
//! which runs the user's Claude Code hooks (their `settings.json` files, found as Claude Code
//! finds them) under Qwen.
//!
//! The entries go into Qwen's `settings.json` (`~/.qwen/settings.json`, `$QWEN_HOME` standing
//! for `~/.qwen`, or `<project>/.qwen/settings.json` with `--scope project`), merged into what is
//! there as for Gemini CLI ([`crate::host::settings_hooks`]). Where Qwen differs:
//!
//! * Qwen reads a `timeout` of 1000 or more as milliseconds, anything less as seconds: the
//!   entries' timeout is 600 (seconds, Claude Code's longest default; the hooks inside keep their
//!   own), and a reinstall puts back an entry whose timeout was changed.
//! * Qwen writes `"$version"` into every settings file it loads: a file left with nothing else by
//!   `uninstall` held only what `install` wrote, and is removed.
//! * Qwen runs a project's `.qwen/settings.json` hooks in every folder while its folder trust is
//!   off (its default), and reads `.qwen/settings.json` only from the folder it starts in.

use crate::host::config_file::{self, project_root};
use crate::host::settings_hooks;
pub use crate::host::settings_hooks::{apply, Change};
use anyhow::{bail, Context as _};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Qwen's events that hookmux answers, in Qwen's order. UserPromptSubmit also carries out a
/// tool event's `continue: false` (see [`super`]).
pub const EVENTS: &[&str] = &[
    "SessionStart",
    "InstructionsLoaded",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "StopFailure",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
];

/// Seconds Qwen gives each entry: Claude Code's longest default, since the hooks inside keep
/// their own timeouts; below 1000, which Qwen would read as milliseconds.
pub const TIMEOUT_SECS: u64 = 600;

/// The timeout from which Qwen reads milliseconds.
pub const MILLISECONDS_FROM: f64 = 1000.0;

/// The name Qwen shows for the entries.
const NAME: &str = "hookmux";

/// The key Qwen stamps into every settings file it loads.
const VERSION_STAMP: &str = "$version";

pub use crate::host::codex::install::Scope;

/// `hookmux install qwen`'s options.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Args {
    /// Where the entries go: `user` is ~/.qwen/settings.json (every project), `project` is
    /// <project>/.qwen/settings.json, which Qwen reads when it starts in that folder.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Show what would be written, write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `hookmux uninstall qwen`'s options.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct UninstallArgs {
    /// Which settings.json to remove the entries from.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Show what would be written or removed, write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// Where things are: found from the environment by [`Paths::discover`], or given by tests.
#[derive(Clone, Debug)]
pub struct Paths {
    /// Qwen's own folder (`$QWEN_HOME`, else `~/.qwen`).
    pub qwen_dir: PathBuf,
    pub project: PathBuf,
    /// The command each entry runs.
    pub command: String,
}

impl Paths {
    pub fn discover() -> anyhow::Result<Paths> {
        let cwd = std::env::current_dir().context("cannot read the current folder")?;
        let env = hookmux_sdk::Env::from_process();
        let Some(qwen_dir) = super::qwen_dir(&env) else {
            bail!("neither QWEN_HOME nor HOME is set, so there is no Qwen Code folder to install into")
        };
        let command = settings_hooks::entry_command("qwen", "Qwen Code")?;
        Ok(Paths { qwen_dir, project: project_root(&cwd), command })
    }

    pub fn settings_file(&self, scope: Scope) -> PathBuf {
        match scope {
            Scope::User => self.qwen_dir.join("settings.json"),
            Scope::Project => self.project.join(".qwen").join("settings.json"),
        }
    }
}

/// `hookmux install qwen`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let paths = Paths::discover()?;
    let file = paths.settings_file(args.scope);
    let change = plan(&file, &paths.command)?;
    if !args.dry_run {
        apply(&file, &change)?;
    }
    print!("{}", report(&file, &change, &paths, args));
    Ok(ExitCode::SUCCESS)
}

/// The new settings text with an entry for every event (`Unchanged` when all are there as they
/// should be).
pub fn plan(file: &Path, command: &str) -> anyhow::Result<Change> {
    settings_hooks::plan(file, EVENTS, &entry(command))
}

/// Our entry for one event.
pub fn entry(command: &str) -> Value {
    json!({"type": "command", "name": NAME, "command": command, "timeout": TIMEOUT_SECS})
}

/// What `install qwen` prints.
pub fn report(file: &Path, change: &Change, paths: &Paths, args: &Args) -> String {
    let mut out = settings_hooks::install_report(file, change, args.dry_run, EVENTS.len(), "Qwen Code", &paths.command);
    if args.scope == Scope::Project {
        out.push_str(&format!("Qwen Code reads {} when it starts in {}.\n", file.display(), paths.project.display()));
    }
    if let Some(offer) = trust_offer(&paths.project) {
        out.push_str(&offer);
        out.push('\n');
    }
    out
}

/// When the project has Claude settings of its own that no one trusts yet, how to let them run.
fn trust_offer(project: &Path) -> Option<String> {
    let world = crate::engine::dispatch::World::new(hookmux_sdk::Env::from_process(), project.to_path_buf());
    let host = super::qwen_trust(&world, &settings_hooks::event_in(project));
    config_file::untrusted_offer(
        project,
        host,
        "Qwen Code",
        Some("Qwen asks nothing before it runs hooks, so trust it in Qwen's trustedFolders.json (TRUST_FOLDER)"),
    )
}

/// `hookmux uninstall qwen`.
pub fn uninstall(args: &UninstallArgs) -> anyhow::Result<ExitCode> {
    let paths = Paths::discover()?;
    let file = paths.settings_file(args.scope);
    let (change, removed) = plan_removal(&file, &paths.command)?;
    if !args.dry_run {
        apply(&file, &change)?;
    }
    print!("{}", settings_hooks::removal_report(&file, &change, removed, args.dry_run, &paths.command));
    Ok(ExitCode::SUCCESS)
}

/// The settings without our entries, and how many went (see [`settings_hooks::plan_removal`]);
/// Qwen's `$version` stamp alone does not keep a file.
pub fn plan_removal(file: &Path, command: &str) -> anyhow::Result<(Change, usize)> {
    settings_hooks::plan_removal(file, command, &[VERSION_STAMP])
}

#[cfg(test)]
mod tests;
