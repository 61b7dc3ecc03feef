//! The circle form (spec §7 Circles: `name_ja`, `name_en`, `description_ja`, `description_en`,
//! `website_link`, `thumbnail`), shared by `POST`/`PUT /api/v1/user/circles[/{id}]` and the
//! mypage pages that work without JavaScript: the multipart fields, their checks
//! ([`CircleInput`]) and the thumbnail, stored in three sizes only when the whole form is valid.

use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use utoipa::ToSchema;

use serde::Deserialize;
use validator::Validate;

use super::{Input, Problems, checks};
use crate::db::entities::circle;
use crate::error::Result;
use crate::http::upload::{Uploads, fit, png, read_image};
use crate::model::circle::{
    CircleChange, DESCRIPTION_MAX, NAME_EN_MAX, NAME_JA_MAX, THUMBNAIL_SIZES, WEBSITE_MAX, thumbnail_version_key,
};
use crate::model::redirect::http_url;
use crate::model::text;

/// What the owner sends to create or change a circle; on a change, an absent field keeps its
/// value. Text is trimmed and line breaks are counted as one character (`\r\n` → `\n`) before
/// it is checked; lengths are counted in characters, not bytes.
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
pub struct CircleInput {
    /// Japanese name, at most 64 characters (a circle needs a name in at least one language).
    #[validate(length(max = NAME_JA_MAX, code = "too_long"), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name, at most 128 characters.
    #[validate(length(max = NAME_EN_MAX, code = "too_long"), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Japanese description, at most 2048 characters.
    #[validate(length(max = DESCRIPTION_MAX, code = "too_long"), custom(function = "checks::clean_text"))]
    pub description_ja: Option<String>,
    /// English description, at most 2048 characters.
    #[validate(length(max = DESCRIPTION_MAX, code = "too_long"), custom(function = "checks::clean_text"))]
    pub description_en: Option<String>,
    /// The circle's website: an http(s) URL of at most 2048 characters; empty for none.
    #[validate(length(max = WEBSITE_MAX, code = "too_long"), custom(function = "website"))]
    pub website_link: Option<String>,
}

impl Input for CircleInput {
    const FIELDS: &'static [&'static str] =
        &["name_ja", "name_en", "description_ja", "description_en", "website_link", "thumbnail"];
}

/// An http(s) URL, or empty for none (`url`); its length is checked apart (`too_long`).
fn website(value: &str) -> std::result::Result<(), validator::ValidationError> {
    if value.is_empty() || (text::is_clean(value) && http_url(value).is_some()) {
        Ok(())
    } else {
        Err(validator::ValidationError::new("url"))
    }
}

/// Trims, and makes every line break one `\n`.
fn normalize(value: &str) -> String {
    value.replace("\r\n", "\n").replace('\r', "\n").trim().to_string()
}

impl CircleInput {
    /// The input with absent fields filled from `current` (a change) or empty (a new circle),
    /// every value normalized.
    fn completed(&self, current: Option<&circle::Model>) -> Self {
        let pick = |given: &Option<String>, kept: Option<&str>| {
            Some(given.as_deref().map(normalize).unwrap_or_else(|| kept.unwrap_or_default().to_string()))
        };
        Self {
            name_ja: pick(&self.name_ja, current.map(|c| c.name_ja.as_str())),
            name_en: pick(&self.name_en, current.map(|c| c.name_en.as_str())),
            description_ja: pick(&self.description_ja, current.map(|c| c.description_ja.as_str())),
            description_en: pick(&self.description_en, current.map(|c| c.description_en.as_str())),
            website_link: pick(&self.website_link, current.and_then(|c| c.website_link.as_deref())),
        }
    }

