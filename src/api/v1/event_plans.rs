//! What a circle can apply for: `GET /api/v1/user/{event}/event_plans?exhibition_category=`
//! (each plan with its fee, world and rate label) and `GET /api/v1/user/active_events` (the
//! active events, whether their entry window is open, and the user's circles' entries).

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::auth::guards::CurrentUser;
use crate::db::entities::{event, event_entry_plan};
use crate::error::Result;
use crate::model::entry_events::{ActiveEvents, active_for};
use crate::model::entry_plan::{ExhibitionCategory, PlanView};
use crate::types::Permalink;

/// Body of `GET /api/v1/user/{event}/event_plans`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventPlans {
    /// The plans, in display order.
    pub event_plans: Vec<PlanView>,
}

/// The event's plans, of one category if `exhibition_category` (space, item, avatar) is given.
#[utoipa::path(get, path = "/api/v1/user/{event}/event_plans", tag = "entries", security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"),
           ("exhibition_category" = Option<ExhibitionCategory>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = EventPlans), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_permalink"),
              (status = 422, body = crate::error::ErrorBody, description = "an unknown category")))]
#[get("/user/<event>/event_plans?<exhibition_category>", rank = 2)]
pub async fn list(
    api: Api<'_>,
    _current: CurrentUser,
    event: Permalink,
    exhibition_category: Option<&str>,
) -> Result<Json<EventPlans>> {
    let category: Option<ExhibitionCategory> = api.choice("exhibition_category", exhibition_category)?;
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let plans = event_entry_plan::Model::of_event(api.db, event.id, category).await?;
    Ok(Json(EventPlans { event_plans: PlanView::load(api.db, plans, api.lang).await? }))
}

/// The active events for the signed-in user: entry window and their own circles' entries.
#[utoipa::path(get, path = "/api/v1/user/active_events", tag = "entries", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    responses((status = 200, body = ActiveEvents), (status = 401, body = crate::error::ErrorBody)))]
#[get("/user/active_events")]
pub async fn active(api: Api<'_>, current: CurrentUser) -> Result<Json<ActiveEvents>> {
    Ok(Json(ActiveEvents { active_events: active_for(api.db, current.user.id, api.lang, api.now).await? }))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, active))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, active]
}
