//! Recognising a built-in handler in settings: a command that is exactly
//! `hookmux run NAME [ARGS]` runs in-process instead of being spawned.

use crate::engine::config::shell_words::{self, plain_words};
use hookmux_sdk::Registry;

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
    if !shell_words::is_hookmux(program) || run != "run" || registry.get(name).is_none() {
        return None;
    }
    Some(BuiltinCall { name: name.clone(), args: args.to_vec() })
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
