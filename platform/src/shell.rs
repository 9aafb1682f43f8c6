//! The shells a `command` hook runs through, found where the hosts find them.
//!
//! | | Unix | Windows |
//! |---|---|---|
//! | [`posix`]: a `command` hook (`"shell": "bash"`, the default) | `/bin/sh` | Git Bash, found as Claude Code finds it (below) |
//! | [`for_commands`]: what such a hook runs through | [`posix`] | [`posix`], else [`powershell`] when nothing names Git Bash, as Claude Code falls back |
//! | [`powershell`]: `"shell": "powershell"` | `pwsh` on `PATH` | `pwsh` on `PATH`, else Windows PowerShell (`%SystemRoot%\System32\WindowsPowerShell\v1.0\powershell.exe`) |
//!
//! Git Bash on Windows: the file [`GIT_BASH_VARIABLE`] names, when it is set (a name that is not
//! a file is an error, as in Claude Code, not a reason to look elsewhere); else the
//! `bin\bash.exe` two folders above the first `git` on `PATH` (`<Git>\cmd\git.exe` →
//! `<Git>\bin\bash.exe`), as Claude Code derives it; else Git for Windows' own install folders
//! (`%ProgramFiles%\Git`, `%ProgramFiles(x86)%\Git`, `%LOCALAPPDATA%\Programs\Git`). Never a
//! `bash.exe` found on `PATH`: `C:\Windows\System32\bash.exe` is WSL's, which would run the hook
//! in Linux.
//!
//! A shell that is not found is a [`Missing`] that says what to install or set: the hook is then
//! not run by a shell the host would not use in its place (a bash script read by PowerShell
//! does something other than what its author wrote). The one fallback is the host's own: on
//! Windows, with no Git Bash and nothing naming one, Claude Code runs such a hook through
//! PowerShell, and so does [`for_commands`].
//!
//! What Claude Code changes in a hook run through Git Bash on Windows, and [`bash_command`] and
//! [`bash_path`] change alike (pure functions of an OS family's [`Conventions`], so both rules
//! run, and are tested, on any OS):
//!
//! - a command that runs a `.sh` file (`.sh` followed by a space, a `"` or the end, anywhere in
//!   the command) gets `bash ` put in front of it, unless it starts with `bash ` already: Windows
//!   does not start a script from its first line's `#!`;
//! - the paths the host hands the hook (`CLAUDE_PROJECT_DIR`, `CLAUDE_PLUGIN_ROOT`,
//!   `CLAUDE_PLUGIN_DATA`: [`HOST_PATH_VARIABLES`]) are spelled as Git Bash spells them:
//!   `C:\Users\me` is `/c/Users/me`, `\\server\share` is `//server/share`.
//!
//! Neither applies to PowerShell (`"shell": "powershell"`, or the fallback without Git Bash),
//! nor to the exec form (`args`), which no shell reads; nor on Unix, where they change nothing.

use crate::dirs::Vars;
use crate::program::Conventions;
#[cfg(unix)]
use crate::unix::shell as imp;
#[cfg(windows)]
use crate::windows::shell as imp;
use std::borrow::Cow;
use std::fmt;
use std::path::PathBuf;

/// The variable that names Git Bash on Windows, as Claude Code reads it.
pub const GIT_BASH_VARIABLE: &str = "CLAUDE_CODE_GIT_BASH_PATH";

/// A shell that is not there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// Which: `Git Bash`, `PowerShell`.
    pub shell: &'static str,
    /// Why it was not found.
    pub why: String,
    /// What to install or set.
    pub fix: String,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} was not found ({}): {}", self.shell, self.why, self.fix)
    }
}

impl std::error::Error for Missing {}

/// The shell a `command` hook that names none (or `"shell": "bash"`) runs through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandShell {
    /// `<shell> -c <command>`.
    Posix(PathBuf),
    /// PowerShell with the command, as for `"shell": "powershell"`.
    PowerShell(PathBuf),
}

/// The shell for a `command` hook that names none: [`posix`]; on Windows without Git Bash,
/// [`powershell`], as Claude Code falls back to it. A [`GIT_BASH_VARIABLE`] that names no file is
/// not a reason to fall back (the user asked for that bash): its [`Missing`] is the answer, as it
/// is when neither shell is there.
pub fn for_commands(vars: &dyn Vars) -> Result<CommandShell, Missing> {
    imp::for_commands(vars)
}

/// The POSIX shell a `command` hook runs through (`<shell> -c <command>`).
pub fn posix(vars: &dyn Vars) -> Result<PathBuf, Missing> {
    imp::posix(vars)
}

/// The PowerShell a `"shell": "powershell"` hook runs through.
pub fn powershell(vars: &dyn Vars) -> Result<PathBuf, Missing> {
    imp::powershell(vars)
}

