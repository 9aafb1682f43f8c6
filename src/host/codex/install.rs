//! `hookmux install codex`: route Codex's hook events through `hookmux dispatch --host codex`,
//! which runs the user's Claude Code hooks (their `settings.json` files, found as Claude Code
//! finds them) under Codex.
//!
//! Codex runs a non-managed hook only once its definition is trusted: `config.toml` holds, per
//! hook, `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`,
//! the SHA-256 of the hook's normalized definition (`event_name`, `matcher`, and the one handler
//! with `timeout` filled in and `async` spelled out) as canonical JSON with sorted keys. That is
//! what trusting a hook in Codex's `/hooks` writes, and what `--trust` writes here, for the
//! entries this command adds and nothing else.
//!
//! `hookmux uninstall codex` removes those entries and their trust records again, recognising
//! the entries as install does: by their command, this executable's `dispatch --host codex`.

use crate::engine::config::trust::HostTrust;
use crate::host::config_file::{self, project_root, shell_quote, write_atomically};
use anyhow::{bail, Context as _};
use hookmux_platform::dirs::{variable, Folder};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

/// Codex's events that have a Claude Code counterpart, in Codex's order. (Codex's `Interrupt`
/// has none.)
pub const EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "SessionEnd",
];

/// Seconds Codex gives each entry: as long as Claude Code's longest default, since the hooks
/// inside keep their own timeouts. Codex clamps SessionEnd to 3 s.
const TIMEOUT: u64 = 600;
const SESSION_END_TIMEOUT: u64 = 3;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// `$CODEX_HOME/hooks.json` (`~/.codex/hooks.json`): every project.
    #[default]
    User,
    /// `<project>/.codex/hooks.json`: this project (the nearest folder up with `.git`), which
    /// Codex loads only when the project is trusted.
    Project,
}

/// `hookmux install codex`'s options.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Args {
    /// Where the entries go.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Also record the entries as trusted in Codex's config.toml, as Codex's /hooks would.
    #[arg(long)]
    pub trust: bool,
    /// Show what would be written, write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// Where things are: found from the environment by [`Paths::discover`], or given by tests.
#[derive(Clone, Debug)]
pub struct Paths {
    pub codex_home: PathBuf,
    pub project: PathBuf,
    /// The command each entry runs.
    pub command: String,
}

impl Paths {
    /// `$CODEX_HOME` (else `~/.codex`), the project around the current folder, and this
    /// executable's own path.
    pub fn discover() -> anyhow::Result<Paths> {
        let cwd = std::env::current_dir().context("cannot read the current folder")?;
        let codex_home = match std::env::var_os("CODEX_HOME").filter(|v| !v.is_empty()) {
            Some(dir) => absolute(Path::new(&dir), &cwd),
            None => match hookmux_platform::dirs::home(&hookmux_sdk::Env::from_process()) {
                Some(home) => home.join(".codex"),
                None => bail!(
                    "neither CODEX_HOME nor {} is set, so there is no Codex folder to install into",
                    variable(Folder::Home)
                ),
            },
        };
        let exe = std::env::current_exe().context("cannot tell where this hookmux executable is")?;
        let exe = exe.canonicalize().unwrap_or(exe);
        let Some(exe) = exe.to_str() else {
            bail!("this hookmux's path is not UTF-8 ({}); Codex's hooks.json cannot name it", exe.display())
        };
        Ok(Paths {
            codex_home,
            project: project_root(&cwd),
            command: format!("{} dispatch --host codex", shell_quote(exe)),
        })
    }

    pub fn hooks_file(&self, scope: Scope) -> PathBuf {
        match scope {
            Scope::User => self.codex_home.join("hooks.json"),
            Scope::Project => self.project.join(".codex").join("hooks.json"),
        }
    }

    pub fn config_file(&self) -> PathBuf {
        self.codex_home.join("config.toml")
    }
}

