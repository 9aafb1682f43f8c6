//! What the handlers' results mean: each classified under the exit-code and JSON rules
//! ([`outcome`]), then all folded into one verdict for the event ([`combine`]).

pub mod combine;
pub mod outcome;

/// `600 s`, `1.5 s`: a duration as a timeout is written, in settings and in messages.
pub fn seconds(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}
