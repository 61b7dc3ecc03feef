//! The user's box submissions (issue 31): `GET /api/v1/store/box_submissions` (with the limit and
//! the count), `POST` a draft, `PUT /{uuid}` change it, `POST /{uuid}/submit` send it for
//! review, `DELETE /{uuid}` discard it. Staff review them in the console (`box_submissions`).
//! Same sign-in and error body as `/api/v1`; cookie-authenticated writes need `X-CSRF-Token`.

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, put, routes};

use crate::assets::api::uploader::{Body, Uploader, body};
use crate::auth::guards::CurrentUser;
use crate::error::Result;
use crate::forms::box_submission::{BoxSubmissionInput, check};
use crate::store::model::box_submission::{self, BoxSubmissionList, BoxSubmissionView, of_owner, views};

/// The signed-in user's submissions, with how many they may hold.
#[utoipa::path(get, path = "/api/v1/store/box_submissions", tag = "store", security(("bearer" = [])),
    responses((status = 200, body = BoxSubmissionList), (status = 401, body = crate::error::ErrorBody)))]
#[get("/box_submissions")]
pub async fn list_boxes(up: Uploader<'_>, current: CurrentUser) -> Result<Json<BoxSubmissionList>> {
    Ok(Json(box_submission::list(up.db, current.user.id, up.site.config.box_submission_limit).await?))
}

async fn one(up: &Uploader<'_>, row: crate::db::entities::box_submission::Model) -> Result<BoxSubmissionView> {
    Ok(views(up.db, vec![row]).await?.remove(0))
}

/// A new draft from one of the user's uploaded avatars.
#[utoipa::path(post, path = "/api/v1/store/box_submissions", tag = "store", security(("bearer" = [])),
    request_body = BoxSubmissionInput,
    responses((status = 201, body = BoxSubmissionView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "not the user's asset"),
              (status = 409, body = crate::error::ErrorBody, description = "submission_limit_reached, asset_not_uploaded"),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/box_submissions", data = "<input>")]
pub async fn create_box(
    up: Uploader<'_>,
    current: CurrentUser,
    input: Body<'_, BoxSubmissionInput>,
) -> Result<(Status, Json<BoxSubmissionView>)> {
    let fields = check(&body(input)?, &[])?;
    let row =
        box_submission::create(up.db, current.user.id, &fields, up.site.config.box_submission_limit, up.now).await?;
    Ok((Status::Created, Json(one(&up, row).await?)))
}

/// Changes a draft or a rejected submission (all fields as on creation).
#[utoipa::path(put, path = "/api/v1/store/box_submissions/{uuid}", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)), request_body = BoxSubmissionInput,
    responses((status = 200, body = BoxSubmissionView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "submission_locked"),
              (status = 422, body = crate::error::ErrorBody)))]
#[put("/box_submissions/<uuid>", data = "<input>")]
pub async fn update_box(
    up: Uploader<'_>,
    current: CurrentUser,
    uuid: &str,
    input: Body<'_, BoxSubmissionInput>,
) -> Result<Json<BoxSubmissionView>> {
    let found = of_owner(up.db, current.user.id, uuid).await?;
    let fields = check(&body(input)?, &[])?;
    let row = box_submission::change(up.db, &found, &fields, up.now).await?;
    Ok(Json(one(&up, row).await?))
}

/// Sends a draft or a fixed rejected submission for review.
#[utoipa::path(post, path = "/api/v1/store/box_submissions/{uuid}/submit", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, body = BoxSubmissionView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "submission_locked")))]
#[post("/box_submissions/<uuid>/submit")]
pub async fn submit_box(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<Json<BoxSubmissionView>> {
    let found = of_owner(up.db, current.user.id, uuid).await?;
    let row = box_submission::submit(up.db, &found, up.now).await?;
    Ok(Json(one(&up, row).await?))
}

/// Discards a draft or a rejected submission (its place is free again).
#[utoipa::path(delete, path = "/api/v1/store/box_submissions/{uuid}", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "submission_locked")))]
#[delete("/box_submissions/<uuid>")]
pub async fn discard_box(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<Status> {
    let found = of_owner(up.db, current.user.id, uuid).await?;
    box_submission::discard(up.db, &found).await?;
    Ok(Status::NoContent)
}

/// Routes of this file.
pub fn routes() -> Vec<Route> {
    routes![list_boxes, create_box, update_box, submit_box, discard_box]
}
