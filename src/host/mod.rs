//! Encoding answers for each host.

pub mod claude;
