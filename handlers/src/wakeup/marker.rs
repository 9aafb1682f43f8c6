//! The per-session debounce marker: `<state dir>/<session>.wakeup`, created atomically
//! (`O_CREAT|O_EXCL`, mode 0600) by the first prompt-bearing event of a session, before the store
//! is opened. Hosts without a run-once flag (Codex) send every prompt; the marker makes wake-up
//! fire once. It means "wake-up was attempted", not "it succeeded": a failed load is not retried
//! on every turn.

use hookmux_platform::fs::{self as platform_fs, Access};
use hookmux_sdk::Env;
use sha2::{Digest, Sha256};
use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

/// Longer sanitised names are shortened and made unique with a hash.
const MAX_SEGMENT: usize = 128;

/// `$LORE_HOOK_STATE_DIR`, else `$TMPDIR/lore-hook-state` (`/tmp` when `$TMPDIR` is unset).
pub fn state_dir(env: &Env) -> PathBuf {
    if let Some(dir) = env.path("LORE_HOOK_STATE_DIR") {
        return dir;
    }
    hookmux_platform::dirs::temp(env).join("lore-hook-state")
}

/// A file-name-safe form of a session id: every character outside `[A-Za-z0-9_.-]` becomes `_`
/// (one per UTF-16 unit, so an emoji gives two), and a result longer than 128 keeps its first
/// 119 characters plus `_` and 8 hex digits of the original's SHA-256. `..` survives, harmless
/// because a suffix always follows it.
pub fn safe_filename_segment(name: &str) -> String {
    let mut scrubbed = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
            scrubbed.push(c);
        } else {
            for _ in 0..c.len_utf16() {
                scrubbed.push('_');
            }
        }
    }
    if scrubbed.len() <= MAX_SEGMENT {
        return scrubbed;
    }
    let hash = Sha256::digest(name.as_bytes());
    let hex: String = hash.iter().take(4).map(|byte| format!("{byte:02x}")).collect();
    format!("{}_{hex}", &scrubbed[..119])
}

/// The marker file of a session.
pub fn marker_path(state_dir: &Path, session_id: &str) -> PathBuf {
    state_dir.join(format!("{}.wakeup", safe_filename_segment(session_id)))
}

/// What marking found.
#[derive(Debug, PartialEq, Eq)]
pub enum Mark {
    /// This call is the session's first: go on.
    First,
    /// The marker was already there: wake-up already ran for the session.
    AlreadyMarked,
}

/// Creates the session's marker. `Err` is any failure other than "already exists" (a read-only,
/// full or inaccessible state directory); the caller fails open. With `dry` nothing is written:
/// an existing marker still reads as `AlreadyMarked`.
pub fn try_mark(state_dir: &Path, session_id: &str, dry: bool) -> std::io::Result<Mark> {
    let path = marker_path(state_dir, session_id);
    if dry {
        return Ok(if path.exists() { Mark::AlreadyMarked } else { Mark::First });
    }
    ensure_private_dir(state_dir)?;
    let mut options = OpenOptions::new();
    let mut file = match platform_fs::create_with(options.write(true).create_new(true), Access::Private).open(&path) {
        Ok(file) => file,
        Err(err) if err.kind() == ErrorKind::AlreadyExists => return Ok(Mark::AlreadyMarked),
        Err(err) => return Err(err),
    };
    // The umask may have narrowed or (umask 000 aside) kept the mode; force it.
    platform_fs::make_file_private(&file)?;
    file.write_all(b"1")?;
    Ok(Mark::First)
}

/// The state folder, created `0700` (the umask cannot widen or narrow it); an existing one must
/// be a real folder of this user's that no one else can write into, since under `$TMPDIR` another
/// user could have made it first.
fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    let existed = std::fs::symlink_metadata(dir).is_ok();
    crate::safe_fs::private_dir(dir)?;
    if !existed {
        platform_fs::make_dir_private(dir)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookmux_platform::fs::{symlink_dir, symlink_file};

    #[test]
    fn a_marker_is_made_once_in_a_private_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("lore-hook-state");
        assert_eq!(try_mark(&dir, "s", false).unwrap(), Mark::First);
        assert_eq!(try_mark(&dir, "s", false).unwrap(), Mark::AlreadyMarked);
        assert_eq!(platform_fs::why_not_private_dir(&dir).unwrap(), None);
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_planted_marker_link_is_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("lore-hook-state");
        std::fs::create_dir(&dir).unwrap();
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        symlink_file(&victim, &marker_path(&dir, "s")).unwrap();
        assert_eq!(try_mark(&dir, "s", false).unwrap(), Mark::AlreadyMarked);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_state_folder_that_is_a_link_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let linked = tmp.path().join("lore-hook-state");
        symlink_dir(&elsewhere, &linked).unwrap();
        let err = try_mark(&linked, "s", false).unwrap_err().to_string();
        assert!(err.contains("it is a symbolic link"), "{err}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "no marker made through the link");
    }

    /// Modes: what Unix keeps access in.
    #[cfg(unix)]
    mod unix {
        use super::*;
        use std::fs::Permissions;
        use std::os::unix::fs::{MetadataExt, PermissionsExt};

        #[test]
        fn the_folder_is_0700_and_the_marker_0600() {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("lore-hook-state");
            assert_eq!(try_mark(&dir, "s", false).unwrap(), Mark::First);
            assert_eq!(std::fs::metadata(&dir).unwrap().mode() & 0o777, 0o700);
            assert_eq!(std::fs::metadata(marker_path(&dir, "s")).unwrap().mode() & 0o777, 0o600);
        }

        #[test]
        fn a_state_folder_open_to_others_is_refused() {
            let tmp = tempfile::tempdir().unwrap();
            let open = tmp.path().join("open");
            std::fs::create_dir(&open).unwrap();
            std::fs::set_permissions(&open, Permissions::from_mode(0o777)).unwrap();
            let err = try_mark(&open, "s", false).unwrap_err().to_string();
            assert!(err.contains("others can write into it"), "{err}");
            assert_eq!(std::fs::read_dir(&open).unwrap().count(), 0);
        }
    }
}
