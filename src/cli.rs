//! The command line. Each subcommand is a thin shell over a library module.

use crate::builtin::{self, Invocation};
use clap::{Parser, Subcommand};
use hookmux_sdk::{Env, Event, Registry};
use serde_json::{json, Value};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "hookmux", version, about = "A fast, native runtime for Claude Code, Codex and OpenCode hooks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The whole command tree, for tests that check every command's help.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// Compute the answer but write no state (markers, files, locks, database rows).
    #[arg(long)]
    dry_run: bool,
    /// The handler's name (see `hookmux handlers`).
    name: String,
    /// The handler's options.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

#[derive(clap::Args, Debug)]
struct DispatchArgs {
    /// Read hooks only from this settings file (repeatable, in order); replaces discovery.
    #[arg(long = "settings", value_name = "PATH")]
    settings: Vec<std::path::PathBuf>,
    /// The host that sends the event and reads the answer.
    #[arg(long, value_enum, default_value_t = crate::host::Host::Claude)]
    host: crate::host::Host,
}

/// The hook commands parsed on their own, without building every other command's arguments:
/// they run on every tool call, and the whole command tree costs more to build than dispatch
/// spends planning.
#[derive(Parser, Debug)]
#[command(name = "hookmux run", version, about = "Run one built-in handler as a Claude Code hook command")]
struct RunOnly {
    #[command(flatten)]
    args: RunArgs,
}

#[derive(Parser, Debug)]
#[command(
    name = "hookmux dispatch",
    version,
    about = "Read one hook event on stdin, run every matching hook, answer once"
)]
struct DispatchOnly {
    #[command(flatten)]
    args: DispatchArgs,
}

