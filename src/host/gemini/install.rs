//! `hookmux install gemini`: route Gemini CLI's hook events through `hookmux dispatch --host
//! gemini`, which runs the user's Claude Code hooks (their `settings.json` files, found as Claude
//! Code finds them) under Gemini.
//!
//! The entries go into Gemini's `settings.json` (`~/.gemini/settings.json`, or
//! `<project>/.gemini/settings.json` with `--scope project`), merged into what is there: one
//! group `{"hooks": [entry]}` appended to each event's list, nothing else touched.
//! `hookmux uninstall gemini` removes exactly those entries again, recognising them as install
//! does: by their command, this executable's `dispatch --host gemini`.

use crate::engine::config::trust;
use crate::host::config_file::{self, project_root, write_atomically};
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
        let program = config_file::this_hookmux_word("Gemini's settings.json")?;
        if program.contains('$') {
            bail!("this hookmux's path ({program}) has a `$`, which Gemini would expand as a variable; move it");
        }
        Ok(Paths { home, project: project_root(&cwd), command: format!("{program} dispatch --host gemini") })
    }

    pub fn settings_file(&self, scope: Scope) -> PathBuf {
        match scope {
            Scope::User => self.home.join(".gemini").join("settings.json"),
            Scope::Project => self.project.join(".gemini").join("settings.json"),
        }
    }
}

/// What an install or uninstall changes in the settings file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Unchanged,
    Write(String),
    /// Only hookmux's entries were in it: an install created it.
    Delete,
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
    let mut root = read_settings(file)?;
    let mut changed = false;
    let Some(hooks) = root.as_object_mut().and_then(|r| r.entry("hooks").or_insert_with(|| json!({})).as_object_mut())
    else {
        bail!("{}: `hooks` is not an object; fix or remove it, then run this again", file.display());
    };
    for event in EVENTS {
        let groups = hooks.entry(*event).or_insert_with(|| json!([]));
        let Some(groups) = groups.as_array_mut() else {
            bail!("{}: `hooks.{event}` is not an array; fix it, then run this again", file.display());
        };
        let present = groups.iter().any(|group| {
            group.get("hooks").and_then(Value::as_array).is_some_and(|handlers| {
                handlers.iter().any(|h| h.get("command").and_then(Value::as_str) == Some(command))
            })
        });
        if !present {
            groups.push(json!({"hooks": [entry(command)]}));
            changed = true;
        }
    }
    Ok(if changed { Change::Write(pretty(&root)) } else { Change::Unchanged })
}

/// Our entry for one event.
fn entry(command: &str) -> Value {
    json!({"type": "command", "name": NAME, "command": command, "timeout": TIMEOUT_MS})
}

/// What `install gemini` prints.
pub fn report(file: &Path, change: &Change, paths: &Paths, args: &Args) -> String {
    let mut out = String::new();
    match change {
        Change::Write(text) if args.dry_run => out.push_str(&format!("hookmux would write {}:\n{text}", file.display())),
        Change::Write(_) | Change::Delete => out.push_str(&format!(
            "{}: {} Gemini CLI events now run `{}`, which runs your Claude Code hooks (~/.claude/settings.json, <project>/.claude/settings.json, .claude/settings.local.json, managed settings).\n",
            file.display(),
            EVENTS.len(),
            paths.command
        )),
        Change::Unchanged => out.push_str(&format!("{}: the hookmux entries are already there.\n", file.display())),
    }
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
    let claude = project.join(".claude");
    let has_settings = ["settings.json", "settings.local.json"].iter().any(|name| claude.join(name).is_file());
    let env = hookmux_sdk::Env::from_process();
    let world = crate::engine::dispatch::World::new(env.clone(), project.to_path_buf());
    let event = hookmux_sdk::Event::from_fields(
        json!({"cwd": project.to_string_lossy()}).as_object().cloned().unwrap_or_default(),
    );
    let host = super::gemini_trust(&world, &event);
    (has_settings && trust::decide(project, host, &env) == trust::Decision::Untrusted).then(|| {
        format!(
            "{}'s own hooks (.claude/settings*.json) run under Gemini CLI only in a trusted project: trust the folder \
             in Gemini, or run `hookmux trust {}` if you trust its hooks.",
            project.display(),
            project.display()
        )
    })
}

