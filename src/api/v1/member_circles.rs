//! The circles a user has joined: `GET /api/v1/user/member/circles` and `/{id}`, `DELETE
//! /api/v1/user/member/circles/{id}/leave`. Members see a circle read-only; someone outside it
//! gets 404. The owner cannot leave (409 `owner_cannot_leave`).

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::auth::guards::CurrentUser;
use crate::db::entities::circle;
use crate::error::Result;
use crate::http::notifier::Notifier;
use crate::model::circle::CircleDetailView;
use crate::model::pagination::Pagination;
use crate::types::Id;

/// The circles the user is a member of (not those they own), last joined first.
#[utoipa::path(get, path = "/api/v1/user/member/circles", tag = "circles", security(("bearer" = [])),
    params(("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<CircleDetailView>), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/user/member/circles?<page>&<limit>")]
pub async fn list(
    api: Api<'_>,
    current: CurrentUser,
    page: Option<&str>,
    limit: Option<&str>,
) -> Result<Json<ListBody<CircleDetailView>>> {
    let req = api.page(page, limit)?;
    let (rows, count) = circle::Model::joined_page(api.db, current.user.id, req).await?;
    let cap = api.site.config.circle_member_cap;
    let data = CircleDetailView::load(api.db, rows, current.user.id, cap, api.lang).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(req, count, count) }))
}

/// A circle the user belongs to (as a member or its owner), with its members.
#[utoipa::path(get, path = "/api/v1/user/member/circles/{id}", tag = "circles", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = CircleDetailView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or the user is not in it")))]
#[get("/user/member/circles/<id>")]
pub async fn show(api: Api<'_>, current: CurrentUser, id: Id) -> Result<Json<CircleDetailView>> {
    let (found, _) = circle::Model::for_member(api.db, id.0, current.user.id).await?;
    let cap = api.site.config.circle_member_cap;
    Ok(Json(CircleDetailView::load_one(api.db, found, current.user.id, cap, api.lang).await?))
}

/// Leaves a circle; its owner is mailed. Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(delete, path = "/api/v1/user/member/circles/{id}/leave", tag = "circles",
    security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or the user is not in it"),
              (status = 409, body = crate::error::ErrorBody, description = "circle_suspended, owner_cannot_leave")))]
#[delete("/user/member/circles/<id>/leave")]
pub async fn leave(api: Api<'_>, current: CurrentUser, notifier: Notifier<'_>, id: Id) -> Result<Status> {
    let (found, _) = circle::Model::for_member(api.db, id.0, current.user.id).await?;
    let mails = circle::Model::leave(api.db, notifier.mailer, found.id, &current.user, api.now).await?;
    notifier.push(mails).await;
    Ok(Status::NoContent)
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, show, leave))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, show, leave]
}
