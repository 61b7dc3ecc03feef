//! The user event form (spec §5 "Hub user event"), shared by `/api/v1/user/{event}/hub_notifications`
//! and the mypage pages that post without JavaScript: the multipart fields, their checks
//! against the event's worlds and the hub's tags, and the thumbnail upload.

use chrono::{DateTime, Utc};
use image::imageops::FilterType;
use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use sea_orm::DatabaseConnection;
use utoipa::ToSchema;

use crate::error::{Error, FieldError, Result};
use crate::forms::checks::parse_instant;
use crate::http::upload::{Uploads, png, read_image};
use crate::i18n::Messages;
use crate::model::hub::{HubCategory, HubLocale};
use crate::model::redirect::http_url;
use crate::model::text;
use crate::model::user_event::{MAX_TAGS, UserEventInput, unknown_references};
use crate::types::Id;
use crate::types::Lang;

/// Longest title.
pub const MAX_TITLE: usize = 256;
/// Longest body text.
pub const MAX_CONTENT: usize = 4096;
/// Longest link.
const MAX_URL: usize = 2048;
/// Thumbnails are scaled down to fit this box (16:9).
const THUMBNAIL_BOX: (u32, u32) = (1280, 720);

/// The multipart form of a user event (API and mypage page alike); every value is checked
/// before use.
#[derive(FromForm)]
pub struct UserEventForm<'r> {
    /// The page form's CSRF token (API calls send the header instead).
    pub csrf_token: Option<String>,
    /// Raw `title`.
    pub title: Option<String>,
    /// Raw `content`.
    pub content: Option<String>,
    /// Raw `start_at`.
    pub start_at: Option<String>,
    /// Raw `end_at`.
    pub end_at: Option<String>,
    /// Raw `publish_at`.
    pub publish_at: Option<String>,
    /// Raw `display_date`.
    pub display_date: Option<String>,
    /// Raw `locale`.
    pub locale: Option<String>,
    /// Raw `category`.
    pub category: Option<String>,
    /// Raw `link_url`.
    pub link_url: Option<String>,
    /// Raw `world_id`.
    pub world_id: Option<String>,
    /// Raw `hub_tags`.
    pub hub_tags: Vec<String>,
    /// Raw `thumbnail`.
    pub thumbnail: Option<TempFile<'r>>,
}

/// The user event form as the OpenAPI document describes it (the handlers read
/// [`UserEventForm`]). Times are RFC 3339, or a date meaning midnight in Japan.
#[derive(ToSchema)]
pub struct UserEventFormSchema {
    /// Title, at most 256 characters.
    #[schema(max_length = 256)]
    pub title: String,
    /// Body text, at most 4096 characters.
    #[schema(max_length = 4096)]
    pub content: String,
    /// When it starts.
    pub start_at: String,
    /// Audience.
    pub locale: HubLocale,
    /// Where to read more or join: an http(s) URL.
    pub link_url: Option<String>,
    /// When it becomes visible (default: at once).
    pub publish_at: Option<String>,
    /// When it ends: after `start_at`.
    pub end_at: Option<String>,
    /// The date shown on cards instead of the start.
    pub display_date: Option<String>,
    /// Only `user_event`.
    pub category: Option<HubCategory>,
    /// A world of the event.
    pub world_id: Option<i32>,
    /// Hub tag ids, at most 10.
    #[schema(rename = "hub_tags[]")]
    pub hub_tags: Vec<i32>,
    /// A PNG, JPEG, WebP or GIF of at most 5 MiB and 4096 px a side.
    #[schema(value_type = Option<String>, format = Binary)]
    pub thumbnail: Option<Vec<u8>>,
}

/// The form, or why Rocket could not parse it.
pub type FormResult<'r> = std::result::Result<Form<UserEventForm<'r>>, Errors<'r>>;

/// What checking a form needs: the database, the messages and the language of the answer.
pub struct FormContext<'a> {
    /// The database.
    pub db: &'a DatabaseConnection,
    /// The message catalogues.
    pub messages: &'a Messages,
    /// The language of the field errors.
    pub lang: Lang,
}

/// Collects field errors in the request's language.
struct Checks<'a> {
    cx: &'a FormContext<'a>,
    errors: Vec<FieldError>,
}

impl Checks<'_> {
    fn fail(&mut self, attribute: &str, key: &str, args: &[(&str, &str)]) {
        let message = self.cx.messages.tf(self.cx.lang, key, args);
        self.errors.push(FieldError { attribute: attribute.into(), message });
    }

    fn text(&mut self, attribute: &str, raw: Option<&str>, max: usize) -> String {
        let value = raw.unwrap_or("").trim().to_string();
        if let Some(key) = text::problem(&value, max) {
            self.fail(attribute, key, &[("max", &max.to_string())]);
        }
        value
    }

    fn instant(&mut self, attribute: &str, raw: Option<&str>) -> Option<DateTime<Utc>> {
        let raw = raw.map(str::trim).filter(|r| !r.is_empty())?;
        let parsed = parse_instant(raw);
        if parsed.is_none() {
            self.fail(attribute, "validation.datetime", &[]);
        }
        parsed
    }

    fn id(&mut self, attribute: &str, raw: &str) -> Option<i32> {
        let parsed = Id::parse(raw.trim()).ok().map(|i| i.0);
        if parsed.is_none() {
            self.fail(attribute, "validation.positive_integer", &[]);
        }
        parsed
    }
}

