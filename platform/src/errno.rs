//! An OS error in POSIX's words (`ENOENT`, `EACCES`, …), on every OS.
//!
//! Node names its file-system errors after POSIX's error numbers on every OS (libuv translates
//! Windows' own codes into them), and brewcode's messages quote those names. [`Errno::of`] is
//! that translation: an errno on Unix; on Windows the Win32 error code, mapped as libuv's
//! `uv_translate_sys_error` maps it. `std`'s `io::ErrorKind` is too coarse for it (`EACCES` and
//! `EPERM` are both `PermissionDenied`).

#[cfg(unix)]
use crate::unix::errno as imp;
#[cfg(windows)]
use crate::windows::errno as imp;
use std::io;

/// The errors hookmux names, after POSIX's error numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Errno {
    /// `ENOENT`
    NoEntry,
    /// `EACCES`
    Access,
    /// `EISDIR`
    IsADirectory,
    /// `ENOTDIR`
    NotADirectory,
    /// `EEXIST`
    Exists,
    /// `EPERM`
    NotPermitted,
    /// `EROFS`
    ReadOnly,
    /// `ENOSPC`
    NoSpace,
    /// `ELOOP`
    Loop,
    /// `ENAMETOOLONG`
    NameTooLong,
    /// `ENOTEMPTY`
    NotEmpty,
    /// `EBUSY`
    Busy,
    /// `EMFILE`
    TooManyOpenFiles,
    /// `ENFILE`
    FileTableFull,
    /// `EIO`
    Io,
    /// `EXDEV`
    CrossDevice,
    /// `EINVAL`
    Invalid,
    /// `EAGAIN`
    Again,
    /// `ETXTBSY`
    TextBusy,
    /// `EFBIG`
    TooBig,
}

impl Errno {
    /// The error `err` is, when it came from the OS and is one of these.
    pub fn of(err: &io::Error) -> Option<Errno> {
        imp::errno_of(err)
    }

    /// The OS's own error for this one, as a failed call would have returned it.
    pub fn error(self) -> io::Error {
        imp::error(self)
    }

    /// POSIX's name: `ENOENT`.
    pub fn name(self) -> &'static str {
        match self {
            Errno::NoEntry => "ENOENT",
            Errno::Access => "EACCES",
            Errno::IsADirectory => "EISDIR",
            Errno::NotADirectory => "ENOTDIR",
            Errno::Exists => "EEXIST",
            Errno::NotPermitted => "EPERM",
            Errno::ReadOnly => "EROFS",
            Errno::NoSpace => "ENOSPC",
            Errno::Loop => "ELOOP",
            Errno::NameTooLong => "ENAMETOOLONG",
            Errno::NotEmpty => "ENOTEMPTY",
            Errno::Busy => "EBUSY",
            Errno::TooManyOpenFiles => "EMFILE",
            Errno::FileTableFull => "ENFILE",
            Errno::Io => "EIO",
            Errno::CrossDevice => "EXDEV",
            Errno::Invalid => "EINVAL",
            Errno::Again => "EAGAIN",
            Errno::TextBusy => "ETXTBSY",
            Errno::TooBig => "EFBIG",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_os_says_reads_back_as_the_same_error() {
        let missing = std::fs::File::open(tempfile::tempdir().unwrap().path().join("missing")).unwrap_err();
        assert_eq!(Errno::of(&missing), Some(Errno::NoEntry));
        for errno in [Errno::NoEntry, Errno::Exists, Errno::Access, Errno::NotADirectory] {
            assert_eq!(Errno::of(&errno.error()), Some(errno), "{}", errno.name());
        }
        assert_eq!(Errno::of(&io::Error::other("not the OS's")), None);
    }
}
