//! The circle form (spec §7 Circles: `name_ja`, `name_en`, `description_ja`, `description_en`,
//! `website_link`, `thumbnail`), shared by `POST`/`PUT /api/v1/user/circles[/{id}]` and the
//! mypage pages that work without JavaScript: the multipart fields, their checks (the model's
//! [`CircleInput`]) and the thumbnail, stored in three sizes only when the whole form is valid.

use image::imageops::FilterType;
use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use utoipa::ToSchema;

use crate::db::entities::circle;
use crate::error::{FieldError, Result};
use crate::http::upload::{Uploads, png, read_image};
use crate::i18n::{Lang, Messages};
use crate::model::circle::{CircleChange, CircleInput, THUMBNAIL_SIZES, thumbnail_version_key};

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
    THUMBNAIL_SIZES
        .iter()
        .map(|(_, side)| {
            if img.width() <= *side && img.height() <= *side {
                png(&img)
            } else {
                png(&img.resize(*side, *side, FilterType::Lanczos3))
            }
        })
        .collect()
}

/// Checks `form` (against `current` for a change) and stores a new thumbnail; every problem,
/// the thumbnail's included, comes back at once as field errors in `lang`, and nothing is
/// stored for a form with errors.
pub async fn checked(
    messages: &Messages,
    lang: Lang,
    uploads: &Uploads<'_>,
    form: &CircleForm<'_>,
    current: Option<&circle::Model>,
) -> Result<CircleChange> {
    let mut extra = Vec::new();
    let mut versions = None;
    if let Some(file) = form.thumbnail.as_ref().filter(|f| f.len() > 0) {
        let bytes = read_image(file).await?;
        match uploads.images.render(bytes, resize_thumbnail).await {
            Ok(rendered) => versions = Some(rendered),
            Err(refusal) => extra
                .push(FieldError { attribute: "thumbnail".into(), message: messages.t(lang, refusal.message_key()) }),
        }
    }
    let mut change = form.input().check(current, messages, lang, extra)?;
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
