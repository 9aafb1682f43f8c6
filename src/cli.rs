//! The command line. Each subcommand is a thin shell over a library module.

use crate::builtin::{self, Invocation};
use clap::{Parser, Subcommand};
use hookmux_sdk::{Env, Event, Registry};
use serde_json::{json, Value};
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "hookmux", version, about = "A fast, native runtime for Claude Code, Codex and OpenCode hooks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run one built-in handler as a Claude Code hook command: event on stdin, answer on stdout.
    Run {
        /// Compute the answer but write no state (markers, files, locks, database rows).
        #[arg(long)]
        dry_run: bool,
        /// The handler's name (see `hookmux handlers`).
        name: String,
        /// The handler's options.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Read one hook event on stdin, run every matching hook of the settings, answer once.
    Dispatch {
        /// Read hooks only from this settings file (repeatable, in order); replaces discovery.
        #[arg(long = "settings", value_name = "PATH")]
        settings: Vec<std::path::PathBuf>,
        /// The host that sends the event and reads the answer.
        #[arg(long, value_enum, default_value_t = crate::host::Host::Claude)]
        host: crate::host::Host,
    },
    /// Route a host's hook events through `hookmux dispatch`.
    #[command(subcommand)]
    Install(Install),
    /// List the built-in handlers, or show one with its options and a settings snippet.
    Handlers {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Show only this handler.
        name: Option<String>,
    },
    // Built-in handlers with commands of their own add them here, flattened:
    // `#[command(flatten)] Name(hookmux_handlers::name::cli::Commands),`
}

/// Parses the command line and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run { dry_run, name, args } => Ok(run(&name, &args, dry_run)),
        Command::Handlers { json, name } => handlers(name.as_deref(), json),
        Command::Dispatch { settings, host } => Ok(dispatch(settings, host)),
        Command::Install(Install::Codex(args)) => crate::host::codex_install::run(&args),
        // Built-in command groups: `Command::Name(commands) => commands.run(),`
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("hookmux: {err:#}");
            ExitCode::from(1)
        }
    }
}

/// Reads the event from stdin: nothing when stdin is a terminal, lossy UTF-8, at most 64 MiB.
pub fn read_stdin() -> String {
    const LIMIT: u64 = 64 << 20;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return String::new();
    }
    let mut bytes = Vec::new();
    if let Err(err) = stdin.lock().take(LIMIT).read_to_end(&mut bytes) {
        eprintln!("hookmux: could not read the event from stdin: {err}");
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `hookmux run NAME [ARGS]`: a handler failure or an unknown name is a non-blocking error
/// (exit 1), never a block.
fn run(name: &str, args: &[String], dry: bool) -> ExitCode {
    let registry = match Registry::global() {
        Ok(registry) => registry,
        Err(err) => {
            eprintln!("hookmux: {err}");
            return ExitCode::from(1);
        }
    };
    let Some(handler) = registry.get(name) else {
        let known = registry.names().collect::<Vec<_>>().join(", ");
        eprintln!("hookmux: no handler named `{name}`; the handlers are: {known} (see `hookmux handlers`)");
        return ExitCode::from(1);
    };
    let event = Event::parse(&read_stdin());
    if let (Some(error), false) = (event.parse_error(), event.raw().trim().is_empty()) {
        eprintln!("hookmux: {error}; `{name}` sees an empty event");
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("/"));
    let invocation = Invocation::for_process(event, Env::from_process(), cwd, dry);
    let output = builtin::call(handler, args, &invocation);
    let _ = std::io::stdout().write_all(&output.stdout);
    let _ = std::io::stderr().write_all(&output.stderr);
    ExitCode::from(output.exit_code.unwrap_or(1).clamp(0, 255) as u8)
}

#[derive(Subcommand, Debug)]
enum Install {
    /// Run your Claude Code hooks under Codex: write hooks.json entries for every Codex event.
    Codex(crate::host::codex_install::Args),
}

/// `hookmux dispatch`: exit 0 unless an event blocks by exit code only.
fn dispatch(settings: Vec<std::path::PathBuf>, host: crate::host::Host) -> ExitCode {
    let world = crate::dispatch::World {
        env: Env::from_process(),
        cwd: std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("/")),
    };
    let stdin = read_stdin();
    let encoded = crate::dispatch::dispatch_for(host, &stdin, &world, &crate::dispatch::DispatchOptions { settings });
    let _ = std::io::stdout().write_all(encoded.stdout.as_bytes());
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(encoded.stderr.as_bytes());
    ExitCode::from(encoded.exit_code.clamp(0, 255) as u8)
}

