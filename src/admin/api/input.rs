//! Typed inputs of console writes: the JSON body becomes the resource's input struct and is
//! checked with its `validator` rules; every problem is reported per field in the staff
//! member's language, in the shape react-admin shows beside the fields (`attribute` is the
//! field's path: `name_ja`, `phases.2.phase_timestamp`) — the same conversion as the product's
//! inputs ([`crate::forms::problems_in`]). Also the checks only console inputs use (pictures,
//! permalinks) and the instant type inputs use; URLs and text go through [`crate::forms::checks`].

use chrono::{DateTime, Utc};
use rocket::data::{Data, ToByteUnit};
use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use validator::{Validate, ValidationError};

use crate::error::{Error, Result};
use crate::forms::checks::{self, parse_instant};
use crate::forms::problems_in;

/// The largest body a console write takes.
pub const BODY_LIMIT_KIB: u64 = 1024;

/// Reads a JSON body (400 `bad_request` when it is not JSON, 413 when it is too large).
pub async fn read_json(data: Data<'_>) -> Result<Value> {
    let body = data
        .open(BODY_LIMIT_KIB.kibibytes())
        .into_string()
        .await
        .map_err(|_| Error::BadRequest { code: "bad_request" })?;
    if !body.is_complete() {
        return Err(Error::TooLarge);
    }
    serde_json::from_str(&body).map_err(|_| Error::BadRequest { code: "bad_request" })
}

/// The body as the input type `T`, checked. `T` must take any subset of its fields
/// (`#[serde(default)]`): a value of the wrong type is then pinned to its field.
pub fn parse<T: DeserializeOwned + Validate>(body: Value) -> Result<T> {
    let Value::Object(map) = body else {
        return Err(Error::invalid("body", "validation.json_object"));
    };
    let input: T = match serde_json::from_value(Value::Object(map.clone())) {
        Ok(input) => input,
        Err(_) => {
            let field = map
                .iter()
                .find(|(k, v)| {
                    let alone = Map::from_iter([((*k).clone(), (*v).clone())]);
                    serde_json::from_value::<T>(Value::Object(alone)).is_err()
                })
                .map_or("body", |(k, _)| k.as_str());
            return Err(Error::invalid(field, "validation.invalid_value"));
        }
    };
    input.validate().map_err(|errors| {
        // The product's conversion; the console shows one message per field, its first.
        let mut found = problems_in(&errors, &[]);
        found.dedup_by(|later, first| later.attribute == first.attribute);
        Error::Validation(found)
    })?;
    Ok(input)
}

/// `validator` check: a picture's address, a site path (`/static/…`, `/media/…`) or an absolute
/// http(s) URL (`picture`).
pub fn picture(value: &str) -> std::result::Result<(), ValidationError> {
    let path = value.starts_with('/')
        && !value.starts_with("//")
        && value.len() <= 2048
        && !value.chars().any(|c| c.is_whitespace() || c.is_control() || c == '\\');
    if path || checks::http_url(value).is_ok() { Ok(()) } else { Err(ValidationError::new("picture")) }
}

/// `validator` check: letters, digits, `_` or `-`, not empty (spec §2 permalink).
pub fn permalink(value: &str) -> std::result::Result<(), ValidationError> {
    let ok = !value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok { Ok(()) } else { Err(ValidationError::new("permalink")) }
}

/// Deserializes an optional text field: surrounding space trimmed, and an empty text (what a
/// cleared field sends) is no value.
pub fn blank<'de, D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Option<String>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    Ok(text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()))
}

/// Deserializes a text field with surrounding space trimmed (`null` is empty).
pub fn trimmed<'de, D: Deserializer<'de>>(deserializer: D) -> std::result::Result<String, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?.map(|t| t.trim().to_string()).unwrap_or_default())
}

/// An instant in an input: RFC 3339, or a date and time without offset meaning Japan time
/// (what a `datetime-local` field sends), or a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Instant(pub DateTime<Utc>);

impl<'de> Deserialize<'de> for Instant {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse_instant(text.trim()).map(Instant).ok_or_else(|| serde::de::Error::custom("not an instant"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Messages;
    use crate::types::Lang;

    #[derive(Debug, Default, Deserialize, Validate)]
    #[serde(default)]
    struct Probe {
        #[validate(required, length(min = 1, max = 4))]
        name: Option<String>,
        #[validate(length(max = 3))]
        note: String,
        #[validate(range(min = 1, max = 9))]
        n: i32,
        #[validate(nested)]
        items: Vec<Item>,
    }

    #[derive(Debug, Default, Deserialize, Validate)]
    #[serde(default)]
    struct Item {
        #[validate(custom(function = "checks::http_url"))]
        url: String,
    }

    #[test]
    fn details_name_the_field_paths_in_the_language() {
        let messages = Messages::bundled();
        let probe = Probe {
            name: Some("長すぎる名前".into()),
            note: "abcd".into(),
            n: 0,
            items: vec![Item { url: "https://x.example".into() }, Item { url: "javascript:x".into() }],
        };
        let errors = probe.validate().unwrap_err();
        let details: Vec<_> = problems_in(&errors, &[]).iter().map(|i| i.translate(&messages, Lang::En)).collect();
        let attributes: Vec<_> = details.iter().map(|d| d.attribute.as_str()).collect();
        assert_eq!(attributes, ["items.1.url", "n", "name", "note"]);
        assert_eq!(
            details[2].message,
            messages.tf(Lang::En, "validation.length_between", &[("min", "1"), ("max", "4")])
        );
        assert_eq!(details[3].message, messages.tf(Lang::En, "validation.max_length", &[("max", "3")]));
        assert_eq!(details[0].message, messages.t(Lang::En, "validation.url"));
        assert!(!details[1].message.starts_with("validation."), "{}", details[1].message);
    }

    #[test]
    fn checks() {
        assert!(permalink("2026Winter").is_ok() && permalink("a-b_c").is_ok());
        assert!(permalink("").is_err() && permalink("a/b").is_err() && permalink("あ").is_err());
        assert!(picture("/static/demo/a.svg").is_ok() && picture("https://cdn.example/a.png").is_ok());
        assert!(
            picture("//evil.example/a.png").is_err() && picture("javascript:x").is_err() && picture("/a b").is_err()
        );
        let at: Instant = serde_json::from_value(serde_json::json!("2026-12-12T12:00")).unwrap();
        assert_eq!(at.0.to_rfc3339(), "2026-12-12T03:00:00+00:00");
        assert!(serde_json::from_value::<Instant>(serde_json::json!("soon")).is_err());
    }
}
