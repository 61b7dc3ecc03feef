//! Linking the signed-in user's VRChat account (issue 31; [`crate::store::vrchat::link`] says
//! how): `GET /api/v1/store/vrchat/link` where they stand, `POST /vrchat/link` begin (a VRChat
//! id or profile link; answers the code to put in the bio), `POST /vrchat/link/verify` finish
//! (reads the bio), `DELETE /vrchat/link` unlink. Each step that reads VRChat counts against the
//! user's limit (429 with Retry-After past it). Same sign-in and error body as `/api/v1`;
//! cookie-authenticated writes need `X-CSRF-Token`.

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, State, delete, get, post, routes};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::assets::api::uploader::{Body, Uploader, body};
use crate::auth::guards::CurrentUser;
use crate::error::Result;
use crate::store::vrchat::link;
use crate::store::vrchat::service::{Vrchat, VrchatLink};

/// The account to link.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct VrchatLinkInput {
    /// A VRChat user id (`usr_…`) or a profile link ending in one.
    pub vrchat_id: String,
}

/// Where the user stands: linked, proving, or neither.
#[utoipa::path(get, path = "/api/v1/store/vrchat/link", tag = "store", security(("bearer" = [])),
    responses((status = 200, body = VrchatLink), (status = 401, body = crate::error::ErrorBody)))]
#[get("/vrchat/link")]
pub async fn show_link(
    up: Uploader<'_>,
    vrchat: &State<Vrchat>,
    current_user: CurrentUser,
) -> Result<Json<VrchatLink>> {
    Ok(Json(vrchat.state(up.db, current_user.user.id, up.now).await?))
}

/// Begins linking: VRChat must know the account; the answer holds the code to put in its bio.
#[utoipa::path(post, path = "/api/v1/store/vrchat/link", tag = "store", security(("bearer" = [])),
    request_body = VrchatLinkInput,
    responses((status = 201, body = VrchatLink), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "vrchat_already_linked, vrchat_account_taken, vrchat_link_in_progress"),
              (status = 422, body = crate::error::ErrorBody, description = "not an id, or no such VRChat user"),
              (status = 429, body = crate::error::ErrorBody), (status = 501, body = crate::error::ErrorBody),
              (status = 502, body = crate::error::ErrorBody, description = "vrchat_unavailable")))]
#[post("/vrchat/link", data = "<input>")]
pub async fn start_link(
    up: Uploader<'_>,
    vrchat: &State<Vrchat>,
    current_user: CurrentUser,
    input: Body<'_, VrchatLinkInput>,
) -> Result<(Status, Json<VrchatLink>)> {
    let id = link::vrchat_id(&body(input)?.vrchat_id)?;
    let user_id = current_user.user.id;
    let client = vrchat.client_for(user_id).await?;
    link::start(up.db, client, user_id, &id, up.now).await?;
    Ok((Status::Created, Json(vrchat.state(up.db, user_id, up.now).await?)))
}

/// Finishes linking once the code is in the account's bio.
#[utoipa::path(post, path = "/api/v1/store/vrchat/link/verify", tag = "store", security(("bearer" = [])),
    responses((status = 200, body = VrchatLink), (status = 401, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody,
               description = "vrchat_no_challenge, vrchat_challenge_expired, vrchat_code_not_in_bio, vrchat_account_taken, vrchat_user_gone"),
              (status = 429, body = crate::error::ErrorBody), (status = 501, body = crate::error::ErrorBody),
              (status = 502, body = crate::error::ErrorBody, description = "vrchat_unavailable")))]
#[post("/vrchat/link/verify")]
pub async fn verify_link(
    up: Uploader<'_>,
    vrchat: &State<Vrchat>,
    current_user: CurrentUser,
) -> Result<Json<VrchatLink>> {
    let user_id = current_user.user.id;
    let client = vrchat.client_for(user_id).await?;
    link::verify(up.db, client, user_id, up.now).await?;
    Ok(Json(vrchat.state(up.db, user_id, up.now).await?))
}

/// Unlinks the account (or drops a proof under way).
#[utoipa::path(delete, path = "/api/v1/store/vrchat/link", tag = "store", security(("bearer" = [])),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
#[delete("/vrchat/link")]
pub async fn unlink(up: Uploader<'_>, current_user: CurrentUser) -> Result<Status> {
    link::unlink(up.db, current_user.user.id).await?;
    Ok(Status::NoContent)
}

/// Routes of this file.
pub fn routes() -> Vec<Route> {
    routes![show_link, start_link, verify_link, unlink]
}
