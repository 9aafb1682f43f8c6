//! Writing files where someone else may have planted a symbolic link.
//!
//! A cloned repository can ship symbolic links anywhere in its tree, the model can create them
//! through the tools it runs, and another user of the machine can create names in a shared
//! temporary folder before hookmux does. Whatever hookmux writes in such places goes through
//! this module:
//!
//! - [`check_no_links`] refuses a path when any of its components below a root (the project) is
//!   a symbolic link, so that `.claude/tasks -> ~` cannot make a write land in the home folder.
//! - [`replace`] writes a whole file atomically through a temporary file with a random name,
//!   created with `O_EXCL`, then renamed over the file.
//! - [`open_append`] opens a file for appending with `O_NOFOLLOW`.
//! - [`private_dir`] creates a state folder `0700` and checks that what is there is a real folder
//!   owned by this user that no one else can write into, as ssh-agent checks its socket folder.
//!
//! The checks look before they write: they protect against links that are there (shipped with a
//! repository, planted before hookmux runs), and `O_NOFOLLOW`/`O_EXCL` close the race at the last
//! component. A folder swapped for a link between the check and the write is not covered; state
//! folders are private to the user so that no one else can do that there.

use hookmux_platform::dirs::{variable, Folder};
use hookmux_platform::errno::Errno;
use hookmux_platform::fs::{self as platform_fs, Access, NotPrivate};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A refused write: `link` (a component of `path`) is a symbolic link.
#[derive(Debug)]
pub struct LinkRefused {
    pub path: PathBuf,
    pub link: PathBuf,
}

impl fmt::Display for LinkRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.link == self.path { "it".to_string() } else { self.link.display().to_string() };
        write!(
            f,
            "refused to write {}: {what} is a symbolic link, and hookmux does not write through symbolic links; \
             replace the link with a real file or folder",
            self.path.display()
        )
    }
}

impl std::error::Error for LinkRefused {}

/// Whether `err` is a [`LinkRefused`].
pub fn is_link_refused(err: &io::Error) -> bool {
    err.get_ref().is_some_and(|inner| inner.is::<LinkRefused>())
}

fn refused(path: &Path, link: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, LinkRefused { path: path.to_path_buf(), link: link.to_path_buf() })
}

