//! `hookmux install gemini`: route Gemini CLI's hook events through `hookmux dispatch --host
//! gemini`, which runs the user's Claude Code hooks (their `settings.json` files, found as Claude
//! Code finds them) under Gemini.
//!
//! The entries go into Gemini's `settings.json` (`~/.gemini/settings.json`, or
//! `<project>/.gemini/settings.json` with `--scope project`), merged into what is there: one
//! group `{"hooks": [entry]}` appended to each event's list, nothing else touched.
//! `hookmux uninstall gemini` removes exactly those entries again, recognising them as install
//! does: by their command, this executable's `dispatch --host gemini`.

use crate::host::config_file::{self, project_root};
use crate::host::settings_hooks;
pub use crate::host::settings_hooks::{apply, Change};
use anyhow::{bail, Context as _};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Gemini's events that hookmux answers, in Gemini's order. BeforeModel carries out a tool
/// event's `continue: false`; AfterModel and BeforeToolSelection have no Claude counterpart.
pub const EVENTS: &[&str] = &[
    "SessionStart",
    "BeforeAgent",
    "PreCompress",
    "BeforeModel",
    "BeforeTool",
    "AfterTool",
    "AfterAgent",
    "Notification",
    "SessionEnd",
];

/// Milliseconds Gemini gives each entry: as long as Claude Code's longest default, since the
/// hooks inside keep their own timeouts.
const TIMEOUT_MS: u64 = 600_000;

/// The name Gemini shows for the entries.
const NAME: &str = "hookmux";

pub use crate::host::codex::install::Scope;

/// `hookmux install gemini`'s options.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Args {
    /// Where the entries go: `user` is ~/.gemini/settings.json (every project), `project` is
    /// <project>/.gemini/settings.json, which Gemini runs only in a folder it trusts.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Show what would be written, write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `hookmux uninstall gemini`'s options.
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
    /// The folder Gemini takes for `~` (`$GEMINI_CLI_HOME`, else `$HOME`).
    pub home: PathBuf,
    pub project: PathBuf,
    /// The command each entry runs.
    pub command: String,
}

impl Paths {
    pub fn discover() -> anyhow::Result<Paths> {
        let cwd = std::env::current_dir().context("cannot read the current folder")?;
        let env = hookmux_sdk::Env::from_process();
        let Some(home) = super::gemini_home(&env) else {
            bail!("neither GEMINI_CLI_HOME nor HOME is set, so there is no Gemini folder to install into")
        };
        let command = settings_hooks::entry_command("gemini", "Gemini")?;
        Ok(Paths { home, project: project_root(&cwd), command })
    }

    pub fn settings_file(&self, scope: Scope) -> PathBuf {
        match scope {
            Scope::User => self.home.join(".gemini").join("settings.json"),
            Scope::Project => self.project.join(".gemini").join("settings.json"),
        }
    }
}

/// `hookmux install gemini`.
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

/// The new settings text with an entry for every event (`Unchanged` when all are there).
pub fn plan(file: &Path, command: &str) -> anyhow::Result<Change> {
    settings_hooks::plan(file, EVENTS, &entry(command))
}

/// Our entry for one event.
fn entry(command: &str) -> Value {
    json!({"type": "command", "name": NAME, "command": command, "timeout": TIMEOUT_MS})
}

/// What `install gemini` prints.
pub fn report(file: &Path, change: &Change, paths: &Paths, args: &Args) -> String {
    let mut out = String::new();
    out.push_str(&settings_hooks::install_report(
        file,
        change,
        args.dry_run,
        EVENTS.len(),
        "Gemini CLI",
        &paths.command,
    ));
    if args.scope == Scope::Project {
        out.push_str(&format!(
            "Gemini CLI runs {} only in a folder it trusts: trust {} when Gemini asks (or in ~/.gemini/trustedFolders.json).\n",
            file.display(),
            paths.project.display()
        ));
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
    let host = super::gemini_trust(&world, &settings_hooks::event_in(project));
    config_file::untrusted_offer(project, host, "Gemini CLI", Some("trust the folder in Gemini"))
}

/// `hookmux uninstall gemini`.
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

/// The settings without our entries, and how many went (see [`settings_hooks::plan_removal`]).
pub fn plan_removal(file: &Path, command: &str) -> anyhow::Result<(Change, usize)> {
    settings_hooks::plan_removal(file, command, &[])
}

#[cfg(test)]
mod tests;
