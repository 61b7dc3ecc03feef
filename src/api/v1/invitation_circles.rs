//! Invitations waiting for the signed-in user: `GET /api/v1/user/invitation_circles`, `PUT
//! /api/v1/user/invitation_circles/{id}/approval` (join) and `/withdraw` (decline). `{id}` is
//! the invitation's id; anyone else's invitation is 404. The owner is mailed either way.

use rocket::serde::json::Json;
use rocket::{Route, get, put, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::auth::guards::CurrentUser;
use crate::db::entities::circle_invitation;
use crate::error::Result;
use crate::http::notifier::Notifier;
use crate::model::circle_invitation::CircleInvitationView;
use crate::model::pagination::Pagination;
use crate::types::Id;

/// The user's pending invitations, newest first (expired ones are left out).
#[utoipa::path(get, path = "/api/v1/user/invitation_circles", tag = "circles", security(("bearer" = [])),
    params(("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<CircleInvitationView>), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/user/invitation_circles?<page>&<limit>")]
pub async fn list(
    api: Api<'_>,
    current: CurrentUser,
    page: Option<&str>,
    limit: Option<&str>,
) -> Result<Json<ListBody<CircleInvitationView>>> {
    let req = api.page(page, limit)?;
    let (rows, count) = circle_invitation::Model::pending_for_user(api.db, current.user.id, api.now, req).await?;
    let data = CircleInvitationView::load(api.db, rows, api.now, api.lang).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(req, count, count) }))
}

/// Accepts an invitation: the user becomes a member. Cookie-authenticated calls need
/// `X-CSRF-Token`.
#[utoipa::path(put, path = "/api/v1/user/invitation_circles/{id}/approval", tag = "circles",
    security(("bearer" = [])),
    params(("id" = i32, Path, description = "invitation id"), ("lang" = Option<String>, Query)),
    responses((status = 200, body = CircleInvitationView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or not the user's"),
              (status = 409, body = crate::error::ErrorBody,
               description = "invitation_expired, invitation_not_pending, circle_suspended, circle_full")))]
#[put("/user/invitation_circles/<id>/approval")]
pub async fn approve(
    api: Api<'_>,
    current: CurrentUser,
    notifier: Notifier<'_>,
    id: Id,
) -> Result<Json<CircleInvitationView>> {
    let cap = api.site.config.circle_member_cap;
    let (row, mails) =
        circle_invitation::Model::approve(api.db, notifier.mailer, id.0, &current.user, cap, api.now).await?;
    notifier.push(mails).await;
    Ok(Json(CircleInvitationView::load_one(api.db, row, api.now, api.lang).await?))
}

/// Declines an invitation. Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(put, path = "/api/v1/user/invitation_circles/{id}/withdraw", tag = "circles",
    security(("bearer" = [])),
    params(("id" = i32, Path, description = "invitation id"), ("lang" = Option<String>, Query)),
    responses((status = 200, body = CircleInvitationView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or not the user's"),
              (status = 409, body = crate::error::ErrorBody,
               description = "invitation_expired, invitation_not_pending, circle_suspended")))]
#[put("/user/invitation_circles/<id>/withdraw")]
pub async fn withdraw(
    api: Api<'_>,
    current: CurrentUser,
    notifier: Notifier<'_>,
    id: Id,
) -> Result<Json<CircleInvitationView>> {
    let (row, mails) =
        circle_invitation::Model::withdraw(api.db, notifier.mailer, id.0, &current.user, api.now).await?;
    notifier.push(mails).await;
    Ok(Json(CircleInvitationView::load_one(api.db, row, api.now, api.lang).await?))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, approve, withdraw))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, approve, withdraw]
}
