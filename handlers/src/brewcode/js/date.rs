//! JavaScript dates: `toISOString()` and what `new Date(x).getTime()` reads.
//!
//! brewcode stamps everything with `new Date().toISOString()` and reads stamps back with
//! `new Date(ts)`. Reading follows V8's ISO-8601 path: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `±YYYYYY`
//! years, a `T`, `t` or space before `HH:MM[:SS[.fraction]]`, `Z` or `±HH:MM`/`±HHMM`; a day up
//! to 31 in any month rolls over (`2026-02-30` is 2 March), `24:00` is the next midnight. A
//! date-time without a zone is read as UTC (V8 reads it in the local zone; brewcode itself always
//! writes `Z`). Other strings V8's legacy parser would guess at (`Feb 1 2026`) read as invalid.

use serde_json::Value;
use std::time::{SystemTime, UNIX_EPOCH};

/// The largest distance from the epoch a JavaScript date can hold, in milliseconds.
const MAX_MS: f64 = 8.64e15;

/// Milliseconds since the epoch, floored, as `Date.now()` reads the clock.
pub fn epoch_ms(time: SystemTime) -> f64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => after.as_millis() as f64,
        Err(before) => -((before.duration().as_nanos().div_ceil(1_000_000)) as f64),
    }
}

/// A file time in milliseconds with its fraction, as Node's `stat().mtimeMs`.
pub fn epoch_ms_fraction(time: SystemTime) -> f64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => after.as_secs_f64() * 1000.0,
        Err(before) => -before.duration().as_secs_f64() * 1000.0,
    }
}

