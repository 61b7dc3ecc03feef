//! Field checks and parsers that more than one input uses.

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Asia::Tokyo;

/// Parses an instant: RFC 3339 (`2026-12-12T12:00:00+09:00`), a date and time without an
/// offset (`2026-12-12T12:00`, as an HTML `datetime-local` field sends it: Japan time) or a date
/// (`2026-12-12`, midnight in Japan). `None` when the text is none of these.
pub fn parse_instant(raw: &str) -> Option<DateTime<Utc>> {
    if let Ok(at) = DateTime::parse_from_rfc3339(raw) {
        return Some(at.to_utc());
    }
    let local = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(raw, f).ok())
        .or_else(|| NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok()?.and_hms_opt(0, 0, 0))?;
    Tokyo.from_local_datetime(&local).single().map(|at| at.to_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_in_rfc3339_or_japanese_dates() {
        assert_eq!(parse_instant("2026-12-12").unwrap().to_rfc3339(), "2026-12-11T15:00:00+00:00");
        assert_eq!(parse_instant("2026-12-12T12:00:00+09:00").unwrap().to_rfc3339(), "2026-12-12T03:00:00+00:00");
        // A date and time without offset (an HTML datetime-local value) is Japan time.
        assert_eq!(parse_instant("2026-12-12T12:00").unwrap().to_rfc3339(), "2026-12-12T03:00:00+00:00");
        assert_eq!(parse_instant("2026-12-12T12:00:30").unwrap().to_rfc3339(), "2026-12-12T03:00:30+00:00");
        for bad in ["", "tomorrow", "2026-13-01", "2026/12/12", "2026-12-12T25:00", "2026-12-12 12:00"] {
            assert!(parse_instant(bad).is_none(), "{bad:?}");
        }
    }
}
