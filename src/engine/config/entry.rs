//! hookmux's own entry in a settings file: `hookmux dispatch --installed` (what `hookmux install
//! claude` writes), or the older `hookmux dispatch --settings FILE…`. A dispatch that meets one
//! reads the hooks it names in its place ([`super::sources`]), instead of starting itself: a
//! second dispatch for the same event would find the first one's marker and answer nothing.

use super::placeholders::Placeholders;
use super::shell_words::{self, Words};
use hookmux_sdk::Env;
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

/// A dispatch entry read: the program it starts and what it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub program: String,
    pub names: DispatchEntry,
}

/// What an entry's words stand for where its hook runs, as the host's shell (or, in the exec
/// form, the host) reads them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Places<'a> {
    /// `$CLAUDE_PROJECT_DIR`, as the host sets it for its hooks.
    pub project_root: Option<&'a Path>,
    /// Where the hook runs: a relative file name is relative to it (else to the project root).
    pub cwd: Option<&'a Path>,
    /// The hook's environment, for `~`, `$HOME` and any other variable a name holds (one that is
    /// not set is empty, as in the shell). Without it only `$CLAUDE_PROJECT_DIR` is known.
    pub env: Option<&'a Env>,
}

impl<'a> Places<'a> {
    /// Only the project root known.
    pub fn project(project_root: Option<&'a Path>) -> Places<'a> {
        Places { project_root, ..Places::default() }
    }

    /// `$NAME`'s value, when it is known here.
    fn variable(&self, name: &str) -> Option<String> {
        if name == super::placeholders::PROJECT_DIR {
            if let Some(root) = self.project_root {
                return Some(root.to_string_lossy().into_owned());
            }
        }
        let env = self.env?;
        match env.get_os(name) {
            None => Some(String::new()),
            Some(value) => value.to_str().map(str::to_string),
        }
    }

    /// A file name as the hook's process would open it, spelled with the OS's own separators
    /// (`$CLAUDE_PROJECT_DIR/.claude/x.json` is `C:\work\p\.claude\x.json` on Windows).
    fn resolve(&self, file: &str) -> Option<PathBuf> {
        let path = PathBuf::from(file);
        let path = if path.is_absolute() { path } else { self.cwd.or(self.project_root)?.join(path) };
        Some(path.components().collect())
    }
}

/// Recognises a command that is exactly a Claude Code dispatch of hookmux (see [`read`]).
pub fn recognise(command: &str, exec_args: Option<&[String]>, places: &Places<'_>) -> Option<DispatchEntry> {
    read(command, exec_args, places).map(|entry| entry.names)
}

/// Whether a shell command's words could start with hookmux: it names hookmux, or the shell
/// would change its text (quotes removed, a variable or `~` put in) before the word is known.
fn could_name_hookmux(command: &str) -> bool {
    const NAME: &[u8] = b"hookmux";
    command.contains(['$', '~', '\'', '"', '\\'])
        || command.as_bytes().windows(NAME.len()).any(|window| window.eq_ignore_ascii_case(NAME))
}

/// Reads a command that is exactly a Claude Code dispatch of hookmux: the first word `hookmux`
/// or a path ending in `/hookmux`, then `dispatch`, then only `--installed`, or one or more
/// `--settings FILE`, and at most `--host claude`. The words are read as the host would run
/// them: in the shell form, quotes removed, `~` and `$NAME` or `${NAME}` put in (see
/// [`Places`]); in the exec form, the host's own placeholders (`${CLAUDE_PROJECT_DIR}`). A
/// relative file name is relative to where the hook runs. Anything else (a wrapper, another
/// host, another flag, an expansion that is not a variable) is a command like any other.
pub fn read(command: &str, exec_args: Option<&[String]>, places: &Places<'_>) -> Option<Entry> {
    let all: Vec<String> = match exec_args {
        Some(args) => {
            let placeholders = Placeholders::new(places.project_root.unwrap_or(Path::new("")), None);
            std::iter::once(command)
                .chain(args.iter().map(String::as_str))
                .map(|w| placeholders.substitute(w))
                .collect()
        }
        None => {
            // Most commands are not hookmux's: their first word says so, and the rest is not read.
            // Nor is the first word when the command could not spell hookmux at all: without its
            // name in it (in any case, for Windows), and without a quote, `$` or `~` to make it.
            if !could_name_hookmux(command) {
                return None;
            }
            let expand = |name: &str| places.variable(name);
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
                files.push(places.resolve(&file)?);
            }
            "--host" => {
                if inline.or_else(|| args.next().cloned())? != "claude" {
                    return None;
                }
            }
            _ => return None,
        }
    }
    let names = match (installed, files.is_empty()) {
        (true, true) => DispatchEntry::Installed,
        (false, false) => DispatchEntry::Settings(files),
        _ => return None,
    };
    Some(Entry { program: program.clone(), names })
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

