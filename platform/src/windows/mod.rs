//! Windows: Win32 processes, Job Objects, pipes, locks and reparse points.

pub mod process;
