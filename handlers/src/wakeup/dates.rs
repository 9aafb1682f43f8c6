//! Instants as the store keeps them (milliseconds since the Unix epoch, UTC) and the calendar
//! dates the rendering and expiry rules use (`YYYY-MM-DD`, UTC).

use std::time::{SystemTime, UNIX_EPOCH};
use time::format_description::well_known::Rfc3339;
use time::{Date, OffsetDateTime};

pub const MS_PER_DAY: i64 = 86_400_000;

/// Milliseconds since the epoch; instants before it are clamped to it.
pub fn to_ms(instant: SystemTime) -> i64 {
    instant.duration_since(UNIX_EPOCH).map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX)).unwrap_or(0)
}

/// The UTC calendar date of an instant, `YYYY-MM-DD`.
pub fn date_of(ms: i64) -> String {
    let date =
        OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).map(|t| t.date()).unwrap_or(Date::MIN);
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

/// An RFC 3339 timestamp (`2026-02-01T12:10:00.000Z`, any offset) or a bare `YYYY-MM-DD`
/// (midnight UTC), as milliseconds since the epoch.
pub fn parse_timestamp(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Ok(instant) = OffsetDateTime::parse(text, &Rfc3339) {
        return i64::try_from(instant.unix_timestamp_nanos() / 1_000_000).ok();
    }
    let date = parse_date(text)?;
    Some(date.midnight().assume_utc().unix_timestamp() * 1000)
}

/// A strict `YYYY-MM-DD` that names a real day.
pub fn parse_date(text: &str) -> Option<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(text.trim(), &format).ok()
}

/// The ISO 8601 form of an instant, for `--json` output.
pub fn iso(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_timestamps_round_trip() {
        let ms = parse_timestamp("2026-02-01T12:10:00.000Z").unwrap();
        assert_eq!(date_of(ms), "2026-02-01");
        assert_eq!(iso(ms), "2026-02-01T12:10:00Z");
        assert_eq!(parse_timestamp("2026-02-01T23:30:00-02:00").map(date_of).as_deref(), Some("2026-02-02"));
        assert_eq!(parse_timestamp("2026-04-20"), Some(parse_timestamp("2026-04-20T00:00:00Z").unwrap()));
        assert_eq!(parse_timestamp("yesterday"), None);
        assert!(parse_date("2026-02-30").is_none());
    }
}
