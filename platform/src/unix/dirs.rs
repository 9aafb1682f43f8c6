//! The user's folders on Unix: `HOME` and the XDG Base Directory variables, nothing else.

use crate::dirs::{Folder, Vars};
use std::path::PathBuf;

pub fn variable(folder: Folder) -> &'static str {
    match folder {
        Folder::Home => "HOME",
        Folder::Config => "XDG_CONFIG_HOME",
        Folder::State => "XDG_STATE_HOME",
        Folder::Data => "XDG_DATA_HOME",
        Folder::Temp => "TMPDIR",
    }
}

pub fn home(vars: &dyn Vars) -> Option<PathBuf> {
    vars.path(variable(Folder::Home))
}

pub fn config(vars: &dyn Vars) -> Option<PathBuf> {
    xdg(vars, Folder::Config, ".config")
}

pub fn state(vars: &dyn Vars) -> Option<PathBuf> {
    xdg(vars, Folder::State, ".local/state")
}

pub fn data(vars: &dyn Vars) -> Option<PathBuf> {
    xdg(vars, Folder::Data, ".local/share")
}

/// The folder's XDG variable when it is absolute (the specification says to ignore a relative
/// one), else `below_home` in the home folder.
fn xdg(vars: &dyn Vars, folder: Folder, below_home: &str) -> Option<PathBuf> {
    let set = vars.path(variable(folder)).filter(|dir| dir.is_absolute());
    set.or_else(|| home(vars).map(|home| home.join(below_home)))
}

pub fn temp(vars: &dyn Vars) -> PathBuf {
    vars.path(variable(Folder::Temp)).unwrap_or_else(|| PathBuf::from("/tmp"))
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
