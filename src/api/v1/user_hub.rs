//! The signed-in user's own hub posts (user events): `GET` and `POST
//! /api/v1/user/{event}/hub_notifications`, `GET`, `PUT` and `DELETE
//! /api/v1/user/{event}/hub_notifications/{id}`. Multipart form fields: `title`, `content`,
//! `start_at`, `locale`, `link_url`, `thumbnail`, `publish_at`, `end_at`, `display_date`,
//! `category` (only `user_event`), `world_id`, `hub_tags[]`. Someone else's post is 404.

use chrono::{DateTime, Utc};
use image::imageops::FilterType;
use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, State, delete, get, post, put, routes};
use utoipa::ToSchema;

use crate::api::Api;
use crate::api::upload::{decode_image, form_error, png, read_image};
use crate::api::v1::ListBody;
use crate::api::v1::hub::parse_instant;
use crate::auth::guards::CurrentUser;
use crate::db::entities::{event, hub_notification};
use crate::error::{Error, FieldError, Result};
use crate::model::hub::{HubCategory, HubLocale, HubNotificationView};
use crate::model::pagination::Pagination;
use crate::model::text;
use crate::model::user_event::{MAX_TAGS, UserEventInput, unknown_references};
use crate::storage::Storage;
use crate::web::params::{Id, Permalink};

/// Longest title.
const MAX_TITLE: usize = 256;
/// Longest body text.
const MAX_CONTENT: usize = 4096;
/// Longest link.
const MAX_URL: usize = 2048;
/// Thumbnails are scaled down to fit this box (16:9).
const THUMBNAIL_BOX: (u32, u32) = (1280, 720);

/// The multipart form of a user event; every value is checked before use.
#[derive(FromForm)]
pub struct UserEventForm<'r> {
    title: Option<String>,
    content: Option<String>,
    start_at: Option<String>,
    end_at: Option<String>,
    publish_at: Option<String>,
    display_date: Option<String>,
    locale: Option<String>,
    category: Option<String>,
    link_url: Option<String>,
    world_id: Option<String>,
    hub_tags: Vec<String>,
    thumbnail: Option<TempFile<'r>>,
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

type FormResult<'r> = std::result::Result<Form<UserEventForm<'r>>, Errors<'r>>;

/// Collects field errors in the request's language.
struct Checks<'a> {
    api: &'a Api<'a>,
    errors: Vec<FieldError>,
}

impl Checks<'_> {
    fn fail(&mut self, attribute: &str, key: &str, args: &[(&str, &str)]) {
        let message = self.api.site.messages.tf(self.api.lang, key, args);
        self.errors.push(FieldError { attribute: attribute.into(), message });
    }

    fn text(&mut self, attribute: &str, raw: Option<&str>, max: usize) -> String {
        let value = raw.unwrap_or("").trim().to_string();
        if value.is_empty() {
            self.fail(attribute, "validation.required", &[]);
        } else if value.chars().count() > max {
            self.fail(attribute, "validation.too_long", &[("max", &max.to_string())]);
        } else if !text::is_clean(&value) {
            self.fail(attribute, "validation.control_chars", &[]);
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
async fn check(api: &Api<'_>, event_id: i32, form: &UserEventForm<'_>) -> Result<UserEventInput> {
    let mut c = Checks { api, errors: Vec::new() };
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
            let parsed = api.choice::<HubLocale>("locale", Some(raw)).ok().flatten();
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
        let ok = url.len() <= MAX_URL
            && text::is_clean(url)
            && url::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some());
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
    let (world_unknown, unknown_tags) = unknown_references(api.db, event_id, world_id, &hub_tags).await?;
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
async fn store_thumbnail(
    api: &Api<'_>,
    storage: &Storage,
    user_id: i32,
    file: Option<&TempFile<'_>>,
) -> Result<Option<String>> {
    let Some(file) = file.filter(|f| f.len() > 0) else { return Ok(None) };
    let bytes = read_image(file).await?;
    let (w, h) = THUMBNAIL_BOX;
    let encoded = tokio::task::spawn_blocking(move || {
        decode_image(&bytes)
            .and_then(|img| png(&img.resize(w.min(img.width()), h.min(img.height()), FilterType::Lanczos3)))
    })
    .await;
    let Ok(Ok(encoded)) = encoded else {
        return Err(Error::invalid("thumbnail", api.t("validation.image")));
    };
    let key = format!("hub/users/{user_id}/{}.png", uuid::Uuid::new_v4());
    storage.put(&key, encoded).await?;
    Ok(Some(format!("/media/{key}")))
}

/// Checks the form, then stores the thumbnail: nothing is stored for a form with errors.
async fn input(
    api: &Api<'_>,
    storage: &Storage,
    event_id: i32,
    user_id: i32,
    form: FormResult<'_>,
) -> Result<UserEventInput> {
    let form = form.map_err(form_error)?;
    let mut input = check(api, event_id, &form).await?;
    input.thumbnail = store_thumbnail(api, storage, user_id, form.thumbnail.as_ref()).await?;
    Ok(input)
}

/// The user's own user events in the event, newest start first, published or not.
#[utoipa::path(get, path = "/api/v1/user/{event}/hub_notifications", tag = "hub", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"),
           ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<HubNotificationView>), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/user/<event>/hub_notifications?<page>&<limit>", rank = 2)]
pub async fn list(
    api: Api<'_>,
    current: CurrentUser,
    event: Permalink,
    page: Option<&str>,
    limit: Option<&str>,
) -> Result<Json<ListBody<HubNotificationView>>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let req = api.page(page, limit)?;
    let (rows, count) = hub_notification::Model::own_page(api.db, event.id, current.user.id, req).await?;
    let data = HubNotificationView::load(api.db, rows, api.lang, api.now).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(req, count, count) }))
}