/// What an install changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub hooks_file: PathBuf,
    /// The new hooks.json text, or `None` when every entry is already there.
    pub hooks_json: Option<String>,
    /// One per event: the state key and the hash Codex computes for the entry.
    pub trust: Vec<(String, String)>,
    /// The new config.toml text when trusting changes it.
    pub config_toml: Option<String>,
    /// For project scope: whether Codex trusts the project (else it ignores `.codex/`).
    pub project_trusted: Option<bool>,
}

/// `hookmux install codex`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let paths = Paths::discover()?;
    let plan = plan(&paths, args.scope, args.trust)?;
    if !args.dry_run {
        apply(&plan, &paths)?;
    }
    print!("{}", report(&plan, &paths, args));
    if let Some(offer) = trust_offer(&paths) {
        println!("{offer}");
    }
    Ok(ExitCode::SUCCESS)
}

/// When the project has Claude settings of its own that no one trusts yet, how to let them run:
/// under Codex, a project's own hooks run only in a project Codex or hookmux trusts.
fn trust_offer(paths: &Paths) -> Option<String> {
    let codex_trusts = std::fs::read_to_string(paths.config_file())
        .ok()
        .and_then(|text| text.parse::<toml_edit::DocumentMut>().ok())
        .is_some_and(|config| is_project_trusted(&config, &paths.project));
    let host = if codex_trusts { HostTrust::Trusted } else { HostTrust::Unknown };
    config_file::untrusted_offer(&paths.project, host, "Codex", Some("trust the folder when Codex asks"))
}

/// Computes the changes without writing anything.
pub fn plan(paths: &Paths, scope: Scope, trust: bool) -> anyhow::Result<Plan> {
    let hooks_file = paths.hooks_file(scope);
    let mut root = read_hooks_json(&hooks_file)?;
    let mut changed = false;
    let mut trusts = Vec::new();
    let Some(hooks) = root.as_object_mut().and_then(|r| r.entry("hooks").or_insert_with(|| json!({})).as_object_mut())
    else {
        bail!("{}: `hooks` is not an object; fix or remove it, then run this again", hooks_file.display());
    };
    for event in EVENTS {
        let groups = hooks.entry(*event).or_insert_with(|| json!([]));
        let Some(groups) = groups.as_array_mut() else {
            bail!("{}: `hooks.{event}` is not an array; fix it, then run this again", hooks_file.display());
        };
        let handler = entry(event, &paths.command);
        let position = groups.iter().enumerate().find_map(|(g, group)| {
            group
                .get("hooks")?
                .as_array()?
                .iter()
                .position(|h| h.get("command") == handler.get("command"))
                .map(|h| (g, h))
        });
        let (group_index, handler_index) = match position {
            Some(found) => found,
            None => {
                groups.push(json!({"hooks": [handler]}));
                changed = true;
                (groups.len() - 1, 0)
            }
        };
        let group = &groups[group_index];
        let installed = &group["hooks"][handler_index];
        let matcher = group.get("matcher").and_then(Value::as_str);
        let key = format!("{}:{}:{group_index}:{handler_index}", hooks_file.display(), event_label(event));
        trusts.push((key, trust_hash(event, matcher, installed)));
    }
    let hooks_json = changed.then(|| format!("{}\n", serde_json::to_string_pretty(&root).unwrap_or_default()));
    let config_path = paths.config_file();
    let config_text = match std::fs::read_to_string(&config_path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(err) => bail!("{}: cannot read it: {err}", config_path.display()),
    };
    let mut config: toml_edit::DocumentMut = config_text
        .parse()
        .with_context(|| format!("{}: not valid TOML; fix it, then run this again", config_path.display()))?;
    let project_trusted = (scope == Scope::Project).then(|| is_project_trusted(&config, &paths.project));
    let config_toml = if trust && record_trust(&mut config, &trusts) { Some(config.to_string()) } else { None };
    Ok(Plan { hooks_file, hooks_json, trust: trusts, config_toml, project_trusted })
}

