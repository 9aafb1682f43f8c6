//! Exclusive locks on a file, between processes and between open files of one process.
//!
//! A lock belongs to the open file (the `File`): a second `File` opened on the same path, in
//! this process or another, waits for it, and it is released by [`unlock`], by closing the
//! `File`, or when the process ends, however it ends.
//!
//! Lock only a file kept for the purpose (a `.lock` beside the data): on Unix the lock binds only
//! those who ask for it (`flock`), while on Windows it also refuses other handles' reads and
//! writes of the bytes it covers (`LockFileEx`, as `std::fs::File::lock`).

#[cfg(unix)]
use crate::unix::lock as imp;
#[cfg(windows)]
use crate::windows::lock as imp;
use std::fs::File;
use std::io;

/// Takes the exclusive lock on `file`, waiting as long as another holds it.
pub fn exclusive(file: &File) -> io::Result<()> {
    imp::exclusive(file)
}

/// Takes the exclusive lock on `file` when no one holds it: `false`, at once, when someone does.
pub fn try_exclusive(file: &File) -> io::Result<bool> {
    imp::try_exclusive(file)
}

/// Releases the lock `file` holds.
pub fn unlock(file: &File) -> io::Result<()> {
    imp::unlock(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_open_files_exclude_each_other_until_one_unlocks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".lock");
        let (first, second) = (File::create(&path).unwrap(), File::open(&path).unwrap());
        exclusive(&first).unwrap();
        assert!(!try_exclusive(&second).unwrap(), "held by the other open file");
        unlock(&first).unwrap();
        assert!(try_exclusive(&second).unwrap());
        drop(second);
        assert!(try_exclusive(&first).unwrap(), "closing the file released its lock");
    }

    #[test]
    fn a_waiting_lock_is_taken_when_the_holder_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".lock");
        let held = File::create(&path).unwrap();
        exclusive(&held).unwrap();
        let waiter = std::thread::spawn(move || {
            let file = File::open(&path).unwrap();
            exclusive(&file).map(|()| std::time::Instant::now())
        });
        std::thread::sleep(std::time::Duration::from_millis(100));
        let released = std::time::Instant::now();
        drop(held);
        let taken = waiter.join().unwrap().unwrap();
        assert!(taken >= released, "the waiter got the lock only once it was released");
    }
}
