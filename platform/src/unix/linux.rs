//! Linux only: the process table from `/proc`.
