//! The command line: clap's definitions and the routing to [`crate::commands`], nothing else.

use crate::commands;
use crate::engine::dispatch::DispatchOptions;
use crate::host::claude::install::Scope;
use crate::host::Host;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// `hookmux --version`: the version and the commit it was built from (see `build.rs`).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("HOOKMUX_COMMIT"), ")");

#[derive(Parser, Debug)]
#[command(
    name = "hookmux",
    version = VERSION,
    about = "A fast, native runtime for Claude Code, Codex, Gemini CLI and OpenCode hooks"
)]
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
    #[arg(long = "settings", value_name = "PATH", conflicts_with = "installed")]
    settings: Vec<std::path::PathBuf>,
    /// Run the hooks `hookmux install claude` moved, of every settings scope that holds this
    /// entry (what the installed entry runs).
    #[arg(long)]
    installed: bool,
    /// Run the enabled Claude Code plugins' hooks too. The default under every host but Claude
    /// Code, which runs them itself: only for a Claude Code that does not load them.
    #[arg(long)]
    plugins: bool,
    /// The host that sends the event and reads the answer.
    #[arg(long, value_enum, default_value_t = Host::Claude)]
    host: Host,
}

impl DispatchArgs {
    fn run(self) -> ExitCode {
        let DispatchArgs { settings, installed, plugins, host } = self;
        commands::dispatch::run(DispatchOptions { settings, installed, plugins, ..DispatchOptions::default() }, host)
    }
}

/// The hook commands parsed on their own, without building every other command's arguments:
/// they run on every tool call, and the whole command tree costs more to build than dispatch
/// spends planning.
#[derive(Parser, Debug)]
#[command(name = "hookmux run", version = VERSION, about = "Run one built-in handler as a Claude Code hook command")]
struct RunOnly {
    #[command(flatten)]
    args: RunArgs,
}

#[derive(Parser, Debug)]
#[command(
    name = "hookmux dispatch",
    version = VERSION,
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
    /// Every problem in the settings, with file, line:column, JSON path, rule id and a hint; exit 1
    /// on errors.
    Validate {
        /// Check only this settings file (repeatable); replaces discovery.
        #[arg(long = "settings", value_name = "PATH")]
        settings: Vec<PathBuf>,
        /// How to print the findings: text for people, json for tools, sarif for code scanning.
        #[arg(long, value_enum, default_value_t = commands::validate::Format::Text)]
        format: commands::validate::Format,
        /// Report what the files' `"$hookmux": {"ignore": [...]}` silence too: for reviewing a
        /// repository whose settings you do not trust to silence their own findings.
        #[arg(long)]
        no_ignore: bool,
    },
}

/// Which traced dispatches `hookmux log` shows.
#[derive(clap::Args, Debug, Clone)]
struct LogFilter {
    /// This session (its id, or the start of it); default: the latest session.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Only dispatches this recent (`10m`, `2h`, `1day`), of every session unless `--session`.
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    since: Option<std::time::Duration>,
    /// Only this event (`PreToolUse`, `Stop`, …).
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    /// Only the hooks whose name (a built-in's name, else the command) holds this text.
    #[arg(long, value_name = "NAME")]
    hook: Option<String>,
}

impl From<LogFilter> for commands::log::Filter {
    fn from(LogFilter { session, since, event, hook }: LogFilter) -> Self {
        commands::log::Filter { session, since, event, hook }
    }
}

