//! The user's folders: home, configuration, state, data and temporary files.
//!
//! Every function works the folder out from the environment it is given ([`Vars`]), never from
//! the process's own: a host hands a hook its environment, a test hands one of its own, and the
//! folders a hook reads and writes must be that environment's (`hookmux_sdk::Env` is one).
//!
//! | function | Unix | Windows (for its module to keep) |
//! |---|---|---|
//! | [`home`] | `$HOME` | `%USERPROFILE%` |
//! | [`config`] | `$XDG_CONFIG_HOME` (absolute), else `~/.config` | `%APPDATA%`, else `~\AppData\Roaming` |
//! | [`state`] | `$XDG_STATE_HOME` (absolute), else `~/.local/state` | `%LOCALAPPDATA%`, else `~\AppData\Local` |
//! | [`data`] | `$XDG_DATA_HOME` (absolute), else `~/.local/share` | `%LOCALAPPDATA%`, else `~\AppData\Local` |
//! | [`temp`] | `$TMPDIR`, else `/tmp` | `%TEMP%`, else `%TMP%`, else `<state>\Temp` |
//! | [`user_temp`] | `<temp>/<name>-<uid>` | `<temp>\<name>` (the temporary folder is the user's own) |
//!
//! The promises both keep: a variable that is set but empty counts as unset; [`variable`] names
//! the one variable that, set to an absolute path, makes a folder that path; configuration,
//! state and data fall back to a fixed place under [`home`] when their own variable is unset (a
//! relative one is ignored); [`temp`] always names one. State stays under the user's own folders
//! on every OS, never in a folder shared between users.
//!
//! Where they differ, when the environment names no home: on Unix there is none (`None`), with
//! no look-up elsewhere; on Windows, which sets `USERPROFILE` for every logon, a process started
//! without it gets the profile folder the OS names, as Node's `os.homedir()` (and so the hosts)
//! do, so that hookmux reads the same `~\.claude` as the host that started it.
//!
//! # Which crate
//!
//! None for the rules, on either family. `dirs` and `etcetera`, the two well-kept crates for
//! this, read the process's environment (or ask the OS) and cannot be handed another one; and on
//! Unix both fall back to the password database when `HOME` is unset, which would change where
//! hookmux writes. The rules above are a line each. For the OS's answer on Windows, the Windows
//! module takes `dirs::home_dir`, a Windows-only dependency: it asks the Known Folder API
//! (`SHGetKnownFolderPath`) and reads no variable, so the environment hookmux was given stays
//! the only source of variables (`etcetera` reads the process's `USERPROFILE` and `APPDATA`
//! first, which would mix two environments).

#[cfg(unix)]
use crate::unix::dirs as imp;
#[cfg(windows)]
use crate::windows::dirs as imp;
use std::path::PathBuf;

/// The environment a folder is worked out from.
pub trait Vars {
    /// The variable `name` as a path, when it is set and not empty.
    fn path(&self, name: &str) -> Option<PathBuf>;
}

/// One of the user's folders, for [`variable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folder {
    Home,
    Config,
    State,
    Data,
    Temp,
}

/// The variable that places `folder`: set to an absolute path, it makes the folder that path
/// (on Unix `HOME`, `XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `XDG_DATA_HOME`, `TMPDIR`; on Windows
/// `USERPROFILE`, `APPDATA`, `LOCALAPPDATA` twice, `TEMP`). For messages
/// that say what to set, and for tests that give hookmux folders of their own.
pub fn variable(folder: Folder) -> &'static str {
    imp::variable(folder)
}

/// The user's home folder, where the hosts keep theirs (`~/.claude`, `~/.codex`, …); `None`
/// when the environment does not say (on Windows, only when the OS does not either).
pub fn home(vars: &dyn Vars) -> Option<PathBuf> {
    imp::home(vars)
}

/// The folder for the user's configuration (hookmux's is `hookmux/` in it); `None` without one.
pub fn config(vars: &dyn Vars) -> Option<PathBuf> {
    imp::config(vars)
}

/// The folder for state that outlives a session but is not worth a backup (hookmux's trace and
/// transcripts are under `hookmux/` in it); `None` without one.
pub fn state(vars: &dyn Vars) -> Option<PathBuf> {
    imp::state(vars)
}

/// The folder for the user's data (the memory store is `hookmux/lore.db` in it); `None` without
/// one.
pub fn data(vars: &dyn Vars) -> Option<PathBuf> {
    imp::data(vars)
}

/// The folder for short-lived files. It may be shared by every user of the machine (`/tmp`; on
/// Windows, `C:\Windows\Temp` when nothing names the user's own):
/// put nothing there but in a folder of [`user_temp`]'s, or one checked with
/// [`crate::fs::why_not_private_dir`].
pub fn temp(vars: &dyn Vars) -> PathBuf {
    imp::temp(vars)
}

/// A folder `name` for this user's short-lived files, under [`temp`], named so that another
/// user's folder of the same `name` is a different one. It may not exist yet, and someone else
/// may have made it first: create it with [`crate::fs::create_private_dirs`] and check it with
/// [`crate::fs::why_not_private_dir`] before trusting what is in it.
pub fn user_temp(vars: &dyn Vars, name: &str) -> PathBuf {
    imp::user_temp(vars, name)
}