/// Writes the plan: each file through a temporary file and a rename.
pub fn apply(plan: &Plan, paths: &Paths) -> anyhow::Result<()> {
    if let Some(text) = &plan.hooks_json {
        write_atomically(&plan.hooks_file, text)?;
    }
    if let Some(text) = &plan.config_toml {
        write_atomically(&paths.config_file(), text)?;
    }
    Ok(())
}

/// What the command prints.
pub fn report(plan: &Plan, paths: &Paths, args: &Args) -> String {
    let mut out = String::new();
    let recorded = if args.dry_run { "would record" } else { "recorded" };
    match &plan.hooks_json {
        Some(text) if args.dry_run => {
            out.push_str(&format!("hookmux would write {}:\n{text}", plan.hooks_file.display()));
        }
        Some(_) => out.push_str(&format!(
            "{}: {} Codex events now run `{}`, which runs your Claude Code hooks (~/.claude/settings.json, <project>/.claude/settings.json, .claude/settings.local.json, managed settings).\n",
            plan.hooks_file.display(),
            EVENTS.len(),
            paths.command
        )),
        None => out.push_str(&format!("{}: the hookmux entries are already there.\n", plan.hooks_file.display())),
    }
    if args.trust {
        match &plan.config_toml {
            Some(_) => out.push_str(&format!(
                "{}: {recorded} the {} entries as trusted (hooks.state trusted_hash), as Codex's /hooks does.\n",
                paths.config_file().display(),
                plan.trust.len()
            )),
            None => out.push_str(&format!("{}: the entries are already trusted.\n", paths.config_file().display())),
        }
    } else {
        out.push_str(&format!(
            "Codex runs a hook only once you trust it: open Codex, type /hooks and trust the {} `hookmux dispatch` entries, \
             or run `hookmux install codex --trust{}` to record them in {}.\n",
            plan.trust.len(),
            if plan.hooks_file.starts_with(&paths.project) && !plan.hooks_file.starts_with(&paths.codex_home) { " --scope project" } else { "" },
            paths.config_file().display()
        ));
    }
    if plan.project_trusted == Some(false) {
        out.push_str(&format!(
            "Codex loads {} only in a trusted project: start Codex in {} and trust the folder when it asks.\n",
            plan.hooks_file.display(),
            paths.project.display()
        ));
    }
    out
}

/// Our entry for one event.
fn entry(event: &str, command: &str) -> Value {
    let timeout = if event == "SessionEnd" { SESSION_END_TIMEOUT } else { TIMEOUT };
    json!({"type": "command", "command": command, "timeout": timeout})
}

/// Codex's label for an event in state keys and hashes: `PreToolUse` → `pre_tool_use`.
pub fn event_label(event: &str) -> String {
    crate::host::opencode::snake_case(event)
}

/// The hash Codex 0.169.0 trusts a command hook by: SHA-256 over the canonical JSON (keys
/// sorted, no spaces, absent fields left out) of `{event_name, matcher, hooks: [handler]}`,
/// where the handler has `type`, `command`, `timeout` (default 600, at least 1; SessionEnd
/// 1 to 3), `async` (default false) and `statusMessage` when set. UserPromptSubmit and Stop
/// take no matcher.
pub fn trust_hash(event: &str, matcher: Option<&str>, handler: &Value) -> String {
    let timeout = handler.get("timeout").or_else(|| handler.get("timeoutSec")).and_then(Value::as_u64);
    let timeout = if event == "SessionEnd" { timeout.unwrap_or(1).clamp(1, 3) } else { timeout.unwrap_or(600).max(1) };
    let mut normalized = Map::new();
    normalized.insert("type".into(), "command".into());
    normalized.insert("command".into(), handler.get("command").cloned().unwrap_or_else(|| "".into()));
    normalized.insert("timeout".into(), timeout.into());
    normalized.insert("async".into(), handler.get("async").and_then(Value::as_bool).unwrap_or(false).into());
    if let Some(message) = handler.get("statusMessage").and_then(Value::as_str) {
        normalized.insert("statusMessage".into(), message.into());
    }
    let mut identity = Map::new();
    identity.insert("event_name".into(), event_label(event).into());
    if let Some(matcher) = matcher.filter(|_| !matches!(event, "UserPromptSubmit" | "Stop")) {
        identity.insert("matcher".into(), matcher.into());
    }
    identity.insert("hooks".into(), Value::Array(vec![Value::Object(normalized)]));
    let canonical = canonical_json(&Value::Object(identity));
    let digest = Sha256::digest(canonical.as_bytes());
    format!("sha256:{}", digest.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// Compact JSON with every object's keys sorted.
fn canonical_json(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), canonical_json(&map[k.as_str()])))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical_json).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

