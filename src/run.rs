//! Running a plan: every handler at once, each with its own timeout. Commands are processes
//! (shell form through `sh -c`, exec form when `args` is given), built-ins are called
//! in-process on a thread, http handlers are POSTed the event; `async` commands are started and
//! not waited for.

use crate::builtin::{self, BuiltinCall, Invocation};
use crate::http::{self, HttpCall, HttpPolicy};
use crate::outcome::RawOutput;
use crate::plan::{Plan, Planned, Runner};
use crate::process::{self, ProcessSpec};
use crate::settings::HookKind;
use hookmux_sdk::{Env, Event, Registry};
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Set in every child's environment; a `hookmux dispatch` that finds it holding the session id of
/// the event it is given was started by a hook of a dispatch for that same session, and answers
/// nothing.
pub const DISPATCH_MARKER: &str = "HOOKMUX_DISPATCH_SESSION";

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
}

impl RunContext {
    pub fn new(event: Arc<Event>, host_env: &Env, project_root: PathBuf, cwd: PathBuf, http: HttpPolicy) -> RunContext {
        let mut env = host_env.clone();
        env.set("CLAUDE_PROJECT_DIR", project_root.as_os_str());
        let session = event.session_id().unwrap_or_default().to_string();
        if !session.is_empty() {
            env.set("CLAUDE_CODE_SESSION_ID", &session);
        }
        env.set(DISPATCH_MARKER, if session.is_empty() { "-" } else { &session });
        let mut stdin = event.to_compact_json().into_bytes();
        stdin.push(b'\n');
        RunContext { event, stdin: stdin.into(), env: Arc::new(env), cwd, project_root, http, dry: false }
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

/// Runs every handler of the plan in parallel; results come back in plan order. Background
/// writers for detached handlers are returned so the caller can let them finish.
pub fn run_plan(plan: &Plan<'_>, cx: &RunContext) -> (Vec<Ran>, Vec<JoinHandle<()>>) {
    let mut detached = Vec::new();
    let results = std::thread::scope(|scope| {
        let handles: Vec<_> = plan
            .handlers
            .iter()
            .map(|planned| match &planned.runner {
                Runner::Detached => match start_detached(planned, cx) {
                    Ok(writer) => {
                        detached.push(writer);
                        Ok(Ran::Detached)
                    }
                    Err(why) => Ok(Ran::Finished(RawOutput::failure(why))),
                },
                Runner::NotRunnable(kind) => Ok(Ran::Skipped(format!(
                    "a `{kind}` handler needs the host's model or MCP client; hookmux dispatch does not run it \
                     (keep it in the host's own settings)"
                ))),
                _ => Err(scope.spawn(move || run_one(planned, cx))),
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| match handle {
                Ok(ran) => ran,
                Err(handle) => handle
                    .join()
                    .unwrap_or_else(|_| Ran::Finished(RawOutput::failure("hookmux: the handler's runner crashed"))),
            })
            .collect()
    });
    (results, detached)
}

fn run_one(planned: &Planned<'_>, cx: &RunContext) -> Ran {
    match (&planned.runner, &planned.origin.spec.kind) {
        (Runner::Builtin(call), _) => Ran::Finished(run_builtin(call, planned.timeout, cx)),
        (Runner::Http, HookKind::Http { url, headers, allowed_env_vars }) => {
            if let Some(refusal) = cx.http.refusal(url) {
                return Ran::Skipped(refusal);
            }
            let call = HttpCall { url, headers, allowed_env_vars, body: &cx.stdin, timeout: planned.timeout };
            Ran::Finished(http::post(&call, &cx.http, &cx.env))
        }
        (_, HookKind::Command { .. }) => match process_spec(planned, cx) {
            Ok(spec) => Ran::Finished(process::run(&spec)),
            Err(why) => Ran::Finished(RawOutput::failure(why)),
        },
        _ => Ran::Skipped("nothing to run".to_string()),
    }
}

/// Calls a built-in on its own thread; one that overruns its timeout gives no decision (the
/// thread is left to finish on its own; the process exits after answering anyway).
fn run_builtin(call: &BuiltinCall, timeout: Duration, cx: &RunContext) -> RawOutput {
    let started = Instant::now();
    let Some(handler) = Registry::global().ok().and_then(|r| r.get(&call.name)) else {
        return RawOutput::failure(format!("hookmux: no handler named `{}`", call.name));
    };
    let invocation = Invocation {
        event: cx.event.clone(),
        env: cx.env.clone(),
        cwd: cx.cwd.clone(),
        project_root: cx.project_root.clone(),
        dry: cx.dry,
    };
    let args = call.args.clone();
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new().name(format!("handler {}", call.name)).spawn(move || {
        let _ = tx.send(builtin::call(handler, &args, &invocation));
    });
    if let Err(err) = spawned {
        return RawOutput::failure(format!("hookmux: cannot start a thread for `{}`: {err}", call.name));
    }
    let mut output = match rx.recv_timeout(timeout) {
        Ok(output) => output,
        Err(_) => RawOutput { timed_out: true, ..RawOutput::default() },
    };
    output.wall = started.elapsed();
    output
}

fn start_detached(planned: &Planned<'_>, cx: &RunContext) -> Result<JoinHandle<()>, String> {
    let spec = process_spec(planned, cx)?;
    process::start_detached(&spec)
}

/// The process for a command handler: `sh -c` for the shell form (wrapped by
/// `CLAUDE_CODE_SHELL_PREFIX` when set), `pwsh` for `shell: "powershell"`, the program itself
/// for the exec form, with `${VAR}` placeholders substituted in the exec form's words.
fn process_spec(planned: &Planned<'_>, cx: &RunContext) -> Result<ProcessSpec, String> {
    let HookKind::Command { command, args, shell, .. } = &planned.origin.spec.kind else {
        return Err("not a command handler".to_string());
    };
    let (program, argv): (OsString, Vec<OsString>) = match args {
        Some(args) => {
            (substitute(command, &cx.env).into(), args.iter().map(|arg| substitute(arg, &cx.env).into()).collect())
        }
        None if shell.as_deref() == Some("powershell") => (
            "pwsh".into(),
            ["-NoProfile", "-NonInteractive", "-Command", command.as_str()].map(OsString::from).to_vec(),
        ),
        None => {
            let script = match cx.env.get("CLAUDE_CODE_SHELL_PREFIX").filter(|p| !p.is_empty()) {
                Some(prefix) => format!("{prefix} {}", shell_quote(command)),
                None => command.clone(),
            };
            ("/bin/sh".into(), vec!["-c".into(), script.into()])
        }
    };
    Ok(ProcessSpec {
        program,
        args: argv,
        env: cx.env.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect(),
        cwd: cx.cwd.clone(),
        stdin: cx.stdin.clone(),
        timeout: planned.timeout,
    })
}

/// `${NAME}` → the variable's value (empty when unset); everything else is literal.
fn substitute(text: &str, env: &Env) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find('}') {
            Some(end) => {
                out.push_str(env.get(&after[..end]).unwrap_or_default());
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn a_built_in_that_overruns_gives_no_decision() {
        let event = Arc::new(Event::parse(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash"}"#));
        let cx = RunContext::new(event, &Env::empty(), "/".into(), "/".into(), HttpPolicy::default());
        let call = BuiltinCall { name: "test-sleeper".into(), args: vec![] };
        let output = run_builtin(&call, Duration::from_millis(100), &cx);
        assert!(output.timed_out);
        assert!(output.stdout.is_empty());
    }

    #[test]
    fn exec_form_placeholders() {
        let env: Env = [("CLAUDE_PROJECT_DIR", "/p q"), ("X", "1")].into_iter().collect();
        assert_eq!(substitute("${CLAUDE_PROJECT_DIR}/hooks/a.sh", &env), "/p q/hooks/a.sh");
        assert_eq!(substitute("$X ${X}${MISSING} ${open", &env), "$X 1 ${open");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
