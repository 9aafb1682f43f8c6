//! The memory commands: `hookmux memory …`. Each resolves the project and the store the way
//! the `wakeup` hook does, from the current folder and environment, unless `--project` names
//! one.
//!
//! `hookmux fact|digest|status|debt|lore …`, the spellings before the commands were grouped
//! under `memory`, still work for one release: hidden, with a deprecation notice on stderr.

use super::load::{self, LoadOptions, DEFAULT_LIMITS, RANKED_LIMITS};
use super::store::{
    Fact, ImportDigest, ImportFact, ImportRows, Location, Memory, NewFact, NewMemory, Status, Store, SEARCH_WINDOW,
};
use super::{dates, debt, export, import, rank, render, Workspace};
use anyhow::{anyhow, bail, Context as _, Result};
use clap::{Args, Subcommand};
use hookmux_platform::dirs::{variable, Folder};
use hookmux_sdk::{Env, ProjectTrust};
use serde_json::{json, Value};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::SystemTime;

/// The release that drops the deprecated top-level spellings.
const REMOVED_IN: &str = "0.2.0";

/// The memory command group, flattened into `hookmux`'s own commands, with the old top-level
/// spellings hidden beside it.
#[derive(Subcommand, Debug)]
pub enum Commands {
    /// The wake-up memory store: memories, facts, digests, status, debt and wake-up by hand.
    #[command(subcommand)]
    Memory(MemoryCommand),
    /// Deprecated: `hookmux memory fact`.
    #[command(subcommand, hide = true)]
    Fact(FactCommand),
    /// Deprecated: `hookmux memory digest`.
    #[command(subcommand, hide = true)]
    Digest(DigestCommand),
    /// Deprecated: `hookmux memory status`.
    #[command(hide = true)]
    Status(Target),
    /// Deprecated: `hookmux memory debt`.
    #[command(subcommand, hide = true)]
    Debt(DebtCommand),
    /// Deprecated: `hookmux memory wake-up`.
    #[command(subcommand, hide = true)]
    Lore(LoreCommand),
}

