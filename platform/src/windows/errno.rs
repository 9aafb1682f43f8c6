//! POSIX's error names on Windows, from Win32 error codes as libuv's `uv_translate_sys_error`
//! maps them (so hookmux names an error as Node does on the same machine).
//!
//! Three errors have no Win32 code that libuv maps to them (`ENOTDIR`, `ENFILE`, `ETXTBSY`: libuv
//! makes them itself, from what it finds). [`error`] makes those as an error that carries the name,
//! and [`errno_of`] reads it back.

use crate::errno::Errno;
use std::io;
use windows_sys::Win32::Foundation as w;

/// Each Win32 code with the error libuv names it; the first code of an error is the one
/// [`error`] gives.
const TABLE: &[(Errno, u32)] = &[
    (Errno::NoEntry, w::ERROR_FILE_NOT_FOUND),
    (Errno::NoEntry, w::ERROR_PATH_NOT_FOUND),
    (Errno::NoEntry, w::ERROR_BAD_PATHNAME),
    (Errno::NoEntry, w::ERROR_DIRECTORY),
    (Errno::NoEntry, w::ERROR_ENVVAR_NOT_FOUND),
    (Errno::NoEntry, w::ERROR_INVALID_NAME),
    (Errno::NoEntry, w::ERROR_INVALID_DRIVE),
    (Errno::NoEntry, w::ERROR_INVALID_REPARSE_DATA),
    (Errno::NoEntry, w::ERROR_MOD_NOT_FOUND),
    (Errno::Access, w::ERROR_NOACCESS),
    (Errno::Access, w::ERROR_ELEVATION_REQUIRED),
    (Errno::Access, w::ERROR_CANT_ACCESS_FILE),
    (Errno::IsADirectory, w::ERROR_INVALID_FUNCTION),
    (Errno::Exists, w::ERROR_ALREADY_EXISTS),
    (Errno::Exists, w::ERROR_FILE_EXISTS),
    // libuv names "Access denied" EPERM, not EACCES: Node on Windows says `EPERM: operation not
    // permitted` for a file it may not open or replace.
    (Errno::NotPermitted, w::ERROR_ACCESS_DENIED),
    (Errno::NotPermitted, w::ERROR_PRIVILEGE_NOT_HELD),
    (Errno::ReadOnly, w::ERROR_WRITE_PROTECT),
    (Errno::NoSpace, w::ERROR_DISK_FULL),
    (Errno::NoSpace, w::ERROR_HANDLE_DISK_FULL),
    (Errno::NoSpace, w::ERROR_CANNOT_MAKE),
    (Errno::NoSpace, w::ERROR_EA_TABLE_FULL),
    (Errno::NoSpace, w::ERROR_END_OF_MEDIA),
    (Errno::Loop, w::ERROR_CANT_RESOLVE_FILENAME),
    (Errno::NameTooLong, w::ERROR_FILENAME_EXCED_RANGE),
    (Errno::NotEmpty, w::ERROR_DIR_NOT_EMPTY),
    (Errno::Busy, w::ERROR_SHARING_VIOLATION),
    (Errno::Busy, w::ERROR_LOCK_VIOLATION),
    (Errno::Busy, w::ERROR_PIPE_BUSY),
    (Errno::TooManyOpenFiles, w::ERROR_TOO_MANY_OPEN_FILES),
    (Errno::Io, w::ERROR_IO_DEVICE),
    (Errno::Io, w::ERROR_GEN_FAILURE),
    (Errno::Io, w::ERROR_CRC),
    (Errno::Io, w::ERROR_DISK_CORRUPT),
    (Errno::Io, w::ERROR_OPEN_FAILED),
    (Errno::CrossDevice, w::ERROR_NOT_SAME_DEVICE),
    (Errno::Invalid, w::ERROR_INVALID_PARAMETER),
    (Errno::Invalid, w::ERROR_INVALID_DATA),
    (Errno::Invalid, w::ERROR_INSUFFICIENT_BUFFER),
    (Errno::Invalid, w::ERROR_SYMLINK_NOT_SUPPORTED),
    // WSAEWOULDBLOCK
    (Errno::Again, 10035),
    (Errno::TooBig, w::ERROR_FILE_TOO_LARGE),
];

/// An error Windows has no code for, named as libuv names it.
#[derive(Debug)]
struct Posix(Errno);

impl std::fmt::Display for Posix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name())
    }
}

impl std::error::Error for Posix {}

pub fn errno_of(err: &io::Error) -> Option<Errno> {
    match err.raw_os_error() {
        Some(raw) => TABLE.iter().find(|(_, code)| *code as i32 == raw).map(|(errno, _)| *errno),
        None => err.get_ref()?.downcast_ref::<Posix>().map(|posix| posix.0),
    }
}

pub fn error(errno: Errno) -> io::Error {
    match TABLE.iter().find(|(e, _)| *e == errno) {
        Some((_, code)) => io::Error::from_raw_os_error(*code as i32),
        None => {
            let kind = if errno == Errno::NotADirectory { io::ErrorKind::NotADirectory } else { io::ErrorKind::Other };
            io::Error::new(kind, Posix(errno))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_denied_is_eperm_as_node_names_it() {
        let err = io::Error::from_raw_os_error(w::ERROR_ACCESS_DENIED as i32);
        assert_eq!(errno_of(&err), Some(Errno::NotPermitted));
        assert_eq!(errno_of(&Errno::Access.error()), Some(Errno::Access));
    }
}