/// Sets `hooks.state."<key>".trusted_hash` for each entry; true when anything changed.
fn record_trust(config: &mut toml_edit::DocumentMut, trusts: &[(String, String)]) -> bool {
    let mut changed = false;
    let hooks = config.entry("hooks").or_insert_with(|| toml_edit::Item::Table(implicit_table()));
    let Some(hooks) = hooks.as_table_like_mut() else { return false };
    let state = hooks.entry("state").or_insert(toml_edit::Item::Table(implicit_table()));
    let Some(state) = state.as_table_like_mut() else { return false };
    for (key, hash) in trusts {
        let entry = state.entry(key).or_insert(toml_edit::Item::Table(toml_edit::Table::new()));
        let Some(entry) = entry.as_table_like_mut() else { continue };
        if entry.get("trusted_hash").and_then(|v| v.as_str()) != Some(hash.as_str()) {
            entry.insert("trusted_hash", toml_edit::value(hash.as_str()));
            changed = true;
        }
    }
    changed
}

fn implicit_table() -> toml_edit::Table {
    let mut table = toml_edit::Table::new();
    table.set_implicit(true);
    table
}

fn is_project_trusted(config: &toml_edit::DocumentMut, project: &Path) -> bool {
    let key = project.to_string_lossy();
    config.get("projects").and_then(|p| p.get(key.as_ref())).and_then(|p| p.get("trust_level")).and_then(|t| t.as_str())
        == Some("trusted")
}

fn read_hooks_json(path: &Path) -> anyhow::Result<Value> {
    config_file::read_json_object(path, json!({"hooks": {}}), "not valid JSON")
}

/// `path` made absolute against `base`, `.` and `..` resolved without touching the disk, as
/// Codex spells the hooks.json path in its keys.
fn absolute(path: &Path, base: &Path) -> PathBuf {
    let joined = if path.is_absolute() { path.to_path_buf() } else { base.join(path) };
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `hookmux uninstall codex`'s options.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct UninstallArgs {
    /// Which hooks.json to remove the entries from.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Show what would be written or removed, write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// A handler's place in an event's list, (group, handler), as Codex's trust keys spell it.
type Place = (usize, usize);

/// What happens to one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Unchanged,
    Write(String),
    /// Only hookmux's entries were in it: an install created it.
    Delete,
}

/// What an uninstall changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Removal {
    pub hooks_file: PathBuf,
    pub hooks_json: Change,
    /// How many hookmux entries go.
    pub entries: usize,
    /// Commands that look like another hookmux's entries, which this one leaves alone.
    pub lookalikes: Vec<String>,
    pub config_toml: Change,
    /// Trust records removed with the entries.
    pub untrusted: usize,
    /// Trust records of the user's own hooks renamed because their hook moved up a place.
    pub rekeyed: usize,
}

/// `hookmux uninstall codex`.
pub fn uninstall(args: &UninstallArgs) -> anyhow::Result<ExitCode> {
    let paths = Paths::discover()?;
    let removal = plan_removal(&paths, args.scope)?;
    if !args.dry_run {
        apply_removal(&removal, &paths)?;
    }
    print!("{}", removal_report(&removal, &paths, args.dry_run));
    Ok(ExitCode::SUCCESS)
}