/// The variables holding paths that the host hands a hook, which [`bash_path`] spells for Git
/// Bash on Windows.
pub const HOST_PATH_VARIABLES: [&str; 3] = ["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

/// `command` as the POSIX shell of `os` is handed it, after Claude Code's rewrite: on Windows, a
/// command that names a `.sh` file (`.sh` followed by whitespace, a `"` or the end of the
/// command, leading and trailing whitespace aside) and does not start with `bash ` becomes
/// `bash <command>`, since Windows runs no script through its `#!` line. The rule is the host's,
/// word for word, so it also applies where `.sh` is not the program (`echo done.sh`): the hook
/// runs as it runs under the host. Unchanged on Unix.
pub fn bash_command(command: &str, os: Conventions) -> Cow<'_, str> {
    let trimmed = command.trim();
    let names_a_script = trimmed
        .match_indices(".sh")
        .any(|(at, _)| trimmed[at + 3..].chars().next().is_none_or(|next| next.is_whitespace() || next == '"'));
    match os {
        Conventions::Windows if names_a_script && !trimmed.starts_with("bash ") => {
            Cow::Owned(format!("bash {command}"))
        }
        _ => Cow::Borrowed(command),
    }
}

/// `path` as the POSIX shell of `os` reads it, as Claude Code hands paths to Git Bash: on
/// Windows a drive path `C:\Users\me` (or `C:/Users/me`) is `/c/Users/me` (the drive in lower
/// case), a UNC path `\\server\share` is `//server/share`, and any other path has its `\`
/// made `/`. Unchanged on Unix.
pub fn bash_path(path: &str, os: Conventions) -> Cow<'_, str> {
    if os == Conventions::Unix {
        return Cow::Borrowed(path);
    }
    let bytes = path.as_bytes();
    let drive =
        bytes.len() >= 3 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' && matches!(bytes[2], b'\\' | b'/');
    match drive {
        true => Cow::Owned(format!("/{}{}", char::from(bytes[0].to_ascii_lowercase()), path[2..].replace('\\', "/"))),
        false if path.contains('\\') => Cow::Owned(path.replace('\\', "/")),
        false => Cow::Borrowed(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::path::Path;

    struct Given(HashMap<&'static str, PathBuf>);

    impl Vars for Given {
        fn path(&self, name: &str) -> Option<PathBuf> {
            self.0.get(name).filter(|value| !value.as_os_str().is_empty()).cloned()
        }
    }

    fn touch(path: &Path) -> PathBuf {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "").unwrap();
        path.to_path_buf()
    }

    #[test]
    fn on_windows_a_script_is_run_by_bash_as_claude_code_runs_it() {
        let windows = |command| bash_command(command, Conventions::Windows).into_owned();
        assert_eq!(windows("./hooks/check.sh"), "bash ./hooks/check.sh");
        assert_eq!(windows("/c/Users/me/check.sh --strict"), "bash /c/Users/me/check.sh --strict");
        assert_eq!(windows(r#""$CLAUDE_PROJECT_DIR/hooks/a b.sh" x"#), r#"bash "$CLAUDE_PROJECT_DIR/hooks/a b.sh" x"#);
        assert_eq!(windows("  check.sh\n"), "bash   check.sh\n", "prepended to the command as written");
        // The host's rule, word for word: any `.sh` that ends a word, wherever it is.
        assert_eq!(windows("echo done.sh"), "bash echo done.sh");
        for unchanged in
            ["bash ./check.sh", "  bash check.sh", "node check.sh.js", "./check.shell", "hookmux run protect-paths"]
        {
            assert_eq!(windows(unchanged), unchanged);
        }
        for command in ["./hooks/check.sh", "echo done.sh"] {
            assert_eq!(bash_command(command, Conventions::Unix), command, "Unix starts a script by its #! line");
        }
    }

    #[test]
    fn on_windows_the_paths_handed_to_bash_are_spelled_as_git_bash_spells_them() {
        let windows = |path| bash_path(path, Conventions::Windows).into_owned();
        assert_eq!(windows(r"C:\Users\me\project"), "/c/Users/me/project");
        assert_eq!(windows("D:/work/plugin"), "/d/work/plugin");
        assert_eq!(windows(r"C:\"), "/c/");
        assert_eq!(windows(r"\\server\share\repo"), "//server/share/repo");
        assert_eq!(windows(r"relative\dir"), "relative/dir");
        assert_eq!(windows("/c/already/posix"), "/c/already/posix");
        // A drive-relative path (`C:dir`) is no drive path to convert.
        assert_eq!(windows("C:dir"), "C:dir");
        for path in [r"C:\Users\me", "/home/me/project"] {
            assert_eq!(bash_path(path, Conventions::Unix), path);
        }
    }

    #[cfg(unix)]
    #[test]
    fn sh_is_the_posix_shell_and_pwsh_is_looked_up() {
        let dir = tempfile::tempdir().unwrap();
        let vars = Given([("PATH", dir.path().to_path_buf())].into_iter().collect());
        assert_eq!(posix(&vars), Ok(PathBuf::from("/bin/sh")));
        let missing = powershell(&vars).unwrap_err();
        assert_eq!(missing.shell, "PowerShell");
        assert!(missing.fix.contains("pwsh"), "{missing}");
        let pwsh = touch(&dir.path().join("pwsh"));
        std::fs::set_permissions(&pwsh, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        assert_eq!(powershell(&vars), Ok(pwsh));
    }

    #[cfg(windows)]
    mod windows {
        use super::*;

        /// A machine with nothing installed: empty install folders and a PATH with nothing on it.
        fn bare(dir: &Path) -> Given {
            let empty = dir.join("empty");
            std::fs::create_dir_all(&empty).unwrap();
            Given(
                [
                    ("PATH", empty.clone()),
                    ("ProgramFiles", dir.join("Program Files")),
                    ("ProgramFiles(x86)", dir.join("Program Files (x86)")),
                    ("LOCALAPPDATA", dir.join("Local")),
                    ("SystemRoot", dir.join("Windows")),
                ]
                .into_iter()
                .collect(),
            )
        }

        #[test]
        fn git_bash_is_the_variable_else_beside_git_on_path_else_where_git_installs() {
            let dir = tempfile::tempdir().unwrap();
            let mut vars = bare(dir.path());
            let missing = posix(&vars).unwrap_err();
            assert_eq!(missing.shell, "Git Bash");
            assert!(
                missing.fix.contains("https://git-scm.com") && missing.fix.contains(GIT_BASH_VARIABLE),
                "{missing}"
            );

            let installed = touch(&dir.path().join(r"Program Files\Git\bin\bash.exe"));
            assert_eq!(posix(&vars), Ok(installed));

            let elsewhere = dir.path().join(r"D\Tools\Git");
            touch(&elsewhere.join(r"cmd\git.exe"));
            let beside = touch(&elsewhere.join(r"bin\bash.exe"));
            // WSL's bash.exe on PATH is never taken.
            let wsl = touch(&dir.path().join(r"Windows\System32\bash.exe"));
            vars.0
                .insert("PATH", std::env::join_paths([wsl.parent().unwrap(), &elsewhere.join("cmd")]).unwrap().into());
            assert_eq!(posix(&vars), Ok(beside));

            let named = touch(&dir.path().join(r"portable\bash.exe"));
            vars.0.insert(GIT_BASH_VARIABLE, named.clone());
            assert_eq!(posix(&vars), Ok(named));
            vars.0.insert(GIT_BASH_VARIABLE, dir.path().join("nowhere.exe"));
            let wrong = posix(&vars).unwrap_err();
            assert!(wrong.why.contains(GIT_BASH_VARIABLE) && wrong.why.contains("nowhere.exe"), "{wrong}");
        }

        #[test]
        fn without_git_bash_a_command_runs_through_powershell_unless_the_variable_names_a_bash() {
            let dir = tempfile::tempdir().unwrap();
            let mut vars = bare(dir.path());
            assert_eq!(for_commands(&vars).unwrap_err().shell, "Git Bash", "neither shell: Git Bash's fix");
            let windows = touch(&dir.path().join(r"Windows\System32\WindowsPowerShell\v1.0\powershell.exe"));
            assert_eq!(for_commands(&vars), Ok(CommandShell::PowerShell(windows)));
            let bash = touch(&dir.path().join(r"Program Files\Git\bin\bash.exe"));
            assert_eq!(for_commands(&vars), Ok(CommandShell::Posix(bash)));
            vars.0.insert(GIT_BASH_VARIABLE, dir.path().join("nowhere.exe"));
            assert_eq!(for_commands(&vars).unwrap_err().shell, "Git Bash");
        }

        #[test]
        fn powershell_is_pwsh_on_path_else_windows_powershell() {
            let dir = tempfile::tempdir().unwrap();
            let mut vars = bare(dir.path());
            assert_eq!(powershell(&vars).unwrap_err().shell, "PowerShell");
            let windows = touch(&dir.path().join(r"Windows\System32\WindowsPowerShell\v1.0\powershell.exe"));
            assert_eq!(powershell(&vars), Ok(windows));
            let pwsh = touch(&dir.path().join(r"PowerShell\7\pwsh.exe"));
            vars.0.insert("PATH", pwsh.parent().unwrap().to_path_buf());
            // Found through PATHEXT, which spells the extension its own way.
            let found = powershell(&vars).unwrap();
            assert!(found.to_string_lossy().eq_ignore_ascii_case(&pwsh.to_string_lossy()), "{}", found.display());
        }
    }
}
