//! Paths as a guard must compare them: made absolute and normalized without touching the disk,
//! then resolved to where they really are, and the file system's rule for letter case.
//!
//! A tool call names a file however the model spelled it (`src/../.env`, a path through a link,
//! `.ENV`), and a host names the project the way it found it (`/var/…` or `/private/var/…` on
//! macOS, where `/var` and `/tmp` are links). A rule about a path holds for every spelling that
//! reaches the same file, so guards match each of them.

use std::path::{Component, Path, PathBuf};

/// Resolves `.` and `..` without touching the disk (the file may not exist yet, and following a
/// link would change which rule applies). `..` above the root stays at the root.
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

/// Where an absolute, normalized `path` really is: its folders' links resolved as far as they
/// exist, and the file's own link followed even when it points at a file not made yet (a write
/// through it makes that file). Unchanged where nothing can be resolved.
pub fn resolve_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    // As many links as the kernel follows in one lookup (Linux's MAXSYMLINKS).
    for _ in 0..40 {
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else { return path };
        let parent = resolve_existing(parent);
        let joined = parent.join(name);
        match std::fs::read_link(&joined) {
            Ok(target) => path = absolute(&target, &parent),
            Err(_) => return joined,
        }
    }
    path
}

/// `folder` with the longest part of it that exists resolved, the rest appended.
fn resolve_existing(folder: &Path) -> PathBuf {
    let mut existing = folder;
    let mut missing = Vec::new();
    loop {
        if let Ok(real) = crate::fs::canonicalize(existing) {
            return missing.iter().rev().fold(real, |acc: PathBuf, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name);
                existing = parent;
            }
            _ => return folder.to_path_buf(),
        }
    }
}

/// Whether the file system that holds `path` (or, for a path not made yet, its nearest folder
/// that exists) takes two names that differ only in letter case for the same file: macOS's APFS
/// and HFS+ as formatted by default, Windows' NTFS, and on Linux a folder with the `casefold`
/// attribute or a FAT, exFAT, NTFS or SMB mount. Where it cannot be told, `true`: a guard that
/// matches names then matches more, never less.
pub fn names_fold_case(path: &Path) -> bool {
    let existing = path.ancestors().find(|dir| std::fs::symlink_metadata(dir).is_ok());
    match existing {
        Some(dir) => crate::fs::names_fold_case_at(dir),
        None => true,
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

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_path_through_a_linked_folder_resolves_to_the_real_one() {
        let dir = tempfile::tempdir().unwrap();
        let real = crate::fs::canonicalize(dir.path()).unwrap().join("real");
        std::fs::create_dir(&real).unwrap();
        let link = real.parent().unwrap().join("link");
        crate::fs::symlink_dir(&real, &link).unwrap();
        assert_eq!(resolve_links(&link.join("new/.env")), real.join("new/.env"));
        // A dangling link to a file is followed: writing through it makes the target.
        crate::fs::symlink_file(&real.join(".env"), &real.join("innocent")).unwrap();
        assert_eq!(resolve_links(&link.join("innocent")), real.join(".env"));
    }

    #[test]
    fn a_folder_that_does_not_exist_is_judged_by_the_nearest_that_does() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(names_fold_case(&dir.path().join("a/b/c")), names_fold_case(dir.path()));
    }
}
