//! Locks on Windows: `std::fs::File::lock` (Rust 1.89), which is `LockFileEx` over the whole file.
//! A `LockFileEx` lock belongs to the handle, so two opens in one process exclude each other as
//! `flock` does on Unix, and Windows drops it when the handle closes or the process ends.

use std::fs::{File, TryLockError};
use std::io;

pub fn exclusive(file: &File) -> io::Result<()> {
    file.lock()
}

pub fn try_exclusive(file: &File) -> io::Result<bool> {
    match file.try_lock() {
        Ok(()) => Ok(true),
        Err(TryLockError::WouldBlock) => Ok(false),
        Err(TryLockError::Error(err)) => Err(err),
    }
}

/// One `UnlockFile` over the whole file. hookmux takes only exclusive locks, so a handle holds
/// at most one; `std`'s `unlock` unlocks twice (for a handle that also holds a shared lock) and
/// takes `ERROR_NOT_LOCKED` on the second as success, which Wine answers with
/// `ERROR_LOCK_VIOLATION` instead, turning every unlock into an error there.
pub fn unlock(file: &File) -> io::Result<()> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::UnlockFile;
    // SAFETY: the handle is open for as long as `file` is borrowed; the range is the one
    // `File::lock` locks (the whole file, offset 0, length u64::MAX).
    match unsafe { UnlockFile(file.as_raw_handle(), 0, 0, u32::MAX, u32::MAX) } {
        0 => Err(io::Error::last_os_error()),
        _ => Ok(()),
    }
}
