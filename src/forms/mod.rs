//! The typed input of every write, checked one way, whoever sends it: an API body and a page form
//! fill the same struct, which declares its checks with `validator` (custom functions in
//! [`checks`]). [`Problems::of`] runs them and turns each failure into a field error whose
//! message key is `validation.<code>` (placeholders such as `{max}` from the check's
//! parameters); checks `validator` cannot make (the database, uploads) add to the same
//! [`Problems`]. The error is translated at the edge, so the API body and the page form show the
//! same message in the same language.

pub mod asset;
pub mod box_submission;
pub mod checks;
pub mod circle;
pub mod entry;
pub mod ingame;
pub mod inquiry;
pub mod profile;
pub mod store_item;
pub mod user_event;

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use validator::{Validate, ValidationError, ValidationErrors, ValidationErrorsKind};

use crate::error::{Error, Invalid, Result};

/// A typed input: its checks, and the order its fields are listed in (the form's order).
pub trait Input: Validate {
    /// The field names, in the order their problems are reported.
    const FIELDS: &'static [&'static str];
}

/// What is wrong with an input, field by field, as message keys.
#[derive(Debug)]
pub struct Problems {
    found: Vec<Invalid>,
    order: &'static [&'static str],
}

impl Problems {
    /// Runs the checks `input` declares: every failed check is one problem of its field.
    pub fn of<T: Input>(input: &T) -> Self {
        let mut problems = Self { found: Vec::new(), order: T::FIELDS };
        if let Err(errors) = input.validate() {
            problems.found = problems_in(&errors, T::FIELDS);
        }
        problems
    }

    /// Adds a problem found by other means (a lookup, an upload).
    pub fn add(&mut self, invalid: Invalid) {
        self.found.push(invalid);
    }

    /// Adds the problem `key` of `attribute`.
    pub fn fail(&mut self, attribute: &str, key: &'static str) {
        self.add(Invalid::new(attribute, key));
    }

    /// Whether `attribute` has a problem already.
    pub fn has(&self, attribute: &str) -> bool {
        self.found.iter().any(|i| i.attribute == attribute)
    }

    /// Whether nothing is wrong.
    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// `Ok` when nothing is wrong, else 422 `validation_failed` listing the problems in field
    /// order.
    pub fn into_result(mut self) -> Result<()> {
        if self.found.is_empty() {
            return Ok(());
        }
        let order = self.order;
        self.found.sort_by_key(|i| order.iter().position(|f| *f == i.attribute).unwrap_or(order.len()));
        Err(Error::Validation(self.found))
    }
}

/// A form field's text trimmed, blank as absent (how every page form reads its text fields).
pub fn given(v: &Option<String>) -> Option<String> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

/// A form field's whole number ([`given`] text), `None` when blank; text that is not a number
/// adds (`field`, `key`) to `wrong`, the problems a page form reports beside its fields.
pub fn whole_number(
    raw: &Option<String>,
    field: &'static str,
    key: &'static str,
    wrong: &mut Vec<(&'static str, &'static str)>,
) -> Option<i64> {
    given(raw)?.parse::<i64>().map_err(|_| wrong.push((field, key))).ok()
}

/// The snake_case serde name of an enum value (a step, a state, a status, a part type) —
/// [`parse_choice`]'s inverse, and the part of a locale key that names the value.
pub fn snake<T: serde::Serialize>(value: T) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// A snake_case choice such as `vrc` read as the enum whose serde name it is; `None` when it is
/// none of its values.
pub fn parse_choice<T: DeserializeOwned>(raw: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(raw.to_string())).ok()
}

/// An optional snake_case choice of the query value or field `name` (blank: none); anything that
/// is not one of its values is 422 `invalid_choice` there.
pub fn choice<T: DeserializeOwned>(name: &str, raw: Option<&str>) -> Result<Option<T>> {
    match raw.filter(|r| !r.is_empty()) {
        None => Ok(None),
        Some(r) => parse_choice(r).map(Some).ok_or_else(|| Error::invalid(name, "validation.invalid_choice")),
    }
}

/// Checks `input`: `Ok`, or 422 `validation_failed` with every problem.
pub fn validate<T: Input>(input: &T) -> Result<()> {
    Problems::of(input).into_result()
}

