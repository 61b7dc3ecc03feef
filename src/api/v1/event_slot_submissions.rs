//! A slot's booth submissions (issue 28 item 5): `GET /api/v1/user/{event}/event_slots/{slot_id}/submissions`
//! (the term and every submission, newest first, each with its report and inspection) for the
//! circle's owner and members, and `POST` of the same path (JSON `{ "asset_version_id": … }`) for
//! the owner inside the submission term. The rules are the feature's (`crate::exhibit::submission`).

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, get, post, routes};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::Api;
use crate::api::v1::{Body, body};
use crate::auth::guards::CurrentUser;
use crate::db::entities::event;
use crate::error::{Error, Result};
use crate::exhibit::slot::{SlotView, slot_for};
use crate::exhibit::submission::{SubmissionView, of_slots, submit};
use crate::exhibit::term::SubmissionTerm;
use crate::model::event::EventWithPhases;
use crate::types::Permalink;

/// Body of `GET …/submissions`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SlotSubmissions {
    /// The slot.
    pub event_slot: SlotView,
    /// The event's submission term.
    pub term: SubmissionTerm,
    /// Every submission, newest first (the first is the one inspected).
    pub submissions: Vec<SubmissionView>,
}

/// Body of `POST …/submissions`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SubmitInput {
    /// One of the user's own uploaded `booth_package` asset versions, whose check passed.
    pub asset_version_id: Option<i32>,
}

/// The event and the user's slot in it (404 unless a circle they own or belong to holds it).
async fn slot(api: &Api<'_>, user_id: i32, key: &str, slot_id: i32) -> Result<(EventWithPhases, SlotView)> {
    let found = EventWithPhases::load(api.db, event::Model::resolve(api.db, key).await?).await?;
    let slot = slot_for(api.db, found.event.id, slot_id, user_id, api.lang).await?;
    Ok((found, slot))
}

/// A slot's term and submissions.
#[utoipa::path(get, path = "/api/v1/user/{event}/event_slots/{slot_id}/submissions", tag = "slots",
    security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"), ("slot_id" = i32, Path),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = SlotSubmissions), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "no such slot of the user's circles")))]
#[get("/user/<event>/event_slots/<slot_id>/submissions", rank = 2)]
pub async fn list(api: Api<'_>, current: CurrentUser, event: Permalink, slot_id: i32) -> Result<Json<SlotSubmissions>> {
    let (found, slot) = slot(&api, current.user.id, event.as_str(), slot_id).await?;
    let submissions = of_slots(api.db, &[slot.id]).await?;
    Ok(Json(SlotSubmissions { term: SubmissionTerm::of(&found, api.now), event_slot: slot, submissions }))
}

/// Submits one of the user's booth packages for the slot (its circle's owner, inside the term).
/// Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(post, path = "/api/v1/user/{event}/event_slots/{slot_id}/submissions", tag = "slots",
    security(("bearer" = [])),
    params(("event" = String, Path, description = "event permalink or id"), ("slot_id" = i32, Path),
           ("lang" = Option<String>, Query)),
    request_body = SubmitInput,
    responses((status = 201, body = SubmissionView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "no such slot, or the version is not the user's"),
              (status = 409, body = crate::error::ErrorBody,
               description = "submission_not_open, submission_closed (with the date), version_not_ready"),
              (status = 422, body = crate::error::ErrorBody, description = "report_failed; not a booth package")))]
#[post("/user/<event>/event_slots/<slot_id>/submissions", data = "<input>", rank = 2)]
pub async fn create(
    api: Api<'_>,
    current: CurrentUser,
    event: Permalink,
    slot_id: i32,
    input: Body<'_, SubmitInput>,
) -> Result<(Status, Json<SubmissionView>)> {
    let (found, slot) = slot(&api, current.user.id, event.as_str(), slot_id).await?;
    let input = body(input)?;
    let version_id = input.asset_version_id.ok_or_else(|| Error::invalid("asset_version_id", "validation.required"))?;
    let view = submit(api.db, &found, &slot, current.user.id, version_id, api.now).await?;
    Ok((Status::Created, Json(view)))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, create))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, create]
}