/// `new Date(ms).toISOString()`.
pub fn iso(ms: f64) -> String {
    let ms = ms as i64;
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let (h, m, s, milli) = (in_day / 3_600_000, in_day / 60_000 % 60, in_day / 1000 % 60, in_day % 1000);
    let year = if (0..=9999).contains(&year) {
        format!("{year:04}")
    } else if year < 0 {
        format!("-{:06}", -year)
    } else {
        format!("+{year:06}")
    };
    format!("{year}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

/// `new Date().toISOString()` at `now`.
pub fn iso_now(now: SystemTime) -> String {
    iso(epoch_ms(now))
}

/// `new Date(value).getTime()` for a JSON value; `None` is NaN (an Invalid Date).
pub fn time_of(value: Option<&Value>) -> Option<f64> {
    let ms = match value {
        None => return None,
        Some(Value::Null) => 0.0,
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
        Some(Value::Number(n)) => n.as_f64()?.trunc(),
        Some(Value::String(s)) => return parse(s),
        // An array converts to its joined text; an object to "[object Object]", never a date.
        Some(array @ Value::Array(_)) => return parse(&super::string_of(Some(array))),
        Some(Value::Object(_)) => return None,
    };
    (ms.abs() <= MAX_MS).then_some(ms)
}

/// `Date.parse(text)` for the forms described in the module documentation.
pub fn parse(text: &str) -> Option<f64> {
    let mut p = Cursor { s: text.as_bytes(), i: 0 };
    let year = match p.peek() {
        Some(sign @ (b'+' | b'-')) => {
            p.i += 1;
            let y = p.digits(6)?;
            if sign == b'-' && y == 0 {
                return None;
            }
            if sign == b'-' {
                -y
            } else {
                y
            }
        }
        _ => p.digits(4)?,
    };
    let (mut month, mut day) = (1, 1);
    if p.eat(b'-') {
        month = p.digits(2)?;
        if p.eat(b'-') {
            day = p.digits(2)?;
        }
    }
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let (mut h, mut m, mut s, mut frac) = (0, 0, 0, 0);
    let mut offset_min = 0;
    if matches!(p.peek(), Some(b'T' | b't' | b' ')) {
        p.i += 1;
        h = p.digits(2)?;
        if !p.eat(b':') {
            return None;
        }
        m = p.digits(2)?;
        if p.eat(b':') {
            s = p.digits(2)?;
            if p.eat(b'.') {
                let start = p.i;
                while p.peek().is_some_and(|b| b.is_ascii_digit()) {
                    p.i += 1;
                }
                if p.i == start {
                    return None;
                }
                // Milliseconds: the first three digits, padded with zeros; the rest is dropped.
                frac = p.s[start..p.i]
                    .iter()
                    .chain([b'0'; 3].iter())
                    .take(3)
                    .fold(0, |ms, d| ms * 10 + i64::from(d - b'0'));
            }
        }
        if h > 24 || m > 59 || s > 59 || (h == 24 && (m, s, frac) != (0, 0, 0)) {
            return None;
        }
        match p.peek() {
            Some(b'Z' | b'z') => p.i += 1,
            Some(sign @ (b'+' | b'-')) => {
                p.i += 1;
                let oh = p.digits(2)?;
                p.eat(b':');
                let om = p.digits(2)?;
                if oh > 23 || om > 59 {
                    return None;
                }
                offset_min = (oh * 60 + om) * if sign == b'-' { -1 } else { 1 };
            }
            _ => {}
        }
    }
    if p.i != p.s.len() {
        return None;
    }
    let days = days_from_civil(year, month, 1) + (day - 1);
    let ms = days as f64 * 86_400_000.0 + ((h * 3600 + m * 60 + s - offset_min * 60) as f64) * 1000.0 + frac as f64;
    (ms.abs() <= MAX_MS).then_some(ms)
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        if hit {
            self.i += 1;
        }
        hit
    }

    /// Exactly `n` ASCII digits.
    fn digits(&mut self, n: usize) -> Option<i64> {
        let end = self.i.checked_add(n)?;
        let chunk = self.s.get(self.i..end)?;
        if !chunk.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.i = end;
        Some(chunk.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn iso_round_trips() {
        assert_eq!(iso(1_769_947_200_000.0), "2026-02-01T12:00:00.000Z");
        assert_eq!(iso(0.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(-1.0), "1969-12-31T23:59:59.999Z");
        assert_eq!(parse("2026-02-01T12:00:00.000Z"), Some(1_769_947_200_000.0));
    }

    /// Each value below is what Node 20 printed for `new Date(s).getTime()`.
    #[test]
    fn parses_what_v8_parses_on_its_iso_path() {
        for (text, expected) in [
            ("2026-02-01T12:00:00Z", Some(1_769_947_200_000.0)),
            ("2026-02-01T12:00Z", Some(1_769_947_200_000.0)),
            ("2026-02-01", Some(1_769_904_000_000.0)),
            ("2026-02", Some(1_769_904_000_000.0)),
            ("2026", Some(1_767_225_600_000.0)),
            ("2026-02-30", Some(1_772_409_600_000.0)),
            ("2026-02-01T24:00:00Z", Some(1_769_990_400_000.0)),
            ("2026-02-01T24:00:01Z", None),
            ("2026-02-01T12:00:00.1Z", Some(1_769_947_200_100.0)),
            ("2026-02-01T12:00:00.12345Z", Some(1_769_947_200_123.0)),
            ("+002026-02-01T00:00:00Z", Some(1_769_904_000_000.0)),
            ("-000000-01-01T00:00:00Z", None),
            ("2026-02-01T12:00:00+01:00", Some(1_769_943_600_000.0)),
            ("2026-02-01T12:00:00.000+0100", Some(1_769_943_600_000.0)),
            ("2026-02-01 12:00:00", Some(1_769_947_200_000.0)),
            ("2026-02-01t12:00:00Z", Some(1_769_947_200_000.0)),
            ("2026-13-01", None),
            ("2026-02-01T12:60:00Z", None),
            ("2026-02-01T12Z", None),
            ("2026-02-01T12:00:00.Z", None),
            ("2026-02-01T12:00:00.000Z ", None),
            ("2026-02-01T12:00:00+24:00", None),
            ("not a date", None),
            ("", None),
            ("2026-02-00", None),
            ("20260201", None),
        ] {
            assert_eq!(parse(text), expected, "{text:?}");
        }
    }

    #[test]
    fn date_of_other_values() {
        assert_eq!(time_of(Some(&json!(null))), Some(0.0));
        assert_eq!(time_of(Some(&json!(true))), Some(1.0));
        assert_eq!(time_of(Some(&json!(1.5))), Some(1.0));
        assert_eq!(time_of(Some(&json!([2020]))), Some(1_577_836_800_000.0));
        assert_eq!(time_of(Some(&json!({}))), None);
        assert_eq!(time_of(None), None);
        assert_eq!(time_of(Some(&json!(8.64e15 + 1.0))), None);
    }
}
