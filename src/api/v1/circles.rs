//! The circles a user owns: `GET` and `POST /api/v1/user/circles`, `GET` and `PUT
//! /api/v1/user/circles/{id}` (multipart: `name_ja`, `name_en`, `description_ja`,
//! `description_en`, `website_link`, `thumbnail`) and `DELETE
//! /api/v1/user/circles/{id}/member/{memberId}`. Owner only: another user's circle is 404, and
//! 403 for its members; a suspended circle answers 409 `circle_suspended` to every change.

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, put, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::auth::guards::CurrentUser;
use crate::db::entities::circle;
use crate::error::Result;
use crate::forms::circle::{CircleFormResult, CircleFormSchema, checked};
use crate::http::notifier::Notifier;
use crate::http::upload::{Uploads, form_error};
use crate::model::circle::CircleDetailView;
use crate::model::pagination::Pagination;
use crate::types::Id;

/// The circles the user owns, newest first.
#[utoipa::path(get, path = "/api/v1/user/circles", tag = "circles", security(("bearer" = [])),
    params(("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<CircleDetailView>), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/user/circles?<page>&<limit>")]
pub async fn list(
    api: Api<'_>,
    current: CurrentUser,
    page: Option<&str>,
    limit: Option<&str>,
) -> Result<Json<ListBody<CircleDetailView>>> {
    let req = api.page(page, limit)?;
    let (rows, count) = circle::Model::owned_page(api.db, current.user.id, req).await?;
    let cap = api.site.config.circle_member_cap;
    let data = CircleDetailView::load(api.db, rows, current.user.id, cap, api.lang).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(req, count, count) }))
}

/// Creates a circle owned by the user, who becomes its first member. Cookie-authenticated
/// calls need `X-CSRF-Token`.
#[utoipa::path(post, path = "/api/v1/user/circles", tag = "circles", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    request_body(content = inline(CircleFormSchema), content_type = "multipart/form-data"),
    responses((status = 201, body = CircleDetailView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[post("/user/circles", data = "<form>")]
pub async fn create(
    api: Api<'_>,
    current: CurrentUser,
    uploads: Uploads<'_>,
    form: CircleFormResult<'_>,
) -> Result<(Status, Json<CircleDetailView>)> {
    let form = form.map_err(form_error)?;
    let change = checked(&uploads, &form, None).await?;
    let created = circle::Model::create_owned(api.db, &current.user, change, api.now).await?;
    let cap = api.site.config.circle_member_cap;
    let view = CircleDetailView::load_one(api.db, created, current.user.id, cap, api.lang).await?;
    Ok((Status::Created, Json(view)))
}

/// One of the user's own circles, with its members.
#[utoipa::path(get, path = "/api/v1/user/circles/{id}", tag = "circles", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = CircleDetailView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or not the user's")))]
#[get("/user/circles/<id>")]
pub async fn show(api: Api<'_>, current: CurrentUser, id: Id) -> Result<Json<CircleDetailView>> {
    let found = circle::Model::for_owner(api.db, id.0, current.user.id).await?;
    let cap = api.site.config.circle_member_cap;
    Ok(Json(CircleDetailView::load_one(api.db, found, current.user.id, cap, api.lang).await?))
}

/// Changes one of the user's own circles (absent fields keep their values; a new thumbnail
/// replaces the old one). Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(put, path = "/api/v1/user/circles/{id}", tag = "circles", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    request_body(content = inline(CircleFormSchema), content_type = "multipart/form-data"),
    responses((status = 200, body = CircleDetailView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "circle_suspended"),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[put("/user/circles/<id>", data = "<form>")]
pub async fn update(
    api: Api<'_>,
    current: CurrentUser,
    uploads: Uploads<'_>,
    id: Id,
    form: CircleFormResult<'_>,
) -> Result<Json<CircleDetailView>> {
    let found = circle::Model::for_owner(api.db, id.0, current.user.id).await?;
    found.ensure_writable()?;
    let form = form.map_err(form_error)?;
    let change = checked(&uploads, &form, Some(&found)).await?;
    let updated = circle::Model::change(api.db, found.id, current.user.id, change, api.now).await?;
    let cap = api.site.config.circle_member_cap;
    Ok(Json(CircleDetailView::load_one(api.db, updated, current.user.id, cap, api.lang).await?))
}

/// Removes a member (`member_id` is a `members[].id`, the spec's `memberId`) from one of the user's own circles; the
/// removed member is mailed. The owner cannot be removed (409 `owner_cannot_leave`).
#[utoipa::path(delete, path = "/api/v1/user/circles/{id}/member/{member_id}", tag = "circles",
    security(("bearer" = [])),
    params(("id" = i32, Path), ("member_id" = i32, Path, description = "a `members[].id`"), ("lang" = Option<String>, Query)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "a member, not the owner; or csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown circle or membership"),
              (status = 409, body = crate::error::ErrorBody, description = "circle_suspended, owner_cannot_leave")))]
#[delete("/user/circles/<id>/member/<member_id>")]
pub async fn remove_member(
    api: Api<'_>,
    current: CurrentUser,
    notifier: Notifier<'_>,
    id: Id,
    member_id: Id,
) -> Result<Status> {
    let found = circle::Model::for_owner(api.db, id.0, current.user.id).await?;
    let mails =
        circle::Model::remove_member(api.db, notifier.mailer, found.id, current.user.id, member_id.0, api.now).await?;
    notifier.push(mails).await;
    Ok(Status::NoContent)
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, create, show, update, remove_member))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, create, show, update, remove_member]
}
