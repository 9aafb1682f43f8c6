//! `hookmux knowledge add|show|compact`: a brewcode task's KNOWLEDGE.jsonl from the command
//! line, with the rules the hooks apply, so people and agents can write knowledge without Node.
//!
//! The task is the one `.claude/TASK.md` names in the project (`--project-dir`, else
//! `$CLAUDE_PROJECT_DIR`, else the current folder), or `--task` (the task folder, its PLAN.md or
//! its KNOWLEDGE.jsonl). Settings come from the project's `.claude/tasks/cfg/brewcode.config.json`.

use super::config::{self, Config};
use super::js::{self, text};
use super::knowledge::{self, Entry, Refusal, AVOID, BEST, BLOCKLIST, INFO};
use super::knowledge_file::{self, WriterLock};
use super::task;
use crate::safe_fs;
use anyhow::{anyhow, bail, Context as _};
use clap::{Args, Subcommand};
use serde_json::{Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The command group hookmux's CLI flattens in.
#[derive(Subcommand, Debug)]
pub enum Commands {
    /// Read and write a brewcode task's KNOWLEDGE.jsonl (what the knowledge-* handlers use).
    #[command(subcommand)]
    Knowledge(Knowledge),
}

#[derive(Subcommand, Debug)]
pub enum Knowledge {
    /// Append an entry; narration ("Done", "Let me…", "Phase 2…") is refused, as brewcode refuses it.
    Add {
        #[command(flatten)]
        target: Target,
        /// Who learned it (the `src` field), e.g. an agent's name.
        #[arg(long)]
        src: Option<String>,
        /// avoid (❌), best (✅) or info (ℹ️); the emoji work too.
        #[arg(value_parser = parse_kind)]
        kind: &'static str,
        /// The lesson, written as something to do or avoid.
        text: String,
    },
    /// List the entries, or print the `## K` block knowledge-inject puts into prompts.
    Show {
        #[command(flatten)]
        target: Target,
        /// Print the `## K` block exactly as injected (deduplicated, cut, within the token budget).
        #[arg(long, conflicts_with = "json")]
        block: bool,
        /// Print the entries as a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// Deduplicate (newest wins), sort (❌, ✅, ℹ️, newest first) and trim to knowledge.maxEntries.
    Compact {
        #[command(flatten)]
        target: Target,
        /// Compact below the hook's threshold (80 % of maxEntries) too.
        #[arg(long)]
        force: bool,
        /// Keep at most this many entries (default: knowledge.maxEntries, 100).
        #[arg(long)]
        max_entries: Option<u32>,
        /// Print the compacted file instead of writing it.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Which task's knowledge.
#[derive(Args, Debug, Clone)]
pub struct Target {
    /// The task: its folder, its PLAN.md or its KNOWLEDGE.jsonl (default: the task .claude/TASK.md names).
    #[arg(long, value_name = "PATH")]
    task: Option<PathBuf>,
    /// The project's folder (default: $CLAUDE_PROJECT_DIR, else the current folder).
    // Formerly `--project`, which on the memory commands is a project's name; the old spelling
    // stays accepted, unlisted, until 0.2.0.
    #[arg(long, value_name = "DIR", alias = "project")]
    project_dir: Option<PathBuf>,
}

fn parse_kind(word: &str) -> Result<&'static str, String> {
    match word {
        AVOID | "avoid" | "x" => Ok(AVOID),
        BEST | "best" | "ok" => Ok(BEST),
        INFO | "ℹ" | "info" | "i" => Ok(INFO),
        other => Err(format!("`{other}` is not a kind: use avoid (❌), best (✅) or info (ℹ️)")),
    }
}

impl Commands {
    /// Runs the command; a failure is an error message and exit 1.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let Commands::Knowledge(command) = self;
        match command {
            Knowledge::Add { target, src, kind, text } => add(&target, src, kind, &text),
            Knowledge::Show { target, block, json } => show(&target, block, json),
            Knowledge::Compact { target, force, max_entries, dry_run } => compact(&target, force, max_entries, dry_run),
        }
    }
}

/// A resolved task: its KNOWLEDGE.jsonl (as named, and absolute), its project (absolute; no
/// symbolic link below it is written through) and the project's settings.
struct Resolved {
    file: PathBuf,
    absolute: PathBuf,
    project: PathBuf,
    config: Config,
}

fn resolve(target: &Target) -> anyhow::Result<Resolved> {
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    let named_project = target
        .project_dir
        .clone()
        .or_else(|| std::env::var_os("CLAUDE_PROJECT_DIR").filter(|v| !v.is_empty()).map(PathBuf::from));
    let file = match &target.task {
        Some(task) => knowledge_file_of(&cwd.join(task))?,
        None => {
            let project = named_project.clone().unwrap_or_else(|| cwd.clone());
            active_knowledge_file(&project)?
        }
    };
    let project = named_project.unwrap_or_else(|| {
        let derived = task::project_of(&file.to_string_lossy());
        if derived == file.to_string_lossy() {
            cwd.clone()
        } else {
            PathBuf::from(derived)
        }
    });
    let config = load_config(&project)?;
    Ok(Resolved { absolute: cwd.join(&file), file, project: cwd.join(project), config })
}

/// `--task`: a folder, a PLAN.md or a .jsonl file.
fn knowledge_file_of(task: &Path) -> anyhow::Result<PathBuf> {
    if task.is_dir() {
        return Ok(task.join("KNOWLEDGE.jsonl"));
    }
    match task.file_name().and_then(|n| n.to_str()) {
        Some(name) if name.ends_with(".jsonl") => Ok(task.to_path_buf()),
        Some("PLAN.md") => Ok(task.with_file_name("KNOWLEDGE.jsonl")),
        _ => bail!("--task {}: not a task folder, PLAN.md or KNOWLEDGE.jsonl", task.display()),
    }
}

/// The KNOWLEDGE.jsonl of the task `.claude/TASK.md` names, checked as brewcode checks it.
fn active_knowledge_file(project: &Path) -> anyhow::Result<PathBuf> {
    let reference = project.join(".claude/TASK.md");
    let content = std::fs::read(&reference).map_err(|err| {
        anyhow!("no active brewcode task: cannot read {} ({err}); pass --task or --project-dir", reference.display())
    })?;
    let content = String::from_utf8_lossy(&content);
    let line = text::trim(text::trim(&content).split('\n').next().unwrap_or_default());
    if !task::is_valid_task_path(Some(&Value::from(line))) {
        bail!(
            "{}: its first line `{line}` is not a task path (.claude/tasks/<name>_task/PLAN.md, no `..`)",
            reference.display()
        );
    }
    let plan = project.join(line);
    if !plan.exists() {
        bail!("{} names {}, which does not exist", reference.display(), plan.display());
    }
    Ok(plan.with_file_name("KNOWLEDGE.jsonl"))
}

fn load_config(project: &Path) -> anyhow::Result<Config> {
    let file = project.join(config::CONFIG_FILE);
    let user = match std::fs::read_to_string(&file) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Value::Object(Map::new()),
        Err(err) => bail!("cannot read {}: {err}", file.display()),
        Ok(text) => {
            serde_json::from_str(&text).map_err(|err| anyhow!("{} is not valid JSON: {err}", file.display()))?
        }
    };
    let (config, fallbacks) = config::merge(&user).map_err(|err| anyhow!("{}: {err}", file.display()))?;
    for fallback in fallbacks {
        eprintln!("hookmux: {}: {}", file.display(), fallback.0);
    }
    Ok(config)
}

/// The entries of a file that may not exist yet, with its unreadable lines reported on stderr.
fn read_entries(file: &Path) -> anyhow::Result<Vec<Entry>> {
    let content = match std::fs::read(file) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => bail!("cannot read {}: {err}", file.display()),
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
    };
    let parsed = knowledge::parse(&content);
    for (line, start) in &parsed.invalid {
        eprintln!("hookmux: {}:{line}: not JSON, skipped: {start}", file.display());
    }
    parsed.entries.map_err(|err| anyhow!("{}: a line brewcode cannot read as an entry: {err}", file.display()))
}

