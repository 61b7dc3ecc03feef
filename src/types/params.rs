//! Route parameters checked at the edge (spec §2 "Parameter rules"). A value that fails its
//! check never reaches a handler: Rocket forwards, and the page answers 404 "Page Not Found".

use std::fmt;

use rocket::form::{self, FromFormField, ValueField};
use rocket::request::FromParam;
use serde::Serialize;

/// A positive integer id (`id`, `concept_id`, slot ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Id(pub i32);

/// Why a parameter was refused.
#[derive(Debug, PartialEq, Eq)]
pub struct InvalidParam;

impl Id {
    /// Parses a positive integer that fits an `i32`; leading `+`, zeros-only and signs are refused.
    pub fn parse(s: &str) -> Result<Self, InvalidParam> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(InvalidParam);
        }
        match s.parse::<i32>() {
            Ok(n) if n >= 1 => Ok(Self(n)),
            _ => Err(InvalidParam),
        }
    }
}

impl<'a> FromParam<'a> for Id {
    type Error = InvalidParam;

    fn from_param(param: &'a str) -> Result<Self, Self::Error> {
        Self::parse(param)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// An event permalink: non-empty, ASCII letters, digits, `_` or `-`, at most 64 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Permalink(String);

impl Permalink {
    /// Checks a permalink.
    pub fn parse(s: &str) -> Result<Self, InvalidParam> {
        let ok =
            !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if ok { Ok(Self(s.to_string())) } else { Err(InvalidParam) }
    }

    /// The permalink text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'a> FromParam<'a> for Permalink {
    type Error = InvalidParam;

    fn from_param(param: &'a str) -> Result<Self, Self::Error> {
        Self::parse(param)
    }
}

impl fmt::Display for Permalink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A payment attempt's transaction UUID, exactly as it is issued: 36 characters, lower-case
/// hexadecimal digits with hyphens after the 8th, 12th, 16th and 20th. UUID parsers also accept
/// upper case, no hyphens, braces and `urn:uuid:`; those spellings are not the attempt's address
/// (a receipt under another name), so everywhere a transaction is named — receipts, the payment
/// pages, `/checkout`, the payment API — they are refused like any other bad parameter.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct TransactionUuid(String);

impl TransactionUuid {
    /// Checks a transaction UUID (the canonical form only).
    pub fn parse(s: &str) -> Result<Self, InvalidParam> {
        let canonical = s.len() == 36
            && s.bytes().enumerate().all(|(i, b)| match i {
                8 | 13 | 18 | 23 => b == b'-',
                _ => b.is_ascii_digit() || (b'a'..=b'f').contains(&b),
            });
        if canonical { Ok(Self(s.to_string())) } else { Err(InvalidParam) }
    }

    /// The UUID text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'a> FromParam<'a> for TransactionUuid {
    type Error = InvalidParam;

    fn from_param(param: &'a str) -> Result<Self, Self::Error> {
        Self::parse(param)
    }
}

/// As a query parameter: `Option<TransactionUuid>` is `None` when it is missing or malformed.
#[rocket::async_trait]
impl<'v> FromFormField<'v> for TransactionUuid {
    fn from_value(field: ValueField<'v>) -> form::Result<'v, Self> {
        Self::parse(field.value).map_err(|_| form::Error::validation("not a transaction UUID").into())
    }
}

impl fmt::Display for TransactionUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        assert_eq!(Id::parse("1"), Ok(Id(1)));
        assert_eq!(Id::parse("2147483647"), Ok(Id(i32::MAX)));
        for bad in ["0", "-1", "+1", "1.5", "abc", "", " 1", "2147483648", "1e3", "０１"] {
            assert_eq!(Id::parse(bad), Err(InvalidParam), "{bad:?} is refused");
        }
    }

    #[test]
    fn transaction_uuids_are_only_the_canonical_form() {
        let uuid = "6f1c7a52-0b9e-4d3a-8c2f-5e7d9a1b3c4d";
        assert_eq!(TransactionUuid::parse(uuid).map(|t| t.to_string()), Ok(uuid.to_string()));
        let spellings = [
            uuid.to_uppercase(),
            uuid.replace('-', ""),
            format!("{{{uuid}}}"),
            format!("urn:uuid:{uuid}"),
            format!(" {uuid}"),
            format!("{uuid}0"),
            uuid.replacen('-', "_", 1),
            uuid.replacen('6', "g", 1),
            String::new(),
        ];
        for bad in spellings {
            assert_eq!(TransactionUuid::parse(&bad), Err(InvalidParam), "{bad:?} is refused");
        }
    }

    #[test]
    fn permalinks() {
        for good in ["2025Summer", "a", "winter_2026", "x-y-z", "123"] {
            assert!(Permalink::parse(good).is_ok(), "{good:?} is accepted");
        }
        for bad in ["", "a b", "夏", "a.b", "a/b", "%20", &"x".repeat(65)] {
            assert!(Permalink::parse(bad).is_err(), "{bad:?} is refused");
        }
    }
}
