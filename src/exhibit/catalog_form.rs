//! The event catalogue item form (spec §7 "Event catalog items", §5 limits): `slot_id`,
//! `name_ja` (≤ 32), `name_en` (≤ 64), `url` (optional), `category_id` (required, a category of
//! exhibitors' items), `is_distributable`, `thumbnail` (through the image pipeline, three sizes).
//! Shared by `POST`/`PUT /api/v1/user/{event}/event_catalog_items[/{id}]` and the mypage pages;
//! on a change an absent field keeps its value. The thumbnail is stored only when the whole form
//! is valid.

use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use sea_orm::{ConnectionTrait, EntityTrait};
use serde::Deserialize;
use utoipa::ToSchema;
use validator::Validate;

use crate::db::entities::{catalog_item, catalog_item_category, catalog_item_category_group};
use crate::error::Result;
use crate::exhibit::catalog::{ItemChange, NAME_EN_MAX, NAME_JA_MAX, URL_MAX};
use crate::forms::circle::resize_thumbnail;
use crate::forms::{Input, Problems, checks};
use crate::http::upload::{Uploads, read_image};
use crate::model::catalog::CategoryGroupType;
use crate::model::circle::{THUMBNAIL_SIZES, thumbnail_version_key};

/// The item's text fields, trimmed, as they are checked.
#[derive(Debug, Clone, Default, Deserialize, Validate)]
pub struct CatalogItemInput {
    /// Japanese name.
    #[validate(length(max = NAME_JA_MAX, code = "too_long"), custom(function = "checks::clean_text"))]
    pub name_ja: String,
    /// English name.
    #[validate(length(max = NAME_EN_MAX, code = "too_long"), custom(function = "checks::clean_text"))]
    pub name_en: String,
    /// An http(s) link, empty for none.
    #[validate(length(max = URL_MAX, code = "too_long"), custom(function = "link"))]
    pub url: String,
    /// The category's id (required: checked apart, so an empty one reads "required").
    #[validate(custom(function = "id_or_empty"))]
    pub category_id: String,
    /// `true`/`1`/`on`, or `false`/`0`/`off`/empty.
    #[validate(custom(function = "flag"))]
    pub is_distributable: String,
}

impl Input for CatalogItemInput {
    const FIELDS: &'static [&'static str] =
        &["slot_id", "name_ja", "name_en", "url", "category_id", "is_distributable", "thumbnail"];
}

/// An http(s) URL, or empty.
fn link(value: &str) -> std::result::Result<(), validator::ValidationError> {
    if value.is_empty() { Ok(()) } else { checks::http_url(value) }
}

/// A positive id, or empty.
fn id_or_empty(value: &str) -> std::result::Result<(), validator::ValidationError> {
    if value.is_empty() { Ok(()) } else { checks::positive_id(value) }
}

/// The value of a boolean form field, `None` when it is no boolean.
fn parse_flag(value: &str) -> Option<bool> {
    match value {
        "true" | "1" | "on" => Some(true),
        "false" | "0" | "off" | "" => Some(false),
        _ => None,
    }
}

/// A boolean form field (`boolean`).
fn flag(value: &str) -> std::result::Result<(), validator::ValidationError> {
    if parse_flag(value).is_some() { Ok(()) } else { Err(validator::ValidationError::new("boolean")) }
}

/// The multipart form; on a change, an absent field keeps its value.
#[derive(FromForm)]
pub struct CatalogItemForm<'r> {
    /// The page form's CSRF token (API calls send the header instead).
    pub csrf_token: Option<String>,
    /// The slot to list the item for; may be left out when the user's circles hold one slot.
    pub slot_id: Option<String>,
    /// Raw `name_ja`.
    pub name_ja: Option<String>,
    /// Raw `name_en`.
    pub name_en: Option<String>,
    /// Raw `url`.
    pub url: Option<String>,
    /// Raw `category_id`.
    pub category_id: Option<String>,
    /// Raw `is_distributable`.
    pub is_distributable: Option<String>,
    /// Raw `thumbnail`.
    pub thumbnail: Option<TempFile<'r>>,
}

/// The form, or why Rocket could not parse it.
pub type CatalogItemFormResult<'r> = std::result::Result<Form<CatalogItemForm<'r>>, Errors<'r>>;