fn add(target: &Target, src: Option<String>, kind: &'static str, lesson: &str) -> anyhow::Result<ExitCode> {
    let resolved = resolve(target)?;
    let mut entry = Map::new();
    entry.insert("t".into(), Value::from(kind));
    entry.insert("txt".into(), Value::from(lesson));
    if let Some(src) = src {
        entry.insert("src".into(), Value::from(src));
    }
    if let Err(refusal) = knowledge::validate(&Value::Object(entry.clone())) {
        bail!("{}", refusal_message(&refusal));
    }
    let folder = resolved.file.parent().unwrap_or(Path::new("."));
    if !folder.is_dir() {
        bail!("the task folder {} does not exist", folder.display());
    }
    let now = js::date::iso_now(std::time::SystemTime::now());
    let line = knowledge::entry_line(&entry, &now);
    // Under the writers' lock, and all or nothing: a failed add leaves the file as it was.
    knowledge_file::append_line(&resolved.project, &resolved.absolute, &line)
        .map_err(|failure| anyhow!("cannot append to {}: {failure}", resolved.file.display()))?;
    print!("{line}");
    Ok(ExitCode::SUCCESS)
}

fn refusal_message(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Blocklisted(index, _) => format!(
            "refused: the text reads as narration (it matches /{}/i); write the lesson itself, such as \"Avoid N+1 queries in OrderService\"",
            BLOCKLIST[*index]
        ),
        Refusal::MissingText => "refused: the text is empty".to_string(),
        other => format!("refused: {}", other.reason()),
    }
}

