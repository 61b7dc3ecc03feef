//! Events: `GET /api/v1/events`, `/events/{id}` and `/active_events`.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::error::{Error, Result};
use crate::model::event::{EventView, EventWithPhases};
use crate::model::pagination::Pagination;
use crate::types::Id;

/// Public events, newest first.
#[utoipa::path(get, path = "/api/v1/events", tag = "events",
    params(("page" = Option<u64>, Query), ("limit" = Option<u64>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<EventView>), (status = 422, body = crate::error::ErrorBody)))]
#[get("/events?<page>&<limit>")]
pub async fn list(api: Api<'_>, page: Option<&str>, limit: Option<&str>) -> Result<Json<ListBody<EventView>>> {
    let req = api.page(page, limit)?;
    let all = &api.tree.events;
    let count = all.len() as u64;
    let data = all
        .iter()
        .skip(req.offset() as usize)
        .take(req.limit as usize)
        .map(|e| EventView::new(e, api.lang, api.now))
        .collect();
    Ok(Json(ListBody { data, pagination: Pagination::new(req, count, count) }))
}

/// One public event.
#[utoipa::path(get, path = "/api/v1/events/{id}", tag = "events",
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = EventView), (status = 404, body = crate::error::ErrorBody)))]
#[get("/events/<id>")]
pub async fn show(api: Api<'_>, id: Id) -> Result<Json<EventView>> {
    let event = api.tree.resolve(&id.to_string()).ok_or_else(Error::not_found)?;
    Ok(Json(EventView::new(event, api.lang, api.now)))
}

/// The body of `/active_events`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActiveEvents {
    /// Events that have not closed yet, oldest edition first.
    pub active_events: Vec<EventView>,
}

/// Events that have not closed yet.
#[utoipa::path(get, path = "/api/v1/active_events", tag = "events",
    params(("lang" = Option<String>, Query)),
    responses((status = 200, body = ActiveEvents)))]
#[get("/active_events")]
pub async fn active(api: Api<'_>) -> Result<Json<ActiveEvents>> {
    let mut events: Vec<&EventWithPhases> = api.tree.events.iter().filter(|e| e.is_active(api.now)).collect();
    events.reverse();
    Ok(Json(ActiveEvents { active_events: events.iter().map(|e| EventView::new(e, api.lang, api.now)).collect() }))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, show, active))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, show, active]
}
