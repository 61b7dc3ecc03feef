//! The profile write (spec §5 "User profile": nameJa at most 64 characters, nameEn at most 128),
//! `PUT /api/v1/user/me`: display names and external links; a field left out stays as it is.

use validator::{Validate, ValidationError};

use crate::forms::{Input, checks};

/// Longest Japanese display name, in characters.
pub const NAME_JA_MAX: u64 = 64;
/// Longest English display name, in characters.
pub const NAME_EN_MAX: u64 = 128;
/// How many external links a profile may show.
pub const MAX_LINKS: usize = 5;

/// The checked fields of a profile change; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, Validate)]
pub struct ProfileInput {
    /// Japanese display name, trimmed.
    #[validate(
        custom(function = "checks::not_blank"),
        length(max = NAME_JA_MAX, code = "too_long"),
        custom(function = "checks::clean_text")
    )]
    pub name_ja: Option<String>,
    /// English display name, trimmed.
    #[validate(
        custom(function = "checks::not_blank"),
        length(max = NAME_EN_MAX, code = "too_long"),
        custom(function = "checks::clean_text")
    )]
    pub name_en: Option<String>,
    /// A JSON list of http(s) URLs, e.g. `["https://example.com"]`.
    #[validate(custom(function = "link_list"), custom(function = "link_urls"))]
    pub external_links: Option<String>,
}

impl Input for ProfileInput {
    const FIELDS: &'static [&'static str] = &["name_ja", "name_en", "external_links", "icon"];
}

impl ProfileInput {
    /// The input from the raw form values (names trimmed).
    pub fn new(name_ja: Option<&str>, name_en: Option<&str>, external_links: Option<&str>) -> Self {
        Self {
            name_ja: name_ja.map(|n| n.trim().to_string()),
            name_en: name_en.map(|n| n.trim().to_string()),
            external_links: external_links.map(str::to_string),
        }
    }

    /// The links sent, trimmed, blank ones dropped (`None` when left out or not a list).
    pub fn links(&self) -> Option<Vec<String>> {
        self.external_links.as_deref().and_then(parse_links)
    }
}

/// The non-blank entries of a JSON list of strings, trimmed.
fn parse_links(raw: &str) -> Option<Vec<String>> {
    let list = serde_json::from_str::<Vec<String>>(raw).ok()?;
    Some(list.into_iter().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect())
}

/// A JSON list (`links_json`) of at most [`MAX_LINKS`] links (`too_many_links`).
fn link_list(raw: &str) -> Result<(), ValidationError> {
    match parse_links(raw) {
        None => Err(ValidationError::new("links_json")),
        Some(list) if list.len() > MAX_LINKS => {
            let mut error = ValidationError::new("too_many_links");
            error.add_param("max".into(), &MAX_LINKS);
            Err(error)
        }
        Some(_) => Ok(()),
    }
}

/// Every link an http(s) URL (`link_url`, naming the ones that are not).
fn link_urls(raw: &str) -> Result<(), ValidationError> {
    let bad: Vec<String> =
        parse_links(raw).unwrap_or_default().into_iter().filter(|l| checks::http_url(l).is_err()).collect();
    if bad.is_empty() {
        return Ok(());
    }
    let mut error = ValidationError::new("link_url");
    error.add_param("url".into(), &bad.join(", "));
    Err(error)
}
