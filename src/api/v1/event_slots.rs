//! A circle's event slots (issue 28): `GET /api/v1/user/{event}/event_slots` and `/{slot_id}`,
//! for the owner and the members of the circle that holds them (404 to anyone else). The
//! queries and views are the feature's (`crate::exhibit::slot`).

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::auth::guards::CurrentUser;
use crate::db::entities::event;
use crate::error::Result;
use crate::exhibit::slot::{SlotView, slot_for, slots_for};
use crate::types::Permalink;

/// Body of `GET /api/v1/user/{event}/event_slots`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventSlots {
    /// The slots of the user's circles in the event, oldest first.
    pub event_slots: Vec<SlotView>,
}

/// The event's slots held by circles the user owns or belongs to.
#[utoipa::path(get, path = "/api/v1/user/{event}/event_slots", tag = "slots", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"), ("lang" = Option<String>, Query)),
    responses((status = 200, body = EventSlots), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_permalink")))]
#[get("/user/<event>/event_slots", rank = 2)]
pub async fn list(api: Api<'_>, current: CurrentUser, event: Permalink) -> Result<Json<EventSlots>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    Ok(Json(EventSlots { event_slots: slots_for(api.db, event.id, current.user.id, api.lang).await? }))
}

/// One slot of a circle the user owns or belongs to.
#[utoipa::path(get, path = "/api/v1/user/{event}/event_slots/{slot_id}", tag = "slots", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"), ("slot_id" = i32, Path),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = SlotView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "no such slot of the user's circles")))]
#[get("/user/<event>/event_slots/<slot_id>", rank = 2)]
pub async fn show(api: Api<'_>, current: CurrentUser, event: Permalink, slot_id: i32) -> Result<Json<SlotView>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    Ok(Json(slot_for(api.db, event.id, slot_id, current.user.id, api.lang).await?))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, show))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, show]
}
