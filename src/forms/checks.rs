//! Field checks that more than one input uses, as `validator` custom functions
//! (`#[validate(custom(function = "checks::clean_text"))]`). Each fails with a code whose message
//! is `validation.<code>` in `locales/*.json`; values arrive trimmed, blank ones as absent.

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Asia::Tokyo;
use validator::ValidationError;

use crate::model::redirect;
use crate::model::text;
use crate::types::Id;

/// The longest URL a field takes, in characters.
pub const MAX_URL: usize = 2048;

/// The check result for a failed check with message `validation.<code>`.
fn fail(code: &'static str) -> Result<(), ValidationError> {
    Err(ValidationError::new(code))
}

/// Text without forbidden control characters (`control_chars`).
pub fn clean_text(value: &str) -> Result<(), ValidationError> {
    if text::is_clean(value) { Ok(()) } else { fail("control_chars") }
}

/// Text that is not blank (`required`), for fields that may be left out but not emptied.
pub fn not_blank(value: &str) -> Result<(), ValidationError> {
    if value.trim().is_empty() { fail("required") } else { Ok(()) }
}

/// An instant [`parse_instant`] reads (`datetime`).
pub fn instant(value: &str) -> Result<(), ValidationError> {
    if parse_instant(value).is_some() { Ok(()) } else { fail("datetime") }
}

/// An absolute http(s) URL of at most [`MAX_URL`] characters, without credentials or control
/// characters (`url`).
pub fn http_url(value: &str) -> Result<(), ValidationError> {
    let ok = value.chars().count() <= MAX_URL && text::is_clean(value) && redirect::http_url(value).is_some();
    if ok { Ok(()) } else { fail("url") }
}

/// A positive integer id (`positive_integer`).
pub fn positive_id(value: &str) -> Result<(), ValidationError> {
    if Id::parse(value).is_ok() { Ok(()) } else { fail("positive_integer") }
}

/// A list of positive integer ids (`positive_integer`).
pub fn positive_ids(values: &[String]) -> Result<(), ValidationError> {
    if values.iter().all(|v| Id::parse(v).is_ok()) { Ok(()) } else { fail("positive_integer") }
}

/// A consent box that must be ticked (`agreement`).
pub fn ticked(value: &bool) -> Result<(), ValidationError> {
    if *value { Ok(()) } else { fail("agreement") }
}

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
    fn checks_fail_with_their_codes() {
        let code = |r: Result<(), ValidationError>| r.err().map(|e| e.code.to_string());
        assert_eq!(code(clean_text("行1\n行2")), None);
        assert_eq!(code(clean_text("a\0b")).as_deref(), Some("control_chars"));
        assert_eq!(code(not_blank(" ")).as_deref(), Some("required"));
        assert_eq!(code(http_url("https://example.com/a")), None);
        assert_eq!(code(http_url(&format!("https://example.com/{}", "a".repeat(MAX_URL)))).as_deref(), Some("url"));
        assert_eq!(code(http_url("javascript:alert(1)")).as_deref(), Some("url"));
        assert_eq!(code(positive_ids(&["1".into(), "x".into()])).as_deref(), Some("positive_integer"));
        assert_eq!(code(instant("soon")).as_deref(), Some("datetime"));
        assert_eq!(code(ticked(&false)).as_deref(), Some("agreement"));
    }

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
