//! Windows: Win32 processes, Job Objects, pipes, locks and reparse points.
//!
//! Windows has no modes and no user ids: who may use a file is its security descriptor (an owner
//! SID and an access list, `security`), a link is a reparse point, a lock is `LockFileEx`, and
//! the user's folders are named by `USERPROFILE`, `APPDATA`, `LOCALAPPDATA` and `TEMP`.

pub mod detached;
pub(crate) mod dirs;
pub(crate) mod errno;
pub(crate) mod fs;
pub(crate) mod lock;
pub mod process;
pub(crate) mod program;
pub(crate) mod security;
pub(crate) mod shell;
