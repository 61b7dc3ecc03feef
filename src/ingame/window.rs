//! The window of an in-game list (spec §5): `limit` 1–30 (default 30) items after `offset`
//! (default 0); 422 on the field that is wrong. Pure.

use crate::error::{Error, Invalid, Result};

/// The most items an in-game list answers.
pub const MAX_LIMIT: u64 = 30;

/// Which items of a list to answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// At most this many (1–30).
    pub limit: u64,
    /// After skipping this many.
    pub offset: u64,
}

impl Window {
    /// The window the query asks for.
    pub fn parse(limit: Option<&str>, offset: Option<&str>) -> Result<Self> {
        let limit = match limit.map(str::trim).filter(|l| !l.is_empty()) {
            None => MAX_LIMIT,
            Some(raw) => raw.parse::<u64>().ok().filter(|n| (1..=MAX_LIMIT).contains(n)).ok_or_else(|| {
                Error::Validation(vec![
                    Invalid::new("limit", "validation.number_between").with("min", 1).with("max", MAX_LIMIT),
                ])
            })?,
        };
        let offset = match offset.map(str::trim).filter(|o| !o.is_empty()) {
            None => 0,
            Some(raw) => raw.parse::<u64>().map_err(|_| Error::invalid("offset", "validation.non_negative_integer"))?,
        };
        Ok(Self { limit, offset })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_one_to_thirty_and_offsets_from_zero() {
        assert_eq!(Window::parse(None, None).unwrap(), Window { limit: 30, offset: 0 });
        assert_eq!(Window::parse(Some("1"), Some("7")).unwrap(), Window { limit: 1, offset: 7 });
        for (limit, offset, field) in [
            (Some("0"), None, "limit"),
            (Some("31"), None, "limit"),
            (Some("ten"), None, "limit"),
            (None, Some("-1"), "offset"),
        ] {
            match Window::parse(limit, offset) {
                Err(Error::Validation(found)) => assert_eq!(found[0].attribute, field),
                other => panic!("{limit:?} {offset:?}: {other:?}"),
            }
        }
    }
}
