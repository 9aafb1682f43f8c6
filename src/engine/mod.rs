//! One event in, one verdict out, the same for every host.
//!
//! The sub-layers follow the event and each depends only on those before it:
//! [`config`] finds and reads the settings, [`select`] decides which handlers run (pure, no I/O),
//! [`execute`] runs them, [`verdict`] reads each result and folds them into one, and
//! [`dispatch`] is the one path through all four that every host calls, and [`trace`] keeps a line
//! of what each dispatch did. [`validate`] checks a
//! configuration without an event. Nothing here knows which host sent the event.

pub mod config;
pub mod dispatch;
pub mod execute;
pub mod notice;
pub mod select;
pub mod trace;
pub mod validate;
pub mod verdict;
