//! The signed-in user's exhibitor news: `GET /api/v1/user/exhibitor_notifications?page={n}` and
//! `GET /api/v1/user/exhibitor_notifications/{id}` (which marks the notification read).

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::auth::guards::CurrentUser;
use crate::db::entities::exhibitor_notification;
use crate::error::Result;
use crate::model::exhibitor_notification::ExhibitorNotificationView;
use crate::model::pagination::Pagination;
use crate::types::Id;

/// A page of notifications, with how many the user has not opened yet.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationList {
    /// The notifications on this page, newest first.
    pub data: Vec<ExhibitorNotificationView>,
    /// Where this page stands.
    pub pagination: Pagination,
    /// Visible notifications the user has not opened.
    pub unread_count: u64,
}

/// The notifications published so far, newest first, each with the user's read flag.
#[utoipa::path(get, path = "/api/v1/user/exhibitor_notifications", tag = "user", security(("bearer" = [])),
    params(("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = NotificationList), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/user/exhibitor_notifications?<page>&<limit>")]
pub async fn list(
    api: Api<'_>,
    current: CurrentUser,
    page: Option<&str>,
    limit: Option<&str>,
) -> Result<Json<NotificationList>> {
    let req = api.page(page, limit)?;
    let found = exhibitor_notification::Model::page(api.db, current.user.id, api.now, req, api.lang).await?;
    Ok(Json(NotificationList {
        data: found.items,
        pagination: Pagination::new(req, found.count, found.count),
        unread_count: found.unread,
    }))
}

/// One notification; opening it marks it read for the user.
#[utoipa::path(get, path = "/api/v1/user/exhibitor_notifications/{id}", tag = "user", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ExhibitorNotificationView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, not public or not yet published")))]
#[get("/user/exhibitor_notifications/<id>")]
pub async fn show(api: Api<'_>, current: CurrentUser, id: Id) -> Result<Json<ExhibitorNotificationView>> {
    Ok(Json(ExhibitorNotificationView::open(api.db, id.0, current.user.id, api.now, api.lang).await?))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, show))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, show]
}
