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

use crate::dirs::Vars;
#[cfg(unix)]
use crate::unix::shell as imp;
#[cfg(windows)]
use crate::windows::shell as imp;
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