    /// The problems of the input (absent fields taken from `current`), and the change it makes.
    fn check(&self, current: Option<&circle::Model>) -> (Problems, CircleChange) {
        let input = self.completed(current);
        let mut problems = Problems::of(&input);
        let (name_ja, name_en) = (input.name_ja.unwrap_or_default(), input.name_en.unwrap_or_default());
        if name_ja.is_empty() && name_en.is_empty() {
            problems.fail("name_ja", "circles.validation.name");
        }
        let change = CircleChange {
            name_ja,
            name_en,
            description_ja: input.description_ja.unwrap_or_default(),
            description_en: input.description_en.unwrap_or_default(),
            website_link: input.website_link.filter(|w| !w.is_empty()),
            thumbnail_key: None,
        };
        (problems, change)
    }
}

/// The multipart circle form; on a change, an absent field keeps its value.
#[derive(FromForm)]
pub struct CircleForm<'r> {
    /// The page form's CSRF token (API calls send the header instead).
    pub csrf_token: Option<String>,
    /// Raw `name_ja`.
    pub name_ja: Option<String>,
    /// Raw `name_en`.
    pub name_en: Option<String>,
    /// Raw `description_ja`.
    pub description_ja: Option<String>,
    /// Raw `description_en`.
    pub description_en: Option<String>,
    /// Raw `website_link`.
    pub website_link: Option<String>,
    /// Raw `thumbnail`.
    pub thumbnail: Option<TempFile<'r>>,
}

/// The form, or why Rocket could not parse it.
pub type CircleFormResult<'r> = std::result::Result<Form<CircleForm<'r>>, Errors<'r>>;

/// The circle form as the OpenAPI document describes it (the handlers read [`CircleForm`]).
/// A circle needs a name in at least one language; on `PUT` an absent field keeps its value.
#[derive(ToSchema)]
pub struct CircleFormSchema {
    /// Japanese name, at most 64 characters.
    #[schema(max_length = 64)]
    pub name_ja: Option<String>,
    /// English name, at most 128 characters.
    #[schema(max_length = 128)]
    pub name_en: Option<String>,
    /// Japanese description, at most 2048 characters.
    #[schema(max_length = 2048)]
    pub description_ja: Option<String>,
    /// English description, at most 2048 characters.
    #[schema(max_length = 2048)]
    pub description_en: Option<String>,
    /// An http(s) URL of at most 2048 characters; empty for none.
    #[schema(max_length = 2048)]
    pub website_link: Option<String>,
    /// A PNG, JPEG, WebP or GIF of at most 5 MiB and 4096 px a side; stored in three sizes
    /// (at most 160, 320 and 640 px a side).
    #[schema(value_type = Option<String>, format = Binary)]
    pub thumbnail: Option<Vec<u8>>,
}

impl CircleForm<'_> {
    /// The text fields as the model's input.
    pub fn input(&self) -> CircleInput {
        CircleInput {
            name_ja: self.name_ja.clone(),
            name_en: self.name_en.clone(),
            description_ja: self.description_ja.clone(),
            description_en: self.description_en.clone(),
            website_link: self.website_link.clone(),
        }
    }
}

/// Renders the thumbnail versions of a decoded image as PNGs, smallest first; an image smaller
/// than a version is not enlarged.
pub fn resize_thumbnail(img: image::DynamicImage) -> std::result::Result<Vec<Vec<u8>>, image::ImageError> {
    THUMBNAIL_SIZES.iter().map(|(_, side)| png(&fit(&img, *side, *side))).collect()
}