/// The form as the OpenAPI document describes it (the handlers read [`CatalogItemForm`]).
#[derive(ToSchema)]
pub struct CatalogItemFormSchema {
    /// The slot (`GET …/event_slots`) to list the item for; required when the user's circles
    /// hold more than one slot in the event; fixed once the item exists.
    pub slot_id: Option<i32>,
    /// Japanese name, at most 32 characters (an item needs a name in at least one language).
    #[schema(max_length = 32)]
    pub name_ja: Option<String>,
    /// English name, at most 64 characters.
    #[schema(max_length = 64)]
    pub name_en: Option<String>,
    /// An http(s) URL where the item is sold or shown; empty for none.
    #[schema(max_length = 2048)]
    pub url: Option<String>,
    /// A category of exhibitors' items (`GET /api/v1/catalog_item_groups`); required.
    pub category_id: Option<i32>,
    /// Handed out free at the event (`true`/`false`).
    pub is_distributable: Option<bool>,
    /// A PNG, JPEG, WebP or GIF of at most 5 MiB and 4096 px a side.
    #[schema(value_type = Option<String>, format = Binary)]
    pub thumbnail: Option<Vec<u8>>,
}

impl CatalogItemForm<'_> {
    /// The text fields, trimmed, absent ones from `current` (a change) or empty.
    pub fn input(&self, current: Option<&catalog_item::Model>) -> CatalogItemInput {
        let pick =
            |given: &Option<String>, kept: String| given.as_deref().map(|v| v.trim().to_string()).unwrap_or(kept);
        CatalogItemInput {
            name_ja: pick(&self.name_ja, current.map(|c| c.name_ja.clone()).unwrap_or_default()),
            name_en: pick(&self.name_en, current.map(|c| c.name_en.clone()).unwrap_or_default()),
            url: pick(&self.url, current.and_then(|c| c.url.clone()).unwrap_or_default()),
            category_id: pick(&self.category_id, current.map(|c| c.category_id.to_string()).unwrap_or_default()),
            is_distributable: pick(
                &self.is_distributable,
                current.map(|c| c.is_distributable.to_string()).unwrap_or_default(),
            ),
        }
    }
}

/// Checks `form` (against `current` for a change), the category in the database and the
/// thumbnail through the image pipeline, then stores the thumbnail; every problem comes back at
/// once as field errors, and nothing is stored for a form with errors.
pub async fn checked(
    db: &impl ConnectionTrait,
    uploads: &Uploads<'_>,
    form: &CatalogItemForm<'_>,
    current: Option<&catalog_item::Model>,
) -> Result<ItemChange> {
    let input = form.input(current);
    let mut problems = Problems::of(&input);
    if input.name_ja.is_empty() && input.name_en.is_empty() {
        problems.fail("name_ja", "catalog_items.validation.name");
    }
    let category_id = input.category_id.parse::<i32>().ok().filter(|id| *id > 0);
    if input.category_id.is_empty() {
        problems.fail("category_id", "validation.required");
    } else if let Some(id) = category_id {
        let general = match catalog_item_category::Entity::find_by_id(id).one(db).await? {
            Some(c) => catalog_item_category_group::Entity::find_by_id(c.group_id)
                .one(db)
                .await?
                .is_some_and(|g| g.group_type == CategoryGroupType::General),
            None => false,
        };
        if !general {
            problems.fail("category_id", "validation.unknown_reference");
        }
    }
    let mut versions = None;
    if let Some(file) = form.thumbnail.as_ref().filter(|f| f.len() > 0) {
        let bytes = read_image(file).await?;
        match uploads.images.render(bytes, THUMBNAIL_SIZES[2].1, resize_thumbnail).await {
            Ok(rendered) => versions = Some(rendered),
            Err(refusal) => problems.fail("thumbnail", refusal.message_key()),
        }
    }
    problems.into_result()?;
    let mut thumbnail = None;
    if let Some(versions) = versions {
        let key = format!("catalog_items/thumbnails/{}", uuid::Uuid::new_v4().simple());
        for ((size, _), bytes) in THUMBNAIL_SIZES.iter().zip(versions) {
            uploads.storage.put(&thumbnail_version_key(&key, size), bytes).await?;
        }
        thumbnail = Some(format!("/media/{}", thumbnail_version_key(&key, "medium")));
    }
    Ok(ItemChange {
        name_ja: input.name_ja,
        name_en: input.name_en,
        url: Some(input.url).filter(|u| !u.is_empty()),
        category_id: category_id.unwrap_or_default(),
        is_distributable: parse_flag(&input.is_distributable).unwrap_or(false),
        thumbnail,
    })
}
