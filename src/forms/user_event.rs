//! The user event write (spec §5 "Hub user event": title, content, startAt and locale required;
//! category fixed to user_event), shared by `/api/v1/user/{event}/hub_notifications` and the
//! mypage pages that post without JavaScript: the multipart fields, the typed input with its
//! checks (also against the event's worlds and the hub's tags), and the thumbnail upload.

use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use sea_orm::ConnectionTrait;
use utoipa::ToSchema;
use validator::{Validate, ValidationError};

use crate::error::{Error, Result};
use crate::forms::checks::{self, parse_instant};
use crate::forms::{Input, Problems};
use crate::http::upload::{Uploads, fit, png, read_image};
use crate::model::hub_notification::{HubCategory, HubLocale};
use crate::model::user_event::{MAX_TAGS, NewUserEvent, unknown_references};
use crate::types::Id;

/// Longest title, in characters.
pub const MAX_TITLE: u64 = 256;
/// Longest body text, in characters.
pub const MAX_CONTENT: u64 = 4096;
/// The most hub tags one user event may carry.
const MAX_TAG_COUNT: u64 = MAX_TAGS as u64;
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

/// The typed input of a user event: the form's fields, trimmed, blank ones absent.
#[derive(Debug, Clone, Default, Validate)]
pub struct UserEventInput {
    /// Title.
    #[validate(
        required(code = "required"),
        length(max = MAX_TITLE, code = "too_long"),
        custom(function = "checks::clean_text")
    )]
    pub title: Option<String>,
    /// Body text.
    #[validate(
        required(code = "required"),
        length(max = MAX_CONTENT, code = "too_long"),
        custom(function = "checks::clean_text")
    )]
    pub content: Option<String>,
    /// When it starts.
    #[validate(required(code = "required"), custom(function = "checks::instant"))]
    pub start_at: Option<String>,
    /// When it ends (after the start).
    #[validate(custom(function = "checks::instant"))]
    pub end_at: Option<String>,
    /// When it becomes visible.
    #[validate(custom(function = "checks::instant"))]
    pub publish_at: Option<String>,
    /// The date shown on cards.
    #[validate(custom(function = "checks::instant"))]
    pub display_date: Option<String>,
    /// Audience, `jp` or `global`.
    #[validate(required(code = "required"), custom(function = "audience"))]
    pub locale: Option<String>,
    /// Only `user_event`.
    #[validate(custom(function = "only_user_events"))]
    pub category: Option<String>,
    /// An http(s) link.
    #[validate(custom(function = "checks::http_url"))]
    pub link_url: Option<String>,
    /// A world of the event.
    #[validate(custom(function = "checks::positive_id"))]
    pub world_id: Option<String>,
    /// Hub tag ids.
    #[validate(custom(function = "checks::positive_ids"), length(max = MAX_TAG_COUNT, code = "too_many_tags"))]
    pub hub_tags: Vec<String>,
}

impl Input for UserEventInput {
    const FIELDS: &'static [&'static str] = &[
        "title",
        "content",
        "start_at",
        "end_at",
        "publish_at",
        "display_date",
        "locale",
        "category",
        "link_url",
        "world_id",
        "hub_tags",
        "thumbnail",
    ];
}

/// `jp` or `global` (`invalid_choice`).
fn audience(value: &str) -> std::result::Result<(), ValidationError> {
    match parse_locale(value) {
        Some(_) => Ok(()),
        None => Err(ValidationError::new("invalid_choice")),
    }
}

/// Only `user_event` (`user_event_category`).
fn only_user_events(value: &str) -> std::result::Result<(), ValidationError> {
    if value == HubCategory::UserEvent.as_str() { Ok(()) } else { Err(ValidationError::new("user_event_category")) }
}

fn parse_locale(value: &str) -> Option<HubLocale> {
    super::parse_choice(value)
}

impl From<&UserEventForm<'_>> for UserEventInput {
    fn from(form: &UserEventForm<'_>) -> Self {
        let text = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        Self {
            title: text(&form.title),
            content: text(&form.content),
            start_at: text(&form.start_at),
            end_at: text(&form.end_at),
            publish_at: text(&form.publish_at),
            display_date: text(&form.display_date),
            locale: text(&form.locale),
            category: text(&form.category),
            link_url: text(&form.link_url),
            world_id: text(&form.world_id),
            hub_tags: form.hub_tags.iter().map(|t| t.trim()).filter(|t| !t.is_empty()).map(str::to_string).collect(),
        }
    }
}

/// Checks the form (everything but the thumbnail) against spec §5, the event's worlds and the
/// hub's tags; every problem is reported by field.
pub async fn check(db: &impl ConnectionTrait, event_id: i32, form: &UserEventForm<'_>) -> Result<NewUserEvent> {
    let input = UserEventInput::from(form);
    let mut problems = Problems::of(&input);
    let at = |raw: &Option<String>| raw.as_deref().and_then(parse_instant);
    let (start_at, end_at) = (at(&input.start_at), at(&input.end_at));
    if let (Some(start), Some(end)) = (start_at, end_at)
        && end <= start
    {
        problems.fail("end_at", "validation.time_range");
    }
    let id = |raw: &str| Id::parse(raw).ok().map(|id| id.0);
    let world_id = input.world_id.as_deref().and_then(id);
    let hub_tags: Vec<i32> = input.hub_tags.iter().filter_map(|t| id(t)).collect();
    let (world_unknown, unknown_tags) = unknown_references(db, event_id, world_id, &hub_tags).await?;
    if world_unknown {
        problems.fail("world_id", "validation.unknown_world");
    }
    for tag in unknown_tags {
        problems.add(crate::error::Invalid::new("hub_tags", "validation.unknown_tag").with("id", tag));
    }
    problems.into_result()?;
    let (Some(title), Some(content), Some(start_at), Some(locale)) =
        (input.title, input.content, start_at, input.locale.as_deref().and_then(parse_locale))
    else {
        // The checks above require all four.
        return Err(Error::Validation(Vec::new()));
    };
    Ok(NewUserEvent {
        title,
        content,
        link_url: input.link_url,
        thumbnail: None,
        publish_at: at(&input.publish_at),
        start_at,
        end_at,
        display_date: at(&input.display_date),
        locale,
        world_id,
        hub_tags,
    })
}

/// Stores an uploaded thumbnail (scaled to fit 1280×720, as PNG); returns its URL.
pub async fn store_thumbnail(
    uploads: &Uploads<'_>,
    user_id: i32,
    file: Option<&TempFile<'_>>,
) -> Result<Option<String>> {
    let Some(file) = file.filter(|f| f.len() > 0) else { return Ok(None) };
    let bytes = read_image(file).await?;
    let (w, h) = THUMBNAIL_BOX;
    let encoded = uploads
        .images
        .render(bytes, w.max(h), move |img| png(&fit(&img, w, h)))
        .await
        .map_err(|refusal| Error::invalid("thumbnail", refusal.message_key()))?;
    let key = format!("hub/users/{user_id}/{}.png", uuid::Uuid::new_v4());
    uploads.storage.put(&key, encoded).await?;
    Ok(Some(format!("/media/{key}")))
}

/// Checks the form, then stores the thumbnail: nothing is stored for a form with errors.
pub async fn input(
    db: &impl ConnectionTrait,
    uploads: &Uploads<'_>,
    event_id: i32,
    user_id: i32,
    form: &UserEventForm<'_>,
) -> Result<NewUserEvent> {
    let mut input = check(db, event_id, form).await?;
    input.thumbnail = store_thumbnail(uploads, user_id, form.thumbnail.as_ref()).await?;
    Ok(input)
}
