//! Programs on Unix: `/` separates folders, and a file runs when it has an execute bit.

use crate::dirs::Vars;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

pub fn on_path(word: &str, vars: &dyn Vars) -> Option<PathBuf> {
    let path = vars.path("PATH")?;
    std::env::split_paths(&path)
        .filter(|folder| !folder.as_os_str().is_empty())
        .find_map(|folder| runnable(folder.join(word)))
}

pub fn file_at(path: &Path, _vars: &dyn Vars) -> Option<PathBuf> {
    path.is_file().then(|| path.to_path_buf())
}

fn runnable(file: PathBuf) -> Option<PathBuf> {
    let meta = std::fs::metadata(&file).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(file)
}
