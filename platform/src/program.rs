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

/// Whether `word` (a command's first word, quotes removed) names the program `name`, by this
/// OS's [`Conventions`].
pub fn names(word: &str, name: &str) -> bool {
    Conventions::HOST.names(word, name)
}

/// Whether this OS takes `word` as a path to a program rather than a name to look up.
pub fn is_path(word: &str) -> bool {
    Conventions::HOST.is_path(word)
}

/// `path` as a command's first word by this OS's [`Conventions::command_word`].
pub fn command_word(path: &str) -> Option<String> {
    Conventions::HOST.command_word(path)
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

/// How an OS family spells programs: what separates folders, whether case matters, which
/// extensions a program may carry, and how a path is written as a command's first word. A value
/// rather than a `cfg`, so that both families' rules run, and are tested, on either;
/// [`Conventions::HOST`] is this machine's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conventions {
    Unix,
    Windows,
}

impl Conventions {
    /// The conventions of the OS hookmux was built for.
    pub const HOST: Conventions = if cfg!(windows) { Conventions::Windows } else { Conventions::Unix };

    /// Whether `word` (a command's first word, quotes removed) names the program `name`.
    pub fn names(self, word: &str, name: &str) -> bool {
        match self {
            Conventions::Unix => word == name || word.strip_suffix(name).is_some_and(|folder| folder.ends_with('/')),
            Conventions::Windows => {
                let file = word.rsplit(['/', '\\']).next().unwrap_or(word).to_ascii_lowercase();
                let name = name.to_ascii_lowercase();
                file == name || file == format!("{name}.exe")
            }
        }
    }

    /// Whether the OS takes `word` as a path to a program rather than a name to look up.
    pub fn is_path(self, word: &str) -> bool {
        match self {
            Conventions::Unix => word.contains('/'),
            Conventions::Windows => word.contains(['/', '\\']) || word.as_bytes().get(1) == Some(&b':'),
        }
    }

    /// `path` written as the first word of a command that a host hands to a shell, so that the
    /// shell starts that file; `None` when no spelling does so in every shell a host may use.
    ///
    /// On Unix the shell is POSIX `sh`: the path as it is when every character is plain, else in
    /// single quotes. On Windows the same command may reach Git Bash (Claude Code), PowerShell
    /// or `cmd.exe` (other hosts), which agree on no quoting at all: a double-quoted program is
    /// a string, not a command, to PowerShell, and `cmd.exe` keeps single quotes. What all three
    /// read alike is a bare path with `/` between folders (`C:/Users/me/hookmux.exe`), made only
    /// of letters, digits and `/._-+:@`. Anything else (a space, `%`, `&`, `$`, `'`, a `\\?\`
    /// verbatim prefix) is `None`, and the caller writes the bare name found on `PATH` instead.
    pub fn command_word(self, path: &str) -> Option<String> {
        let plain = |text: &str, marks: &str| {
            !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || marks.contains(c))
        };
        match self {
            Conventions::Unix if plain(path, "/._-+:@%") => Some(path.to_string()),
            Conventions::Unix => Some(format!("'{}'", path.replace('\'', r"'\''"))),
            Conventions::Windows => Some(path.replace('\\', "/")).filter(|word| plain(word, "/._-+:@")),
        }
    }
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
    fn each_family_names_a_program_by_its_own_rules() {
        for os in [Conventions::Unix, Conventions::Windows] {
            assert!(os.names("hookmux", "hookmux") && os.names("/usr/local/bin/hookmux", "hookmux"), "{os:?}");
            assert!(!os.names("nothookmux", "hookmux") && !os.names("/bin/hookmux-old", "hookmux"), "{os:?}");
            assert!(os.is_path("./hookmux") && os.is_path("/usr/bin/hookmux") && !os.is_path("hookmux"), "{os:?}");
        }
        let (unix, windows) = (Conventions::Unix, Conventions::Windows);
        // Windows: either separator, any case, `.exe` or not, and a drive makes a path.
        assert!(windows.names(r"C:\Tools\HookMux.EXE", "hookmux") && windows.names("C:/tools/hookmux", "hookmux"));
        assert!(windows.is_path(r"C:hookmux") && windows.is_path(r"tools\hookmux") && !windows.is_path("hookmux.exe"));
        // Unix: a backslash is part of a name, case matters, and `.exe` is another program.
        assert!(!unix.names(r"C:\Tools\hookmux.exe", "hookmux") && !unix.names("HookMux", "hookmux"));
        assert!(!unix.is_path(r"tools\hookmux") && !unix.is_path("C:hookmux"));
    }

    #[test]
    fn a_program_path_is_written_so_that_every_shell_a_host_uses_reads_it_back() {
        let (unix, windows) = (Conventions::Unix, Conventions::Windows);
        assert_eq!(unix.command_word("/usr/local/bin/hookmux").as_deref(), Some("/usr/local/bin/hookmux"));
        assert_eq!(unix.command_word("/home/a b/hookmux").as_deref(), Some("'/home/a b/hookmux'"));
        assert_eq!(unix.command_word("/x/it's/hookmux").as_deref(), Some(r"'/x/it'\''s/hookmux'"));
        // Git Bash, PowerShell and cmd.exe all start a bare path with forward slashes.
        assert_eq!(
            windows.command_word(r"C:\Users\me\AppData\Roaming\npm\hookmux.exe").as_deref(),
            Some("C:/Users/me/AppData/Roaming/npm/hookmux.exe")
        );
        // No quoting means the same to all three: a space, `%`, `&` or a verbatim prefix has none.
        for path in
            [r"C:\Users\Jo Smith\hookmux.exe", r"C:\50%\hookmux.exe", r"C:\a&b\hookmux.exe", r"\\?\C:\x\hookmux.exe"]
        {
            assert_eq!(windows.command_word(path), None, "{path}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn sh_starts_the_program_the_written_path_names() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("it's a $HOME");
        std::fs::create_dir_all(&folder).unwrap();
        let program = folder.join("tool");
        std::fs::write(&program, "#!/bin/sh\necho ran \"$1\"\n").unwrap();
        make_runnable(&program);
        let word = Conventions::Unix.command_word(program.to_str().unwrap()).unwrap();
        let out = std::process::Command::new("/bin/sh").arg("-c").arg(format!("{word} arg")).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "ran arg\n", "{word}: {out:?}");
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
    }
}
