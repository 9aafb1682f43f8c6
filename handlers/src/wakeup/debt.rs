//! `hookmux memory debt`: memories that read as a chronological activity log ("first I…, then…,
//! finally…") instead of durable signal. Wake-up shows synopses and digests as things to scan;
//! a session diary there costs the model attention and says little it can reuse.

use super::store::Memory;

/// Words that narrate a sequence of steps.
const SEQUENCE_MARKERS: &[&str] =
    &["first", "firstly", "then", "next", "after that", "afterwards", "afterward", "subsequently", "finally", "lastly"];

/// A finding: which memory, which field, which rule, and what was counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub memory_id: i64,
    pub title: String,
    pub field: &'static str,
    pub rule: Rule,
    pub count: usize,
}

/// The rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Three or more sequence markers (first, then, next, after that, finally, …).
    SequenceMarkers,
    /// Three or more timestamps in ascending order.
    AscendingTimestamps,
}

impl Rule {
    pub const fn as_str(self) -> &'static str {
        match self {
            Rule::SequenceMarkers => "sequence-markers",
            Rule::AscendingTimestamps => "ascending-timestamps",
        }
    }

    pub const fn explain(self) -> &'static str {
        match self {
            Rule::SequenceMarkers => "sequence markers (first/then/next/after that/finally)",
            Rule::AscendingTimestamps => "timestamps in ascending order",
        }
    }
}

/// The findings for one memory: each rule at most once per field (synopsis, body).
pub fn scan(memory: &Memory) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (field, text) in [("synopsis", &memory.synopsis), ("body", &memory.body)] {
        let markers = count_sequence_markers(text);
        if markers >= 3 {
            findings.push(finding(memory, field, Rule::SequenceMarkers, markers));
        }
        let run = longest_ascending_timestamps(text);
        if run >= 3 {
            findings.push(finding(memory, field, Rule::AscendingTimestamps, run));
        }
    }
    findings
}

fn finding(memory: &Memory, field: &'static str, rule: Rule, count: usize) -> Finding {
    Finding { memory_id: memory.id, title: memory.title.clone(), field, rule, count }
}

/// Occurrences of the sequence markers as whole words (phrases match across any white space).
pub fn count_sequence_markers(text: &str) -> usize {
    let words: Vec<String> =
        text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    let mut count = 0;
    let mut i = 0;
    while i < words.len() {
        let matched = SEQUENCE_MARKERS.iter().find_map(|marker| {
            let parts: Vec<&str> = marker.split(' ').collect();
            let fits = words.len() - i >= parts.len() && parts.iter().zip(&words[i..]).all(|(p, w)| p == w);
            fits.then_some(parts.len())
        });
        match matched {
            Some(len) => {
                count += 1;
                i += len;
            }
            None => i += 1,
        }
    }
    count
}

/// The longest run of consecutive timestamps (dates `YYYY-MM-DD`, optionally with a time, or
/// times `HH:MM[:SS]`) that each come after the one before.
pub fn longest_ascending_timestamps(text: &str) -> usize {
    let stamps = timestamps(text);
    let mut best = usize::from(!stamps.is_empty());
    let mut run = best;
    for pair in stamps.windows(2) {
        run = if pair[1] > pair[0] { run + 1 } else { 1 };
        best = best.max(run);
    }
    best
}

/// Timestamps in text order as comparable (days, seconds) pairs; a bare time takes the day of the
/// last date seen before it.
fn timestamps(text: &str) -> Vec<(i64, i64)> {
    let bytes = text.as_bytes();
    let mut stamps = Vec::new();
    let mut day = 0;
    let mut i = 0;
    while i < bytes.len() {
        let at_boundary = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if at_boundary && bytes[i].is_ascii_digit() {
            if let Some((date, after_date)) = date_at(bytes, i) {
                day = date;
                let mut end = after_date;
                let mut seconds = 0;
                if after_date < bytes.len() && matches!(bytes[after_date], b'T' | b' ') {
                    if let Some((time, after_time)) = time_at(bytes, after_date + 1) {
                        seconds = time;
                        end = after_time;
                    }
                }
                stamps.push((day, seconds));
                i = end;
                continue;
            }
            if let Some((time, after_time)) = time_at(bytes, i) {
                stamps.push((day, time));
                i = after_time;
                continue;
            }
        }
        i += 1;
    }
    stamps
}

fn digits(bytes: &[u8], at: usize, n: usize) -> Option<i64> {
    let slice = bytes.get(at..at + n)?;
    if !slice.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(slice).ok()?.parse().ok()
}

/// `YYYY-MM-DD` at `at`: (a day number that orders dates, the index after it).
fn date_at(bytes: &[u8], at: usize) -> Option<(i64, usize)> {
    let year = digits(bytes, at, 4)?;
    (bytes.get(at + 4) == Some(&b'-')).then_some(())?;
    let month = digits(bytes, at + 5, 2)?;
    (bytes.get(at + 7) == Some(&b'-')).then_some(())?;
    let day = digits(bytes, at + 8, 2)?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    Some((year * 372 + month * 31 + day, at + 10))
}

/// `H:MM`, `HH:MM` or with `:SS` at `at`: (seconds of the day, the index after it).
fn time_at(bytes: &[u8], at: usize) -> Option<(i64, usize)> {
    let (hours, mut next) = match (digits(bytes, at, 2), digits(bytes, at, 1)) {
        (Some(h), _) => (h, at + 2),
        (None, Some(h)) => (h, at + 1),
        _ => return None,
    };
    (bytes.get(next) == Some(&b':')).then_some(())?;
    let minutes = digits(bytes, next + 1, 2)?;
    next += 3;
    let mut seconds = 0;
    if bytes.get(next) == Some(&b':') {
        if let Some(s) = digits(bytes, next + 1, 2) {
            seconds = s;
            next += 3;
        }
    }
    if hours > 23 || minutes > 59 || seconds > 60 || bytes.get(next).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    Some((hours * 3600 + minutes * 60 + seconds, next))
}
