//! `GET /api/v1/user/{event}/exhibitors/preview` (issue 28 item 3, spec §7 "Exhibitors"): the
//! exhibitor page of each of the user's slots in the event as visitors will see it after
//! `event_open`, before it opens — for the owners and members of the circles holding them
//! (404 to anyone else). `?slot_id=` narrows it to one slot. Built by
//! `crate::exhibit::preview`.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::auth::guards::CurrentUser;
use crate::error::{Error, Result};
use crate::exhibit::preview::{ExhibitorPreview, of_slot};
use crate::exhibit::slot::event_slots;
use crate::types::{Id, Permalink};

/// Body of `GET /api/v1/user/{event}/exhibitors/preview`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExhibitorPreviews {
    /// One per slot of the user's circles in the event (the one asked for with `slot_id`).
    pub previews: Vec<ExhibitorPreview>,
}

/// The exhibitor pages of the user's slots in the event, before visitors see them.
#[utoipa::path(get, path = "/api/v1/user/{event}/exhibitors/preview", tag = "slots", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"),
           ("slot_id" = Option<i32>, Query, description = "only this slot"), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ExhibitorPreviews), (status = 422, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown event, or no such slot of the user's there")))]
#[get("/user/<event>/exhibitors/preview?<slot_id>", rank = 2)]
pub async fn preview(
    api: Api<'_>,
    current: CurrentUser,
    event: Permalink,
    slot_id: Option<&str>,
) -> Result<Json<ExhibitorPreviews>> {
    let slot_id = match slot_id.map(str::trim).filter(|s| !s.is_empty()) {
        Some(raw) => Some(Id::parse(raw).map_err(|_| Error::invalid("slot_id", "validation.positive_integer"))?),
        None => None,
    };
    let (found, slots) = event_slots(api.db, event.as_str(), current.user.id, api.lang).await?;
    let chosen: Vec<_> = slots.iter().filter(|s| slot_id.is_none_or(|id| id.0 == s.id)).collect();
    if chosen.is_empty() {
        return Err(Error::not_found());
    }
    let mut previews = Vec::with_capacity(chosen.len());
    for slot in chosen {
        previews.push(of_slot(api.db, &found, slot, api.lang, api.now).await?);
    }
    Ok(Json(ExhibitorPreviews { previews }))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(preview))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![preview]
}