/// Checks `form` (against `current` for a change) and stores a new thumbnail; every problem,
/// the thumbnail's included, comes back at once as field errors, and nothing is stored for a
/// form with errors.
pub async fn checked(
    uploads: &Uploads<'_>,
    form: &CircleForm<'_>,
    current: Option<&circle::Model>,
) -> Result<CircleChange> {
    let (mut problems, mut change) = form.input().check(current);
    let mut versions = None;
    if let Some(file) = form.thumbnail.as_ref().filter(|f| f.len() > 0) {
        let bytes = read_image(file).await?;
        match uploads.images.render(bytes, THUMBNAIL_SIZES[2].1, resize_thumbnail).await {
            Ok(rendered) => versions = Some(rendered),
            Err(refusal) => problems.fail("thumbnail", refusal.message_key()),
        }
    }
    problems.into_result()?;
    if let Some(versions) = versions {
        let key = format!("circles/thumbnails/{}", uuid::Uuid::new_v4().simple());
        for ((size, _), bytes) in THUMBNAIL_SIZES.iter().zip(versions) {
            uploads.storage.put(&thumbnail_version_key(&key, size), bytes).await?;
        }
        change.thumbnail_key = Some(key);
    }
    Ok(change)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    fn check(input: CircleInput) -> std::result::Result<CircleChange, Vec<(String, String)>> {
        let (problems, change) = input.check(None);
        match problems.into_result() {
            Ok(()) => Ok(change),
            Err(e) => Err(e
                .details(&crate::i18n::Messages::bundled(), crate::types::Lang::En)
                .into_iter()
                .map(|d| (d.attribute, d.message))
                .collect()),
        }
    }

    #[test]
    fn lengths_are_counted_in_characters_at_their_edges() {
        let at = |n: usize| "猫".repeat(n);
        let ok = check(CircleInput {
            name_ja: Some(at(64)),
            name_en: Some("a".repeat(128)),
            description_ja: Some(at(2048)),
            description_en: Some("é".repeat(2048)),
            website_link: Some(format!("https://example.com/{}", "a".repeat(2048 - 20))),
        })
        .expect("every field at its limit is accepted");
        assert_eq!(ok.name_ja.chars().count(), 64);
        let over = check(CircleInput {
            name_ja: Some(at(65)),
            name_en: Some("a".repeat(129)),
            description_ja: Some(at(2049)),
            description_en: Some("é".repeat(2049)),
            website_link: Some(format!("https://example.com/{}", "a".repeat(2049 - 20))),
        })
        .unwrap_err();
        let fields: Vec<&str> = over.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(fields, ["name_ja", "name_en", "description_ja", "description_en", "website_link"]);
        assert_eq!(over[0].1, "Use at most 64 characters.");
    }

    #[test]
    fn line_breaks_count_once_and_a_name_is_needed() {
        let text = format!("{}\r\n{}", "a".repeat(1000), "b".repeat(1047));
        let ok =
            check(CircleInput { name_en: Some("Lantern".into()), description_en: Some(text), ..Default::default() })
                .expect("2048 characters once CRLF is one line break");
        assert_eq!(ok.description_en.chars().count(), 2048);
        assert_eq!(ok.name_ja, "");
        let none = check(CircleInput { name_ja: Some("  ".into()), ..Default::default() }).unwrap_err();
        assert_eq!(none[0].0, "name_ja");
        let bad = check(CircleInput {
            name_ja: Some("a\0b".into()),
            website_link: Some("javascript:alert(1)".into()),
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(bad.iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(), ["name_ja", "website_link"]);
    }

    #[test]
    fn thumbnails_shrink_to_three_sizes_and_small_images_stay() {
        let encode = |w: u32, h: u32| {
            let mut out = Vec::new();
            image::RgbImage::from_pixel(w, h, image::Rgb([20, 120, 200]))
                .write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
                .unwrap();
            image::load_from_memory(&out).unwrap()
        };
        let sizes = |img| -> Vec<(u32, u32)> {
            resize_thumbnail(img)
                .unwrap()
                .iter()
                .map(|b| {
                    let i = image::load_from_memory(b).unwrap();
                    (i.width(), i.height())
                })
                .collect()
        };
        assert_eq!(sizes(encode(1280, 720)), [(160, 90), (320, 180), (640, 360)]);
        assert_eq!(sizes(encode(200, 100)), [(160, 80), (200, 100), (200, 100)]);
    }
}
