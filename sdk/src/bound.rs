//! Work that may run too long, under a time bound.
//!
//! A backtracking regular expression (settings matchers, `bash-guard`'s patterns, any handler's
//! own) can take exponential time on text the model chose: `(a+)+$` needs seconds for 26 `a`s and
//! a `b`, days for 41. Rust cannot stop a thread, so [`within`] runs the work on a thread of its
//! own and stops waiting for it at the bound; the caller then decides without it, the way a guard
//! must: deny what it could not check, or run the group whose matcher it could not test. The
//! thread runs on until the work ends or the process exits; a hook process exits once it has
//! answered, and a long-lived process has at most [`MAX_RUNNING`] such threads: past that, the
//! work is not started and the answer is at once [`OutOfTime`].

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How many bounded pieces of work may still be running, runaways included, before no more are
/// started.
pub const MAX_RUNNING: usize = 4;

static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// The work did not finish within its bound (or could not be started): decide without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("it did not finish within its time bound")]
pub struct OutOfTime;

/// Runs `work` on a thread of its own and waits for it at most `bound`.
///
/// ```
/// use hookmux_sdk::bound;
/// use std::time::Duration;
///
/// assert_eq!(bound::within(Duration::from_secs(5), || 6 * 7), Ok(42));
/// ```
pub fn within<T: Send + 'static>(bound: Duration, work: impl FnOnce() -> T + Send + 'static) -> Result<T, OutOfTime> {
    /// Counts the work as running until its thread ends, however it ends.
    struct Running;
    impl Drop for Running {
        fn drop(&mut self) {
            RUNNING.fetch_sub(1, Ordering::SeqCst);
        }
    }
    if RUNNING.fetch_add(1, Ordering::SeqCst) >= MAX_RUNNING {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        return Err(OutOfTime);
    }
    let running = Running;
    let (send, receive) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("hookmux-bounded".to_string()).spawn(move || {
        let result = work();
        // Counted out before the answer is sent: the caller's next piece of work must find the
        // slot free, however late this thread is scheduled again.
        drop(running);
        let _ = send.send(result);
    });
    match spawned {
        Ok(_) => receive.recv_timeout(bound).map_err(|_| OutOfTime),
        // The closure, and with it the count, was dropped with the error.
        Err(_) => Err(OutOfTime),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_past_its_bound_is_given_up_and_a_runaway_does_not_count_forever() {
        let (release, held) = mpsc::channel::<()>();
        assert_eq!(
            within(Duration::from_millis(50), move || {
                let _ = held.recv();
                1
            }),
            Err(OutOfTime)
        );
        // The runaway ends: its slot is free again.
        release.send(()).unwrap();
        let mut waited = Duration::ZERO;
        while RUNNING.load(Ordering::SeqCst) > 0 && waited < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
            waited += Duration::from_millis(10);
        }
        assert_eq!(within(Duration::from_secs(5), || 2), Ok(2));
    }
}