/// Computes what uninstalling removes, without writing anything.
pub fn plan_removal(paths: &Paths, scope: Scope) -> anyhow::Result<Removal> {
    let hooks_file = paths.hooks_file(scope);
    let mut removal = Removal {
        hooks_file: hooks_file.clone(),
        hooks_json: Change::Unchanged,
        entries: 0,
        lookalikes: Vec::new(),
        config_toml: Change::Unchanged,
        untrusted: 0,
        rekeyed: 0,
    };
    let mut root = read_hooks_json(&hooks_file)?;
    let Some(object) = root.as_object_mut() else { return Ok(removal) };
    let Some(hooks) = object.get_mut("hooks") else { return Ok(removal) };
    let Some(hooks) = hooks.as_object_mut() else {
        bail!("{}: `hooks` is not an object; fix or remove it, then run this again", hooks_file.display());
    };
    // Codex keys trust by position, so every handler that survives may move: old place → new.
    let mut removed: Vec<(&str, Place)> = Vec::new();
    let mut moved: Vec<(&str, Place, Place)> = Vec::new();
    for event in EVENTS {
        let Some(groups) = hooks.get_mut(*event) else { continue };
        let Some(groups) = groups.as_array_mut() else {
            bail!("{}: `hooks.{event}` is not an array; fix it, then run this again", hooks_file.display());
        };
        let mut kept_groups = Vec::new();
        let mut emptied_any = false;
        for (g, mut group) in std::mem::take(groups).into_iter().enumerate() {
            let mut ours_here = false;
            let mut survivors = Vec::new();
            if let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) {
                for (h, handler) in std::mem::take(handlers).into_iter().enumerate() {
                    let command = handler.get("command").and_then(Value::as_str);
                    if command == Some(paths.command.as_str()) {
                        removed.push((*event, (g, h)));
                        ours_here = true;
                        continue;
                    }
                    if let Some(other) = command.filter(|c| c.ends_with(" dispatch --host codex")) {
                        removal.lookalikes.push(other.to_string());
                    }
                    survivors.push((h, handler));
                }
                // Where this group ends up if it stays: after the groups kept so far.
                let new_g = kept_groups.len();
                for (new_h, (h, _)) in survivors.iter().enumerate() {
                    if (g, *h) != (new_g, new_h) {
                        moved.push((*event, (g, *h), (new_g, new_h)));
                    }
                }
                handlers.extend(survivors.iter().map(|(_, handler)| handler.clone()));
            }
            // A group left empty by removing ours was an install's own `{"hooks": [ours]}`.
            if ours_here && survivors.is_empty() {
                emptied_any = true;
                continue;
            }
            kept_groups.push(group);
        }
        *groups = kept_groups;
        if emptied_any && groups.is_empty() {
            hooks.remove(*event);
        }
    }
    removal.entries = removed.len();
    if removed.is_empty() {
        return Ok(removal);
    }
    let hooks_now_empty = hooks.is_empty();
    if hooks_now_empty {
        object.remove("hooks");
    }
    removal.hooks_json = if object.is_empty() {
        Change::Delete
    } else {
        Change::Write(format!("{}\n", serde_json::to_string_pretty(&root).unwrap_or_default()))
    };
    let config_path = paths.config_file();
    let config_text = match std::fs::read_to_string(&config_path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(removal),
        Err(err) => bail!("{}: cannot read it: {err}", config_path.display()),
    };
    let mut config: toml_edit::DocumentMut = config_text
        .parse()
        .with_context(|| format!("{}: not valid TOML; fix it, then run this again", config_path.display()))?;
    let key = |event: &str, (g, h): Place| format!("{}:{}:{g}:{h}", hooks_file.display(), event_label(event));
    let forget: Vec<String> = removed.iter().map(|(event, place)| key(event, *place)).collect();
    let renames: Vec<(String, String)> =
        moved.iter().map(|(event, from, to)| (key(event, *from), key(event, *to))).collect();
    let (untrusted, rekeyed) = forget_trust(&mut config, &forget, &renames);
    (removal.untrusted, removal.rekeyed) = (untrusted, rekeyed);
    if untrusted + rekeyed > 0 {
        let text = config.to_string();
        removal.config_toml = if text.trim().is_empty() { Change::Delete } else { Change::Write(text) };
    }
    Ok(removal)
}

