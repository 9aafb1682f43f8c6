//! Node's file-system error messages, which brewcode quotes in its log lines:
//! `ENOENT: no such file or directory, open '/p/.claude/TASK.md'`.

use std::io;

/// The message Node gives an `fs.*Sync` failure: `CODE: description, syscall 'path'`, with
/// `-> 'dest'` for two-path calls. Errors without an errno (which Node never raises from fs)
/// keep Rust's text.
pub fn message(err: &io::Error, syscall: &str, path: Option<&str>, dest: Option<&str>) -> String {
    let Some((code, description)) = err.raw_os_error().and_then(describe) else {
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
    match err.raw_os_error().and_then(describe) {
        Some((code, _)) => code.to_string(),
        None => err.to_string(),
    }
}

/// libuv's name and text for an errno.
fn describe(errno: i32) -> Option<(&'static str, &'static str)> {
    Some(match errno {
        libc::ENOENT => ("ENOENT", "no such file or directory"),
        libc::EACCES => ("EACCES", "permission denied"),
        libc::EISDIR => ("EISDIR", "illegal operation on a directory"),
        libc::ENOTDIR => ("ENOTDIR", "not a directory"),
        libc::EEXIST => ("EEXIST", "file already exists"),
        libc::EPERM => ("EPERM", "operation not permitted"),
        libc::EROFS => ("EROFS", "read-only file system"),
        libc::ENOSPC => ("ENOSPC", "no space left on device"),
        libc::ELOOP => ("ELOOP", "too many symbolic links encountered"),
        libc::ENAMETOOLONG => ("ENAMETOOLONG", "name too long"),
        libc::ENOTEMPTY => ("ENOTEMPTY", "directory not empty"),
        libc::EBUSY => ("EBUSY", "resource busy or locked"),
        libc::EMFILE => ("EMFILE", "too many open files"),
        libc::ENFILE => ("ENFILE", "file table overflow"),
        libc::EIO => ("EIO", "i/o error"),
        libc::EXDEV => ("EXDEV", "cross-device link not permitted"),
        libc::EINVAL => ("EINVAL", "invalid argument"),
        libc::EAGAIN => ("EAGAIN", "resource temporarily unavailable"),
        libc::ETXTBSY => ("ETXTBSY", "text file is busy"),
        libc::EFBIG => ("EFBIG", "file too large"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_node() {
        let err = io::Error::from_raw_os_error(libc::EISDIR);
        assert_eq!(message(&err, "read", None, None), "EISDIR: illegal operation on a directory, read");
        let err = io::Error::from_raw_os_error(libc::ENOENT);
        assert_eq!(message(&err, "open", Some("/p/x"), None), "ENOENT: no such file or directory, open '/p/x'");
        assert_eq!(
            message(&err, "rename", Some("/a"), Some("/b")),
            "ENOENT: no such file or directory, rename '/a' -> '/b'"
        );
    }
}
