//! hookmux's own entry in a settings file: `hookmux dispatch --installed` (what `hookmux install
//! claude` writes), or the older `hookmux dispatch --settings FILE…`. A dispatch that meets one
//! reads the hooks it names in its place ([`super::sources`]), instead of starting itself: a
//! second dispatch for the same event would find the first one's marker and answer nothing.

use super::shell_words::{self, Words};
use std::path::{Path, PathBuf};

/// The flag of the installed entry.
pub const INSTALLED_FLAG: &str = "--installed";

/// What a dispatch entry names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DispatchEntry {
    /// `hookmux dispatch --installed`: the hooks file beside the settings file that holds it.
    Installed,
    /// `hookmux dispatch --settings FILE…`: those files, in order.
    Settings(Vec<PathBuf>),
}

/// Recognises a command that is exactly a Claude Code dispatch of hookmux: the first word
/// `hookmux` or a path ending in `/hookmux`, then `dispatch`, then only `--installed`, or one or
/// more `--settings FILE`, and at most `--host claude`. `$CLAUDE_PROJECT_DIR` in a file name is
/// the project root, as the host sets it for its hooks; a relative name is relative to the root.
/// Anything else (a wrapper, another host, another flag) is a command like any other.
pub fn recognise(command: &str, exec_args: Option<&[String]>, project_root: Option<&Path>) -> Option<DispatchEntry> {
    let expand = |name: &str| {
        (name == "CLAUDE_PROJECT_DIR").then(|| project_root.map(|root| root.to_string_lossy().into_owned())).flatten()
    };
    let all: Vec<String> = match exec_args {
        Some(args) => std::iter::once(command.to_string()).chain(args.iter().cloned()).collect(),
        None => {
            // Most commands are not hookmux's: their first word says so, and the rest is not read.
            let mut words = Words::new(command);
            let program = words.next_word(expand)??;
            if !shell_words::is_hookmux(&program) {
                return None;
            }
            let mut all = vec![program];
            while let Some(word) = words.next_word(expand) {
                all.push(word?);
            }
            all
        }
    };
    let [program, dispatch, args @ ..] = all.as_slice() else { return None };
    if !shell_words::is_hookmux(program) || dispatch != "dispatch" {
        return None;
    }
    let (mut installed, mut files) = (false, Vec::new());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        match flag {
            INSTALLED_FLAG if inline.is_none() => installed = true,
            // Whether plugins' hooks run is the outer dispatch's choice.
            "--plugins" if inline.is_none() => {}
            "--settings" => {
                let file = inline.or_else(|| args.next().cloned())?;
                files.push(resolve(&file, project_root)?);
            }
            "--host" => {
                if inline.or_else(|| args.next().cloned())? != "claude" {
                    return None;
                }
            }
            _ => return None,
        }
    }
    match (installed, files.is_empty()) {
        (true, true) => Some(DispatchEntry::Installed),
        (false, false) => Some(DispatchEntry::Settings(files)),
        _ => None,
    }
}

fn resolve(file: &str, project_root: Option<&Path>) -> Option<PathBuf> {
    let path = PathBuf::from(file);
    if path.is_absolute() {
        return Some(path);
    }
    project_root.map(|root| root.join(path))
}

/// The hooks file an installed entry in `settings` stands for: `hookmux-hooks.local.json` beside
/// a `settings.local.json`, `hookmux-hooks.json` beside any other settings file.
pub fn installed_hooks_file(settings: &Path) -> PathBuf {
    let local = settings.file_name().is_some_and(|name| name == "settings.local.json");
    let name = if local { "hookmux-hooks.local.json" } else { "hookmux-hooks.json" };
    settings.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> Option<&'static Path> {
        Some(Path::new("/p"))
    }

    #[test]
    fn recognises_both_forms() {
        assert_eq!(recognise("hookmux dispatch --installed", None, root()), Some(DispatchEntry::Installed));
        assert_eq!(
            recognise(
                "/usr/bin/hookmux dispatch --settings \"$CLAUDE_PROJECT_DIR/.claude/hookmux-hooks.json\"",
                None,
                root()
            ),
            Some(DispatchEntry::Settings(vec!["/p/.claude/hookmux-hooks.json".into()]))
        );
        assert_eq!(
            recognise("hookmux dispatch --host claude --settings=a.json --settings '/h/b c.json'", None, root()),
            Some(DispatchEntry::Settings(vec!["/p/a.json".into(), "/h/b c.json".into()]))
        );
        assert_eq!(recognise("hookmux dispatch --installed --plugins", None, root()), Some(DispatchEntry::Installed));
        let exec = ["dispatch".to_string(), "--installed".to_string()];
        assert_eq!(recognise("/opt/hookmux", Some(&exec), root()), Some(DispatchEntry::Installed));
    }

    #[test]
    fn leaves_anything_else_to_the_shell() {
        for command in [
            "hookmux dispatch",
            "hookmux dispatch --installed --settings a.json",
            "hookmux dispatch --host codex --installed",
            "hookmux dispatch --settings",
            "hookmux dispatch --installed; rm -rf x",
            "hookmux dispatch --settings \"$HOME/a.json\"",
            "bash -c 'hookmux dispatch --installed'",
            "hookmux run protect-paths",
            "nothookmux dispatch --installed",
        ] {
            assert_eq!(recognise(command, None, root()), None, "{command}");
        }
        assert_eq!(recognise("hookmux dispatch --settings rel.json", None, None), None);
    }

    #[test]
    fn the_installed_hooks_file_sits_beside_its_settings() {
        assert_eq!(
            installed_hooks_file(Path::new("/p/.claude/settings.json")),
            Path::new("/p/.claude/hookmux-hooks.json")
        );
        assert_eq!(
            installed_hooks_file(Path::new("/p/.claude/settings.local.json")),
            Path::new("/p/.claude/hookmux-hooks.local.json")
        );
    }
}
