//! macOS only: the process table from libproc and `sysctl`.