fn handlers(name: Option<&str>, as_json: bool) -> anyhow::Result<ExitCode> {
    let registry = Registry::global().map_err(|err| anyhow::anyhow!("{err}"))?;
    let selected: Vec<_> = match name {
        Some(name) => match registry.registration(name) {
            Some(registration) => vec![registration],
            None => {
                let known = registry.names().collect::<Vec<_>>().join(", ");
                anyhow::bail!("no handler named `{name}`; the handlers are: {known}");
            }
        },
        None => registry.iter().collect(),
    };
    let mut out = std::io::stdout().lock();
    if as_json {
        let list: Vec<Value> = selected.iter().map(|r| handler_json(r)).collect();
        let value = if name.is_some() { list.into_iter().next().unwrap_or(Value::Null) } else { Value::Array(list) };
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if name.is_some() {
        for registration in &selected {
            write_handler_details(&mut out, registration)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let rows: Vec<[String; 4]> = selected
        .iter()
        .map(|r| {
            let info = r.handler.info();
            let events = info.events.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(",");
            [info.name.to_string(), events, info.matcher.unwrap_or("*").to_string(), info.description.to_string()]
        })
        .collect();
    let header = ["NAME", "EVENTS", "MATCHER", "DESCRIPTION"].map(str::to_string);
    let widths: Vec<usize> =
        (0..3).map(|i| rows.iter().chain([&header]).map(|row| row[i].chars().count()).max().unwrap_or(0)).collect();
    for row in std::iter::once(&header).chain(&rows) {
        writeln!(
            out,
            "{:w0$}  {:w1$}  {:w2$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2]
        )?;
    }
    writeln!(out, "\n`hookmux handlers NAME` shows a handler's options and a settings snippet.")?;
    Ok(ExitCode::SUCCESS)
}

fn handler_json(registration: &hookmux_sdk::Registration) -> Value {
    let info = registration.handler.info();
    json!({
        "name": info.name,
        "description": info.description,
        "events": info.events.iter().map(|e| e.as_str()).collect::<Vec<_>>(),
        "matcher": info.matcher,
        "options": info.options.iter().map(|o| json!({
            "name": o.name,
            "type": o.kind.as_str(),
            "default": o.default,
            "help": o.help,
        })).collect::<Vec<_>>(),
        "snippet": settings_snippet(info),
        "registered_at": format!("{}:{}", registration.location.file, registration.location.line),
    })
}

/// A settings fragment that wires the handler for each of its events.
pub fn settings_snippet(info: &hookmux_sdk::HandlerInfo) -> Value {
    let mut hooks = serde_json::Map::new();
    for event in info.events {
        let mut group = serde_json::Map::new();
        if let Some(matcher) = info.matcher {
            group.insert("matcher".into(), matcher.into());
        }
        group.insert("hooks".into(), json!([{"type": "command", "command": format!("hookmux run {}", info.name)}]));
        hooks.insert(event.as_str().into(), json!([group]));
    }
    json!({ "hooks": hooks })
}

fn write_handler_details(out: &mut impl Write, registration: &hookmux_sdk::Registration) -> std::io::Result<()> {
    let info = registration.handler.info();
    writeln!(out, "{}: {}", info.name, info.description)?;
    let events = info.events.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(", ");
    writeln!(out, "  events:  {events}")?;
    writeln!(out, "  matcher: {}", info.matcher.unwrap_or("* (any)"))?;
    if info.options.is_empty() {
        writeln!(out, "  options: none")?;
    } else {
        writeln!(out, "  options:")?;
        let labels: Vec<String> = info
            .options
            .iter()
            .map(|o| match o.kind {
                hookmux_sdk::OptionKind::Flag => format!("--{}", o.name),
                kind => format!("--{} <{}>", o.name, kind.as_str()),
            })
            .collect();
        let width = labels.iter().map(String::len).max().unwrap_or(0);
        for (option, label) in info.options.iter().zip(&labels) {
            let default = option.default.map(|d| format!(" (default: {d})")).unwrap_or_default();
            let repeat = if option.kind == hookmux_sdk::OptionKind::List { " (repeatable)" } else { "" };
            writeln!(out, "    {label:width$}  {}{repeat}{default}", option.help)?;
        }
    }
    writeln!(out, "\nIn settings.json:")?;
    let snippet = serde_json::to_string_pretty(&settings_snippet(info)).unwrap_or_default();
    for line in snippet.lines() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}