/// Removes the `forget` keys from `hooks.state` and renames the `renames` ones; drops `state` and
/// `hooks` when that leaves them empty. Returns how many were removed and renamed.
fn forget_trust(
    config: &mut toml_edit::DocumentMut,
    forget: &[String],
    renames: &[(String, String)],
) -> (usize, usize) {
    let Some(hooks) = config.get_mut("hooks").and_then(|h| h.as_table_like_mut()) else { return (0, 0) };
    let Some(state) = hooks.get_mut("state").and_then(|s| s.as_table_like_mut()) else { return (0, 0) };
    let untrusted = forget.iter().filter(|key| state.remove(key).is_some()).count();
    // Take every renamed record out before putting any back, as one's new key may be another's old.
    let taken: Vec<(&String, toml_edit::Item)> =
        renames.iter().filter_map(|(from, to)| state.remove(from).map(|item| (to, item))).collect();
    let rekeyed = taken.len();
    for (to, item) in taken {
        state.insert(to, item);
    }
    if state.is_empty() {
        hooks.remove("state");
    }
    if hooks.is_empty() {
        config.remove("hooks");
    }
    (untrusted, rekeyed)
}

/// Writes or deletes each file the removal changes.
pub fn apply_removal(removal: &Removal, paths: &Paths) -> anyhow::Result<()> {
    for (path, change) in [(&removal.hooks_file, &removal.hooks_json), (&paths.config_file(), &removal.config_toml)] {
        match change {
            Change::Unchanged => {}
            Change::Write(text) => write_atomically(path, text)?,
            Change::Delete => {
                std::fs::remove_file(path).with_context(|| format!("cannot remove {}", path.display()))?
            }
        }
    }
    Ok(())
}

/// What `uninstall codex` prints.
pub fn removal_report(removal: &Removal, paths: &Paths, dry_run: bool) -> String {
    let mut out = String::new();
    let file = removal.hooks_file.display();
    if removal.entries == 0 {
        out.push_str(&format!("{file}: no hookmux entries (`{}`) to remove.\n", paths.command));
        for other in &removal.lookalikes {
            out.push_str(&format!(
                "{file}: `{other}` looks like another hookmux's entry; uninstall with that hookmux to remove it.\n"
            ));
        }
        return out;
    }
    let entries = if removal.entries == 1 { "entry" } else { "entries" };
    match (&removal.hooks_json, dry_run) {
        (Change::Write(text), true) => out.push_str(&format!("hookmux would write {file}:\n{text}")),
        (Change::Delete, true) => out.push_str(&format!(
            "hookmux would remove {file}: it holds only hookmux's {} {entries}.\n",
            removal.entries
        )),
        (Change::Delete, false) => {
            out.push_str(&format!("{file}: removed, as it held only hookmux's {} {entries}.\n", removal.entries))
        }
        _ => out.push_str(&format!(
            "{file}: removed hookmux's {} {entries}; your other hooks are as they were.\n",
            removal.entries
        )),
    }
    let config = paths.config_file();
    let config = config.display();
    match (&removal.config_toml, dry_run) {
        (Change::Unchanged, _) => {}
        (Change::Write(text), true) => out.push_str(&format!("hookmux would write {config}:\n{text}")),
        (Change::Delete, true) => {
            out.push_str(&format!("hookmux would remove {config}: it holds only those trust records.\n"))
        }
        (Change::Delete, false) => out.push_str(&format!("{config}: removed, as it held only those trust records.\n")),
        (Change::Write(_), false) => {
            out.push_str(&format!("{config}: removed {} trust record(s) of those entries", removal.untrusted));
            if removal.rekeyed > 0 {
                out.push_str(&format!(
                    " and moved {} of your hooks' records to their new places, so Codex still trusts them",
                    removal.rekeyed
                ));
            }
            out.push_str(".\n");
        }
    }
    out
}

#[cfg(test)]
mod tests;