/// Which project a command works on.
#[derive(Args, Debug, Clone, Default)]
pub struct Target {
    /// The project's name in the store (default: resolved from the current folder, as the hook does).
    #[arg(long, value_name = "NAME")]
    pub project: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum MemoryCommand {
    /// Add a memory; prints its id.
    Add {
        /// One line the memory is known by.
        title: String,
        /// The memory's text; `-` reads it from stdin.
        #[arg(long)]
        body: Option<String>,
        /// A one-line summary, shown by wake-up after the title.
        #[arg(long)]
        synopsis: Option<String>,
        /// note, decision, incident, runbook, policy, task, … (free text).
        #[arg(long, default_value = "note")]
        kind: String,
        /// Where it came from: manual, conversation, file, agent_diary, … (free text).
        #[arg(long, default_value = "manual")]
        source: String,
        /// Who sees it: team, project, global (every project), or user:NAME, agent:NAME, session:ID.
        #[arg(long, value_name = "KIND[:KEY]")]
        scope: Option<String>,
        /// Put it in the proposed-memory inbox instead of making it active.
        #[arg(long)]
        proposed: bool,
        /// The last day it is shown (YYYY-MM-DD).
        #[arg(long, value_name = "DATE")]
        expires: Option<String>,
        /// When it was created (RFC 3339 or YYYY-MM-DD; default now).
        #[arg(long, value_name = "TIME")]
        created: Option<String>,
        #[command(flatten)]
        target: Target,
    },
    /// List memories, newest first.
    List {
        /// Show at most this many.
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// Only memories with this status (active, proposed, rejected).
        #[arg(long)]
        status: Option<String>,
        /// Every project's memories.
        #[arg(long, conflicts_with = "project")]
        all_projects: bool,
        /// Print JSON lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: Target,
    },
    /// Search the project's visible memories as wake-up ranks them.
    Search {
        /// Words to look for, as you would prompt them.
        query: String,
        /// Show at most this many.
        #[arg(long, default_value_t = 10)]
        limit: usize,
        /// Include memories past their expiry day.
        #[arg(long)]
        include_expired: bool,
        /// Print JSON lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: Target,
    },
    /// Show one memory in full.
    Show {
        /// The memory's id (see `hookmux memory list`).
        id: i64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Delete a memory.
    Forget {
        /// The memory's id (see `hookmux memory list`).
        id: i64,
    },
    /// Import brewcode's KNOWLEDGE.jsonl, hookmux's JSON format or a `memory export` file (told
    /// apart by content), all of it or nothing.
    Import {
        /// The file to import.
        file: PathBuf,
        #[command(flatten)]
        target: Target,
    },
    /// Write the whole store (memories, facts, digests, every project) as JSON Lines, to move it
    /// to another store with `memory import`.
    Export {
        /// Write to this file instead of stdout (replaced whole, never half-written).
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Add, list and retire facts (subject, predicate, object).
    #[command(subcommand)]
    Fact(FactCommand),
    /// Save and show the project's digest.
    #[command(subcommand)]
    Digest(DigestCommand),
    /// The store's path and counts, the proposed-memory inbox depth and the wake-up coverage line.
    Status(Target),
    /// Find memories that read as an activity log rather than durable signal.
    ///
    /// Lists memories whose synopsis or body is a chronological log ("first I…, then…,
    /// finally…"), which costs wake-up's reader attention and says little it can reuse.
    Debt(DebtArgs),
    /// Rerun wake-up by hand, after a topic change.
    ///
    /// With --query: the prompt-relevant section, plus the task inventory and memories related
    /// to it; --debug adds the proposed-memory inbox and the coverage line on stderr.
    WakeUp(WakeUpArgs),
}

#[derive(Subcommand, Debug)]
pub enum FactCommand {
    /// Add an active fact; prints its id.
    Add {
        /// What the fact is about, such as `web`.
        subject: String,
        /// snake_case, such as uses or depends_on.
        predicate: String,
        /// What the subject relates to, such as `api`.
        object: String,
        /// Who sees it: team, project, global (every project), or user:NAME, agent:NAME, session:ID.
        #[arg(long, value_name = "KIND[:KEY]")]
        scope: Option<String>,
        /// The last day it is shown (YYYY-MM-DD).
        #[arg(long, value_name = "DATE")]
        expires: Option<String>,
        /// The memory this fact came from.
        #[arg(long, value_name = "ID")]
        source_memory: Option<i64>,
        #[command(flatten)]
        target: Target,
    },
    /// List the project's active facts (with --all, retired ones too).
    List {
        /// Include retired facts.
        #[arg(long)]
        all: bool,
        /// Print JSON lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: Target,
    },
    /// Retire a fact: it stays in the store but is no longer shown.
    Retire {
        /// The fact's id (see `hookmux memory fact list`).
        id: i64,
    },
}

#[derive(Subcommand, Debug)]
pub enum DigestCommand {
    /// Save a digest of recent work; wake-up shows the latest for 7 days.
    Save {
        /// The digest text; `-` or nothing reads it from stdin.
        body: Option<String>,
        /// A title shown above the digest.
        #[arg(long, default_value = "")]
        title: String,
        #[command(flatten)]
        target: Target,
    },
    /// Show the latest digest.
    Show {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: Target,
    },
}

/// `hookmux memory debt`'s options.
#[derive(Args, Debug)]
pub struct DebtArgs {
    /// Scan every project's memories.
    #[arg(long, conflicts_with = "project")]
    all_projects: bool,
    /// Print JSON lines.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    target: Target,
}

/// `hookmux memory wake-up`'s options.
#[derive(Args, Debug)]
pub struct WakeUpArgs {
    /// The new task, as you would prompt it.
    #[arg(long)]
    query: Option<String>,
    /// Also show memories past their expiry day.
    #[arg(long)]
    include_expired: bool,
    /// Also show the proposed-memory inbox, and the coverage line on stderr.
    #[arg(long)]
    debug: bool,
    #[command(flatten)]
    target: Target,
}

/// Deprecated: `hookmux debt scan` is `hookmux memory debt`.
#[derive(Subcommand, Debug)]
pub enum DebtCommand {
    /// List memories whose synopsis or body is a chronological activity log.
    Scan(DebtArgs),
}

/// Deprecated: `hookmux lore wake-up` is `hookmux memory wake-up`.
#[derive(Subcommand, Debug)]
pub enum LoreCommand {
    /// Rerun wake-up now (after a topic change).
    WakeUp(WakeUpArgs),
}

/// hookmux's rule for a project's trust (see [`ProjectTrust`]), which the runtime hands to the
/// commands: whether the project at this root is trusted, for this environment.
pub type TrustRule<'r> = &'r dyn Fn(&std::path::Path, &Env) -> ProjectTrust;

/// The world a command runs in.
struct Cli<'r> {
    env: Env,
    cwd: PathBuf,
    now: i64,
    trust: TrustRule<'r>,
}

impl Cli<'_> {
    fn from_process(trust: TrustRule<'_>) -> Cli<'_> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Cli { env: Env::from_process(), cwd, now: dates::to_ms(SystemTime::now()), trust }
    }

    fn workspace(&self, target: &Target) -> Workspace {
        let workspace = Workspace::resolve(&self.cwd, &self.env, |root| (self.trust)(root, &self.env));
        for warning in workspace.warnings.iter().chain(&workspace.untrusted_store) {
            eprintln!("{warning}");
        }
        match &target.project {
            Some(name) => workspace.with_project(name),
            None => workspace,
        }
    }

    fn db(&self, workspace: &Workspace) -> Result<Location> {
        workspace.db.clone().ok_or_else(|| {
            anyhow!("no store location: set LORE_DB, or {} or {}", variable(Folder::Home), variable(Folder::Data))
        })
    }

    fn open_for_write(&self, workspace: &Workspace) -> Result<Store> {
        Store::open_or_create(&self.db(workspace)?)
    }

    /// `None` when nothing was ever saved.
    fn open_for_read(&self, workspace: &Workspace) -> Result<Option<Store>> {
        Store::open_existing(&self.db(workspace)?, true)
    }
}

impl Commands {
    /// Runs the command; errors are printed by the caller with exit 1. `trust` is the runtime's
    /// rule for a project's trust: a `.lore.yaml` store URL is used only for a trusted project.
    pub fn run(self, trust: TrustRule<'_>) -> Result<ExitCode> {
        let command = match self {
            Commands::Memory(command) => command,
            Commands::Fact(command) => {
                deprecated("fact", "memory fact");
                MemoryCommand::Fact(command)
            }
            Commands::Digest(command) => {
                deprecated("digest", "memory digest");
                MemoryCommand::Digest(command)
            }
            Commands::Status(target) => {
                deprecated("status", "memory status");
                MemoryCommand::Status(target)
            }
            Commands::Debt(DebtCommand::Scan(args)) => {
                deprecated("debt scan", "memory debt");
                MemoryCommand::Debt(args)
            }
            Commands::Lore(LoreCommand::WakeUp(args)) => {
                deprecated("lore wake-up", "memory wake-up");
                MemoryCommand::WakeUp(args)
            }
        };
        let cli = Cli::from_process(trust);
        let mut out = std::io::stdout().lock();
        memory(&cli, command, &mut out)
    }
}

/// One line on stderr, so scripts reading stdout see the same output under either spelling.
fn deprecated(old: &str, new: &str) {
    eprintln!("hookmux: `hookmux {old}` is deprecated and will be removed in {REMOVED_IN}; use `hookmux {new}`");
}

fn memory(cli: &Cli, command: MemoryCommand, out: &mut impl Write) -> Result<ExitCode> {
    match command {
        MemoryCommand::Add { title, body, synopsis, kind, source, scope, proposed, expires, created, target } => {
            let workspace = cli.workspace(&target);
            let title = title.trim();
            if title.is_empty() {
                bail!("the title is empty; a memory needs a title");
            }
            let created_at = match created {
                Some(text) => dates::parse_timestamp(&text)
                    .ok_or_else(|| anyhow!("--created `{text}` is not an RFC 3339 timestamp or a YYYY-MM-DD date"))?,
                None => cli.now,
            };
            let mut memory = NewMemory::new(&workspace.project.name, title, created_at);
            memory.body = match body.as_deref() {
                Some("-") => read_stdin()?,
                Some(text) => text.to_string(),
                None => String::new(),
            };
            memory.synopsis = synopsis.unwrap_or_default();
            memory.kind = kind;
            memory.source = source;
            if let Some(scope) = scope {
                (memory.scope_kind, memory.scope_key) =
                    import::parse_scope(&scope).map_err(|err| anyhow!("--scope: {err}"))?;
            }
            memory.status = if proposed { Status::Proposed } else { Status::Active };
            memory.expires_at = expiry(expires)?;
            let id = cli.open_for_write(&workspace)?.add_memory(&memory)?;
            writeln!(out, "{id}")?;
        }
        MemoryCommand::List { limit, status, all_projects, json, target } => {
            let workspace = cli.workspace(&target);
            let status = match status {
                Some(text) => Some(
                    Status::parse(&text)
                        .ok_or_else(|| anyhow!("--status `{text}` is not one of active, proposed, rejected"))?,
                ),
                None => None,
            };
            let project = (!all_projects).then_some(workspace.project.name.as_str());
            let memories = match cli.open_for_read(&workspace)? {
                Some(store) => store.list_memories(project, status, limit)?,
                None => Vec::new(),
            };
            write_memories(out, &memories, json, all_projects)?;
        }
        MemoryCommand::Search { query, limit, include_expired, json, target } => {
            let workspace = cli.workspace(&target);
            let reader = workspace.reader(&cli.env, None, dates::date_of(cli.now), include_expired);
            let found = match cli.open_for_read(&workspace)? {
                Some(store) => store.search(&reader, &rank::terms(&query), limit)?,
                None => Default::default(),
            };
            write_memories(out, &found.memories, json, false)?;
            if found.windowed && found.memories.len() < limit {
                eprintln!(
                    "hookmux: every word searched is in {SEARCH_WINDOW} or more memories, so only the project's \
                     {SEARCH_WINDOW} most recent matches were ranked, as the wake-up ranks them; {} shown, older \
                     matches left out: add a rarer word to reach them",
                    found.memories.len()
                );
            }
        }
        MemoryCommand::Show { id, json } => {
            let workspace = cli.workspace(&Target::default());
            let memory = cli.open_for_read(&workspace)?.map(|store| store.memory(id)).transpose()?.flatten();
            let Some(memory) = memory else { bail!("no memory with id {id}") };
            if json {
                writeln!(out, "{}", memory_json(&memory))?;
            } else {
                write_memory_details(out, &memory)?;
            }
        }
        MemoryCommand::Forget { id } => {
            let workspace = cli.workspace(&Target::default());
            let forgotten = match cli.open_for_read(&workspace)? {
                Some(mut store) => store.forget_memory(id)?,
                None => false,
            };
            if !forgotten {
                bail!("no memory with id {id}");
            }
            writeln!(out, "forgot memory {id}")?;
        }
        MemoryCommand::Import { file, target } => {
            let workspace = cli.workspace(&target);
            import_file(cli, &workspace, &file, target.project.is_some(), out)?;
        }
        MemoryCommand::Export { output } => {
            let workspace = cli.workspace(&Target::default());
            export_store(cli, &workspace, output.as_deref(), out)?;
        }
        MemoryCommand::Fact(command) => return fact(cli, command, out),
        MemoryCommand::Digest(command) => return digest(cli, command, out),
        MemoryCommand::Status(target) => return status(cli, &target, out),
        MemoryCommand::Debt(DebtArgs { all_projects, json, target }) => {
            return debt_scan(cli, &target, all_projects, json, out)
        }
        MemoryCommand::WakeUp(WakeUpArgs { query, include_expired, debug, target }) => {
            return wake_up(cli, &target, query.as_deref(), include_expired, debug, out)
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn import_file(cli: &Cli, workspace: &Workspace, file: &Path, project_given: bool, out: &mut impl Write) -> Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow!("{} is not UTF-8 text", file.display()))?;
    if export::is_export(&text) {
        if project_given {
            bail!("{} is a hookmux export, whose rows keep their own projects; drop --project", file.display());
        }
        let rows = export::parse(&text).map_err(|err| anyhow!("{}: {err}; nothing was imported", file.display()))?;
        let projects: std::collections::BTreeSet<&str> = rows
            .memories
            .iter()
            .map(|(_, m)| m.project.as_str())
            .chain(rows.facts.iter().map(|f| f.fact.project.as_str()))
            .chain(rows.digests.iter().map(|d| d.project.as_str()))
            .collect();
        let mut store = cli.open_for_write(workspace)?;
        let counts = store.import_rows(&rows).with_context(|| format!("{}: nothing was imported", file.display()))?;
        writeln!(
            out,
            "imported {} memories, {} facts, {} digests of {} projects (hookmux export; {} already there)",
            counts.memories,
            counts.facts,
            counts.digests,
            projects.len(),
            counts.skipped
        )?;
        return Ok(());
    }
    let batch = import::parse(&text, &workspace.project.name, cli.now)
        .map_err(|err| anyhow!("{}: {err}; nothing was imported", file.display()))?;
    for warning in &batch.warnings {
        eprintln!("hookmux: {}: {warning}", file.display());
    }
    let rows = ImportRows {
        memories: batch.memories.iter().map(|m| (None, m.clone())).collect(),
        facts: batch
            .facts
            .iter()
            .map(|fact| ImportFact { fact: fact.clone(), retired_at: None, source_in_file: None })
            .collect(),
        digests: batch
            .digests
            .iter()
            .map(|d| ImportDigest {
                project: workspace.project.name.clone(),
                title: d.title.clone(),
                body: d.body.clone(),
                created_at: d.created_at,
                import_key: Some(d.import_key.clone()),
            })
            .collect(),
    };
    let mut store = cli.open_for_write(workspace)?;
    let counts = store.import_rows(&rows).with_context(|| format!("{}: nothing was imported", file.display()))?;
    let format = match batch.format {
        import::Format::Knowledge => "brewcode knowledge",
        import::Format::Json => "hookmux JSON",
    };
    writeln!(
        out,
        "imported {} memories, {} facts, {} digests into `{}` ({format}; {} already there, {} lines skipped)",
        counts.memories,
        counts.facts,
        counts.digests,
        workspace.project.name,
        counts.skipped,
        batch.warnings.len()
    )?;
    Ok(())
}

/// `hookmux memory export`: the header, then every row; to a file, written whole or not at all.
fn export_store(cli: &Cli, workspace: &Workspace, output: Option<&Path>, out: &mut impl Write) -> Result<()> {
    let store = cli.open_for_read(workspace)?;
    let write_all = |sink: &mut dyn Write| -> Result<usize> {
        writeln!(sink, "{}", export::header())?;
        let mut rows = 0;
        if let Some(store) = &store {
            store.export(|row| {
                writeln!(sink, "{}", export::line(&row))?;
                rows += 1;
                Ok(())
            })?;
        }
        Ok(rows)
    };
    match output {
        None => {
            write_all(out)?;
        }
        Some(path) => {
            let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let mut file = tempfile::NamedTempFile::new_in(folder)
                .with_context(|| format!("cannot create a file in {}", folder.display()))?;
            let rows = {
                let mut writer = std::io::BufWriter::new(file.as_file_mut());
                let rows = write_all(&mut writer)?;
                writer.flush()?;
                rows
            };
            file.as_file().sync_all()?;
            file.persist(path).map_err(|err| anyhow!("cannot write {}: {}", path.display(), err.error))?;
            eprintln!("hookmux: exported {rows} rows to {}", path.display());
        }
    }
    Ok(())
}

fn fact(cli: &Cli, command: FactCommand, out: &mut impl Write) -> Result<ExitCode> {
    match command {
        FactCommand::Add { subject, predicate, object, scope, expires, source_memory, target } => {
            let workspace = cli.workspace(&target);
            for (name, value) in [("subject", &subject), ("predicate", &predicate), ("object", &object)] {
                if value.trim().is_empty() {
                    bail!("the {name} is empty");
                }
            }
            let (scope_kind, scope_key) = match scope {
                Some(scope) => import::parse_scope(&scope).map_err(|err| anyhow!("--scope: {err}"))?,
                None => (None, String::new()),
            };
            let fact = NewFact {
                project: workspace.project.name.clone(),
                subject: subject.trim().to_string(),
                predicate: predicate.trim().to_string(),
                object: object.trim().to_string(),
                scope_kind,
                scope_key,
                source_memory_id: source_memory,
                created_at: cli.now,
                expires_at: expiry(expires)?,
                import_key: None,
            };
            let id = cli.open_for_write(&workspace)?.add_fact(&fact)?;
            writeln!(out, "{id}")?;
        }
        FactCommand::List { all, json, target } => {
            let workspace = cli.workspace(&target);
            let facts = match cli.open_for_read(&workspace)? {
                Some(store) => store.list_facts(&workspace.project.name, all)?,
                None => Vec::new(),
            };
            for fact in &facts {
                if json {
                    writeln!(out, "{}", fact_json(fact))?;
                } else {
                    let state = if fact.active { "" } else { "  (retired)" };
                    writeln!(out, "{:>5}  {} {} {}{state}", fact.id, fact.subject, fact.predicate, fact.object)?;
                }
            }
        }
        FactCommand::Retire { id } => {
            let workspace = cli.workspace(&Target::default());
            let retired = match cli.open_for_read(&workspace)? {
                Some(mut store) => store.retire_fact(id, cli.now)?,
                None => false,
            };
            if !retired {
                bail!("no active fact with id {id}");
            }
            writeln!(out, "retired fact {id}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn digest(cli: &Cli, command: DigestCommand, out: &mut impl Write) -> Result<ExitCode> {
    match command {
        DigestCommand::Save { body, title, target } => {
            let workspace = cli.workspace(&target);
            let body = match body.as_deref() {
                None | Some("-") => read_stdin()?,
                Some(text) => text.to_string(),
            };
            if body.trim().is_empty() {
                bail!("the digest is empty; pass its text as an argument or on stdin");
            }
            let mut store = cli.open_for_write(&workspace)?;
            let id = store.save_digest(&workspace.project.name, title.trim(), body.trim(), cli.now, None)?;
            writeln!(out, "{}", id.unwrap_or_default())?;
        }
        DigestCommand::Show { json, target } => {
            let workspace = cli.workspace(&target);
            let digest =
                cli.open_for_read(&workspace)?.map(|s| s.latest_digest(&workspace.project.name)).transpose()?;
            let Some(digest) = digest.flatten() else {
                bail!(
                    "project `{}` has no digest yet; save one with `hookmux memory digest save`",
                    workspace.project.name
                );
            };
            let fresh = load::is_fresh(digest.created_at, cli.now, load::DIGEST_FRESHNESS_DAYS);
            if json {
                let value = json!({"id": digest.id, "project": digest.project, "title": digest.title,
                    "body": digest.body, "created_at": dates::iso(digest.created_at), "fresh": fresh});
                writeln!(out, "{value}")?;
            } else {
                let freshness = if fresh { "fresh: wake-up shows it" } else { "stale: older than 7 days, not shown" };
                writeln!(out, "digest {} saved {} ({freshness})", digest.id, dates::iso(digest.created_at))?;
                if !digest.title.is_empty() {
                    writeln!(out, "{}", digest.title)?;
                }
                writeln!(out, "\n{}", digest.body)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn status(cli: &Cli, target: &Target, out: &mut impl Write) -> Result<ExitCode> {
    let workspace = cli.workspace(target);
    let db = cli.db(&workspace)?;
    let how = match workspace.project.source {
        super::config::ProjectSource::Entry => "a `projects:` entry of .lore.yaml",
        super::config::ProjectSource::CatchAll => "the catch-all `projects:` entry of .lore.yaml",
        super::config::ProjectSource::Key => "`project:` in .lore.yaml",
        super::config::ProjectSource::Root => "the project root",
        super::config::ProjectSource::Explicit => "--project",
    };
    writeln!(out, "project: {} (from {how})", workspace.project.name)?;
    match &workspace.config.file {
        Some(file) => writeln!(out, "config:  {}", file.display())?,
        None => writeln!(out, "config:  none (no .lore.yaml here or above; defaults apply)")?,
    }
    let wake_up = if workspace.config.wake_up { "on" } else { "off (hooks.wakeUp: false)" };
    writeln!(out, "wake-up: {wake_up}")?;
    let Some(store) = Store::open_existing(&db, true)? else {
        writeln!(out, "store:   {} (not created yet; `hookmux memory add` creates it)", db.display())?;
        return Ok(ExitCode::SUCCESS);
    };
    writeln!(out, "store:   {} (schema {})", store.describe(), store.schema_version()?)?;
    let today = dates::date_of(cli.now);
    let counts = store.counts(&workspace.project.name, &today)?;
    writeln!(out, "memories: {} active, {} expired, {} rejected", counts.active, counts.expired, counts.rejected)?;
    writeln!(out, "proposed-memory inbox: {}", counts.proposed)?;
    writeln!(out, "facts: {} active, {} retired", counts.facts_active, counts.facts_retired)?;
    let latest = store.latest_digest(&workspace.project.name)?;
    match latest {
        Some(digest) => {
            let fresh = load::is_fresh(digest.created_at, cli.now, load::DIGEST_FRESHNESS_DAYS);
            let label = if fresh { "fresh" } else { "stale" };
            writeln!(out, "digests: {} (latest {}, {label})", counts.digests, dates::date_of(digest.created_at))?;
        }
        None => writeln!(out, "digests: 0")?,
    }
    let reader = workspace.reader(&cli.env, None, today, false);
    let options = LoadOptions {
        reader: &reader,
        limits: load::Limits::for_hook(false),
        user_query: None,
        include_proposed: false,
        include_coverage: true,
        caps: None,
        now: cli.now,
    };
    let coverage = load::load(Some(&store), &options)?.coverage;
    if let Some(coverage) = coverage {
        for line in coverage.report() {
            writeln!(out, "{line}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn debt_scan(cli: &Cli, target: &Target, all_projects: bool, json: bool, out: &mut impl Write) -> Result<ExitCode> {
    let workspace = cli.workspace(target);
    let Some(store) = cli.open_for_read(&workspace)? else {
        writeln!(out, "no memory debt: the store is empty")?;
        return Ok(ExitCode::SUCCESS);
    };
    let project = (!all_projects).then_some(workspace.project.name.as_str());
    let mut findings = Vec::new();
    store.each_memory(project, |memory| findings.extend(debt::scan(&memory)))?;
    for finding in &findings {
        if json {
            let value = json!({"memory": finding.memory_id, "title": finding.title, "field": finding.field,
                "rule": finding.rule.as_str(), "count": finding.count});
            writeln!(out, "{value}")?;
        } else {
            writeln!(
                out,
                "memory {} \"{}\": {} reads as an activity log: {} {} [{}]",
                finding.memory_id,
                finding.title,
                finding.field,
                finding.count,
                finding.rule.explain(),
                finding.rule.as_str()
            )?;
        }
    }
    if findings.is_empty() && !json {
        writeln!(out, "no memory debt found")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn wake_up(
    cli: &Cli,
    target: &Target,
    query: Option<&str>,
    include_expired: bool,
    debug: bool,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let workspace = cli.workspace(target);
    let store = cli.open_for_read(&workspace)?;
    let reader = workspace.reader(&cli.env, None, dates::date_of(cli.now), include_expired);
    let ranked = query.is_some_and(|q| !q.trim().is_empty());
    let limits = if ranked { RANKED_LIMITS } else { DEFAULT_LIMITS };
    let options = LoadOptions {
        reader: &reader,
        limits,
        user_query: query,
        include_proposed: debug,
        include_coverage: debug,
        caps: ranked.then(|| limits.caps()),
        now: cli.now,
    };
    let data = load::load(store.as_ref(), &options)?;
    if let Some(coverage) = &data.coverage {
        eprintln!("{}", coverage.line());
    }
    match render::render(&workspace.project, &data, cli.now) {
        Some(text) => write!(out, "{text}")?,
        None => eprintln!("hookmux: nothing to wake up to in `{}` yet", workspace.project.name),
    }
    Ok(ExitCode::SUCCESS)
}

fn expiry(expires: Option<String>) -> Result<Option<String>> {
    match expires {
        None => Ok(None),
        Some(text) => match dates::parse_date(&text) {
            Some(_) => Ok(Some(text.trim().to_string())),
            None => bail!("--expires `{text}` is not a YYYY-MM-DD date"),
        },
    }
}

fn read_stdin() -> Result<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        bail!("expected the text on stdin (pipe it in, or pass it as an argument)");
    }
    let mut text = String::new();
    stdin.lock().read_to_string(&mut text).context("cannot read stdin as UTF-8 text")?;
    Ok(text)
}

fn write_memories(out: &mut impl Write, memories: &[Memory], json: bool, with_project: bool) -> Result<()> {
    for memory in memories {
        if json {
            writeln!(out, "{}", memory_json(memory))?;
            continue;
        }
        let status =
            if memory.status == Status::Active { String::new() } else { format!(" [{}]", memory.status.as_str()) };
        let project = if with_project { format!("  ({})", memory.project) } else { String::new() };
        writeln!(
            out,
            "{:>5}  {}  {:<9} {}{status}{project}",
            memory.id,
            dates::date_of(memory.created_at),
            memory.kind,
            memory.title
        )?;
    }
    Ok(())
}

fn write_memory_details(out: &mut impl Write, m: &Memory) -> Result<()> {
    writeln!(out, "memory {}: {}", m.id, m.title)?;
    writeln!(out, "  project:  {}", m.project)?;
    writeln!(out, "  kind:     {}   source: {}   status: {}", m.kind, m.source, m.status.as_str())?;
    let scope = match &m.scope_kind {
        Some(kind) if m.scope_key.is_empty() => kind.clone(),
        Some(kind) => format!("{kind}:{}", m.scope_key),
        None => "broadcast".to_string(),
    };
    writeln!(out, "  scope:    {scope}")?;
    writeln!(out, "  created:  {}", dates::iso(m.created_at))?;
    if let Some(expires) = &m.expires_at {
        writeln!(out, "  expires:  {expires}")?;
    }
    if !m.synopsis.is_empty() {
        writeln!(out, "  synopsis: {}", m.synopsis)?;
    }
    if !m.body.is_empty() {
        writeln!(out, "\n{}", m.body)?;
    }
    Ok(())
}

fn memory_json(m: &Memory) -> Value {
    json!({
        "id": m.id, "project": m.project, "title": m.title, "synopsis": m.synopsis, "body": m.body,
        "kind": m.kind, "source": m.source,
        "scope": m.scope_kind.as_ref().map(|kind| json!({"kind": kind, "key": m.scope_key})),
        "status": m.status.as_str(), "created_at": dates::iso(m.created_at), "expires_at": m.expires_at,
    })
}

fn fact_json(f: &Fact) -> Value {
    json!({
        "id": f.id, "project": f.project, "subject": f.subject, "predicate": f.predicate, "object": f.object,
        "status": if f.active { "active" } else { "retired" },
        "scope": f.scope_kind.as_ref().map(|kind| json!({"kind": kind, "key": f.scope_key})),
        "source_memory": f.source_memory_id, "created_at": dates::iso(f.created_at),
        "retired_at": f.retired_at.map(dates::iso), "expires_at": f.expires_at,
    })
}
