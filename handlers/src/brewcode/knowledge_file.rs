//! How hookmux writes a task's KNOWLEDGE.jsonl: one writer at a time, and a failed append leaves
//! the file as it was.
//!
//! Every hookmux writer (the `knowledge-compact` hook's compaction and handoff entry, `hookmux
//! knowledge add` and `hookmux knowledge compact`) first takes an exclusive lock
//! (`hookmux_platform::lock`: `flock` on Unix) on a sidecar, `KNOWLEDGE.jsonl.lock` beside the
//! file. Compaction holds it from its read to the rename of its result, so an entry appended
//! meanwhile is not written to the file the rename throws away. The lock is on a sidecar, not on the file, because the rename
//! replaces the file: a lock on it would be left behind on the old one. Writers outside hookmux
//! (brewcode's own scripts, an editor) do not take the lock and are not serialized.
//!
//! Neither the file nor its sidecar is written through a symbolic link: a link at either, or in a
//! folder between the project and them, is refused (a task folder linked elsewhere by a cloned
//! repository would otherwise take the entries, or lose a file to compaction).
//!
//! An append writes the whole line at once; when the write fails or is cut short (a full disk,
//! a file size limit), the file is truncated back to the length it had. When the file does not
//! end with a newline (a writer outside hookmux stopped mid-line), the append starts with one:
//! the unfinished line stays, on its own, and is skipped as unreadable, instead of making the
//! new entry unreadable too.

use hookmux_platform::errno::Errno;
use hookmux_platform::fs::{self as platform_fs, Access};
use hookmux_platform::lock;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::safe_fs;

/// A failure, with the system call it came from (`open`, `flock`, `write`, …) for messages.
#[derive(Debug)]
pub struct Failure {
    pub syscall: &'static str,
    /// The file the call was about, when it names one.
    pub path: Option<PathBuf>,
    pub error: io::Error,
}

impl Failure {
    fn new(syscall: &'static str, path: Option<&Path>, error: io::Error) -> Failure {
        Failure { syscall, path: path.map(Path::to_path_buf), error }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.path {
            Some(path) => write!(f, "{} {}: {}", self.syscall, path.display(), self.error),
            None => write!(f, "{}: {}", self.syscall, self.error),
        }
    }
}

/// The sidecar the writers lock: `KNOWLEDGE.jsonl.lock` for `KNOWLEDGE.jsonl`.
pub fn lock_path(file: &Path) -> PathBuf {
    let mut name = file.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".lock");
    file.with_file_name(name)
}

/// The exclusive lock on a knowledge file's sidecar, released when dropped (the descriptor
/// closes).
#[derive(Debug)]
pub struct WriterLock {
    _sidecar: File,
}

impl WriterLock {
    /// Waits for the lock on `file`'s sidecar, creating the sidecar if needed. A symbolic link
    /// between `root` (the project) and the sidecar is refused.
    pub fn acquire(root: &Path, file: &Path) -> Result<WriterLock, Failure> {
        let path = lock_path(file);
        safe_fs::check_no_links(root, &path).map_err(|err| Failure::new("open", None, err))?;
        // No following: a symlink planted as the sidecar must not make hookmux create or open a
        // file elsewhere. Non-blocking: opening a FIFO planted there must not hang; it does not
        // make the lock below non-blocking.
        let open = |write: bool| {
            let mut options = OpenOptions::new();
            platform_fs::create_with(options.read(true).write(write).create(write), Access::Shared);
            platform_fs::open_no_follow_nonblocking(&options, &path)
        };
        let sidecar = match open(true) {
            // A sidecar someone else created, in a folder or of a mode this user cannot write:
            // the lock needs only an open file, and reading gives one.
            Err(err) if matches!(Errno::of(&err), Some(Errno::Access | Errno::ReadOnly | Errno::NotPermitted)) => {
                open(false).map_err(|_| Failure::new("open", Some(&path), err))?
            }
            other => other.map_err(|err| Failure::new("open", Some(&path), err))?,
        };
        let is_file = sidecar.metadata().map_err(|err| Failure::new("stat", Some(&path), err))?.is_file();
        if !is_file {
            let err = io::Error::new(io::ErrorKind::InvalidInput, "not a regular file");
            return Err(Failure::new("open", Some(&path), err));
        }
        lock::exclusive(&sidecar).map_err(|err| Failure::new("flock", Some(&path), err))?;
        Ok(WriterLock { _sidecar: sidecar })
    }
}

