//! The user's folders on Windows: `USERPROFILE`, `APPDATA`, `LOCALAPPDATA` and `TEMP`, as Windows
//! sets them for every logon, and as Node (`os.homedir()`, `os.tmpdir()`) and the hosts read them.
//!
//! One look-up outside the environment: a process started without `USERPROFILE` (Windows always
//! sets it; only a caller that cleared the environment leaves it out) gets the profile folder
//! the OS names, through `dirs::home_dir` (the Known Folder API, which reads no variable). That
//! is where Node's `os.homedir()` falls back to as well, so hookmux reads the same `~\.claude` the
//! host reads, and the user's hooks are not skipped for a missing variable.

use crate::dirs::{Folder, Vars};
use std::path::PathBuf;

pub fn variable(folder: Folder) -> &'static str {
    match folder {
        Folder::Home => "USERPROFILE",
        Folder::Config => "APPDATA",
        Folder::State | Folder::Data => "LOCALAPPDATA",
        Folder::Temp => "TEMP",
    }
}

pub fn home(vars: &dyn Vars) -> Option<PathBuf> {
    vars.path(variable(Folder::Home)).or_else(::dirs::home_dir)
}

pub fn config(vars: &dyn Vars) -> Option<PathBuf> {
    known(vars, Folder::Config, r"AppData\Roaming")
}

pub fn state(vars: &dyn Vars) -> Option<PathBuf> {
    known(vars, Folder::State, r"AppData\Local")
}

pub fn data(vars: &dyn Vars) -> Option<PathBuf> {
    known(vars, Folder::Data, r"AppData\Local")
}

/// The folder's variable when it is absolute (a relative one would put the user's state under
/// whatever folder hookmux runs in), else `below_home` in the profile, where Windows keeps it.
fn known(vars: &dyn Vars, folder: Folder, below_home: &str) -> Option<PathBuf> {
    let set = vars.path(variable(folder)).filter(|dir| dir.is_absolute());
    set.or_else(|| home(vars).map(|home| home.join(below_home)))
}

/// `TEMP`, else `TMP` (Node's order), else the user's own `AppData\Local\Temp`; the Windows
/// folder's `Temp` only when the OS names no profile at all.
pub fn temp(vars: &dyn Vars) -> PathBuf {
    vars.path(variable(Folder::Temp))
        .or_else(|| vars.path("TMP"))
        .or_else(|| data(vars).map(|local| local.join("Temp")))
        .unwrap_or_else(|| PathBuf::from(r"C:\Windows\Temp"))
}

/// A user's `TEMP` is under their own profile, which no other user may enter: the name alone
/// keeps it apart from another user's.
pub fn user_temp(vars: &dyn Vars, name: &str) -> PathBuf {
    temp(vars).join(name)
}

/// libpq on Windows has no Unix-domain socket default: always TCP to `localhost`.
pub fn postgres_socket_dir() -> Option<&'static str> {
    None
}
