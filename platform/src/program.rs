//! Programs as the operating system names and finds them: whether a command's first word names
//! a given program, whether it is a path or a name to look up, and which file a name runs.
//!
//! | | Unix | Windows |
//! |---|---|---|
//! | a path | has a `/` | has a `/` or a `\`, or starts with a drive (`C:`) |
//! | a name is looked up | in each `PATH` folder, a file with an execute bit | in each absolute `PATH` folder, the name itself when it has an extension, then the name with each extension of `PATHEXT` (`.COM;.EXE;.BAT;.CMD` when unset) |
//! | [`names`]`(word, "hookmux")` | `hookmux`, or a path ending in `/hookmux` | the same with either separator, in any case, with or without `.exe` |
//!
//! On Windows the folder a hook runs in is never searched, unlike `cmd.exe` and `CreateProcess`
//! (and as Rust's `std` does): a cloned repository could otherwise put a `git.exe` or a
//! `pwsh.exe` where hookmux would start it. Every function reads the variables it is given
//! ([`crate::dirs::Vars`]), never the process's.

use crate::dirs::Vars;
#[cfg(unix)]
use crate::unix::program as imp;
#[cfg(windows)]
use crate::windows::program as imp;
use std::path::{Path, PathBuf};

/// Whether `word` (a command's first word, quotes removed) names the program `name`.
pub fn names(word: &str, name: &str) -> bool {
    imp::names(word, name)
}

/// Whether the OS takes `word` as a path to a program rather than a name to look up.
pub fn is_path(word: &str) -> bool {
    imp::is_path(word)
}

/// The file `word` runs: a path's file (on Windows with an extension of `PATHEXT` added when the
/// path names none), or the first match on the `PATH` of `vars`. `None` when there is none.
pub fn find(word: &str, vars: &dyn Vars) -> Option<PathBuf> {
    if is_path(word) {
        file_at(Path::new(word), vars)
    } else {
        imp::on_path(word, vars)
    }
}

/// The file a program path runs: the path itself when it is a file; on Windows also the path
/// with an extension of `PATHEXT` added.
pub fn file_at(path: &Path, vars: &dyn Vars) -> Option<PathBuf> {
    imp::file_at(path, vars)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Given(HashMap<&'static str, std::ffi::OsString>);

    impl Vars for Given {
        fn path(&self, name: &str) -> Option<PathBuf> {
            self.0.get(name).filter(|value| !value.is_empty()).map(PathBuf::from)
        }
    }

    /// The file found, spelled as Windows compares names (any case, either separator).
    fn found(word: &str, vars: &dyn Vars) -> Option<String> {
        find(word, vars).map(|path| spelled(&path))
    }

    fn spelled(path: &Path) -> String {
        path.to_string_lossy().replace('\\', "/").to_lowercase()
    }

    /// Two folders on a PATH, each with a program `tool` in it, the first one's not runnable on
    /// Unix (no execute bit).
    fn two_folders() -> (tempfile::TempDir, Given) {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let path = std::env::join_paths([&a, &b]).unwrap();
        (dir, Given([("PATH", path)].into_iter().collect()))
    }

    #[test]
    fn a_name_is_found_on_the_path_and_a_missing_one_is_not() {
        let (dir, vars) = two_folders();
        let name = format!("tool{}", std::env::consts::EXE_SUFFIX);
        let runnable = dir.path().join("b").join(&name);
        std::fs::write(&runnable, "").unwrap();
        make_runnable(&runnable);
        assert_eq!(found("tool", &vars), Some(spelled(&runnable)));
        assert_eq!(found("missing", &vars), None);
        assert_eq!(found(&runnable.to_string_lossy(), &vars), Some(spelled(&runnable)));
        assert_eq!(found(&dir.path().join("b/missing").to_string_lossy(), &vars), None);
    }

    #[test]
    fn hookmux_is_named_by_its_name_or_a_path_to_it() {
        assert!(names("hookmux", "hookmux") && names("/usr/local/bin/hookmux", "hookmux"));
        assert!(!names("nothookmux", "hookmux") && !names("/bin/hookmux-old", "hookmux"));
        assert!(is_path("./hookmux") && is_path("/usr/bin/hookmux") && !is_path("hookmux"));
    }

    #[cfg(unix)]
    fn make_runnable(path: &Path) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[cfg(windows)]
    fn make_runnable(_path: &Path) {}

    #[cfg(unix)]
    #[test]
    fn a_file_without_an_execute_bit_is_not_run() {
        let (dir, vars) = two_folders();
        std::fs::write(dir.path().join("a/tool"), "").unwrap();
        let runnable = dir.path().join("b/tool");
        std::fs::write(&runnable, "").unwrap();
        make_runnable(&runnable);
        assert_eq!(find("tool", &vars), Some(runnable));
    }

    #[cfg(windows)]
    #[test]
    fn pathext_names_the_extensions_in_order_and_a_path_may_leave_them_out() {
        let (dir, mut vars) = two_folders();
        std::fs::write(dir.path().join("a/tool.cmd"), "").unwrap();
        std::fs::write(dir.path().join("a/tool.vbs"), "").unwrap();
        std::fs::write(dir.path().join("b/tool.exe"), "").unwrap();
        // The first folder wins, with the first extension PATHEXT names that is there.
        let at = |name: &str| Some(spelled(&dir.path().join(name)));
        assert_eq!(found("tool", &vars), at("a/tool.cmd"));
        assert_eq!(found("TOOL.EXE", &vars), at("b/tool.exe"));
        vars.0.insert("PATHEXT", ".VBS;.EXE".into());
        assert_eq!(found("tool", &vars), at("a/tool.vbs"));
        assert_eq!(found(&dir.path().join("b").join("tool").to_string_lossy(), &vars), at("b/tool.exe"));
        assert!(names(r"C:\Tools\HookMux.EXE", "hookmux") && names("C:/tools/hookmux", "hookmux"));
        assert!(is_path(r"C:hookmux") && is_path(r"tools\hookmux") && !is_path("hookmux.exe"));
    }
}
