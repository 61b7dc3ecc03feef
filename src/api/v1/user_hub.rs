//! The signed-in user's own hub posts (user events): `GET` and `POST
//! /api/v1/user/{event}/hub_notifications`, `GET`, `PUT` and `DELETE
//! /api/v1/user/{event}/hub_notifications/{id}`. Multipart form fields: `title`, `content`,
//! `start_at`, `locale`, `link_url`, `thumbnail`, `publish_at`, `end_at`, `display_date`,
//! `category` (only `user_event`), `world_id`, `hub_tags[]`. Someone else's post is 404.

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, put, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::auth::guards::CurrentUser;
use crate::db::entities::{event, hub_notification};
use crate::error::Result;
use crate::forms::user_event::{self, FormResult, UserEventFormSchema};
use crate::http::upload::Uploads;
use crate::http::upload::form_error;
use crate::model::hub_notification::HubNotificationView;
use crate::model::pagination::Pagination;
use crate::model::user_event::{NewUserEvent, Scope};
use crate::types::{Id, Permalink};

/// Parses and checks the form, then stores its thumbnail.
async fn input(
    api: &Api<'_>,
    uploads: &Uploads<'_>,
    event_id: i32,
    user_id: i32,
    form: FormResult<'_>,
) -> Result<NewUserEvent> {
    let form = form.map_err(form_error)?;
    user_event::input(api.db, uploads, event_id, user_id, &form).await
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
    let (rows, count) =
        hub_notification::Model::own_page(api.db, event.id, current.user.id, Scope::All, api.now, req).await?;
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
    uploads: Uploads<'_>,
    event: Permalink,
    form: FormResult<'_>,
) -> Result<(Status, Json<HubNotificationView>)> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let input = input(&api, &uploads, event.id, current.user.id, form).await?;
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
    uploads: Uploads<'_>,
    event: Permalink,
    id: Id,
    form: FormResult<'_>,
) -> Result<Json<HubNotificationView>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let row = hub_notification::Model::find_own(api.db, event.id, current.user.id, id.0).await?;
    let input = input(&api, &uploads, event.id, current.user.id, form).await?;
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

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, create, show, update, remove))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, create, show, update, remove]
}
