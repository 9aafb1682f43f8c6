//! Files and folders where someone else may have been first: owner-only files and folders,
//! opening without following a link or waiting on a FIFO, telling a file that is this user's
//! own from a planted one, and the few file operations `std` leaves to each OS.
//!
//! hookmux writes state into shared places (`/tmp`), into folders a cloned repository shaped, and
//! next to files another user of the machine may have planted. Each function here says what it
//! promises in those terms, and each OS module keeps the promise with what its kernel has:
//! modes, owners and `O_NOFOLLOW` on Unix; ACLs, owner SIDs and reparse points on Windows.
//!
//! What a *link* is: a symbolic link on Unix; on Windows a symbolic link, a junction or any other
//! name-surrogate reparse point (whatever makes a name lead somewhere else).

#[cfg(unix)]
use crate::unix::fs as imp;
#[cfg(windows)]
use crate::windows::fs as imp;
use std::fmt;
use std::fs::{File, Metadata, OpenOptions, Permissions};
use std::io;
use std::path::Path;

/// Who may use a file hookmux creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Only the user (Unix: `0600`).
    Private,
    /// The user writes, everyone may read (Unix: `0644`).
    Shared,
    /// The user writes, everyone may read and run it (Unix: `0755`): a script a host runs as a
    /// program.
    Executable,
    /// What a new file gets when nothing is asked (Unix: `0666` less the umask), for a file that
    /// takes the place of one the user made.
    Usual,
}

/// Sets the access a file created by `options` gets; an existing file keeps its own. Windows
/// has no creation mode (and `std` passes no security descriptor): there a new file gets the
/// access its folder passes on, which in a folder of [`create_private_dirs`]'s or under the
/// user's profile is the user's alone; [`make_file_private`] makes one private anywhere.
pub fn create_with(options: &mut OpenOptions, access: Access) -> &mut OpenOptions {
    imp::create_with(options, access)
}

/// `access` as permissions, for `set_permissions` and for temporary files (`tempfile` makes them
/// private unless told). `None` where the OS keeps access elsewhere than in permissions: then a
/// new file gets what its folder gives it.
pub fn permissions(access: Access) -> Option<Permissions> {
    imp::permissions(access)
}

/// Creates `dir` and its missing parents, each folder it creates private to the user (Unix:
/// `0700` less the umask). A folder already there is left as it is: check it with
/// [`why_not_private_dir`].
pub fn create_private_dirs(dir: &Path) -> io::Result<()> {
    imp::create_private_dirs(dir)
}

/// Makes an existing folder private to the user, whatever the umask made it (Unix: `0700`).
pub fn make_dir_private(dir: &Path) -> io::Result<()> {
    imp::make_dir_private(dir)
}

/// Makes an open file private to the user, whatever the umask made it (Unix: `0600`).
pub fn make_file_private(file: &File) -> io::Result<()> {
    imp::make_file_private(file)
}

/// Opens `path` with `options`, refusing a link at `path` itself (links in the folders above it
/// are followed: see `check_no_links` in the handlers for those). A link there is an error that
/// [`is_link_refusal`] recognises, and nothing is created or opened where it points.
pub fn open_no_follow(options: &OpenOptions, path: &Path) -> io::Result<File> {
    imp::open_no_follow(options, path)
}

/// [`open_no_follow`], and opening something that is not a file (a FIFO, a device) returns at
/// once instead of waiting for another process: a file planted in a shared folder cannot hold
/// hookmux up. The caller then checks what it opened ([`is_own_single_file`], or
/// `metadata().is_file()`).
pub fn open_no_follow_nonblocking(options: &OpenOptions, path: &Path) -> io::Result<File> {
    imp::open_no_follow_nonblocking(options, path)
}

/// Whether `err` is [`open_no_follow`]'s refusal of a link.
pub fn is_link_refusal(err: &io::Error) -> bool {
    imp::is_link_refusal(err)
}

/// Whether `meta` (from `symlink_metadata`) is a link, in the sense of this module's doc.
pub fn is_link(meta: &Metadata) -> bool {
    imp::is_link(meta)
}

/// Whether `file` is a regular file with one name only (not a hard link to a file elsewhere) and
/// belongs to the user hookmux runs as.
pub fn is_own_single_file(file: &File) -> io::Result<bool> {
    imp::is_own_single_file(file)
}