/// Checks the form (everything but the thumbnail) against spec §5 and the event's worlds and
/// the hub's tags.
pub async fn check(cx: &FormContext<'_>, event_id: i32, form: &UserEventForm<'_>) -> Result<UserEventInput> {
    let mut c = Checks { cx, errors: Vec::new() };
    let title = c.text("title", form.title.as_deref(), MAX_TITLE);
    let content = c.text("content", form.content.as_deref(), MAX_CONTENT);
    let start_at = c.instant("start_at", form.start_at.as_deref());
    if form.start_at.as_deref().is_none_or(|s| s.trim().is_empty()) {
        c.fail("start_at", "validation.required", &[]);
    }
    let end_at = c.instant("end_at", form.end_at.as_deref());
    if let (Some(start), Some(end)) = (start_at, end_at)
        && end <= start
    {
        c.fail("end_at", "validation.time_range", &[]);
    }
    let publish_at = c.instant("publish_at", form.publish_at.as_deref());
    let display_date = c.instant("display_date", form.display_date.as_deref());
    let locale = match form.locale.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        None => {
            c.fail("locale", "validation.required", &[]);
            None
        }
        Some(raw) => {
            let parsed = serde_json::from_value::<HubLocale>(serde_json::Value::String(raw.to_string())).ok();
            if parsed.is_none() {
                c.fail("locale", "validation.invalid_choice", &[]);
            }
            parsed
        }
    };
    if let Some(category) = form.category.as_deref().map(str::trim).filter(|c| !c.is_empty())
        && category != HubCategory::UserEvent.as_str()
    {
        c.fail("category", "validation.user_event_category", &[]);
    }
    let link_url = form.link_url.as_deref().map(str::trim).filter(|u| !u.is_empty()).map(str::to_string);
    if let Some(url) = &link_url {
        let ok = url.len() <= MAX_URL && text::is_clean(url) && http_url(url).is_some();
        if !ok {
            c.fail("link_url", "validation.url", &[]);
        }
    }
    let world_id = form.world_id.as_deref().filter(|w| !w.trim().is_empty()).and_then(|w| c.id("world_id", w));
    let mut hub_tags = Vec::new();
    for raw in form.hub_tags.iter().filter(|t| !t.trim().is_empty()) {
        hub_tags.extend(c.id("hub_tags", raw));
    }
    if hub_tags.len() > MAX_TAGS {
        c.fail("hub_tags", "validation.too_many_tags", &[("max", &MAX_TAGS.to_string())]);
    }
    let (world_unknown, unknown_tags) = unknown_references(cx.db, event_id, world_id, &hub_tags).await?;
    if world_unknown {
        c.fail("world_id", "validation.unknown_world", &[]);
    }
    for tag in unknown_tags {
        c.fail("hub_tags", "validation.unknown_tag", &[("id", &tag.to_string())]);
    }
    match (start_at, locale) {
        (Some(start_at), Some(locale)) if c.errors.is_empty() => Ok(UserEventInput {
            title,
            content,
            link_url,
            thumbnail: None,
            publish_at,
            start_at,
            end_at,
            display_date,
            locale,
            world_id,
            hub_tags,
        }),
        _ => Err(Error::Validation(c.errors)),
    }
}

/// Stores an uploaded thumbnail (scaled to fit 1280×720, as PNG); returns its URL.
pub async fn store_thumbnail(
    cx: &FormContext<'_>,
    uploads: &Uploads<'_>,
    user_id: i32,
    file: Option<&TempFile<'_>>,
) -> Result<Option<String>> {
    let Some(file) = file.filter(|f| f.len() > 0) else { return Ok(None) };
    let bytes = read_image(file).await?;
    let (w, h) = THUMBNAIL_BOX;
    let encoded = uploads
        .images
        .render(bytes, move |img| png(&img.resize(w.min(img.width()), h.min(img.height()), FilterType::Lanczos3)))
        .await
        .map_err(|refusal| Error::invalid("thumbnail", cx.messages.t(cx.lang, refusal.message_key())))?;
    let key = format!("hub/users/{user_id}/{}.png", uuid::Uuid::new_v4());
    uploads.storage.put(&key, encoded).await?;
    Ok(Some(format!("/media/{key}")))
}

/// Checks the form, then stores the thumbnail: nothing is stored for a form with errors.
pub async fn input(
    cx: &FormContext<'_>,
    uploads: &Uploads<'_>,
    event_id: i32,
    user_id: i32,
    form: &UserEventForm<'_>,
) -> Result<UserEventInput> {
    let mut input = check(cx, event_id, form).await?;
    input.thumbnail = store_thumbnail(cx, uploads, user_id, form.thumbnail.as_ref()).await?;
    Ok(input)
}
