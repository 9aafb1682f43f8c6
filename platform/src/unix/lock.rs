//! Locks on Unix: `flock`, which locks the open file description (so two opens in one process
//! exclude each other, unlike `fcntl`'s locks, which belong to the process).

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;

pub fn exclusive(file: &File) -> io::Result<()> {
    flock(file, libc::LOCK_EX)
}

pub fn try_exclusive(file: &File) -> io::Result<bool> {
    match flock(file, libc::LOCK_EX | libc::LOCK_NB) {
        Ok(()) => Ok(true),
        Err(err) if err.kind() == io::ErrorKind::WouldBlock => Ok(false),
        Err(err) => Err(err),
    }
}

pub fn unlock(file: &File) -> io::Result<()> {
    flock(file, libc::LOCK_UN)
}

/// `flock`, again when a signal interrupts it.
fn flock(file: &File, operation: libc::c_int) -> io::Result<()> {
    loop {
        // SAFETY: flock on a descriptor the `File` owns for the whole call; no memory is passed.
        if unsafe { libc::flock(file.as_raw_fd(), operation) } == 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}