/// Why `dir` cannot serve as a folder private to the user, `None` when it can: it must be a real
/// folder (not a link), belong to the user hookmux runs as, and let no one else create, remove or
/// rename entries in it. An error when it cannot be examined (missing, say).
pub fn why_not_private_dir(dir: &Path) -> io::Result<Option<NotPrivate>> {
    imp::why_not_private_dir(dir)
}

/// What makes a folder not private to the user ([`why_not_private_dir`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotPrivate {
    /// It is a link.
    Link,
    /// It is not a folder.
    NotAFolder,
    /// Another user owns it; both named as the OS names users (`user id 1001` and `1000`).
    Owner { owner: String, me: String },
    /// Others can write into it: `how` says so in the OS's terms (`mode 777`), and `fix` is a
    /// command that takes their access away, where there is one.
    OpenToOthers { how: String, fix: Option<String> },
}

impl fmt::Display for NotPrivate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotPrivate::Link => write!(f, "it is a symbolic link"),
            NotPrivate::NotAFolder => write!(f, "it is not a folder"),
            NotPrivate::Owner { owner, me } => write!(f, "it belongs to {owner}, not to you ({me})"),
            NotPrivate::OpenToOthers { how, .. } => write!(f, "others can write into it ({how})"),
        }
    }
}

/// The Unix permission bits of a file (`0o777` and the set-id and sticky bits), `None` where the
/// OS keeps access elsewhere (Windows: an access list). For reports and for tests of what
/// hookmux made; decisions use [`why_not_private_dir`] and [`open_to_others`], which mean the
/// same on every OS.
pub fn mode(meta: &Metadata) -> Option<u32> {
    imp::mode(meta)
}

/// Sets a file's Unix permission bits; `Ok(false)`, and nothing changed, where the OS has none.
pub fn set_mode(path: &Path, mode: u32) -> io::Result<bool> {
    imp::set_mode(path, mode)
}

/// Makes a file one the OS will start as a program: on Unix the execute bits added wherever
/// the read bits are; on Windows nothing (a file runs by its extension).
pub fn make_runnable(path: &Path) -> io::Result<()> {
    imp::make_runnable(path)
}

/// Whether users other than the owner have any access to the file, as libpq asks of a password
/// file. `false` where the OS has no such bits to read (Windows: libpq skips the check there).
pub fn open_to_others(meta: &Metadata) -> bool {
    imp::open_to_others(meta)
}

/// Whether the OS would refuse to run the file for want of permission (Unix: no execute bit).
/// Windows has no such permission: there a file is never refused for it.
pub fn lacks_execute_permission(meta: &Metadata) -> bool {
    imp::lacks_execute_permission(meta)
}

/// `Ok` when the user hookmux runs as may create files in `dir`, as the OS decides (ACLs and
/// read-only mounts included, not the mode bits alone); else the OS's error.
pub fn check_can_write_into(dir: &Path) -> io::Result<()> {
    imp::check_can_write_into(dir)
}

/// Which file a name or an open file is: two are equal when they are the same file, whatever
/// names lead to it. A file replaced by a rename is a different one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId(imp::FileId);

impl FileId {
    /// The file `path` names (links followed).
    pub fn of_path(path: &Path) -> io::Result<FileId> {
        imp::file_id_of_path(path).map(FileId)
    }

    /// The file `file` is.
    pub fn of(file: &File) -> io::Result<FileId> {
        imp::file_id_of(file).map(FileId)
    }
}

/// Reads the whole file at `path`, as `std::fs::read` does, except that a folder at `path` is
/// the error Unix gives for reading one (`EISDIR` in [`crate::errno`]'s words) on every OS:
/// Windows refuses to open a folder as a file ("Access denied"), where Node, whose messages
/// brewcode quotes, opens it and fails to read it.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    imp::read(path)
}

/// Sets the modification time of the file or folder at `path` (a folder too: `std` opens none
/// on Windows).
pub fn set_modified(path: &Path, at: std::time::SystemTime) -> io::Result<()> {
    imp::set_modified(path, at)
}

/// Reads exactly `buf.len()` bytes at `offset`, as `read_exact` would after a seek. The file's
/// own position may move (it does on Windows): do not rely on it afterwards, and append only to
/// files opened for appending.
pub fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    imp::read_exact_at(file, buf, offset)
}