    fn root() -> &'static Places<'static> {
        static PLACES: std::sync::OnceLock<Places<'static>> = std::sync::OnceLock::new();
        PLACES.get_or_init(|| Places::project(Some(Path::new("/p"))))
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
        assert_eq!(recognise("hookmux dispatch --settings rel.json", None, &Places::default()), None);
    }

    /// Every form the shell reads as a path: `~/…`, `$HOME/…`, `${HOME}/…`, any variable of the
    /// hook's environment, a name relative to where the hook runs; and the exec form's own
    /// placeholder. `~` inside a word or quoted, and `~user`, are not the home folder.
    #[test]
    fn every_form_of_a_file_name_is_read_as_the_hook_would() {
        let env: Env = [("HOME", "/h"), ("HOOKS", "/srv/hooks")].into_iter().collect();
        let places = Places { project_root: Some(Path::new("/p")), cwd: Some(Path::new("/p/sub")), env: Some(&env) };
        for (command, file) in [
            ("hookmux dispatch --settings ~/.claude/x.json", "/h/.claude/x.json"),
            ("hookmux dispatch --settings ~", "/h"),
            ("hookmux dispatch --settings $HOME/x.json", "/h/x.json"),
            ("hookmux dispatch --settings \"${HOME}/a b.json\"", "/h/a b.json"),
            ("hookmux dispatch --settings \"$HOOKS/x.json\"", "/srv/hooks/x.json"),
            ("hookmux dispatch --settings \"$UNSET/x.json\"", "/x.json"),
            ("hookmux dispatch --settings .claude/x.json", "/p/sub/.claude/x.json"),
            ("hookmux dispatch --settings \"$CLAUDE_PROJECT_DIR/.claude/x.json\"", "/p/.claude/x.json"),
            ("hookmux dispatch --settings '~/x.json'", "/p/sub/~/x.json"),
            ("hookmux dispatch --settings=~/x.json", "/p/sub/~/x.json"),
            ("~/bin/hookmux dispatch --settings a~/x.json", "/p/sub/a~/x.json"),
        ] {
            let entry = read(command, None, &places).unwrap_or_else(|| panic!("{command}"));
            assert_eq!(entry.names, DispatchEntry::Settings(vec![PathBuf::from(file)]), "{command}");
        }
        assert_eq!(
            read("\"$HOME/bin/hookmux\" dispatch --installed", None, &places).unwrap().program,
            "/h/bin/hookmux"
        );
        let exec = ["dispatch".to_string(), "--settings".to_string(), "${CLAUDE_PROJECT_DIR}/x.json".to_string()];
        assert_eq!(
            recognise("hookmux", Some(&exec), &places),
            Some(DispatchEntry::Settings(vec![PathBuf::from("/p/x.json")]))
        );
        let exec = ["dispatch".to_string(), "--settings".to_string(), "${HOME}/x.json".to_string()];
        assert_eq!(
            recognise("hookmux", Some(&exec), &places),
            Some(DispatchEntry::Settings(vec![PathBuf::from("/p/sub/${HOME}/x.json")])),
            "the exec form puts in only the host's own placeholders"
        );
        for command in ["hookmux dispatch --settings ~root/x.json", "hookmux dispatch --settings $(pwd)/x.json"] {
            assert_eq!(read(command, None, &places), None, "{command}");
        }
    }

    /// The shortcut for commands that cannot name hookmux keeps every spelling the shell makes
    /// hookmux of: through quotes, a variable or `~`, and in any case on Windows.
    #[test]
    fn hookmux_spelled_through_the_shell_is_still_recognised() {
        let env: Env = [("HOME", "/h/hookmux"), ("BIN", "/opt/hookmux")].into_iter().collect();
        let places = Places { project_root: Some(Path::new("/p")), cwd: Some(Path::new("/p")), env: Some(&env) };
        for command in [
            "hook'mux' dispatch --installed",
            "\"hook\"mux dispatch --installed",
            "$BIN dispatch --installed",
            "${BIN} dispatch --installed",
            "~ dispatch --installed",
        ] {
            assert!(could_name_hookmux(command), "{command}");
            assert_eq!(recognise(command, None, &places), Some(DispatchEntry::Installed), "{command}");
        }
        for command in ["./hooks/check.sh", "node hook.js --flag", "/usr/bin/python3 -m x"] {
            assert!(!could_name_hookmux(command), "{command}");
        }
        assert!(could_name_hookmux("C:/Tools/HOOKMUX.EXE dispatch --installed"));
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
