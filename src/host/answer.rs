//! What every host adapter answers in the same way: an event it cannot read, a dispatch that
//! ran nothing, dispatch's notices, a block without a reason.

use crate::engine::dispatch::NotRun;
use crate::protocol::Encoded;

/// The answer when dispatch ran nothing: silence for a nested dispatch (the outer one answers),
/// the reason on stderr for an event no hook can be configured for.
pub fn not_run(why: &NotRun) -> Encoded {
    match why {
        NotRun::Nested | NotRun::NoEvent => Encoded::default(),
        NotRun::NotAHookEvent(problem) => {
            Encoded { stderr: format!("hookmux dispatch: {problem}\n"), ..Encoded::default() }
        }
    }
}

/// The answer to an event that is not JSON at all.
pub fn unreadable(error: impl std::fmt::Display) -> Encoded {
    Encoded { stderr: format!("hookmux dispatch: {error}; no hooks ran\n"), ..Encoded::default() }
}

/// Adds dispatch's notices, one a line, in front of the encoder's own stderr.
pub fn with_notices(mut encoded: Encoded, notices: &[String]) -> Encoded {
    let mut stderr: String = notices.iter().map(|n| format!("{n}\n")).collect();
    if !encoded.stderr.is_empty() {
        stderr.push_str(&encoded.stderr);
        stderr.push('\n');
    }
    encoded.stderr = stderr;
    encoded
}

/// A block's reason for Codex, which refuses a block without one, and for OpenCode, whose thrown
/// error would otherwise say nothing: a hook that blocks without saying why reads
/// `Blocked by hook`.
pub fn non_empty_reason(reason: String) -> String {
    if reason.trim().is_empty() {
        "Blocked by hook".to_string()
    } else {
        reason
    }
}
