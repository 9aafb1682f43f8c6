//! What one handler produced, and what it means under the host's exit-code and JSON rules.

use std::time::Duration;

/// A finished handler's raw result, however it ran (process, in-process built-in, http).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawOutput {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// `None` when there is no exit status (killed by a signal, or timed out).
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    /// Bytes dropped past the capture cap.
    pub stdout_dropped: u64,
    pub stderr_dropped: u64,
    pub wall: Duration,
}

impl RawOutput {
    /// A failure before anything ran (spawn error, bad arguments): exit 1 with a message.
    pub fn failure(message: impl Into<String>) -> RawOutput {
        RawOutput { stderr: message.into().into_bytes(), exit_code: Some(1), ..RawOutput::default() }
    }
}
