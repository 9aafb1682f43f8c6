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

pub fn unlock(file: &File) -> io::Result<()> {
    file.unlock()
}