/// The folder where a PostgreSQL server on this machine listens by default, as a host name for
/// a PostgreSQL client (a Unix-domain socket folder is a host that starts with `/`): Unix
/// `/var/run/postgresql` when it is a folder. `None` when there is none, and then a client
/// connects to `localhost` over TCP (always so on Windows, where libpq has no socket default).
pub fn postgres_socket_dir() -> Option<&'static str> {
    imp::postgres_socket_dir()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Given(HashMap<&'static str, &'static str>);

    impl Vars for Given {
        fn path(&self, name: &str) -> Option<PathBuf> {
            self.0.get(name).filter(|value| !value.is_empty()).map(PathBuf::from)
        }
    }

    fn given(pairs: &[(&'static str, &'static str)]) -> Given {
        Given(pairs.iter().copied().collect())
    }

    #[cfg(unix)]
    #[test]
    fn nothing_set_means_no_folder() {
        let none = given(&[]);
        assert_eq!((home(&none), config(&none), state(&none), data(&none)), (None, None, None, None));
    }

    #[test]
    fn each_folder_comes_from_the_environment_given() {
        // Whatever the OS's variables, each folder comes from the environment handed in: two
        // environments that put every variable elsewhere give two different answers.
        for folder in [home, config, state, data] {
            let (a, b) = (folder(&Everything("/a")), folder(&Everything("/b")));
            assert!(a.is_some() && a != b, "{a:?} {b:?}");
        }
        let user = user_temp(&Everything("/a"), "x");
        assert!(user.starts_with(temp(&Everything("/a"))), "{}", user.display());
    }

    /// Every variable set to a folder below `root`.
    struct Everything(&'static str);

    impl Vars for Everything {
        fn path(&self, name: &str) -> Option<PathBuf> {
            Some(PathBuf::from(self.0).join(name))
        }
    }

    #[test]
    fn each_folder_is_where_its_variable_says() {
        let root = if cfg!(windows) { r"C:\elsewhere" } else { "/elsewhere" };
        let set = |folder| Given([(variable(folder), root)].into_iter().collect());
        let expected = Some(PathBuf::from(root));
        assert_eq!(home(&set(Folder::Home)), expected);
        assert_eq!(config(&set(Folder::Config)), expected);
        assert_eq!(state(&set(Folder::State)), expected);
        assert_eq!(data(&set(Folder::Data)), expected);
        assert_eq!(temp(&set(Folder::Temp)), PathBuf::from(root));
    }

    #[cfg(unix)]
    #[test]
    fn xdg_variables_then_home_as_documented() {
        let home_only = given(&[("HOME", "/h")]);
        assert_eq!(home(&home_only), Some("/h".into()));
        assert_eq!(config(&home_only), Some("/h/.config".into()));
        assert_eq!(state(&home_only), Some("/h/.local/state".into()));
        assert_eq!(data(&home_only), Some("/h/.local/share".into()));
        let xdg =
            given(&[("HOME", "/h"), ("XDG_CONFIG_HOME", "/c"), ("XDG_STATE_HOME", "/s"), ("XDG_DATA_HOME", "/d")]);
        assert_eq!((config(&xdg), state(&xdg), data(&xdg)), (Some("/c".into()), Some("/s".into()), Some("/d".into())));
        // A relative XDG folder is ignored, as the specification says; an empty HOME is no home.
        let relative = given(&[("HOME", "/h"), ("XDG_STATE_HOME", "rel")]);
        assert_eq!(state(&relative), Some("/h/.local/state".into()));
        assert_eq!(home(&given(&[("HOME", "")])), None);
    }

    #[cfg(unix)]
    #[test]
    fn temp_is_tmpdir_else_tmp_and_the_users_folder_carries_the_uid() {
        assert_eq!(temp(&given(&[])), PathBuf::from("/tmp"));
        assert_eq!(temp(&given(&[("TMPDIR", "/t")])), PathBuf::from("/t"));
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        assert_eq!(user_temp(&given(&[("TMPDIR", "/t")]), "n"), PathBuf::from(format!("/t/n-{uid}")));
    }

    #[cfg(windows)]
    #[test]
    fn profile_variables_then_the_profile_as_documented() {
        let profile_only = given(&[("USERPROFILE", r"C:\h")]);
        assert_eq!(home(&profile_only), Some(r"C:\h".into()));
        assert_eq!(config(&profile_only), Some(r"C:\h\AppData\Roaming".into()));
        assert_eq!(state(&profile_only), Some(r"C:\h\AppData\Local".into()));
        assert_eq!(data(&profile_only), Some(r"C:\h\AppData\Local".into()));
        assert_eq!(temp(&profile_only), PathBuf::from(r"C:\h\AppData\Local\Temp"));
        assert_eq!(user_temp(&profile_only, "n"), PathBuf::from(r"C:\h\AppData\Local\Temp\n"));
        let set = given(&[("USERPROFILE", r"C:\h"), ("APPDATA", r"D:\r"), ("LOCALAPPDATA", r"D:\l"), ("TMP", r"D:\t")]);
        assert_eq!(
            (config(&set), state(&set), data(&set)),
            (Some(r"D:\r".into()), Some(r"D:\l".into()), Some(r"D:\l".into()))
        );
        assert_eq!(temp(&set), PathBuf::from(r"D:\t"), "TMP when TEMP is unset, as Node reads them");
        // A relative folder would put state under the working folder: it is not taken.
        let relative = given(&[("USERPROFILE", r"C:\h"), ("LOCALAPPDATA", r"rel")]);
        assert_eq!(state(&relative), Some(r"C:\h\AppData\Local".into()));
    }

    #[cfg(windows)]
    #[test]
    fn without_userprofile_the_profile_is_the_one_the_os_names() {
        // Windows always sets USERPROFILE; a caller that cleared it still gets the user's
        // profile (as Node's os.homedir() does), not no folder and the user's hooks skipped.
        let none = given(&[]);
        let home = home(&none).expect("the OS names a profile folder");
        assert!(home.is_absolute(), "{}", home.display());
        assert_eq!(config(&none), Some(home.join(r"AppData\Roaming")));
    }
}