/// Refuses `path` when one of its components below `root`, `path` itself included, is a symbolic
/// link. `root` itself may be one (a project reached through a link is still the project). A
/// `path` outside `root` has only its last component checked. Components that do not exist yet
/// end the walk: there is nothing there to follow.
pub fn check_no_links(root: &Path, path: &Path) -> io::Result<()> {
    let (root, path) = (crate::paths::normalize(root), crate::paths::normalize(path));
    let (mut at, rest) = match path.strip_prefix(&root) {
        Ok(rest) => (root.clone(), rest.to_path_buf()),
        Err(_) => match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) => (parent.to_path_buf(), PathBuf::from(name)),
            _ => return Ok(()),
        },
    };
    for part in rest.components() {
        at.push(part);
        match fs::symlink_metadata(&at) {
            Ok(meta) if platform_fs::is_link(&meta) => return Err(refused(&path, &at)),
            Ok(_) => {}
            // Missing, or not searchable: the write itself will report it.
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

/// Which step of [`replace`] failed, for messages in the words of the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A component is a symbolic link ([`LinkRefused`]).
    Check,
    /// Creating or writing the temporary file.
    Write,
    /// Renaming it over the file.
    Rename,
}

/// Replaces `path` with `bytes`: a temporary file with a random name beside it (`O_EXCL`, mode
/// `0666` less the umask, as a new file gets), renamed over it. A symbolic link below `root`,
/// `path` itself included, is refused; the temporary file is removed on any failure.
pub fn replace(root: &Path, path: &Path, bytes: &[u8]) -> Result<(), (Step, io::Error)> {
    check_no_links(root, path).map_err(|err| (Step::Check, err))?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    if let Some(usual) = platform_fs::permissions(Access::Usual) {
        builder.permissions(usual);
    }
    let mut temp = builder.tempfile_in(dir).map_err(|err| (Step::Write, os_error(err)))?;
    temp.write_all(bytes).map_err(|err| (Step::Write, err))?;
    temp.persist(path).map_err(|err| (Step::Rename, err.error))?;
    Ok(())
}

/// Opens `path` for appending, created (`0666` less the umask) if missing, refusing a symbolic
/// link below `root` and, with `O_NOFOLLOW`, at `path` itself.
pub fn open_append(root: &Path, path: &Path) -> io::Result<File> {
    check_no_links(root, path)?;
    open_no_follow(OpenOptions::new().append(true).create(true), path)
}

/// Opens `path` with `options` and `O_NOFOLLOW`: a symbolic link at `path` is a [`LinkRefused`].
pub fn open_no_follow(options: &OpenOptions, path: &Path) -> io::Result<File> {
    platform_fs::open_no_follow(options, path).map_err(|err| {
        if platform_fs::is_link_refusal(&err) {
            refused(path, path)
        } else {
            err
        }
    })
}

/// `create_dir_all`, refusing a symbolic link below `root`.
pub fn create_dirs(root: &Path, dir: &Path) -> io::Result<()> {
    check_no_links(root, dir)?;
    fs::create_dir_all(dir)
}

/// A state folder of this user's: created `0700` (with its missing parents) when missing; then
/// it must be a real folder, not a symbolic link, owned by this user and not writable by group
/// or others. Otherwise an error that names the folder and what to do.
pub fn private_dir(dir: &Path) -> io::Result<()> {
    match platform_fs::create_private_dirs(dir) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
        Err(err) => return Err(io::Error::new(err.kind(), format!("cannot create {}: {err}", dir.display()))),
    }
    check_private_dir(dir)
}

/// [`private_dir`]'s checks alone, for a folder that exists.
pub fn check_private_dir(dir: &Path) -> io::Result<()> {
    let problem = platform_fs::why_not_private_dir(dir)
        .map_err(|err| io::Error::new(err.kind(), format!("{}: {err}", dir.display())))?;
    let Some(problem) = problem else { return Ok(()) };
    let remove = format!(
        "remove it (hookmux creates it again, private to you), or point the variable that places it \
         ({}, {}, LORE_HOOK_STATE_DIR) at a folder of your own",
        variable(Folder::Temp),
        variable(Folder::State)
    );
    let remedy = match &problem {
        NotPrivate::OpenToOthers { fix: Some(fix), .. } => {
            format!("run `{fix}` if no one else has used it, else {remove}")
        }
        _ => remove,
    };
    Err(io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("hookmux does not use {} as its state folder: {problem}; {remedy}", dir.display()),
    ))
}