#[derive(Subcommand, Debug)]
enum HooksCommand {
    /// The effective hooks per event after merging every source.
    List {
        /// Read hooks only from this settings file (repeatable); replaces discovery.
        #[arg(long = "settings", value_name = "PATH")]
        settings: Vec<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Every problem in the settings, with file, line:column, JSON path and a hint; exit 1 on errors.
    Validate {
        /// Check only this settings file (repeatable); replaces discovery.
        #[arg(long = "settings", value_name = "PATH")]
        settings: Vec<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
enum InstallHost {
    /// Claude Code: move a settings file's hooks to a hooks file beside it, dispatched by one
    /// entry per event.
    Claude {
        /// Which settings file.
        #[arg(long, value_enum, default_value = "project")]
        scope: crate::install::Scope,
        /// Print the changes as a diff; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Codex: write hooks.json entries that run your Claude Code hooks for every Codex event.
    Codex(crate::host::codex_install::Args),
}

#[derive(Subcommand, Debug)]
enum UninstallHost {
    /// Claude Code: put the hooks back into the settings file.
    Claude {
        /// Which settings file.
        #[arg(long, value_enum, default_value = "project")]
        scope: crate::install::Scope,
        /// Print the changes as a diff; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Codex: remove the hooks.json entries and trust records `install codex` wrote.
    Codex(crate::host::codex_install::UninstallArgs),
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run one built-in handler as a Claude Code hook command: event on stdin, answer on stdout.
    Run(RunArgs),
    /// Read one hook event on stdin, run every matching hook of the settings, answer once.
    Dispatch(DispatchArgs),
    /// Show what hook events would do under the current settings, without a session.
    DryRun {
        /// Read hooks only from this settings file (repeatable); replaces discovery.
        #[arg(long = "settings", value_name = "PATH")]
        settings: Vec<PathBuf>,
        /// Run the handlers (built-ins write no state) and show each result and the answer.
        #[arg(long)]
        exec: bool,
        /// Print JSON (one array item per fixture) instead of text.
        #[arg(long)]
        json: bool,
        /// Event files: real payloads, or short ones with `hook_event_name` and what matters.
        #[arg(required = true, value_name = "FIXTURE")]
        fixtures: Vec<PathBuf>,
    },
    /// Inspect the hooks configuration.
    Hooks {
        #[command(subcommand)]
        command: HooksCommand,
    },
    /// Route a host's hooks through `hookmux dispatch`.
    Install {
        #[command(subcommand)]
        host: InstallHost,
    },
    /// Undo `hookmux install`: leave a host's hooks as they were before it.
    Uninstall {
        #[command(subcommand)]
        host: UninstallHost,
    },
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
    #[command(flatten)]
    Wakeup(hookmux_handlers::wakeup::cli::Commands),
    #[command(flatten)]
    Brewcode(hookmux_handlers::brewcode::cli::Commands),
}

/// Parses the command line and runs the command.
pub fn main() -> ExitCode {
    let mut argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let hook_command = argv.get(1).and_then(|word| word.to_str()).map(str::to_string);
    if let Some(command @ ("dispatch" | "run")) = hook_command.as_deref() {
        let name = format!("hookmux {command}");
        argv.splice(0..2, [std::ffi::OsString::from(name)]);
        return if command == "dispatch" {
            match parse::<DispatchOnly>(argv) {
                Ok(DispatchOnly { args: DispatchArgs { settings, host } }) => dispatch(settings, host),
                Err(code) => code,
            }
        } else {
            match parse::<RunOnly>(argv) {
                Ok(RunOnly { args: RunArgs { dry_run, name, args } }) => run(&name, &args, dry_run),
                Err(code) => code,
            }
        };
    }
    let cli = match parse::<Cli>(argv) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Run(RunArgs { dry_run, name, args }) => Ok(run(&name, &args, dry_run)),
        Command::Handlers { json, name } => handlers(name.as_deref(), json),
        Command::Dispatch(DispatchArgs { settings, host }) => Ok(dispatch(settings, host)),
        Command::DryRun { settings, exec, json, fixtures } => dry_run(settings, exec, json, &fixtures),
        Command::Hooks { command: HooksCommand::List { settings, json } } => hooks_list(settings, json),
        Command::Hooks { command: HooksCommand::Validate { settings } } => hooks_validate(settings),
        Command::Install { host: InstallHost::Claude { scope, dry_run } } => install_claude(scope, dry_run),
        Command::Install { host: InstallHost::Codex(args) } => crate::host::codex_install::run(&args),
        Command::Uninstall { host: UninstallHost::Claude { scope, dry_run } } => uninstall_claude(scope, dry_run),
        Command::Uninstall { host: UninstallHost::Codex(args) } => crate::host::codex_install::uninstall(&args),
        // Built-in command groups: `Command::Name(commands) => commands.run(),`
        Command::Wakeup(commands) => commands.run(),
        Command::Brewcode(commands) => commands.run(),
    };
    match result {
        Ok(code) => code,
        // Output piped into `head` and the like: the reader is done, and so are we.
        Err(err)
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("hookmux: {err:#}");
            ExitCode::from(1)
        }
    }
}

/// Parses the command line. A mistake in it exits 1, never clap's usual 2: hookmux runs as a
/// hook command, and a host reads exit 2 as a block, so a typo in settings would otherwise block
/// every tool call. `--help` and `--version` exit 0.
fn parse<P: Parser>(argv: Vec<std::ffi::OsString>) -> Result<P, ExitCode> {
    P::try_parse_from(argv).map_err(|err| {
        let _ = err.print();
        if err.use_stderr() {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    })
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
    let env = Env::from_process();
    let dry = dry || env.get(crate::run::DRY_RUN_MARKER) == Some("1");
    let invocation = Invocation::for_process(event, env, cwd, dry);
    let output = builtin::call(handler, args, &invocation);
    let _ = std::io::stdout().write_all(&output.stdout);
    let _ = std::io::stderr().write_all(&output.stderr);
    ExitCode::from(output.exit_code.unwrap_or(1).clamp(0, 255) as u8)
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

fn process_cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// The sources for an inspection command without an event: the project is
/// `$CLAUDE_PROJECT_DIR`, else the current folder.
fn inspected_sources(env: &Env, settings: Vec<PathBuf>) -> (crate::sources::Sources, PathBuf) {
    let cwd = process_cwd();
    let event = Event::from_fields(serde_json::Map::from_iter([(
        "cwd".to_string(),
        Value::from(cwd.to_string_lossy().into_owned()),
    )]));
    let discovery = crate::sources::Discovery::new(env, &event, settings);
    let root = crate::sources::project_root(env, &event).unwrap_or(cwd);
    (crate::sources::Sources::load(&discovery), root)
}

fn dry_run(settings: Vec<PathBuf>, exec: bool, as_json: bool, fixtures: &[PathBuf]) -> anyhow::Result<ExitCode> {
    use crate::dispatch::World;
    let env = Env::from_process();
    let cwd = process_cwd();
    let paths = crate::report::Paths::new(env.path("HOME"));
    let mut out = anstream::stdout();
    let mut reports = Vec::new();
    let mut failed = false;
    for (i, path) in fixtures.iter().enumerate() {
        let fixture = match crate::dry_run::load(path, &cwd) {
            Ok(fixture) => fixture,
            Err(message) => {
                eprintln!("hookmux dry-run: {message}");
                failed = true;
                continue;
            }
        };
        let discovery = crate::sources::Discovery::new(&env, &fixture.event, settings.clone());
        let sources = crate::sources::Sources::load(&discovery);
        let project_root = crate::dispatch::project_root_for(&env, &fixture.event, &cwd);
        let options = crate::plan::PlanOptions {
            project_root: project_root.clone(),
            home: env.path("HOME"),
            session_end_budget: None,
        };
        let plan = crate::plan::plan(&fixture.event, &sources, &options);
        let world = World { env: env.clone(), cwd: cwd.clone() };
        let dispatched =
            exec.then(|| crate::dispatch::run_and_answer(&fixture.event, &sources, &plan, &world, project_root, true));
        if as_json {
            reports.push(crate::report::dry_run_json(&fixture, &sources, &plan, dispatched.as_ref()));
        } else {
            if i > 0 {
                writeln!(out)?;
            }
            crate::report::dry_run_text(&mut out, &fixture, &sources, &plan, dispatched.as_ref(), &paths)?;
        }
    }
    if as_json {
        writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&Value::Array(reports))?)?;
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn hooks_list(settings: Vec<PathBuf>, as_json: bool) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let (sources, _) = inspected_sources(&env, settings);
    let listing = crate::listing::list(&sources);
    if as_json {
        writeln!(
            std::io::stdout(),
            "{}",
            serde_json::to_string_pretty(&crate::report::list_json(&sources, &listing))?
        )?;
    } else {
        crate::report::list_text(
            &mut anstream::stdout(),
            &sources,
            &listing,
            &crate::report::Paths::new(env.path("HOME")),
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn hooks_validate(settings: Vec<PathBuf>) -> anyhow::Result<ExitCode> {
    let env = Env::from_process();
    let (sources, root) = inspected_sources(&env, settings);
    let home = env.path("HOME");
    let registry = Registry::global().ok();
    let cx = crate::validate::Context { project_root: &root, home: home.as_deref(), registry };
    let diagnostics = crate::validate::validate(&sources, &cx);
    crate::report::validate_text(
        &mut anstream::stdout(),
        &sources,
        &diagnostics,
        &crate::report::Paths::new(home.clone()),
    )?;
    let (errors, _) = crate::validate::counts(&diagnostics);
    Ok(if errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn install_layout(scope: crate::install::Scope) -> anyhow::Result<crate::install::Layout> {
    let env = Env::from_process();
    let config_dir = env
        .path("CLAUDE_CONFIG_DIR")
        .or_else(|| env.path("HOME").map(|home| home.join(".claude")))
        .ok_or_else(|| anyhow::anyhow!("neither CLAUDE_CONFIG_DIR nor HOME is set: cannot find the user settings"))?;
    let project = env.path("CLAUDE_PROJECT_DIR").unwrap_or_else(process_cwd);
    let this_binary = std::env::current_exe().ok();
    Ok(crate::install::Layout::new(scope, &config_dir, &project, this_binary.as_deref()))
}

fn install_claude(scope: crate::install::Scope, dry_run: bool) -> anyhow::Result<ExitCode> {
    use crate::install::{self, read_optional, Refusal};
    let layout = install_layout(scope)?;
    let settings = read_optional(&layout.settings)?.ok_or_else(|| Refusal::NoSettings(layout.settings.clone()))?;
    let hooks_file = read_optional(&layout.hooks_file)?;
    // Reinstalling starts from what uninstalling would restore, so it changes nothing twice.
    let base = match &hooks_file {
        Some(hooks) => install::uninstall(&settings, hooks, read_optional(&layout.backup)?.as_deref(), &layout)?,
        None => settings.clone(),
    };
    let installed = install::install(&base, &layout)?;
    let mut out = std::io::stdout().lock();
    if dry_run {
        write!(out, "{}", install::diff(&layout.settings, Some(&settings), Some(&installed.settings_text)))?;
        write!(out, "{}", install::diff(&layout.hooks_file, hooks_file.as_deref(), Some(&installed.hooks_text)))?;
        return Ok(ExitCode::SUCCESS);
    }
    install::write_atomically(&layout.backup, &base)?;
    install::write_atomically(&layout.hooks_file, &installed.hooks_text)?;
    install::write_atomically(&layout.settings, &installed.settings_text)?;
    writeln!(
        out,
        "moved {} hook{} of {} into {}\n{} now run{} through `{}`",
        installed.moved,
        if installed.moved == 1 { "" } else { "s" },
        layout.settings.display(),
        layout.hooks_file.display(),
        installed.events.join(", "),
        if installed.events.len() == 1 { "s" } else { "" },
        layout.dispatch_command,
    )?;
    if installed.kept_native > 0 {
        writeln!(
            out,
            "{} hook(s) that dispatch cannot run (prompt, agent, mcp_tool, async) stay in the settings file",
            installed.kept_native
        )?;
    }
    writeln!(
        out,
        "backup of the original: {}\nundo with: hookmux uninstall claude --scope {}",
        layout.backup.display(),
        scope_name(scope)
    )?;
    Ok(ExitCode::SUCCESS)
}

fn uninstall_claude(scope: crate::install::Scope, dry_run: bool) -> anyhow::Result<ExitCode> {
    use crate::install::{self, read_optional, Refusal};
    let layout = install_layout(scope)?;
    let hooks_file =
        read_optional(&layout.hooks_file)?.ok_or_else(|| Refusal::NotInstalled(layout.hooks_file.clone()))?;
    let settings = read_optional(&layout.settings)?;
    let backup = read_optional(&layout.backup)?;
    let restored = install::uninstall(settings.as_deref().unwrap_or("{}\n"), &hooks_file, backup.as_deref(), &layout)?;
    let mut out = std::io::stdout().lock();
    if dry_run {
        write!(out, "{}", install::diff(&layout.settings, settings.as_deref(), Some(&restored)))?;
        write!(out, "{}", install::diff(&layout.hooks_file, Some(&hooks_file), None))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(current) = &settings {
        install::write_atomically(&layout.backup, current)?;
    }
    install::write_atomically(&layout.settings, &restored)?;
    std::fs::remove_file(&layout.hooks_file)?;
    writeln!(out, "restored the hooks of {} and removed {}", layout.settings.display(), layout.hooks_file.display())?;
    writeln!(out, "backup of the file as it was: {}", layout.backup.display())?;
    Ok(ExitCode::SUCCESS)
}

fn scope_name(scope: crate::install::Scope) -> &'static str {
    match scope {
        crate::install::Scope::User => "user",
        crate::install::Scope::Project => "project",
        crate::install::Scope::Local => "local",
    }
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
