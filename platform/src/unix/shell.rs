//! Shells on Unix: `/bin/sh`, which POSIX puts there, and `pwsh` where it was installed.

use crate::dirs::Vars;
use crate::shell::{CommandShell, Missing};
use std::path::PathBuf;

pub fn for_commands(vars: &dyn Vars) -> Result<CommandShell, Missing> {
    posix(vars).map(CommandShell::Posix)
}

pub fn posix(_vars: &dyn Vars) -> Result<PathBuf, Missing> {
    Ok(PathBuf::from("/bin/sh"))
}

pub fn powershell(vars: &dyn Vars) -> Result<PathBuf, Missing> {
    crate::program::find("pwsh", vars).ok_or_else(|| Missing {
        shell: "PowerShell",
        why: "no `pwsh` on PATH".to_string(),
        fix: "install PowerShell 7 (https://aka.ms/powershell), which puts `pwsh` on PATH".to_string(),
    })
}
