//! POSIX's error names on Unix: the errno itself.

use crate::errno::Errno;
use std::io;

/// Each error with its number; one table read both ways.
const TABLE: &[(Errno, i32)] = &[
    (Errno::NoEntry, libc::ENOENT),
    (Errno::Access, libc::EACCES),
    (Errno::IsADirectory, libc::EISDIR),
    (Errno::NotADirectory, libc::ENOTDIR),
    (Errno::Exists, libc::EEXIST),
    (Errno::NotPermitted, libc::EPERM),
    (Errno::ReadOnly, libc::EROFS),
    (Errno::NoSpace, libc::ENOSPC),
    (Errno::Loop, libc::ELOOP),
    (Errno::NameTooLong, libc::ENAMETOOLONG),
    (Errno::NotEmpty, libc::ENOTEMPTY),
    (Errno::Busy, libc::EBUSY),
    (Errno::TooManyOpenFiles, libc::EMFILE),
    (Errno::FileTableFull, libc::ENFILE),
    (Errno::Io, libc::EIO),
    (Errno::CrossDevice, libc::EXDEV),
    (Errno::Invalid, libc::EINVAL),
    (Errno::Again, libc::EAGAIN),
    (Errno::TextBusy, libc::ETXTBSY),
    (Errno::TooBig, libc::EFBIG),
];

pub fn errno_of(err: &io::Error) -> Option<Errno> {
    let raw = err.raw_os_error()?;
    TABLE.iter().find(|(_, number)| *number == raw).map(|(errno, _)| *errno)
}

pub fn error(errno: Errno) -> io::Error {
    let number = TABLE.iter().find(|(e, _)| *e == errno).map_or(libc::EIO, |(_, number)| *number);
    io::Error::from_raw_os_error(number)
}