#[derive(Subcommand, Debug)]
enum LogCommand {
    /// Explain one event: every group and whether it matched (and why not), every hook and
    /// what it decided, the answer.
    Why {
        /// The tool call's id (`tool_use_id`), or the start of it.
        #[arg(value_name = "TOOL_USE_ID", required_unless_present = "last")]
        tool_use_id: Option<String>,
        /// The latest dispatch traced.
        #[arg(long, conflicts_with = "tool_use_id")]
        last: bool,
        /// Print the trace's JSON lines instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Which tool calls no hook saw: each call of the host's transcript beside the dispatches
    /// that saw it; exit 1 when one a PreToolUse group would have matched was not seen.
    Coverage {
        /// This session (its id, or the start of it); default: the latest session.
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// Every session active this recently, in days (`7`, `0.5`) or as a duration (`12h`).
        #[arg(long, value_name = "DAYS", value_parser = days, conflicts_with = "session")]
        since: Option<std::time::Duration>,
        /// Read this transcript file instead of finding the host's.
        #[arg(long, value_name = "FILE")]
        transcript: Option<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Per hook: calls, blocks, errors, timeouts, p50/p95/max wall time; the slowest first.
    Stats {
        #[command(flatten)]
        filter: LogFilter,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// `--since` of `log coverage`: a number of days, or a duration (`12h`).
fn days(text: &str) -> Result<std::time::Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(days) if days.is_finite() && days >= 0.0 => Ok(std::time::Duration::from_secs_f64(days * 86_400.0)),
        Ok(_) => Err(format!("`{text}` is not a number of days")),
        Err(_) => humantime::parse_duration(text)
            .map_err(|err| format!("`{text}`: {err} (give days, as `7`, or a duration, as `12h`)")),
    }
}

#[derive(Subcommand, Debug)]
enum InstallHost {
    /// Claude Code: move a settings file's hooks to a hooks file beside it, dispatched by one
    /// entry per event.
    Claude {
        /// Which settings file.
        #[arg(long, value_enum, default_value = "project")]
        scope: Scope,
        /// Print the changes as a diff; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Codex: write hooks.json entries that run your Claude Code hooks for every Codex event.
    Codex(crate::host::codex::install::Args),
    /// Gemini CLI: write settings.json entries that run your Claude Code hooks for every Gemini
    /// event.
    Gemini(crate::host::gemini::install::Args),
    /// Cline CLI: write one hook file per Cline event that runs your Claude Code hooks.
    Cline(crate::host::cline::install::Args),
    /// Qwen Code: write settings.json entries that run your Claude Code hooks for every Qwen
    /// event.
    Qwen(crate::host::qwen::install::Args),
    /// GitHub Copilot CLI: the same as `install claude` (Copilot runs the entry it leaves in
    /// Claude Code's settings file, and hookmux answers it in Copilot's form).
    Copilot {
        /// Which Claude Code settings file (Copilot reads the project's and the local one).
        #[arg(long, value_enum, default_value = "project")]
        scope: Scope,
        /// Print the changes as a diff; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

#[derive(Subcommand, Debug)]
enum UninstallHost {
    /// Claude Code: put the hooks back into the settings file.
    Claude {
        /// Which settings file.
        #[arg(long, value_enum, default_value = "project")]
        scope: Scope,
        /// Print the changes as a diff; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Codex: remove the hooks.json entries and trust records `install codex` wrote.
    Codex(crate::host::codex::install::UninstallArgs),
    /// Gemini CLI: remove the settings.json entries `install gemini` wrote.
    Gemini(crate::host::gemini::install::UninstallArgs),
    /// Cline CLI: remove the hook files `install cline` wrote.
    Cline(crate::host::cline::install::UninstallArgs),
    /// Qwen Code: remove the settings.json entries `install qwen` wrote.
    Qwen(crate::host::qwen::install::UninstallArgs),
    /// GitHub Copilot CLI: the same as `uninstall claude` (one installed state serves both).
    Copilot {
        /// Which Claude Code settings file.
        #[arg(long, value_enum, default_value = "project")]
        scope: Scope,
        /// Print the changes as a diff; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
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
    /// Trust a project's own hooks under hosts that do not ask first (Codex, OpenCode): a cloned
    /// repository's `.claude` settings run there only once you trust it.
    Trust {
        /// The project folder (default: $CLAUDE_PROJECT_DIR, else the current folder); a trusted
        /// folder covers the folders below it.
        #[arg(value_name = "DIR")]
        dir: Option<PathBuf>,
        /// List the trusted folders.
        #[arg(long, conflicts_with_all = ["revoke", "dir"])]
        list: bool,
        /// Stop trusting the folder.
        #[arg(long)]
        revoke: bool,
    },
    /// List the built-in handlers, or show one with its options and a settings snippet.
    Handlers {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Show only this handler.
        name: Option<String>,
    },
    /// Check what a host does not show: which hookmux each entry runs, the files it names, the
    /// wired hosts, trust, plugins, the memory store; one line per check, exit 1 on a problem.
    Doctor {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// What dispatch did in real sessions: the latest session as a timeline, one line per hook
    /// run (from the trace; see `HOOKMUX_TRACE`).
    #[command(args_conflicts_with_subcommands = true)]
    Log {
        #[command(subcommand)]
        command: Option<LogCommand>,
        #[command(flatten)]
        filter: LogFilter,
        /// Keep showing dispatches as they are traced.
        #[arg(long)]
        follow: bool,
        /// Print the trace's JSON lines instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the shell completion script (bash, zsh, fish, powershell, elvish) on stdout.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page on stdout, or write a page per command into DIR.
    Man {
        /// Write `hookmux.1` and a page per command into this folder instead of printing.
        #[arg(value_name = "DIR")]
        dir: Option<PathBuf>,
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
                Ok(DispatchOnly { args }) => args.run(),
                Err(code) => code,
            }
        } else {
            match parse::<RunOnly>(argv) {
                Ok(RunOnly { args: RunArgs { dry_run, name, args } }) => commands::run::run(&name, &args, dry_run),
                Err(code) => code,
            }
        };
    }
    let cli = match parse::<Cli>(argv) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Run(RunArgs { dry_run, name, args }) => Ok(commands::run::run(&name, &args, dry_run)),
        Command::Handlers { json, name } => commands::handlers::run(name.as_deref(), json),
        Command::Trust { list: true, .. } => commands::trust::run(commands::trust::Action::List),
        Command::Trust { dir, revoke: true, .. } => commands::trust::run(commands::trust::Action::Revoke(dir)),
        Command::Trust { dir, .. } => commands::trust::run(commands::trust::Action::Add(dir)),
        Command::Dispatch(args) => Ok(args.run()),
        Command::DryRun { settings, exec, json, fixtures } => commands::dry_run::run(settings, exec, json, &fixtures),
        Command::Hooks { command: HooksCommand::List { settings, json } } => commands::list::run(settings, json),
        Command::Hooks { command: HooksCommand::Validate { settings, format, no_ignore } } => {
            commands::validate::run(settings, format, no_ignore)
        }
        Command::Install { host: InstallHost::Claude { scope, dry_run } } => {
            commands::install::install_claude(scope, dry_run)
        }
        Command::Install { host: InstallHost::Codex(args) } => crate::host::codex::install::run(&args),
        Command::Install { host: InstallHost::Copilot { scope, dry_run } } => {
            commands::install::install_copilot(scope, dry_run)
        }
        Command::Uninstall { host: UninstallHost::Claude { scope, dry_run } } => {
            commands::install::uninstall_claude(scope, dry_run)
        }
        Command::Uninstall { host: UninstallHost::Codex(args) } => crate::host::codex::install::uninstall(&args),
        Command::Install { host: InstallHost::Gemini(args) } => crate::host::gemini::install::run(&args),
        Command::Uninstall { host: UninstallHost::Gemini(args) } => crate::host::gemini::install::uninstall(&args),
        Command::Install { host: InstallHost::Cline(args) } => crate::host::cline::install::run(&args),
        Command::Uninstall { host: UninstallHost::Cline(args) } => crate::host::cline::install::uninstall(&args),
        Command::Install { host: InstallHost::Qwen(args) } => crate::host::qwen::install::run(&args),
        Command::Uninstall { host: UninstallHost::Qwen(args) } => crate::host::qwen::install::uninstall(&args),
        Command::Uninstall { host: UninstallHost::Copilot { scope, dry_run } } => {
            commands::install::uninstall_copilot(scope, dry_run)
        }
        Command::Doctor { json } => commands::doctor::run(json),
        Command::Log { command: None, filter, follow, json } => commands::log::timeline(&filter.into(), follow, json),
        Command::Log { command: Some(LogCommand::Why { tool_use_id, last, json }), .. } => {
            commands::log::why(tool_use_id.as_deref(), last, json)
        }
        Command::Log { command: Some(LogCommand::Coverage { session, since, transcript, json }), .. } => {
            commands::coverage::run(&commands::coverage::Options { session, since, transcript, json })
        }
        Command::Log { command: Some(LogCommand::Stats { filter, json }), .. } => {
            commands::log::stats(&filter.into(), json)
        }
        Command::Completions { shell } => commands::completions::run(shell, command()),
        Command::Man { dir } => commands::man::run(dir.as_deref(), command()),
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
