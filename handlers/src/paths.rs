//! Path arithmetic shared by handlers: no I/O, so it works for paths that do not exist yet.

use std::path::{Component, Path, PathBuf};

/// Resolves `.` and `..` without touching the disk (the file may not exist yet, and following a
/// symlink would change which rule applies). `..` above the root stays at the root.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let at_root = matches!(out.components().next_back(), Some(Component::RootDir | Component::Prefix(_)));
                if !at_root && !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` made absolute against `base` and normalized.
pub fn absolute(path: &Path, base: &Path) -> PathBuf {
    if path.is_absolute() {
        normalize(path)
    } else {
        normalize(&base.join(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_lexically() {
        assert_eq!(normalize(Path::new("/a/b/../c/./d")), Path::new("/a/c/d"));
        assert_eq!(normalize(Path::new("/../x")), Path::new("/x"));
        assert_eq!(absolute(Path::new("src/../.env"), Path::new("/p")), Path::new("/p/.env"));
    }
}