/// The absolute path of `path` with every link resolved, as `std::fs::canonicalize`, but in
/// the form the user and the hosts write: on Windows `C:\…` rather than the `\\?\C:\…` that
/// `std` gives (and that no shell, host or user reads back), whenever the path has one (`dunce`
/// keeps the verbatim form only for a path that needs it: too long, or a name Windows reserves).
pub fn canonicalize(path: impl AsRef<Path>) -> io::Result<std::path::PathBuf> {
    dunce::canonicalize(path)
}

/// Whether the file system holding the existing `path` takes names differing only in case for
/// one file; see [`crate::path::names_fold_case`], which finds the folder to ask.
pub(crate) fn names_fold_case_at(path: &Path) -> bool {
    imp::names_fold_case_at(path)
}

/// Makes `link` a link to the file `target` (which need not exist), as Node's
/// `fs.symlinkSync(target, link)` does. Windows allows it only with the privilege or developer
/// mode: otherwise the OS's error.
pub fn symlink_file(target: &Path, link: &Path) -> io::Result<()> {
    imp::symlink_file(target, link)
}

/// Makes `link` a link to the folder `target`; as [`symlink_file`].
pub fn symlink_dir(target: &Path, link: &Path) -> io::Result<()> {
    imp::symlink_dir(target, link)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn modes_are_set_and_read_where_the_os_has_them_and_a_program_gets_execute_bits_where_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("tool");
        std::fs::write(&file, "").unwrap();
        let meta = || std::fs::metadata(&file).unwrap();
        if cfg!(unix) {
            assert!(set_mode(&file, 0o640).unwrap());
            assert_eq!(mode(&meta()), Some(0o640));
            make_runnable(&file).unwrap();
            assert_eq!(mode(&meta()), Some(0o750), "execute for the owner and group, who may read it");
        } else {
            assert!(!set_mode(&file, 0o640).unwrap());
            assert_eq!(mode(&meta()), None);
            make_runnable(&file).unwrap();
        }
        assert!(!lacks_execute_permission(&meta()));
    }

    /// Whether a link was made; on Windows, where making one needs a privilege or Developer Mode
    /// (and Wine makes none), a test that needs one says so and stops.
    fn made(link: io::Result<()>) -> bool {
        match link {
            Ok(()) => true,
            Err(err) if cfg!(windows) => {
                let _ = writeln!(io::stderr(), "SKIPPED: this system makes no symbolic links here ({err})");
                false
            }
            Err(err) => panic!("cannot make a link: {err}"),
        }
    }

    /// A folder, and in it a `victim` file that links point at.
    fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious\n").unwrap();
        (dir, victim)
    }

    #[test]
    fn a_link_at_the_path_is_refused_and_nothing_is_written_through_it() {
        let (dir, victim) = setup();
        let link = dir.path().join("link");
        if !made(symlink_file(&victim, &link)) {
            return;
        }
        let err = open_no_follow(OpenOptions::new().append(true).create(true), &link).unwrap_err();
        assert!(is_link_refusal(&err), "{err}");
        let err = open_no_follow_nonblocking(OpenOptions::new().write(true), &link).unwrap_err();
        assert!(is_link_refusal(&err), "{err}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
        assert!(is_link(&std::fs::symlink_metadata(&link).unwrap()));
        assert!(!is_link(&std::fs::symlink_metadata(&victim).unwrap()));
        // A missing file is not a link: the error is the OS's own.
        let missing = open_no_follow(OpenOptions::new().read(true), &dir.path().join("missing")).unwrap_err();
        assert!(!is_link_refusal(&missing) && missing.kind() == io::ErrorKind::NotFound, "{missing}");
        // A plain file opens.
        let mut text = String::new();
        open_no_follow(OpenOptions::new().read(true), &victim).unwrap().read_to_string(&mut text).unwrap();
        assert_eq!(text, "precious\n");
    }

    #[test]
    fn a_hard_link_or_a_folder_is_not_an_own_single_file() {
        let (dir, victim) = setup();
        let file = open_no_follow_nonblocking(OpenOptions::new().read(true), &victim).unwrap();
        assert!(is_own_single_file(&file).unwrap());
        std::fs::hard_link(&victim, dir.path().join("second-name")).unwrap();
        assert!(!is_own_single_file(&file).unwrap(), "the file has two names now");
        let folder = open_no_follow(OpenOptions::new().read(true), dir.path()).unwrap();
        assert!(!is_own_single_file(&folder).unwrap());
    }

    #[test]
    fn a_private_folder_is_made_and_a_link_or_a_file_is_refused() {
        let (dir, victim) = setup();
        let state = dir.path().join("a/b/state");
        create_private_dirs(&state).unwrap();
        create_private_dirs(&state).unwrap();
        assert_eq!(why_not_private_dir(&state).unwrap(), None);
        assert_eq!(why_not_private_dir(&victim).unwrap(), Some(NotPrivate::NotAFolder));
        // A file in the place exists, on every OS; the check above says what it is.
        assert_eq!(create_private_dirs(&victim).unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        assert!(why_not_private_dir(&dir.path().join("missing")).is_err());
        check_can_write_into(&state).unwrap();
        assert!(check_can_write_into(&dir.path().join("missing")).is_err());
        assert_eq!(std::fs::read_dir(&state).unwrap().count(), 0, "the check leaves nothing behind");
        let linked = dir.path().join("linked");
        if made(symlink_dir(&state, &linked)) {
            assert_eq!(why_not_private_dir(&linked).unwrap(), Some(NotPrivate::Link));
        }
    }

    #[test]
    fn reading_a_folder_fails_as_on_unix_and_a_folder_takes_a_modification_time() {
        let (dir, victim) = setup();
        assert_eq!(read(&victim).unwrap(), b"precious\n");
        let err = read(dir.path()).unwrap_err();
        assert_eq!(crate::errno::Errno::of(&err), Some(crate::errno::Errno::IsADirectory), "{err}");
        let missing = read(&dir.path().join("missing")).unwrap_err();
        assert_eq!(crate::errno::Errno::of(&missing), Some(crate::errno::Errno::NoEntry), "{missing}");
        let then = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
        for path in [dir.path(), victim.as_path()] {
            set_modified(path, then).unwrap();
            let modified = std::fs::metadata(path).unwrap().modified().unwrap();
            let off = modified.duration_since(then).unwrap_or_else(|e| e.duration());
            assert!(off < std::time::Duration::from_secs(1), "{}: {modified:?}", path.display());
        }
    }

    #[test]
    fn a_file_is_known_by_its_id_through_any_name_until_replaced() {
        let (dir, victim) = setup();
        let id = FileId::of_path(&victim).unwrap();
        assert_eq!(FileId::of(&File::open(&victim).unwrap()).unwrap(), id);
        let other_name = dir.path().join("other-name");
        std::fs::hard_link(&victim, &other_name).unwrap();
        assert_eq!(FileId::of_path(&other_name).unwrap(), id);
        let replacement = dir.path().join("replacement");
        std::fs::write(&replacement, "new\n").unwrap();
        std::fs::rename(&replacement, &victim).unwrap();
        assert_ne!(FileId::of_path(&victim).unwrap(), id);
    }

    #[test]
    fn reading_at_an_offset_leaves_appending_where_it_was() {
        let (_dir, victim) = setup();
        let mut file = OpenOptions::new().read(true).append(true).open(&victim).unwrap();
        let mut last = [0u8; 1];
        read_exact_at(&file, &mut last, 8).unwrap();
        assert_eq!(&last, b"\n");
        file.write_all(b"more\n").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\nmore\n");
        assert_eq!(read_exact_at(&file, &mut [0u8; 4], 100).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
    }

    #[cfg(windows)]
    mod windows {
        use super::super::*;
        use crate::windows::security;
        use std::os::windows::io::AsRawHandle;
        use windows_sys::Win32::Security::Authorization as a;
        use windows_sys::Win32::Security::{GetSecurityDescriptorDacl, DACL_SECURITY_INFORMATION};

        /// Gives Everyone full access to `path` (and, for a folder, to what is made in it).
        fn open_to_everyone(path: &Path) {
            let sddl: Vec<u16> = "D:(A;OICI;FA;;;WD)".encode_utf16().chain([0]).collect();
            let (mut sd, mut present, mut dacl, mut defaulted) = (std::ptr::null_mut(), 0, std::ptr::null_mut(), 0);
            // SAFETY: NUL-terminated strings in, out-pointers to locals; the descriptor leaks.
            unsafe {
                assert_ne!(
                    a::ConvertStringSecurityDescriptorToSecurityDescriptorW(
                        sddl.as_ptr(),
                        a::SDDL_REVISION_1,
                        &mut sd,
                        std::ptr::null_mut()
                    ),
                    0
                );
                GetSecurityDescriptorDacl(sd, &mut present, &mut dacl, &mut defaulted);
                let name = security::wide(path);
                let status = a::SetNamedSecurityInfoW(
                    name.as_ptr(),
                    a::SE_FILE_OBJECT,
                    DACL_SECURITY_INFORMATION,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    dacl,
                    std::ptr::null(),
                );
                assert_eq!(status, 0, "SetNamedSecurityInfoW");
            }
        }

        fn others_who_may_write(file: &File) -> Vec<String> {
            let token = security::token().unwrap();
            let descriptor = security::descriptor(file.as_raw_handle()).unwrap();
            descriptor.other_writers(token).iter().map(security::Sid::text).collect()
        }

        #[test]
        fn a_folder_everyone_may_write_into_is_refused_until_made_private() {
            let dir = tempfile::tempdir().unwrap();
            let folder = dir.path().join("state");
            create_private_dirs(&folder).unwrap();
            open_to_everyone(&folder);
            match why_not_private_dir(&folder).unwrap() {
                Some(NotPrivate::OpenToOthers { how, fix: Some(fix) }) => {
                    assert!(how.starts_with("its access list lets "), "{how}");
                    assert!(fix.starts_with("icacls \"") && fix.ends_with("/remove:g *S-1-1-0"), "{fix}");
                }
                other => panic!("not refused: {other:?}"),
            }
            make_dir_private(&folder).unwrap();
            assert_eq!(why_not_private_dir(&folder).unwrap(), None);
        }

        #[test]
        fn what_a_private_folder_holds_is_private_and_a_file_is_made_private_anywhere() {
            let dir = tempfile::tempdir().unwrap();
            let folder = dir.path().join("private");
            create_private_dirs(&folder).unwrap();
            let inside = File::create(folder.join("f")).unwrap();
            assert_eq!(others_who_may_write(&inside), Vec::<String>::new());

            let path = dir.path().join("open");
            let file = File::create(&path).unwrap();
            open_to_everyone(&path);
            assert_eq!(others_who_may_write(&file), ["S-1-1-0"]);
            make_file_private(&file).unwrap();
            assert_eq!(others_who_may_write(&file), Vec::<String>::new());
            assert!(is_own_single_file(&file).unwrap());
        }
    }

    #[cfg(unix)]
    mod unix {
        use super::super::*;
        use std::os::unix::fs::{MetadataExt, PermissionsExt};

        #[test]
        fn modes_are_as_documented() {
            let dir = tempfile::tempdir().unwrap();
            let created = dir.path().join("private");
            let file =
                create_with(OpenOptions::new().write(true).create_new(true), Access::Private).open(&created).unwrap();
            assert_eq!(file.metadata().unwrap().mode() & 0o777, 0o600);
            file.set_permissions(Permissions::from_mode(0o666)).unwrap();
            make_file_private(&file).unwrap();
            assert_eq!(file.metadata().unwrap().mode() & 0o777, 0o600);
            assert_eq!(permissions(Access::Shared).unwrap().mode(), 0o644);
            assert_eq!(permissions(Access::Usual).unwrap().mode(), 0o666);

            let folder = dir.path().join("folder");
            create_private_dirs(&folder).unwrap();
            assert_eq!(std::fs::metadata(&folder).unwrap().mode() & 0o777, 0o700);
            std::fs::set_permissions(&folder, Permissions::from_mode(0o777)).unwrap();
            let open = why_not_private_dir(&folder).unwrap().unwrap();
            assert_eq!(open.to_string(), "others can write into it (mode 777)");
            assert_eq!(
                open,
                NotPrivate::OpenToOthers {
                    how: "mode 777".into(),
                    fix: Some(format!("chmod go-w {}", folder.display()))
                }
            );
            make_dir_private(&folder).unwrap();
            assert_eq!(why_not_private_dir(&folder).unwrap(), None);
        }

        #[test]
        fn group_or_other_bits_open_a_file_and_execute_bits_let_it_run() {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("f");
            std::fs::write(&path, "").unwrap();
            let with = |mode: u32| {
                std::fs::set_permissions(&path, Permissions::from_mode(mode)).unwrap();
                std::fs::metadata(&path).unwrap()
            };
            assert!(!open_to_others(&with(0o600)) && open_to_others(&with(0o640)) && open_to_others(&with(0o604)));
            assert!(lacks_execute_permission(&with(0o644)) && !lacks_execute_permission(&with(0o744)));
        }
    }
}
