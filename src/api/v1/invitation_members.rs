//! The owner's side of invitations: `GET /api/v1/user/invitation_members/{id}?page=` (the
//! circle's pending invitations), `GET /api/v1/user/invitation_members/{id}/search_user
//! ?vmarket_id=` (the one user with exactly that vmarket ID, never a list; rate-limited per
//! signed-in user), `POST /api/v1/user/invitation_members/{id}` (JSON `{"user_id": …}`: invite
//! them) and `PUT /api/v1/user/invitation_members/{id}/cancel` (where `{id}` is an invitation's
//! id). `{id}` is otherwise the circle's; owner only (404 to strangers, 403 to members).

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, State, get, post, put, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::auth::guards::CurrentUser;
use crate::db::entities::{circle, circle_invitation};
use crate::error::{Error, Result};
use crate::http::limit::UserSearchLimiter;
use crate::http::notifier::Notifier;
use crate::model::circle::CircleUserView;
use crate::model::circle_invitation::{CircleInvitationView, InviteInput, UserSearchView, search_term, search_user};
use crate::model::pagination::Pagination;
use crate::types::Id;

/// The circle's pending invitations, newest first.
#[utoipa::path(get, path = "/api/v1/user/invitation_members/{id}", tag = "circles", security(("bearer" = [])),
    params(("id" = i32, Path, description = "circle id"), ("page" = Option<u64>, Query),
           ("limit" = Option<u64>, Query, description = "1–100, default 20"), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<CircleInvitationView>), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner"),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/user/invitation_members/<id>?<page>&<limit>")]
pub async fn list(
    api: Api<'_>,
    current: CurrentUser,
    id: Id,
    page: Option<&str>,
    limit: Option<&str>,
) -> Result<Json<ListBody<CircleInvitationView>>> {
    let found = circle::Model::for_owner(api.db, id.0, current.user.id).await?;
    let req = api.page(page, limit)?;
    let (rows, count) = circle_invitation::Model::pending_for_circle(api.db, found.id, api.now, req).await?;
    let data = CircleInvitationView::load(api.db, rows, api.now, api.lang).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(req, count, count) }))
}

/// The user whose vmarket ID is exactly `vmarket_id` (any case, a leading `@` ignored) and
/// whether they can be invited. At most `circle_user_search_per_minute` searches a minute.
#[utoipa::path(get, path = "/api/v1/user/invitation_members/{id}/search_user", tag = "circles",
    security(("bearer" = [])),
    params(("id" = i32, Path, description = "circle id"), ("vmarket_id" = String, Query),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = UserSearchView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner"),
              (status = 404, body = crate::error::ErrorBody, description = "not_found (circle), user_not_found"),
              (status = 409, body = crate::error::ErrorBody, description = "circle_suspended"),
              (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[get("/user/invitation_members/<id>/search_user?<vmarket_id>")]
pub async fn search(
    api: Api<'_>,
    current: CurrentUser,
    limiter: &State<UserSearchLimiter>,
    id: Id,
    vmarket_id: Option<&str>,
) -> Result<Json<UserSearchView>> {
    limiter.check(current.user.id).await?;
    let found = circle::Model::for_owner(api.db, id.0, current.user.id).await?;
    found.ensure_writable()?;
    let term = search_term(vmarket_id)?;
    let (user, standing) =
        search_user(api.db, &found, &term, api.now).await?.ok_or(Error::NotFound { code: "user_not_found" })?;
    Ok(Json(UserSearchView { user: CircleUserView::new(&user, api.lang), standing }))
}

/// Invites the user `user_id` (from `search_user`); they are mailed and find the invitation on
/// their mypage. Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(post, path = "/api/v1/user/invitation_members/{id}", tag = "circles", security(("bearer" = [])),
    params(("id" = i32, Path, description = "circle id"), ("lang" = Option<String>, Query)),
    request_body = InviteInput,
    responses((status = 201, body = CircleInvitationView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "not_found (circle), user_not_found"),
              (status = 409, body = crate::error::ErrorBody,
               description = "already_member, already_invited, circle_full, circle_suspended"),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/user/invitation_members/<id>", data = "<input>")]
pub async fn invite(
    api: Api<'_>,
    current: CurrentUser,
    notifier: Notifier<'_>,
    id: Id,
    input: std::result::Result<Json<InviteInput>, rocket::serde::json::Error<'_>>,
) -> Result<(Status, Json<CircleInvitationView>)> {
    let found = circle::Model::for_owner(api.db, id.0, current.user.id).await?;
    let input = input.map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let invitee = match input.user_id {
        None => return Err(Error::invalid("user_id", "validation.required")),
        Some(n) => i32::try_from(n)
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| Error::invalid("user_id", "validation.positive_integer"))?,
    };
    let cap = api.site.config.circle_member_cap;
    let (row, mails) =
        circle_invitation::Model::invite(api.db, notifier.mailer, found.id, &current.user, invitee, cap, api.now)
            .await?;
    notifier.push(mails).await;
    Ok((Status::Created, Json(CircleInvitationView::load_one(api.db, row, api.now, api.lang).await?)))
}

/// Cancels a pending invitation (`{id}` is the invitation's id); the invitee is mailed.
/// Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(put, path = "/api/v1/user/invitation_members/{id}/cancel", tag = "circles",
    security(("bearer" = [])),
    params(("id" = i32, Path, description = "invitation id"), ("lang" = Option<String>, Query)),
    responses((status = 200, body = CircleInvitationView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody,
               description = "invitation_expired, invitation_not_pending, circle_suspended")))]
#[put("/user/invitation_members/<id>/cancel")]
pub async fn cancel(
    api: Api<'_>,
    current: CurrentUser,
    notifier: Notifier<'_>,
    id: Id,
) -> Result<Json<CircleInvitationView>> {
    let (row, mails) = circle_invitation::Model::cancel(api.db, notifier.mailer, id.0, &current.user, api.now).await?;
    notifier.push(mails).await;
    Ok(Json(CircleInvitationView::load_one(api.db, row, api.now, api.lang).await?))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, search, invite, cancel))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, search, invite, cancel]
}
