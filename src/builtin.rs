//! Built-in handlers as hook commands: recognising `hookmux run NAME [ARGS]` in settings, and
//! calling a registered handler in-process with the same answer a spawned `hookmux run` gives.

use crate::host::claude;
use crate::outcome::RawOutput;
use hookmux_sdk::{Answer, Args, Context, Env, Event, Handler, HookEvent, Registry};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A settings command that names a registered handler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinCall {
    pub name: String,
    pub args: Vec<String>,
}

/// Recognises a command that is exactly `hookmux run NAME [ARGS]`: the first word `hookmux` or a
/// path ending in `/hookmux`, and arguments without shell syntax (plain words, or quoted strings
/// with nothing to expand). Exec form (`command` + `args`) is recognised the same way. Anything
/// else, or a NAME that is not registered here, is left to be spawned.
pub fn recognise(command: &str, exec_args: Option<&[String]>, registry: &Registry) -> Option<BuiltinCall> {
    let words: Vec<String> = match exec_args {
        Some(args) => std::iter::once(command.to_string()).chain(args.iter().cloned()).collect(),
        None => plain_words(command)?,
    };
    let [program, run, name, args @ ..] = words.as_slice() else { return None };
    let is_hookmux = program == "hookmux" || program.ends_with("/hookmux");
    if !is_hookmux || run != "run" || registry.get(name).is_none() {
        return None;
    }
    Some(BuiltinCall { name: name.clone(), args: args.to_vec() })
}

/// Splits a shell command into words when the shell would do no expansion, redirection or
/// control flow with it; `None` otherwise.
pub(crate) fn plain_words(command: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut chars = command.trim().chars().peekable();
    while chars.peek().is_some() {
        let mut word = String::new();
        while let Some(&c) = chars.peek() {
            match c {
                c if c.is_whitespace() => break,
                '\'' => {
                    chars.next();
                    loop {
                        match chars.next()? {
                            '\'' => break,
                            c => word.push(c),
                        }
                    }
                }
                '"' => {
                    chars.next();
                    loop {
                        match chars.next()? {
                            '"' => break,
                            '$' | '`' | '\\' | '!' => return None,
                            c => word.push(c),
                        }
                    }
                }
                c if c.is_ascii_alphanumeric() || "-_./:=,@+%^".contains(c) => {
                    word.push(c);
                    chars.next();
                }
                _ => return None,
            }
        }
        words.push(word);
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
    }
    Some(words)
}

/// What a built-in needs besides the event: the world it runs in.
#[derive(Clone)]
pub struct Invocation {
    pub event: Arc<Event>,
    pub env: Arc<Env>,
    pub cwd: PathBuf,
    pub project_root: PathBuf,
    pub dry: bool,
}

impl Invocation {
    /// For a hook process: cwd is where the host started us; the root is `$CLAUDE_PROJECT_DIR`,
    /// else the event's `cwd`, else the cwd.
    pub fn for_process(event: Event, env: Env, cwd: PathBuf, dry: bool) -> Invocation {
        let project_root = crate::sources::project_root(&env, &event).unwrap_or_else(|| cwd.clone());
        Invocation { event: Arc::new(event), env: Arc::new(env), cwd, project_root, dry }
    }
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
    .with_dry(invocation.dry);
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
    let encoded = claude::encode_answer(&answer, event);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> &'static Registry {
        Registry::global().expect("no duplicate handlers")
    }

    #[test]
    fn recognises_exactly_hookmux_run_name() {
        let r = registry();
        let call = recognise("hookmux run protect-paths --deny '**/*.secret' --include-read", None, r).unwrap();
        assert_eq!(call.name, "protect-paths");
        assert_eq!(call.args, ["--deny", "**/*.secret", "--include-read"]);
        assert!(recognise("/usr/local/bin/hookmux run protect-paths", None, r).is_some());
        assert!(recognise("hookmux run protect-paths --deny \"a b\"", None, r).is_some());
        let exec =
            recognise("/opt/hookmux", Some(&["run".into(), "protect-paths".into(), "--deny".into(), "*".into()]), r);
        assert_eq!(exec.unwrap().args, ["--deny", "*"]);
    }

    #[test]
    fn leaves_anything_else_to_the_shell() {
        let r = registry();
        for command in [
            "hookmux run protect-paths --deny **/*.pem",
            "hookmux run protect-paths; echo hi",
            "hookmux run protect-paths > /tmp/x",
            "hookmux run protect-paths --deny \"$HOME/x\"",
            "hookmux run protect-paths --deny $X",
            "hookmux run no-such-handler",
            "hookmux dispatch",
            "myhookmux run protect-paths",
            "hookmux run 'protect-paths",
            "FOO=1 hookmux run protect-paths",
        ] {
            assert_eq!(recognise(command, None, r), None, "{command}");
        }
    }
}
