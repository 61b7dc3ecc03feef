//! What the desktop submission tool reads (issue 28 item 4, ASSETS.md "Tools endpoints"), with
//! the API's bearer token: `GET /api/v1/vmarket_tools/term` — the submission term of an event —
//! and `GET /api/v1/vmarket_tools/circles` — the caller's circles, each with its slots in that
//! event. The event is `?event=` (permalink or id), else the site's current event.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::auth::guards::CurrentUser;
use crate::db::entities::event;
use crate::error::{Error, Result};
use crate::exhibit::slot::{SlotView, circles_of, slots_for};
use crate::exhibit::term::SubmissionTerm;
use crate::model::event::{EventWithPhases, current};

/// A circle of the caller's, with its slots in the event.
#[derive(Debug, Serialize, ToSchema)]
pub struct ToolCircle {
    /// Id.
    pub id: i32,
    /// Name in the request's language.
    pub name: String,
    /// Whether the caller owns it (only the owner submits).
    pub is_owner: bool,
    /// Its slots in the event (none: nothing to submit there).
    pub event_slots: Vec<SlotView>,
}

/// Body of `GET /api/v1/vmarket_tools/circles`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ToolCircles {
    /// The event's submission term.
    pub term: SubmissionTerm,
    /// The caller's circles, oldest first.
    pub circles: Vec<ToolCircle>,
}

/// `event`, or the current event.
async fn event_of(api: &Api<'_>, event: Option<&str>) -> Result<EventWithPhases> {
    match event {
        Some(key) => EventWithPhases::load(api.db, event::Model::resolve(api.db, key).await?).await,
        None => current(api.db, api.now).await?.ok_or_else(Error::not_found),
    }
}

/// The submission term of an event.
#[utoipa::path(get, path = "/api/v1/vmarket_tools/term", tag = "slots", security(("bearer" = [])),
    params(("event" = Option<String>, Query, description = "event permalink or id; default: the current event")),
    responses((status = 200, body = SubmissionTerm), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "no such event")))]
#[get("/vmarket_tools/term?<event>")]
pub async fn term(api: Api<'_>, _current: CurrentUser, event: Option<&str>) -> Result<Json<SubmissionTerm>> {
    Ok(Json(SubmissionTerm::of(&event_of(&api, event).await?, api.now)))
}

/// The caller's circles with their slots in an event, and its term.
#[utoipa::path(get, path = "/api/v1/vmarket_tools/circles", tag = "slots", security(("bearer" = [])),
    params(("event" = Option<String>, Query, description = "event permalink or id; default: the current event"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = ToolCircles), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "no such event")))]
#[get("/vmarket_tools/circles?<event>")]
pub async fn circles(api: Api<'_>, current: CurrentUser, event: Option<&str>) -> Result<Json<ToolCircles>> {
    let event = event_of(&api, event).await?;
    let mut slots = slots_for(api.db, event.event.id, current.user.id, api.lang).await?;
    let circles = circles_of(api.db, current.user.id)
        .await?
        .into_iter()
        .map(|(circle, is_owner)| {
            let (mine, rest) = slots.drain(..).partition(|s| s.circle.id == circle.id);
            slots = rest;
            ToolCircle { id: circle.id, name: circle.name(api.lang).to_string(), is_owner, event_slots: mine }
        })
        .collect();
    Ok(Json(ToolCircles { term: SubmissionTerm::of(&event, api.now), circles }))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(term, circles))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![term, circles]
}
