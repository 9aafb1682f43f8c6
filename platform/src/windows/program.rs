//! Programs on Windows: `\` and `/` separate folders, names are compared without regard to case,
//! and a name is found with the extensions `PATHEXT` lists, as `cmd.exe` finds it, but never in
//! the folder hookmux runs in.

use crate::dirs::Vars;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What `cmd.exe` starts when `PATHEXT` is not set, less the script hosts (`.VBS`, `.JS`, …),
/// which `CreateProcess` cannot start.
const DEFAULT_PATHEXT: &str = ".COM;.EXE;.BAT;.CMD";

pub fn on_path(word: &str, vars: &dyn Vars) -> Option<PathBuf> {
    let path = vars.path("PATH")?;
    std::env::split_paths(&path)
        .filter(|folder| folder.is_absolute())
        .find_map(|folder| file_at(&folder.join(word), vars))
}

/// The path itself when it names an extension and is a file; else the path with the first
/// extension of `PATHEXT` that makes it a file.
pub fn file_at(path: &Path, vars: &dyn Vars) -> Option<PathBuf> {
    if path.extension().is_some() && path.is_file() {
        return Some(path.to_path_buf());
    }
    let listed = vars.path("PATHEXT").map(PathBuf::into_os_string);
    let listed = listed.as_deref().and_then(std::ffi::OsStr::to_str).unwrap_or(DEFAULT_PATHEXT);
    listed.split(';').filter(|ext| ext.starts_with('.') && ext.len() > 1).find_map(|ext| {
        let mut with: OsString = path.as_os_str().to_owned();
        with.push(ext);
        let with = PathBuf::from(with);
        with.is_file().then_some(with)
    })
}
