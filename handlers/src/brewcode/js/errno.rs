//! Node's file-system error messages, which brewcode quotes in its log lines:
//! `ENOENT: no such file or directory, open '/p/.claude/TASK.md'`.

use hookmux_platform::errno::Errno;
use std::io;

/// The message Node gives an `fs.*Sync` failure: `CODE: description, syscall 'path'`, with
/// `-> 'dest'` for two-path calls. Errors without an errno (which Node never raises from fs)
/// keep Rust's text.
pub fn message(err: &io::Error, syscall: &str, path: Option<&str>, dest: Option<&str>) -> String {
    let Some((code, description)) = describe(err) else {
        return err.to_string();
    };
    let mut out = format!("{code}: {description}, {syscall}");
    if let Some(path) = path {
        out.push_str(&format!(" '{path}'"));
    }
    if let Some(dest) = dest {
        out.push_str(&format!(" -> '{dest}'"));
    }
    out
}

/// The errno's name (`ENOENT`), as Node puts it in `spawn` errors.
pub fn code(err: &io::Error) -> String {
    match describe(err) {
        Some((code, _)) => code.to_string(),
        None => err.to_string(),
    }
}

/// libuv's name and text for an OS error: the name is POSIX's on every OS, as libuv translates
/// other systems' codes to it (and so does [`Errno::of`]).
fn describe(err: &io::Error) -> Option<(&'static str, &'static str)> {
    let errno = Errno::of(err)?;
    let text = match errno {
        Errno::NoEntry => "no such file or directory",
        Errno::Access => "permission denied",
        Errno::IsADirectory => "illegal operation on a directory",
        Errno::NotADirectory => "not a directory",
        Errno::Exists => "file already exists",
        Errno::NotPermitted => "operation not permitted",
        Errno::ReadOnly => "read-only file system",
        Errno::NoSpace => "no space left on device",
        Errno::Loop => "too many symbolic links encountered",
        Errno::NameTooLong => "name too long",
        Errno::NotEmpty => "directory not empty",
        Errno::Busy => "resource busy or locked",
        Errno::TooManyOpenFiles => "too many open files",
        Errno::FileTableFull => "file table overflow",
        Errno::Io => "i/o error",
        Errno::CrossDevice => "cross-device link not permitted",
        Errno::Invalid => "invalid argument",
        Errno::Again => "resource temporarily unavailable",
        Errno::TextBusy => "text file is busy",
        Errno::TooBig => "file too large",
    };
    Some((errno.name(), text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_node() {
        let err = Errno::IsADirectory.error();
        assert_eq!(message(&err, "read", None, None), "EISDIR: illegal operation on a directory, read");
        let err = Errno::NoEntry.error();
        assert_eq!(message(&err, "open", Some("/p/x"), None), "ENOENT: no such file or directory, open '/p/x'");
        assert_eq!(
            message(&err, "rename", Some("/a"), Some("/b")),
            "ENOENT: no such file or directory, rename '/a' -> '/b'"
        );
    }
}
