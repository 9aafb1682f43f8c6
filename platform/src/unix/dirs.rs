//! The user's folders on Unix: `HOME` and the XDG Base Directory variables, nothing else.

use crate::dirs::Vars;
use std::path::PathBuf;

pub fn home(vars: &dyn Vars) -> Option<PathBuf> {
    vars.path("HOME")
}

pub fn config(vars: &dyn Vars) -> Option<PathBuf> {
    xdg(vars, "XDG_CONFIG_HOME", ".config")
}

pub fn state(vars: &dyn Vars) -> Option<PathBuf> {
    xdg(vars, "XDG_STATE_HOME", ".local/state")
}

pub fn data(vars: &dyn Vars) -> Option<PathBuf> {
    xdg(vars, "XDG_DATA_HOME", ".local/share")
}

/// `$variable` when it is absolute (the specification says to ignore a relative one), else
/// `below_home` in the home folder.
fn xdg(vars: &dyn Vars, variable: &str, below_home: &str) -> Option<PathBuf> {
    vars.path(variable).filter(|dir| dir.is_absolute()).or_else(|| home(vars).map(|home| home.join(below_home)))
}

pub fn temp(vars: &dyn Vars) -> PathBuf {
    vars.path("TMPDIR").unwrap_or_else(|| PathBuf::from("/tmp"))
}

/// `/tmp` is every user's: the user id in the name keeps one user's folder apart from another's.
pub fn user_temp(vars: &dyn Vars, name: &str) -> PathBuf {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    temp(vars).join(format!("{name}-{uid}"))
}

pub fn postgres_socket_dir() -> Option<&'static str> {
    let dir = "/var/run/postgresql";
    std::path::Path::new(dir).is_dir().then_some(dir)
}