/// `hookmux uninstall gemini`.
pub fn uninstall(args: &UninstallArgs) -> anyhow::Result<ExitCode> {
    let paths = Paths::discover()?;
    let file = paths.settings_file(args.scope);
    let (change, removed) = plan_removal(&file, &paths.command)?;
    if !args.dry_run {
        apply(&file, &change)?;
    }
    let shown = file.display();
    let entries = if removed == 1 { "entry" } else { "entries" };
    match (&change, args.dry_run) {
        (Change::Unchanged, _) => println!("{shown}: no hookmux entries (`{}`) to remove.", paths.command),
        (Change::Write(text), true) => print!("hookmux would write {shown}:\n{text}"),
        (Change::Delete, true) => {
            println!("hookmux would remove {shown}: it holds only hookmux's {removed} {entries}.")
        }
        (Change::Delete, false) => println!("{shown}: removed, as it held only hookmux's {removed} {entries}."),
        (Change::Write(_), false) => {
            println!("{shown}: removed hookmux's {removed} {entries}; the rest is as it was.")
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The settings without our entries, and how many went. A group left empty by removing ours was
/// an install's own and goes; so do an event list and a `hooks` object left empty by that.
pub fn plan_removal(file: &Path, command: &str) -> anyhow::Result<(Change, usize)> {
    if !file.exists() {
        return Ok((Change::Unchanged, 0));
    }
    let mut root = read_settings(file)?;
    let Some(object) = root.as_object_mut() else { return Ok((Change::Unchanged, 0)) };
    let Some(hooks) = object.get_mut("hooks") else { return Ok((Change::Unchanged, 0)) };
    let Some(hooks) = hooks.as_object_mut() else {
        bail!("{}: `hooks` is not an object; fix or remove it, then run this again", file.display());
    };
    let mut removed = 0;
    let mut emptied_events = Vec::new();
    for (event, groups) in hooks.iter_mut() {
        let Some(groups) = groups.as_array_mut() else { continue };
        let before = groups.len();
        let mut emptied_any = false;
        groups.retain_mut(|group| {
            let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else { return true };
            let count = handlers.len();
            handlers.retain(|h| h.get("command").and_then(Value::as_str) != Some(command));
            let ours = count - handlers.len();
            removed += ours;
            let keep = !(ours > 0 && handlers.is_empty());
            emptied_any |= !keep;
            keep
        });
        if emptied_any && groups.is_empty() && before > 0 {
            emptied_events.push(event.clone());
        }
    }
    if removed == 0 {
        return Ok((Change::Unchanged, 0));
    }
    for event in emptied_events {
        hooks.remove(&event);
    }
    if hooks.is_empty() {
        object.remove("hooks");
    }
    let change = if object.is_empty() { Change::Delete } else { Change::Write(pretty(&root)) };
    Ok((change, removed))
}

/// Writes or deletes the settings file.
pub fn apply(file: &Path, change: &Change) -> anyhow::Result<()> {
    match change {
        Change::Unchanged => Ok(()),
        Change::Write(text) => write_atomically(file, text),
        Change::Delete => std::fs::remove_file(file).with_context(|| format!("cannot remove {}", file.display())),
    }
}

fn pretty(root: &Value) -> String {
    format!("{}\n", serde_json::to_string_pretty(root).unwrap_or_default())
}

fn read_settings(path: &Path) -> anyhow::Result<Value> {
    config_file::read_json_object(
        path,
        json!({}),
        "not plain JSON (hookmux does not rewrite a settings file with comments)",
    )
}

#[cfg(test)]
mod tests;