/// An error of tempfile's as the system's own: tempfile adds the path as text and drops the
/// error number, which callers need to word the error as the system does. The kinds a temporary
/// file's creation meets are mapped back; others stay as they are.
fn os_error(err: io::Error) -> io::Error {
    if err.raw_os_error().is_some() {
        return err;
    }
    let errno = match err.kind() {
        io::ErrorKind::NotFound => Errno::NoEntry,
        io::ErrorKind::PermissionDenied => Errno::Access,
        io::ErrorKind::ReadOnlyFilesystem => Errno::ReadOnly,
        io::ErrorKind::StorageFull => Errno::NoSpace,
        io::ErrorKind::NotADirectory => Errno::NotADirectory,
        _ => return err,
    };
    errno.error()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookmux_platform::fs::{symlink_dir, symlink_file};

    /// A project folder and, beside it, a victim file the links point at.
    fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        fs::create_dir(&project).unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious\n").unwrap();
        (dir, project, victim)
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_link_in_any_component_below_the_root_is_refused() {
        let (dir, project, _victim) = setup();
        let outside = dir.path().join("outside");
        fs::create_dir(&outside).unwrap();
        symlink_dir(&outside, &project.join("sub")).unwrap();
        let err = check_no_links(&project, &project.join("sub/deeper/file")).unwrap_err();
        assert!(is_link_refused(&err), "{err}");
        assert!(err.to_string().contains(&format!("{} is a symbolic link", project.join("sub").display())), "{err}");
        // The root itself may be a link; missing components end the walk.
        let linked_root = dir.path().join("linked-root");
        symlink_dir(&project, &linked_root).unwrap();
        check_no_links(&linked_root, &linked_root.join("a/b/c")).unwrap();
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn replace_does_not_write_through_a_link() {
        let (_dir, project, victim) = setup();
        let file = project.join("PLAN.md");
        symlink_file(&victim, &file).unwrap();
        let (step, err) = replace(&project, &file, b"new").unwrap_err();
        assert_eq!(step, Step::Check);
        assert!(is_link_refused(&err), "{err}");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
        // A planted `<file>.tmp` (the name brewcode uses) is not written either.
        fs::remove_file(&file).unwrap();
        symlink_file(&victim, &project.join("PLAN.md.tmp")).unwrap();
        replace(&project, &file, b"new").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "new");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
        let left: Vec<_> = fs::read_dir(&project).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left.len(), 2, "no temporary file is left: {left:?}");
    }

    #[test]
    fn a_failed_replace_names_the_system_error() {
        let (_dir, project, _victim) = setup();
        let (step, err) = replace(&project, &project.join("missing/PLAN.md"), b"x").unwrap_err();
        assert_eq!((step, Errno::of(&err)), (Step::Write, Some(Errno::NoEntry)));
        fs::create_dir(project.join("folder")).unwrap();
        fs::write(project.join("folder/inside"), "").unwrap();
        let (step, err) = replace(&project, &project.join("folder"), b"x").unwrap_err();
        assert_eq!(step, Step::Rename, "{err}");
        assert_eq!(fs::read_dir(&project).unwrap().count(), 1, "the temporary file is removed");
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn append_refuses_a_link_at_the_file() {
        let (_dir, project, victim) = setup();
        let file = project.join("log");
        symlink_file(&victim, &file).unwrap();
        let err = open_append(&project, &file).unwrap_err();
        assert!(is_link_refused(&err), "{err}");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
    }

    #[test]
    fn a_private_dir_is_made_and_checked() {
        let (dir, _project, victim) = setup();
        let state = dir.path().join("a/state");
        private_dir(&state).unwrap();
        private_dir(&state).unwrap();

        let err = private_dir(&victim).unwrap_err().to_string();
        assert!(err.contains("not a folder"), "{err}");
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_linked_private_dir_is_refused() {
        let (dir, _project, _victim) = setup();
        std::fs::create_dir(dir.path().join("a")).unwrap();
        let linked = dir.path().join("linked");
        symlink_dir(&dir.path().join("a"), &linked).unwrap();
        let err = private_dir(&linked).unwrap_err().to_string();
        assert!(err.contains("is a symbolic link") && err.contains(&linked.display().to_string()), "{err}");
    }

    /// Modes: what Unix keeps access in.
    #[cfg(unix)]
    mod unix {
        use super::*;
        use std::fs::Permissions;
        use std::os::unix::fs::{MetadataExt, PermissionsExt};

        #[test]
        fn a_private_dir_is_made_0700_and_one_open_to_others_is_refused_with_the_fix() {
            let (dir, _project, _victim) = setup();
            let state = dir.path().join("a/state");
            private_dir(&state).unwrap();
            assert_eq!(fs::metadata(&state).unwrap().mode() & 0o777, 0o700);

            let open = dir.path().join("open");
            fs::create_dir(&open).unwrap();
            fs::set_permissions(&open, Permissions::from_mode(0o777)).unwrap();
            let err = private_dir(&open).unwrap_err().to_string();
            assert!(err.contains("others can write into it (mode 777)"), "{err}");
            assert!(err.contains(&format!("run `chmod go-w {}` if no one else has used it", open.display())), "{err}");
        }
    }
}
