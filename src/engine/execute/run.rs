//! Running a plan: every handler at once, each with its own timeout. Commands are processes
//! (shell form through the POSIX shell's `-c`, exec form when `args` is given), built-ins are called
//! in-process on a thread, http handlers are POSTed the event; `async` commands are started and
//! not waited for.

use crate::engine::config::placeholders::Placeholders;
use crate::engine::config::settings::{HookKind, Plugin};
use crate::engine::execute::builtin::{self, Invocation};
use crate::engine::execute::detached::Records;
use crate::engine::execute::http::{self, HttpCall, HttpPolicy};
use crate::engine::execute::process::{self, ProcessSpec};
use crate::engine::execute::RawOutput;
use crate::engine::select::plan::{Plan, Planned, Runner};
use hookmux_platform::process::Detached;
use hookmux_platform::program::Conventions;
use hookmux_platform::shell;
use hookmux_sdk::{Env, Event, ProjectTrust, Registry};
use std::borrow::Cow;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Set in every child's environment: the session and the settings files of the dispatch that
/// started it, and of the dispatches that started that one. A `hookmux dispatch` for the same
/// session that would read one of those files again is in a loop (a hook that dispatches its own
/// settings): it leaves that file's hooks out, and says so.
pub const DISPATCH_CHAIN: &str = "HOOKMUX_DISPATCH_CHAIN";

/// Set to `1` in children's environment under `dry-run --exec`: a spawned `hookmux run` then
/// writes no state either.
pub const DRY_RUN_MARKER: &str = "HOOKMUX_DRY_RUN";

/// Everything handlers share for one event.
pub struct RunContext {
    pub event: Arc<Event>,
    /// Compact event JSON plus `\n`: every child's stdin.
    pub stdin: Arc<[u8]>,
    /// The environment children get (the host's, plus `CLAUDE_PROJECT_DIR`,
    /// `CLAUDE_CODE_SESSION_ID` and the dispatch marker).
    pub env: Arc<Env>,
    pub cwd: PathBuf,
    pub project_root: PathBuf,
    pub http: HttpPolicy,
    /// Built-ins write no state (dry-run `--exec`).
    pub dry: bool,
    /// The project's trust, as dispatch decided it, for the built-ins.
    pub project_trust: ProjectTrust,
    /// The session's mark for the detached hooks it starts (see [`super::detached`]); `None`
    /// without a session id.
    pub session_mark: Option<String>,
    /// Where each detached hook is recorded the moment it starts, to be ended at the session's
    /// end (see [`super::detached`]); `None` when nothing is recorded (no session, a dry run).
    pub records: Option<Records>,
}

impl RunContext {
    pub fn new(
        event: Arc<Event>,
        host_env: &Env,
        project_root: PathBuf,
        cwd: PathBuf,
        http: HttpPolicy,
        chain: &str,
        dry: bool,
    ) -> RunContext {
        let mut env = host_env.clone();
        if dry {
            env.set(DRY_RUN_MARKER, "1");
        }
        env.set("CLAUDE_PROJECT_DIR", project_root.as_os_str());
        let session = event.session_id().unwrap_or_default().to_string();
        if !session.is_empty() {
            env.set("CLAUDE_CODE_SESSION_ID", &session);
        }
        env.set(DISPATCH_CHAIN, chain);
        let stdin = event.hook_stdin();
        RunContext {
            event,
            stdin,
            env: Arc::new(env),
            cwd,
            project_root,
            http,
            dry,
            project_trust: ProjectTrust::Untrusted,
            session_mark: None,
            records: None,
        }
    }
}

/// How one planned handler ended.
#[derive(Debug)]
pub enum Ran {
    /// It ran; here is what it produced.
    Finished(RawOutput),
    /// Started in the background (`async: true`).
    Detached,
    /// Not run, and why.
    Skipped(String),
}