/// Appends `line` (which ends with `\n`) to `file`, created if missing, under the writers' lock.
/// On failure the file keeps the length it had. A symbolic link at `file` or between `root` (the
/// project) and `file` is refused.
pub fn append_line(root: &Path, file: &Path, line: &str) -> Result<(), Failure> {
    let _lock = WriterLock::acquire(root, file)?;
    safe_fs::check_no_links(root, file).map_err(|err| Failure::new("open", None, err))?;
    let mut out = platform_fs::open_no_follow(OpenOptions::new().read(true).append(true).create(true), file)
        .map_err(|err| Failure::new("open", Some(file), err))?;
    // Under the lock no other hookmux writer changes the length between here and the write.
    let start = out.metadata().map_err(|err| Failure::new("stat", Some(file), err))?.len();
    let mut bytes = Vec::with_capacity(line.len() + 1);
    if start > 0 && !ends_with_newline(&out, start).map_err(|err| Failure::new("read", Some(file), err))? {
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(line.as_bytes());
    // One write in the normal case; write_all goes on after a short write only to get the
    // error that cut it short (ENOSPC, EFBIG) for the message.
    if let Err(err) = out.write_all(&bytes) {
        // Shrinking is allowed on a full disk and past a size limit alike.
        let _ = out.set_len(start);
        return Err(Failure::new("write", None, err));
    }
    Ok(())
}

fn ends_with_newline(file: &File, len: u64) -> io::Result<bool> {
    let mut last = [0u8; 1];
    platform_fs::read_exact_at(file, &mut last, len - 1)?;
    Ok(last[0] == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sidecar_is_named_after_the_file() {
        assert_eq!(lock_path(Path::new("/t/KNOWLEDGE.jsonl")), Path::new("/t/KNOWLEDGE.jsonl.lock"));
    }

    #[test]
    fn an_append_waits_for_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("KNOWLEDGE.jsonl");
        let held = WriterLock::acquire(dir.path(), &file).unwrap();
        let appender = {
            let (root, file) = (dir.path().to_path_buf(), file.clone());
            std::thread::spawn(move || append_line(&root, &file, "{\"txt\":\"b\"}\n").map_err(|f| f.to_string()))
        };
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(!file.exists(), "the append waits while another writer holds the lock");
        std::fs::write(&file, "{\"txt\":\"a\"}\n").unwrap();
        drop(held);
        appender.join().unwrap().unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "{\"txt\":\"a\"}\n{\"txt\":\"b\"}\n");
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_symlinked_sidecar_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("KNOWLEDGE.jsonl");
        let elsewhere = dir.path().join("elsewhere");
        platform_fs::symlink_file(&elsewhere, &lock_path(&file)).unwrap();
        let failure = append_line(dir.path(), &file, "{}\n").unwrap_err();
        assert!(safe_fs::is_link_refused(&failure.error), "{failure}");
        assert!(!elsewhere.exists() && !file.exists());
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs a symbolic link: Windows makes one only with a privilege or Developer Mode, and Wine makes none"
    )]
    fn a_symlinked_file_or_task_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious\n").unwrap();
        let project = dir.path().join("project");
        let task = project.join(".claude/tasks/a_task");
        std::fs::create_dir_all(&task).unwrap();
        let file = task.join("KNOWLEDGE.jsonl");
        platform_fs::symlink_file(&victim, &file).unwrap();
        let failure = append_line(&project, &file, "{}\n").unwrap_err();
        assert!(safe_fs::is_link_refused(&failure.error), "{failure}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");

        // The task folder itself linked to a folder outside the project.
        let outside = dir.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::remove_dir_all(project.join(".claude/tasks")).unwrap();
        platform_fs::symlink_dir(&outside, &project.join(".claude/tasks")).unwrap();
        let file = project.join(".claude/tasks/KNOWLEDGE.jsonl");
        let failure = append_line(&project, &file, "{}\n").unwrap_err();
        assert!(failure.to_string().contains(".claude/tasks is a symbolic link"), "{failure}");
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "nothing is created outside the project");
    }

    #[test]
    fn an_unfinished_last_line_is_closed_before_the_entry() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("KNOWLEDGE.jsonl");
        std::fs::write(&file, "{\"txt\":\"a\"}\n{\"tx").unwrap();
        append_line(dir.path(), &file, "{\"txt\":\"b\"}\n").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "{\"txt\":\"a\"}\n{\"tx\n{\"txt\":\"b\"}\n");
    }
}
