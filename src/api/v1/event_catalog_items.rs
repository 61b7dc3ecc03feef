//! A circle's catalogue items for an event (issue 28 item 2, spec §7 "Event catalog items"):
//! `GET|POST /api/v1/user/{event}/event_catalog_items`, `GET|PUT|DELETE …/{id}` (multipart form,
//! `crate::exhibit::catalog_form`). For the owners and members of circles holding a slot in the
//! event: members read, owners write until the edits close (409 `catalog_closed` with the
//! deadline); anyone else finds nothing (404). The rules are the feature's
//! (`crate::exhibit::catalog`).

use chrono::{DateTime, Utc};
use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, put, routes};
use sea_orm::EntityTrait;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::auth::guards::CurrentUser;
use crate::db::entities::catalog_item;
use crate::error::{Error, Result};
use crate::exhibit::catalog::{self, SlotItemView, edits_close_at, is_editable, item_of, items_of};
use crate::exhibit::catalog_form::{CatalogItemFormResult, CatalogItemFormSchema, checked};
use crate::exhibit::slot::{SlotView, event_slots};
use crate::http::upload::{Uploads, form_error};
use crate::model::event::EventWithPhases;
use crate::types::{Id, Permalink};

/// Body of `GET /api/v1/user/{event}/event_catalog_items`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventCatalogItems {
    /// The items of the user's slots in the event, slot by slot.
    pub event_catalog_items: Vec<SlotItemView>,
    /// Whether the owners may still change them.
    pub is_editable: bool,
    /// When changes close (`catalog_open`, else `event_open`).
    pub editable_until: Option<DateTime<Utc>>,
}

/// The event and the user's slots in it; 404 when they hold none.
async fn slots(api: &Api<'_>, user_id: i32, key: &str) -> Result<(EventWithPhases, Vec<SlotView>)> {
    event_slots(api.db, key, user_id, api.lang).await
}

/// The slot a new item goes to: `slot_id` when given (one of the user's), else the only slot.
fn target<'s>(slots: &'s [SlotView], slot_id: Option<&str>) -> Result<&'s SlotView> {
    match slot_id.map(str::trim).filter(|s| !s.is_empty()) {
        Some(raw) => {
            let id = Id::parse(raw).map_err(|_| Error::invalid("slot_id", "validation.positive_integer"))?;
            slots.iter().find(|s| s.id == id.0).ok_or_else(Error::not_found)
        }
        None if slots.len() == 1 => Ok(&slots[0]),
        None => Err(Error::invalid("slot_id", "validation.required")),
    }
}

/// The items of the user's slots in the event.
#[utoipa::path(get, path = "/api/v1/user/{event}/event_catalog_items", tag = "slots", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"), ("lang" = Option<String>, Query)),
    responses((status = 200, body = EventCatalogItems), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown event, or no slot of the user's there")))]
#[get("/user/<event>/event_catalog_items", rank = 2)]
pub async fn list(api: Api<'_>, current: CurrentUser, event: Permalink) -> Result<Json<EventCatalogItems>> {
    let (found, slots) = slots(&api, current.user.id, event.as_str()).await?;
    Ok(Json(EventCatalogItems {
        event_catalog_items: items_of(api.db, &slots, api.lang).await?,
        is_editable: is_editable(&found, api.now),
        editable_until: edits_close_at(&found),
    }))
}

/// Adds an item to one of the user's slots (its circle's owner). Cookie-authenticated calls
/// need `X-CSRF-Token`.
#[utoipa::path(post, path = "/api/v1/user/{event}/event_catalog_items", tag = "slots", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"), ("lang" = Option<String>, Query)),
    request_body(content = inline(CatalogItemFormSchema), content_type = "multipart/form-data"),
    responses((status = 201, body = SlotItemView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "catalog_closed (with the deadline), catalog_items_full"),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[post("/user/<event>/event_catalog_items", data = "<form>", rank = 2)]
pub async fn create(
    api: Api<'_>,
    current: CurrentUser,
    uploads: Uploads<'_>,
    event: Permalink,
    form: CatalogItemFormResult<'_>,
) -> Result<(Status, Json<SlotItemView>)> {
    let (found, slots) = slots(&api, current.user.id, event.as_str()).await?;
    let form = form.map_err(form_error)?;
    let slot = target(&slots, form.slot_id.as_deref())?;
    // Refusals that do not depend on the form come before it is checked and a picture stored.
    catalog::ensure_may_write(&found, slot, api.now)?;
    let change = checked(api.db, &uploads, &form, None).await?;
    let id = catalog::create(api.db, &found, slot, change, api.now).await?;
    let (view, _) = item_of(api.db, &slots, id, api.lang).await?;
    Ok((Status::Created, Json(view)))
}

/// One item of the user's slots.
#[utoipa::path(get, path = "/api/v1/user/{event}/event_catalog_items/{id}", tag = "slots", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = SlotItemView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody)))]
#[get("/user/<event>/event_catalog_items/<id>", rank = 2)]
pub async fn show(api: Api<'_>, current: CurrentUser, event: Permalink, id: Id) -> Result<Json<SlotItemView>> {
    let (_, slots) = slots(&api, current.user.id, event.as_str()).await?;
    Ok(Json(item_of(api.db, &slots, id.0, api.lang).await?.0))
}

/// Changes an item (its circle's owner; absent fields keep their values, a new thumbnail
/// replaces the old one). Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(put, path = "/api/v1/user/{event}/event_catalog_items/{id}", tag = "slots", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    request_body(content = inline(CatalogItemFormSchema), content_type = "multipart/form-data"),
    responses((status = 200, body = SlotItemView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "catalog_closed (with the deadline)"),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[put("/user/<event>/event_catalog_items/<id>", data = "<form>", rank = 2)]
pub async fn update(
    api: Api<'_>,
    current: CurrentUser,
    uploads: Uploads<'_>,
    event: Permalink,
    id: Id,
    form: CatalogItemFormResult<'_>,
) -> Result<Json<SlotItemView>> {
    let (found, slots) = slots(&api, current.user.id, event.as_str()).await?;
    let (_, slot) = item_of(api.db, &slots, id.0, api.lang).await?;
    catalog::ensure_may_write(&found, slot, api.now)?;
    let form = form.map_err(form_error)?;
    let row = catalog_item::Entity::find_by_id(id.0).one(api.db).await?.ok_or_else(Error::not_found)?;
    let change = checked(api.db, &uploads, &form, Some(&row)).await?;
    catalog::update(api.db, &found, slot, id.0, change, api.now).await?;
    Ok(Json(item_of(api.db, &slots, id.0, api.lang).await?.0))
}

/// Removes an item (its circle's owner). Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(delete, path = "/api/v1/user/{event}/event_catalog_items/{id}", tag = "slots", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "catalog_closed (with the deadline)")))]
#[delete("/user/<event>/event_catalog_items/<id>", rank = 2)]
pub async fn remove(api: Api<'_>, current: CurrentUser, event: Permalink, id: Id) -> Result<Status> {
    let (found, slots) = slots(&api, current.user.id, event.as_str()).await?;
    let (_, slot) = item_of(api.db, &slots, id.0, api.lang).await?;
    catalog::delete(api.db, &found, slot, id.0, api.now).await?;
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