/// The field errors of `errors` as message keys, the one conversion every typed input goes
/// through (the product's forms and API, the staff console): nested inputs are walked with the
/// field's path as attribute (`phases.2.phase_timestamp`); fields come in `order` (by their
/// first path segment; unlisted ones after, by path), each field's failures in the order its
/// checks are declared. A failure's key is `validation.<code>`, except `validator`'s built-in
/// `length` (`validation.length_between`, `validation.max_length` or `validation.required`, by
/// its bounds) and `range` (`validation.range`). Every parameter of a check but the value itself
/// fills a placeholder.
pub fn problems_in(errors: &ValidationErrors, order: &[&str]) -> Vec<Invalid> {
    let mut out = Vec::new();
    collect(errors, "", &mut out);
    let rank = |attribute: &str| {
        let top = attribute.split('.').next().unwrap_or(attribute);
        order.iter().position(|f| *f == top).unwrap_or(order.len())
    };
    out.sort_by(|a, b| (rank(&a.attribute), &a.attribute).cmp(&(rank(&b.attribute), &b.attribute)));
    out
}

fn collect(errors: &ValidationErrors, prefix: &str, out: &mut Vec<Invalid>) {
    let mut fields: Vec<_> = errors.errors().iter().collect();
    fields.sort_by_key(|(name, _)| name.to_string());
    for (field, kind) in fields {
        let path = if prefix.is_empty() { field.to_string() } else { format!("{prefix}.{field}") };
        match kind {
            ValidationErrorsKind::Field(failures) => out.extend(failures.iter().map(|f| problem(&path, f))),
            ValidationErrorsKind::Struct(inner) => collect(inner, &path, out),
            ValidationErrorsKind::List(items) => {
                for (index, inner) in items {
                    collect(inner, &format!("{path}.{index}"), out);
                }
            }
        }
    }
}

/// The problem of one failed check at `path`.
fn problem(path: &str, failure: &ValidationError) -> Invalid {
    let param = |name: &str| failure.params.get(name).map(|v| v.to_string().trim_matches('"').to_string());
    let key: Cow<'static, str> = match (failure.code.as_ref(), param("min"), param("max")) {
        ("length", Some(min), Some(_)) if min != "0" => "validation.length_between".into(),
        ("length", _, Some(_)) => "validation.max_length".into(),
        ("length", Some(_), None) => "validation.required".into(),
        ("range", _, _) => "validation.range".into(),
        (code, _, _) => format!("validation.{code}").into(),
    };
    let mut invalid = Invalid::new(path, key);
    let mut params: Vec<_> = failure.params.iter().filter(|(name, _)| *name != "value").collect();
    params.sort_by(|a, b| a.0.cmp(b.0));
    for (name, value) in params {
        let value = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        invalid.args.push((name.clone(), value));
    }
    invalid
}

#[cfg(test)]
mod tests {
    use validator::Validate;

    use super::*;

    #[derive(Validate)]
    struct Sample {
        #[validate(length(max = 3, code = "too_long"), custom(function = "checks::clean_text"))]
        name: String,
        #[validate(required(code = "required"))]
        email: Option<String>,
    }

    impl Input for Sample {
        const FIELDS: &'static [&'static str] = &["email", "name"];
    }

    #[test]
    fn problems_carry_keys_and_arguments_in_field_order() {
        let sample = Sample { name: "あいう\0".into(), email: None };
        let Err(Error::Validation(found)) = validate(&sample) else { panic!("invalid") };
        let listed: Vec<_> = found.iter().map(|i| (i.attribute.as_str(), i.key.as_ref())).collect();
        assert_eq!(
            listed,
            [("email", "validation.required"), ("name", "validation.too_long"), ("name", "validation.control_chars")]
        );
        assert_eq!(found[1].args, [(Cow::Borrowed("max"), "3".to_string())], "characters, not bytes");
        let messages = crate::i18n::Messages::bundled();
        assert_eq!(found[1].message(&messages, crate::types::Lang::En), "Use at most 3 characters.");
        assert_eq!(found[1].message(&messages, crate::types::Lang::Ja), "3文字以内で入力してください。");
        assert!(validate(&Sample { name: "あいう".into(), email: Some("a@example.com".into()) }).is_ok());
    }
}