/// Runs every handler of the plan in parallel; results come back in plan order. The detached
/// handlers are recorded in `cx.records` as each starts, and returned, with their background
/// writers, so that the caller can let the writers finish.
///
/// Every command handler of the plan runs on one thread, which starts them all and watches them
/// together (see [`process`]); every built-in and http handler gets a thread of its own. A
/// process enforces its own timeout (and is ended with what it started); a built-in cannot be
/// killed, so the collecting thread stops waiting for it at its deadline and leaves it to finish
/// on its own: the process exits after answering anyway.
pub fn run_plan(plan: &Plan<'_>, cx: &Arc<RunContext>) -> (Vec<Ran>, Vec<Detached>) {
    let mut results: Vec<Option<Ran>> = (0..plan.handlers.len()).map(|_| None).collect();
    let mut detached = Vec::new();
    let mut deadlines: Vec<(usize, Instant)> = Vec::new();
    let mut processes: Vec<(usize, ProcessSpec)> = Vec::new();
    let (tx, rx) = mpsc::channel::<(usize, Ran)>();
    let started = Instant::now();
    for (index, planned) in plan.handlers.iter().enumerate() {
        match &planned.runner {
            Runner::Detached => {
                results[index] = Some(
                    match process_spec(planned, cx)
                        .and_then(|spec| process::start_detached(&spec, cx.session_mark.as_deref()))
                    {
                        Ok(started) => {
                            // Recorded now, before any hook of the plan is waited for: a dispatch
                            // the host kills at its timeout has still recorded what it started.
                            if let Some(records) = &cx.records {
                                records.record(&started);
                            }
                            detached.push(started);
                            Ran::Detached
                        }
                        Err(why) => Ran::Finished(RawOutput::failure(why)),
                    },
                );
            }
            Runner::NotRunnable(kind) => {
                results[index] = Some(Ran::Skipped(format!(
                    "a `{kind}` handler needs the host's model or MCP client; hookmux dispatch does not run it \
                     (keep it in the host's own settings)"
                )));
            }
            _ => {
                let job = match Job::new(planned, cx) {
                    Job::Process(spec) => {
                        processes.push((index, spec));
                        continue;
                    }
                    job => job,
                };
                if matches!(planned.runner, Runner::Builtin(_)) {
                    deadlines.push((index, started + planned.timeout));
                }
                let tx = tx.clone();
                let spawned = std::thread::Builder::new().spawn(move || {
                    let _ = tx.send((index, job.run()));
                });
                if let Err(err) = spawned {
                    results[index] = Some(thread_failure(&err));
                }
            }
        }
    }
    if !processes.is_empty() {
        let (indices, specs): (Vec<usize>, Vec<ProcessSpec>) = processes.into_iter().unzip();
        let tx = tx.clone();
        let positions = indices.clone();
        let spawned = std::thread::Builder::new().spawn(move || {
            process::run_all(&specs, &mut |at, output| {
                let _ = tx.send((positions[at], Ran::Finished(output)));
            });
        });
        if let Err(err) = spawned {
            for index in indices {
                results[index] = Some(thread_failure(&err));
            }
        }
    }
    drop(tx);
    while results.iter().any(Option::is_none) {
        let pending_deadline = deadlines.iter().filter(|(i, _)| results[*i].is_none()).map(|(_, at)| *at).min();
        let received = match pending_deadline {
            Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        match received {
            Ok((index, ran)) => results[index] = Some(ran),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                for (index, at) in &deadlines {
                    if results[*index].is_none() && *at <= now {
                        results[*index] = Some(Ran::Finished(RawOutput {
                            timed_out: true,
                            wall: now - started,
                            ..RawOutput::default()
                        }));
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let results = results
        .into_iter()
        .map(|ran| ran.unwrap_or_else(|| Ran::Finished(RawOutput::failure("hookmux: the handler's runner crashed"))))
        .collect();
    (results, detached)
}

fn thread_failure(err: &std::io::Error) -> Ran {
    Ran::Finished(RawOutput::failure(format!("hookmux: cannot start a thread: {err}")))
}

/// One handler's work, owned so that it can run on a thread that may outlive the plan.
enum Job {
    Builtin {
        handler: &'static dyn hookmux_sdk::Handler,
        args: Vec<String>,
        invocation: Invocation,
    },
    Process(ProcessSpec),
    Http {
        url: url::Url,
        headers: std::collections::BTreeMap<String, String>,
        allowed_env_vars: Vec<String>,
        timeout: Duration,
        cx: Arc<RunContext>,
    },
    Skip(String),
    Fail(String),
}

impl Job {
    fn new(planned: &Planned<'_>, cx: &Arc<RunContext>) -> Job {
        match (&planned.runner, &planned.origin.spec.kind) {
            (Runner::Builtin(call), _) => match Registry::global().ok().and_then(|r| r.get(&call.name)) {
                Some(handler) => Job::Builtin { handler, args: call.args.clone(), invocation: invocation(cx) },
                None => Job::Fail(format!("hookmux: no handler named `{}`", call.name)),
            },
            (Runner::Http, HookKind::Http { url, headers, allowed_env_vars }) => match cx.http.permit(url) {
                Err(refusal) => Job::Skip(refusal),
                Ok(url) => Job::Http {
                    url,
                    headers: headers.clone(),
                    allowed_env_vars: allowed_env_vars.clone(),
                    timeout: planned.timeout,
                    cx: cx.clone(),
                },
            },
            (_, HookKind::Command { .. }) => match process_spec(planned, cx) {
                Ok(spec) => Job::Process(spec),
                Err(why) => Job::Fail(why),
            },
            _ => Job::Skip("nothing to run".to_string()),
        }
    }

    fn run(self) -> Ran {
        match self {
            Job::Builtin { handler, args, invocation } => {
                let started = Instant::now();
                let mut output = builtin::call(handler, &args, &invocation);
                output.wall = started.elapsed();
                Ran::Finished(output)
            }
            Job::Process(spec) => Ran::Finished(process::run(&spec)),
            Job::Http { url, headers, allowed_env_vars, timeout, cx } => {
                let call = HttpCall {
                    url: &url,
                    headers: &headers,
                    allowed_env_vars: &allowed_env_vars,
                    body: &cx.stdin,
                    timeout,
                };
                Ran::Finished(http::post(&call, &cx.http, &cx.env))
            }
            Job::Skip(why) => Ran::Skipped(why),
            Job::Fail(why) => Ran::Finished(RawOutput::failure(why)),
        }
    }
}

fn invocation(cx: &RunContext) -> Invocation {
    Invocation {
        event: cx.event.clone(),
        env: cx.env.clone(),
        cwd: cx.cwd.clone(),
        project_root: cx.project_root.clone(),
        dry: cx.dry,
        project_trust: builtin::decided(cx.project_trust),
    }
}

/// The process for a command handler, started as Claude Code starts it: the shell form through
/// the POSIX shell (`/bin/sh`; Git Bash on Windows, else PowerShell) with `-c`, wrapped by
/// `CLAUDE_CODE_SHELL_PREFIX` when set; `shell: "powershell"` through PowerShell (`pwsh`, else
/// Windows PowerShell on Windows) with Claude Code's flags; the exec form (`args`) as the program
/// itself, no shell, with the host's own `${NAME}` placeholders put into its words
/// ([`Placeholders`]). A hook the host would refuse to run is not run, and a shell that is not
/// there is an error that says what to install: the command is never handed to another shell.
fn process_spec(planned: &Planned<'_>, cx: &RunContext) -> Result<ProcessSpec, String> {
    let HookKind::Command { command, args, shell, .. } = &planned.origin.spec.kind else {
        return Err("not a command handler".to_string());
    };
    let plugin_env;
    let env = match &planned.origin.file.plugin {
        Some(plugin) => {
            plugin_env = with_plugin(&cx.env, plugin);
            &plugin_env
        }
        None => cx.env.as_ref(),
    };
    let placeholders = Placeholders::new(&cx.project_root, planned.origin.file.plugin.as_ref());
    let words = std::iter::once(command.as_str()).chain(args.iter().flatten().map(String::as_str));
    if let Some(refusal) = placeholders.refusal(words) {
        return Err(format!("hookmux: {refusal}"));
    }
    let cannot_run = |missing: shell::Missing| format!("hookmux cannot run this hook: {missing}");
    let mut bash_env = None;
    let (program, argv): (OsString, Vec<OsString>) = match args {
        Some(args) => (
            placeholders.substitute(command).into(),
            args.iter().map(|arg| placeholders.substitute(arg).into()).collect(),
        ),
        None if shell.as_deref() == Some("powershell") => {
            (shell::powershell(env).map_err(cannot_run)?.into(), powershell_args(command, env))
        }
        None => match shell::for_commands(env).map_err(cannot_run)? {
            shell::CommandShell::Posix(sh) => {
                let script;
                (script, bash_env) = posix_form(command, env, Conventions::HOST);
                (sh.into(), vec!["-c".into(), script.into()])
            }
            shell::CommandShell::PowerShell(powershell) => (powershell.into(), powershell_args(command, env)),
        },
    };
    let env = bash_env.as_ref().unwrap_or(env);
    Ok(ProcessSpec {
        program,
        args: argv,
        env: env.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect(),
        cwd: cx.cwd.clone(),
        stdin: cx.stdin.clone(),
        timeout: planned.timeout,
    })
}

/// The script the POSIX shell runs for a shell-form `command`, and the environment it runs in
/// when that differs from `env`, as Claude Code hands them to that shell on `os`: on Windows, Git
/// Bash gets `bash ` before a command that runs a `.sh` file ([`shell::bash_command`]) and the
/// host's paths spelled its way (`/c/Users/…`, [`shell::bash_path`]); then, on every OS, a
/// `CLAUDE_CODE_SHELL_PREFIX` wraps the command as one quoted word.
fn posix_form(command: &str, env: &Env, os: Conventions) -> (String, Option<Env>) {
    let command = shell::bash_command(command, os);
    let script = match env.get("CLAUDE_CODE_SHELL_PREFIX").filter(|p| !p.is_empty()) {
        Some(prefix) => format!("{prefix} {}", shell_quote(&command)),
        None => command.into_owned(),
    };
    let spelled: Vec<(&str, String)> = shell::HOST_PATH_VARIABLES
        .iter()
        .filter_map(|&name| {
            let value = env.get(name)?;
            match shell::bash_path(value, os) {
                Cow::Owned(spelled) => Some((name, spelled)),
                Cow::Borrowed(_) => None,
            }
        })
        .collect();
    if spelled.is_empty() {
        return (script, None);
    }
    let mut bash_env = env.clone();
    for (name, value) in spelled {
        bash_env.set(name, value);
    }
    (script, Some(bash_env))
}

/// Claude Code's PowerShell flags: no profile, no prompt, and the execution policy bypassed
/// unless `CLAUDE_CODE_POWERSHELL_RESPECT_EXECUTION_POLICY=1` (PowerShell ignores the policy
/// everywhere but on Windows).
fn powershell_args(command: &str, env: &Env) -> Vec<OsString> {
    let mut args = vec!["-NoProfile", "-NonInteractive"];
    if env.get("CLAUDE_CODE_POWERSHELL_RESPECT_EXECUTION_POLICY") != Some("1") {
        args.extend(["-ExecutionPolicy", "Bypass"]);
    }
    args.extend(["-Command", command]);
    args.into_iter().map(OsString::from).collect()
}

/// A plugin's commands also get `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`; the data folder
/// is made when missing, as Claude Code makes it.
fn with_plugin(env: &Env, plugin: &Plugin) -> Env {
    let _ = std::fs::create_dir_all(&plugin.data);
    let mut env = env.clone();
    env.set("CLAUDE_PLUGIN_ROOT", plugin.root.as_os_str());
    env.set("CLAUDE_PLUGIN_DATA", plugin.data.as_os_str());
    env
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::sources::Sources;
    use crate::engine::select::builtin::BuiltinCall;
    use crate::engine::select::plan::{plan, PlanOptions};
    use hookmux_sdk::{register_handler, Answer, Context, Handler, HandlerInfo, HookEvent};

    /// A built-in that takes longer than its timeout.
    struct Sleeper;
    static SLEEPER: HandlerInfo = HandlerInfo {
        name: "test-sleeper",
        description: "sleeps 3 s, then denies",
        events: &[HookEvent::PreToolUse],
        matcher: None,
        options: &[],
    };
    impl Handler for Sleeper {
        fn info(&self) -> &'static HandlerInfo {
            &SLEEPER
        }
        fn handle(&self, _cx: &Context) -> anyhow::Result<Answer> {
            std::thread::sleep(Duration::from_secs(3));
            Ok(Answer::deny("too late"))
        }
    }
    register_handler!(Sleeper);

    /// One settings file's `settings` as the only source.
    fn sources_of(settings: &str) -> Sources {
        let file = crate::engine::config::settings::SettingsFile::parse(
            std::path::Path::new("s.json"),
            crate::engine::config::settings::Scope::Flag,
            settings,
        );
        Sources::from_files(vec![file])
    }

    #[test]
    fn a_built_in_that_overruns_gives_no_decision() {
        let event = Arc::new(Event::parse(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash"}"#));
        let cx = RunContext::new(event, &Env::empty(), "/".into(), "/".into(), HttpPolicy::default(), "", false);
        let sources = sources_of(
            r#"{"hooks": {"PreToolUse": [{"hooks": [
                {"type": "command", "command": "hookmux run test-sleeper", "timeout": 0.1},
                {"type": "command", "command": "hookmux run protect-paths"}
            ]}]}}"#,
        );
        let plan = plan(&cx.event, &sources, &PlanOptions::default());
        assert_eq!(plan.handlers[0].runner, Runner::Builtin(BuiltinCall { name: "test-sleeper".into(), args: vec![] }));
        let (results, _) = run_plan(&plan, &Arc::new(cx));
        // Had the collector waited for the sleeper, its deny would be here.
        assert!(matches!(&results[0], Ran::Finished(output) if output.timed_out && output.stdout.is_empty()));
        assert!(matches!(&results[1], Ran::Finished(output) if output.exit_code == Some(0)));
    }

    #[test]
    fn a_missing_shell_is_an_error_that_says_what_to_install_and_runs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let nothing = dir.path().to_str().unwrap();
        // Nothing on PATH, and (for Windows) no Windows PowerShell under the system folder.
        let env: Env = [("PATH", nothing), ("SystemRoot", nothing)].into_iter().collect();
        let event = Arc::new(Event::parse(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash"}"#));
        let cx = RunContext::new(event, &env, dir.path().into(), dir.path().into(), HttpPolicy::default(), "", false);
        let sources = sources_of(
            r#"{"hooks": {"PreToolUse": [{"hooks": [
                {"type": "command", "command": "echo ran > ran.txt", "shell": "powershell"}
            ]}]}}"#,
        );
        let plan = plan(&cx.event, &sources, &PlanOptions::default());
        let (results, _) = run_plan(&plan, &Arc::new(cx));
        let Ran::Finished(output) = &results[0] else { panic!("{:?}", results[0]) };
        assert_eq!(output.exit_code, Some(1));
        let said = output.stderr_text();
        assert!(said.contains("PowerShell was not found") && said.contains("install PowerShell 7"), "{said}");
        assert!(!dir.path().join("ran.txt").exists(), "no other shell ran the command");
    }

    #[test]
    fn powershell_gets_claude_codes_flags_and_the_policy_is_kept_when_asked() {
        let flags = |env: &Env| {
            powershell_args("Get-Date", env).iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>()
        };
        assert_eq!(
            flags(&Env::empty()),
            ["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", "Get-Date"]
        );
        let respect: Env = [("CLAUDE_CODE_POWERSHELL_RESPECT_EXECUTION_POLICY", "1")].into_iter().collect();
        assert_eq!(flags(&respect), ["-NoProfile", "-NonInteractive", "-Command", "Get-Date"]);
    }

    #[test]
    fn on_windows_git_bash_gets_a_script_through_bash_and_the_host_paths_spelled_its_way() {
        let env: Env = [
            ("CLAUDE_PROJECT_DIR", r"C:\Users\me\project"),
            ("CLAUDE_PLUGIN_ROOT", r"C:\Users\me\.claude\plugins\p"),
            ("USERPROFILE", r"C:\Users\me"),
        ]
        .into_iter()
        .collect();
        let (script, bash_env) = posix_form("./hooks/check.sh", &env, Conventions::Windows);
        assert_eq!(script, "bash ./hooks/check.sh");
        let bash_env = bash_env.expect("the paths are respelled");
        assert_eq!(bash_env.get("CLAUDE_PROJECT_DIR"), Some("/c/Users/me/project"));
        assert_eq!(bash_env.get("CLAUDE_PLUGIN_ROOT"), Some("/c/Users/me/.claude/plugins/p"));
        assert_eq!(bash_env.get("USERPROFILE"), Some(r"C:\Users\me"), "only the paths the host hands the hook");

        // The prefix wraps the rewritten command, as Claude Code applies it last.
        let mut prefixed = env.clone();
        prefixed.set("CLAUDE_CODE_SHELL_PREFIX", "/c/tools/wrap");
        assert_eq!(posix_form("check.sh", &prefixed, Conventions::Windows).0, "/c/tools/wrap 'bash check.sh'");

        // On Unix nothing changes, and the environment is not copied.
        assert_eq!(posix_form("./hooks/check.sh", &env, Conventions::Unix), ("./hooks/check.sh".to_string(), None));
    }

    #[test]
    fn shell_prefix_quoting() {
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
