//! Shells on Windows: Git Bash as Claude Code finds it, and PowerShell 7 or Windows PowerShell.

use crate::dirs::Vars;
use crate::program;
use crate::shell::{CommandShell, Missing, GIT_BASH_VARIABLE};
use std::path::{Path, PathBuf};

/// Git Bash, else PowerShell: Claude Code's order on Windows.
pub fn for_commands(vars: &dyn Vars) -> Result<CommandShell, Missing> {
    match posix(vars) {
        Ok(bash) => Ok(CommandShell::Posix(bash)),
        Err(missing) if vars.path(GIT_BASH_VARIABLE).is_some() => Err(missing),
        Err(missing) => powershell(vars).map(CommandShell::PowerShell).map_err(|_| missing),
    }
}

pub fn posix(vars: &dyn Vars) -> Result<PathBuf, Missing> {
    let missing = |why: String| Missing {
        shell: "Git Bash",
        why,
        fix: format!(
            "install Git for Windows (https://git-scm.com/downloads/win), or set {GIT_BASH_VARIABLE} to its \
             bin\\bash.exe (for example C:\\Program Files\\Git\\bin\\bash.exe)"
        ),
    };
    if let Some(named) = vars.path(GIT_BASH_VARIABLE) {
        return match named.is_file() {
            true => Ok(named),
            false => Err(missing(format!("{GIT_BASH_VARIABLE} is {}, which is not a file", named.display()))),
        };
    }
    let beside_git = program::find("git", vars)
        .and_then(|git| Some(git.parent()?.parent()?.join(r"bin\bash.exe")))
        .filter(|bash| bash.is_file());
    beside_git
        .or_else(|| install_folders(vars).map(|git| git.join(r"bin\bash.exe")).find(|bash| bash.is_file()))
        .ok_or_else(|| missing("no git on PATH, and none in Git for Windows' install folders".to_string()))
}

/// Where Git for Windows installs itself: for every user, or for one (`Programs` under the
/// user's local application data).
fn install_folders(vars: &dyn Vars) -> impl Iterator<Item = PathBuf> {
    let program_files = vars.path("ProgramFiles").unwrap_or_else(|| PathBuf::from(r"C:\Program Files"));
    let x86 = vars.path("ProgramFiles(x86)");
    let user = crate::dirs::data(vars).map(|local| local.join("Programs"));
    [Some(program_files), x86, user].into_iter().flatten().map(|folder| folder.join("Git"))
}

pub fn powershell(vars: &dyn Vars) -> Result<PathBuf, Missing> {
    let system_root = vars.path("SystemRoot").unwrap_or_else(|| PathBuf::from(r"C:\Windows"));
    let windows_powershell = system_root.join(r"System32\WindowsPowerShell\v1.0\powershell.exe");
    program::find("pwsh", vars).or_else(|| Some(windows_powershell).filter(|path| Path::is_file(path))).ok_or_else(
        || Missing {
            shell: "PowerShell",
            why: "no `pwsh` on PATH, and no Windows PowerShell".to_string(),
            fix: "install PowerShell 7 (https://aka.ms/powershell)".to_string(),
        },
    )
}
