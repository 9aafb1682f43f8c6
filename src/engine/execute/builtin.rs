//! Calling a built-in handler in-process with the same answer a spawned `hookmux run` gives.

use crate::engine::execute::RawOutput;
use crate::protocol::encode_answer;
use hookmux_sdk::{Answer, Args, Context, Env, Event, Handler, HookEvent, ProjectTrust, TrustDecider};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a built-in needs besides the event: the world it runs in.
#[derive(Clone)]
pub struct Invocation {
    pub event: Arc<Event>,
    pub env: Arc<Env>,
    pub cwd: PathBuf,
    pub project_root: PathBuf,
    pub dry: bool,
    /// How the project's trust is decided when the handler asks (see [`ProjectTrust`]).
    pub project_trust: TrustDecider,
}

impl Invocation {
    /// For a hook process: cwd is where the host started us; the root is `$CLAUDE_PROJECT_DIR`,
    /// else the event's `cwd`, else the cwd. The project is untrusted unless the caller says how
    /// its trust is decided.
    pub fn for_process(event: Event, env: Env, cwd: PathBuf, dry: bool) -> Invocation {
        let project_root = crate::engine::config::sources::project_root(&env, &event).unwrap_or_else(|| cwd.clone());
        Invocation {
            event: Arc::new(event),
            env: Arc::new(env),
            cwd,
            project_root,
            dry,
            project_trust: decided(ProjectTrust::Untrusted),
        }
    }
}

/// A trust decision already made (by dispatch), for [`Invocation::project_trust`].
pub fn decided(trust: ProjectTrust) -> TrustDecider {
    Arc::new(move || trust)
}

/// Runs a handler on an invocation and encodes its answer exactly as `hookmux run` prints it:
/// stdout, stderr and exit code. A handler error or panic is a non-blocking failure (exit 1).
pub fn call(handler: &'static dyn Handler, raw_args: &[String], invocation: &Invocation) -> RawOutput {
    let info = handler.info();
    let args = match Args::parse(info, raw_args) {
        Ok(args) => args,
        Err(err) => return RawOutput::failure(format!("hookmux: {err}\n")),
    };
    let cx = Context::new(
        invocation.event.clone(),
        args,
        invocation.cwd.clone(),
        invocation.project_root.clone(),
        invocation.env.clone(),
    )
    .with_dry(invocation.dry)
    .with_project_trust(invocation.project_trust.clone());
    let result = catch_unwind(AssertUnwindSafe(|| handler.handle(&cx)));
    let mut stderr = cx.diagnostics().to_stderr_text();
    let failure = match result {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(err)) => Err(format!("handler `{}` failed: {err:#}", info.name)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Err(format!("handler `{}` crashed: {what}; no decision", info.name))
        }
    };
    let answer: Answer = match failure {
        Ok(answer) => answer,
        Err(message) => {
            stderr.push_str(&format!("hookmux: {message}\n"));
            return RawOutput { stderr: stderr.into_bytes(), exit_code: Some(1), ..RawOutput::default() };
        }
    };
    let event = invocation.event.kind().or_else(|| info.events.first().copied()).unwrap_or(HookEvent::PreToolUse);
    let encoded = encode_answer(&answer, event);
    stderr.push_str(&encoded.stderr);
    RawOutput {
        stdout: encoded.stdout.into_bytes(),
        stderr: stderr.into_bytes(),
        exit_code: Some(encoded.exit_code),
        ..RawOutput::default()
    }
}

/// The cwd a spawned hook would get: the event's `cwd` if that folder exists, else the project
/// root, else `fallback` (dispatch's own cwd).
pub fn hook_cwd(event: &Event, project_root: Option<&Path>, fallback: &Path) -> PathBuf {
    event
        .cwd()
        .filter(|cwd| cwd.is_dir())
        .or_else(|| project_root.filter(|root| root.is_dir()).map(Path::to_path_buf))
        .unwrap_or_else(|| fallback.to_path_buf())
}