fn show(target: &Target, block: bool, as_json: bool) -> anyhow::Result<ExitCode> {
    let resolved = resolve(target)?;
    let entries = read_entries(&resolved.file)?;
    let mut out = std::io::stdout().lock();
    if block {
        let block = knowledge::compress(&entries, resolved.config.max_tokens)
            .map_err(|err| anyhow!("{}: {err}", resolved.file.display()))?;
        if !block.is_empty() {
            writeln!(out, "{block}")?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if as_json {
        let list: Vec<Value> =
            entries.iter().map(|e| serde_json::from_str(&e.to_json()).unwrap_or(Value::Null)).collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&list)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    for entry in &entries {
        let Entry::Object(fields) = entry else {
            writeln!(out, "{}", entry.to_json())?;
            continue;
        };
        let field = |key: &str| fields.get(key).map(|v| js::string_of(Some(v))).unwrap_or_default();
        let by: Vec<String> = [field("src"), field("ts")].into_iter().filter(|s| !s.is_empty()).collect();
        let by = if by.is_empty() { String::new() } else { format!("  ({})", by.join(", ")) };
        writeln!(out, "{} {}{by}", field("t"), field("txt"))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn compact(target: &Target, force: bool, max_entries: Option<u32>, dry_run: bool) -> anyhow::Result<ExitCode> {
    let resolved = resolve(target)?;
    if !resolved.file.exists() {
        bail!("{} does not exist: nothing to compact", resolved.file.display());
    }
    let max = max_entries.map(f64::from).unwrap_or(resolved.config.max_entries);
    if max < 1.0 {
        bail!("--max-entries must be at least 1");
    }
    // Held from the read to the rename, so that an entry added meanwhile is not written to the
    // file the rename replaces. A dry run writes nothing and takes no lock.
    let _lock = match dry_run {
        true => None,
        false => Some(
            WriterLock::acquire(&resolved.project, &resolved.absolute)
                .map_err(|failure| anyhow!("cannot lock {}: {failure}", resolved.file.display()))?,
        ),
    };
    let entries = read_entries(&resolved.file)?;
    let before = entries.len();
    let threshold = knowledge::threshold(max);
    if !force && (before as f64) < threshold {
        eprintln!(
            "{}: {before} entries, below the threshold of {} (80 % of maxEntries {}); not compacted (--force compacts anyway)",
            resolved.file.display(),
            js::format_number(threshold),
            js::format_number(max)
        );
        return Ok(ExitCode::SUCCESS);
    }
    let compacted =
        knowledge::dedupe_and_sort(entries, max).map_err(|err| anyhow!("{}: {err}", resolved.file.display()))?;
    let rendered = knowledge::render(&compacted);
    if dry_run {
        print!("{rendered}");
        return Ok(ExitCode::SUCCESS);
    }
    // A temporary file with a random name beside it, renamed over it; removed on failure.
    safe_fs::replace(&resolved.project, &resolved.absolute, rendered.as_bytes()).map_err(|(step, err)| match step {
        safe_fs::Step::Check => anyhow!(err),
        _ => anyhow!(err).context(format!("cannot replace {}", resolved.file.display())),
    })?;
    eprintln!("{}: compacted, {before} → {} entries", resolved.file.display(), compacted.len());
    Ok(ExitCode::SUCCESS)
}
