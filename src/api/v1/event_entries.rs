//! A circle's entries to events (spec §7 "Entries and plans"): `GET /api/v1/user/event_entries`
//! (`?page=` or `?permalink=`), `POST` to apply, `PUT` / `DELETE …/{id}` to edit or withdraw
//! inside the entry window, `PUT …/{id}/update_amp_ids` until `submission_end`, `PUT
//! …/{id}/applications/{application_id}/decline` to give up a won, unpaid application inside
//! its payment window. Owner only for changes: a member gets 403, anyone else 404; members and
//! owners both read. Rules and codes: [`crate::model::entry`], [`crate::model::entry_decline`].

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, put, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::api::v1::{Body, body};
use crate::auth::guards::CurrentUser;
use crate::db::entities::{event, event_entry};
use crate::error::{Error, Result};
use crate::forms::entry::{AmpUpdateInput, EntryInput};
use crate::model::entry_view::EntryView;
use crate::model::pagination::Pagination;
use crate::types::{Id, Permalink};

/// The entries of every circle the user owns or belongs to, newest first; only those to one
/// event with `permalink`.
#[utoipa::path(get, path = "/api/v1/user/event_entries", tag = "entries", security(("bearer" = [])),
    params(("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("permalink" = Option<String>, Query, description = "only entries to this event"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<EntryView>), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_permalink"),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/user/event_entries?<page>&<limit>&<permalink>")]
pub async fn list(
    api: Api<'_>,
    current: CurrentUser,
    page: Option<&str>,
    limit: Option<&str>,
    permalink: Option<&str>,
) -> Result<Json<ListBody<EntryView>>> {
    let req = api.page(page, limit)?;
    let event_id = match permalink {
        Some(p) => {
            let p = Permalink::parse(p).map_err(|_| Error::unknown_permalink())?;
            Some(event::Model::resolve(api.db, p.as_str()).await?.id)
        }
        None => None,
    };
    let (rows, count) = event_entry::Model::visible_page(api.db, current.user.id, event_id, req).await?;
    let data = EntryView::load(api.db, rows, current.user.id, api.lang, api.now).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(req, count, count) }))
}

/// Applies to an event for one of the user's own circles, with 1–3 ranked wishes. Inside the
/// entry window only; one entry per event and circle. Cookie-authenticated calls need
/// `X-CSRF-Token`.
#[utoipa::path(post, path = "/api/v1/user/event_entries", tag = "entries", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    request_body = EntryInput,
    responses((status = 201, body = EntryView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown circle or event"),
              (status = 409, body = crate::error::ErrorBody, description = "circle_suspended, entry_closed, entry_exists"),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/user/event_entries", data = "<input>")]
pub async fn create(
    api: Api<'_>,
    current: CurrentUser,
    input: Body<'_, EntryInput>,
) -> Result<(Status, Json<EntryView>)> {
    let input = body(input)?;
    let change = input.checked(true)?;
    let (event_id, circle_id) = (input.event_id.unwrap_or_default(), input.circle_id.unwrap_or_default());
    let entry = event_entry::Model::apply(api.db, event_id, circle_id, current.user.id, change, api.now).await?;
    let view = EntryView::load_one(api.db, entry, current.user.id, api.lang, api.now).await?;
    Ok((Status::Created, Json(view)))
}

/// Replaces an entry's wishes and multiple-win choice (entry window only).
#[utoipa::path(put, path = "/api/v1/user/event_entries/{id}", tag = "entries", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    request_body = EntryInput,
    responses((status = 200, body = EntryView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "circle_suspended, entry_closed"),
              (status = 422, body = crate::error::ErrorBody)))]
#[put("/user/event_entries/<id>", data = "<input>")]
pub async fn update(
    api: Api<'_>,
    current: CurrentUser,
    id: Id,
    input: Body<'_, EntryInput>,
) -> Result<Json<EntryView>> {
    event_entry::Model::for_owner(api.db, id.0, current.user.id).await?;
    let change = body(input)?.checked(false)?;
    let entry = event_entry::Model::change(api.db, id.0, current.user.id, change, api.now).await?;
    Ok(Json(EntryView::load_one(api.db, entry, current.user.id, api.lang, api.now).await?))
}

/// Withdraws an entry (entry window only): it and its wishes are gone.
#[utoipa::path(delete, path = "/api/v1/user/event_entries/{id}", tag = "entries", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "circle_suspended, entry_closed")))]
#[delete("/user/event_entries/<id>")]
pub async fn destroy(api: Api<'_>, current: CurrentUser, id: Id) -> Result<Status> {
    event_entry::Model::withdraw(api.db, id.0, current.user.id, api.now).await?;
    Ok(Status::NoContent)
}

/// Changes the AMP options of some of the entry's applications, until `submission_end`.
#[utoipa::path(put, path = "/api/v1/user/event_entries/{id}/update_amp_ids", tag = "entries",
    security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    request_body = AmpUpdateInput,
    responses((status = 200, body = EntryView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "circle_suspended, amp_closed"),
              (status = 422, body = crate::error::ErrorBody)))]
#[put("/user/event_entries/<id>/update_amp_ids", data = "<input>")]
pub async fn update_amp_ids(
    api: Api<'_>,
    current: CurrentUser,
    id: Id,
    input: Body<'_, AmpUpdateInput>,
) -> Result<Json<EntryView>> {
    event_entry::Model::for_owner(api.db, id.0, current.user.id).await?;
    let updates = body(input)?.checked()?;
    let entry = event_entry::Model::update_amp(api.db, id.0, current.user.id, updates, api.now).await?;
    Ok(Json(EntryView::load_one(api.db, entry, current.user.id, api.lang, api.now).await?))
}

/// Declines a won application of the entry (DOMAIN.md: `first_win` / `second_win` → `decline`,
/// the slot freed for the second draw): only a win to pay, inside its payment window. Attempts
/// to pay it that are still open are closed.
#[utoipa::path(put, path = "/api/v1/user/event_entries/{id}/applications/{application_id}/decline", tag = "entries",
    security(("bearer" = [])),
    params(("id" = i32, Path), ("application_id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = EntryView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown entry, or an application of another entry"),
              (status = 409, body = crate::error::ErrorBody, description = "circle_suspended, already_paid, decline_closed")))]
#[put("/user/event_entries/<id>/applications/<application_id>/decline")]
pub async fn decline(api: Api<'_>, current: CurrentUser, id: Id, application_id: Id) -> Result<Json<EntryView>> {
    let entry = event_entry::Model::decline(api.db, id.0, application_id.0, current.user.id, api.now).await?;
    Ok(Json(EntryView::load_one(api.db, entry, current.user.id, api.lang, api.now).await?))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, create, update, destroy, update_amp_ids, decline))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, create, update, destroy, update_amp_ids, decline]
}
