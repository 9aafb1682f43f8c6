//! What a handler produced, before anything reads it.

use std::time::Duration;

/// A finished handler's raw result, however it ran (process, in-process built-in, http).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawOutput {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// `None` when there is no exit status (killed by a signal, or timed out).
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    /// The process exited but its stdout or stderr stayed open (a background child holding it)
    /// past the quiet window: later output may have been lost.
    pub unterminated: bool,
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

    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}