/// Posts a user event to the event's hub. Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(post, path = "/api/v1/user/{event}/hub_notifications", tag = "hub", security(("bearer" = [])),
    params(("event" = String, Path), ("lang" = Option<String>, Query)),
    request_body(content = inline(UserEventFormSchema), content_type = "multipart/form-data"),
    responses((status = 201, body = HubNotificationView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody), (status = 413, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/user/<event>/hub_notifications", data = "<form>", rank = 2)]
pub async fn create(
    api: Api<'_>,
    current: CurrentUser,
    storage: &State<Storage>,
    event: Permalink,
    form: FormResult<'_>,
) -> Result<(Status, Json<HubNotificationView>)> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let input = input(&api, storage, event.id, current.user.id, form).await?;
    let row = hub_notification::Model::create_user_event(api.db, event.id, &current.user, input, api.now).await?;
    Ok((Status::Created, Json(HubNotificationView::load_one(api.db, row, api.lang, api.now).await?)))
}

/// One of the user's own user events.
#[utoipa::path(get, path = "/api/v1/user/{event}/hub_notifications/{id}", tag = "hub", security(("bearer" = [])),
    params(("event" = String, Path), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = HubNotificationView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or not the user's")))]
#[get("/user/<event>/hub_notifications/<id>", rank = 2)]
pub async fn show(api: Api<'_>, current: CurrentUser, event: Permalink, id: Id) -> Result<Json<HubNotificationView>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let row = hub_notification::Model::find_own(api.db, event.id, current.user.id, id.0).await?;
    Ok(Json(HubNotificationView::load_one(api.db, row, api.lang, api.now).await?))
}

/// Replaces one of the user's own user events (same form as posting; the thumbnail stays
/// unless a new one is sent).
#[utoipa::path(put, path = "/api/v1/user/{event}/hub_notifications/{id}", tag = "hub", security(("bearer" = [])),
    params(("event" = String, Path), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    request_body(content = inline(UserEventFormSchema), content_type = "multipart/form-data"),
    responses((status = 200, body = HubNotificationView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody), (status = 413, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[put("/user/<event>/hub_notifications/<id>", data = "<form>", rank = 2)]
pub async fn update(
    api: Api<'_>,
    current: CurrentUser,
    storage: &State<Storage>,
    event: Permalink,
    id: Id,
    form: FormResult<'_>,
) -> Result<Json<HubNotificationView>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let row = hub_notification::Model::find_own(api.db, event.id, current.user.id, id.0).await?;
    let input = input(&api, storage, event.id, current.user.id, form).await?;
    let row = row.update_user_event(api.db, input, api.now).await?;
    Ok(Json(HubNotificationView::load_one(api.db, row, api.lang, api.now).await?))
}

/// Deletes one of the user's own user events.
#[utoipa::path(delete, path = "/api/v1/user/{event}/hub_notifications/{id}", tag = "hub", security(("bearer" = [])),
    params(("event" = String, Path), ("id" = i32, Path)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody)))]
#[delete("/user/<event>/hub_notifications/<id>", rank = 2)]
pub async fn remove(api: Api<'_>, current: CurrentUser, event: Permalink, id: Id) -> Result<Status> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let row = hub_notification::Model::find_own(api.db, event.id, current.user.id, id.0).await?;
    row.delete_user_event(api.db).await?;
    Ok(Status::NoContent)
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, create, show, update, remove]
}
