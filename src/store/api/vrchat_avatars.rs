//! The signed-in user's VRChat avatars and their orders (issue 31; how they move:
//! [`crate::store::vrchat::order`], [`crate::store::vrchat::avatar`]):
//!
//! - `GET /api/v1/store/vrchat/avatars`: their avatars, orders, what orders cost, and whether
//!   orders are offered (a converter key configured and a payment provider).
//! - `POST /vrchat/avatar_orders`: order a `new` avatar (from an uploaded avatar asset, with a
//!   name) or an `update` (an avatar of theirs converted again), paid by `paypal` or
//!   `gmo_payment`; a free one is paid as it opens.
//! - `GET /vrchat/avatar_orders/{uuid}`: the order, after asking the provider what became of it.
//! - `POST /vrchat/avatar_orders/{uuid}/pay`: where to send the payer (`redirect_url`).
//! - `POST /vrchat/avatar_orders/{uuid}/cancel`: withdraw an unpaid order.
//! - `POST /vrchat/avatars/{uuid}/cancel`, `…/retry_upload`: the owner's moves.
//!
//! Same sign-in and error body as `/api/v1`; cookie-authenticated writes need `X-CSRF-Token`.

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, State, get, post, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::assets::api::uploader::{Body, Uploader, body};
use crate::auth::guards::CurrentUser;
use crate::error::Result;
use crate::payments::Providers;
use crate::store::vrchat::avatar::{self, VrcAvatarView};
use crate::store::vrchat::offer::{AvatarOrderInput, VrcAvatarList, list_of, open_order};
use crate::store::vrchat::order::{self, AvatarOrderView};
use crate::store::vrchat::order_pay;
use crate::store::vrchat::status::Event;

/// Where to send the payer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PayRedirect {
    /// The provider's page.
    pub redirect_url: String,
}

/// The user's VRChat avatars and orders.
#[utoipa::path(get, path = "/api/v1/store/vrchat/avatars", tag = "store", security(("bearer" = [])),
    responses((status = 200, body = VrcAvatarList), (status = 401, body = crate::error::ErrorBody)))]
#[get("/vrchat/avatars")]
pub async fn list_avatars(
    up: Uploader<'_>,
    providers: &State<Providers>,
    current: CurrentUser,
) -> Result<Json<VrcAvatarList>> {
    Ok(Json(list_of(up.db, &up.site.config, providers, current.user.id).await?))
}

/// Orders a VRChat avatar (or an update of one).
#[utoipa::path(post, path = "/api/v1/store/vrchat/avatar_orders", tag = "store", security(("bearer" = [])),
    request_body = AvatarOrderInput,
    responses((status = 201, body = AvatarOrderView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody,
               description = "vrchat_not_linked, avatar_order_open, avatar_status, asset_not_uploaded"),
              (status = 422, body = crate::error::ErrorBody), (status = 501, body = crate::error::ErrorBody)))]
#[post("/vrchat/avatar_orders", data = "<input>")]
pub async fn create_avatar_order(
    up: Uploader<'_>,
    providers: &State<Providers>,
    current: CurrentUser,
    input: Body<'_, AvatarOrderInput>,
) -> Result<(Status, Json<AvatarOrderView>)> {
    let made = open_order(up.db, &up.site.config, providers, current.user.id, body(input)?, up.now).await?;
    Ok((Status::Created, Json(order::views(up.db, &[made]).await?.remove(0))))
}

/// The user's order, after asking its provider.
#[utoipa::path(get, path = "/api/v1/store/vrchat/avatar_orders/{uuid}", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, body = AvatarOrderView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody)))]
#[get("/vrchat/avatar_orders/<uuid>")]
pub async fn show_avatar_order(
    up: Uploader<'_>,
    providers: &State<Providers>,
    current: CurrentUser,
    uuid: &str,
) -> Result<Json<AvatarOrderView>> {
    let row = order::of_owner(up.db, current.user.id, uuid).await?;
    let row = order_pay::check(up.db, providers, &row, up.now).await?;
    Ok(Json(order::views(up.db, &[row]).await?.remove(0)))
}

/// Where to send the payer of the user's open order.
#[utoipa::path(post, path = "/api/v1/store/vrchat/avatar_orders/{uuid}/pay", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, body = PayRedirect), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "order_closed"),
              (status = 422, body = crate::error::ErrorBody, description = "payment_type not offered"),
              (status = 502, body = crate::error::ErrorBody, description = "provider_unavailable, provider_refused")))]
#[post("/vrchat/avatar_orders/<uuid>/pay")]
pub async fn pay_avatar_order(
    up: Uploader<'_>,
    providers: &State<Providers>,
    current: CurrentUser,
    uuid: &str,
) -> Result<Json<PayRedirect>> {
    let row = order::of_owner(up.db, current.user.id, uuid).await?;
    let url = order_pay::pay(up.db, providers, &row, up.lang, up.now).await?;
    Ok(Json(PayRedirect { redirect_url: url.to_string() }))
}

/// Withdraws the user's unpaid order.
#[utoipa::path(post, path = "/api/v1/store/vrchat/avatar_orders/{uuid}/cancel", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, body = AvatarOrderView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "order_paid, order_closed")))]
#[post("/vrchat/avatar_orders/<uuid>/cancel")]
pub async fn cancel_avatar_order(
    up: Uploader<'_>,
    providers: &State<Providers>,
    current: CurrentUser,
    uuid: &str,
) -> Result<Json<AvatarOrderView>> {
    let row = order::of_owner(up.db, current.user.id, uuid).await?;
    let row = order_pay::cancel(up.db, providers, &row, up.now).await?;
    Ok(Json(order::views(up.db, &[row]).await?.remove(0)))
}

/// Cancels the user's avatar before an upload begins.
#[utoipa::path(post, path = "/api/v1/store/vrchat/avatars/{uuid}/cancel", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, body = VrcAvatarView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "avatar_status")))]
#[post("/vrchat/avatars/<uuid>/cancel")]
pub async fn cancel_avatar(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<Json<VrcAvatarView>> {
    let row = avatar::of_owner(up.db, current.user.id, uuid).await?;
    Ok(Json(VrcAvatarView::of(&avatar::by_owner(up.db, &row, Event::Cancel, up.now).await?)))
}

/// Tries the user's failed upload again (it needs an upload left).
#[utoipa::path(post, path = "/api/v1/store/vrchat/avatars/{uuid}/retry_upload", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, body = VrcAvatarView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "avatar_status")))]
#[post("/vrchat/avatars/<uuid>/retry_upload")]
pub async fn retry_upload(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<Json<VrcAvatarView>> {
    let row = avatar::of_owner(up.db, current.user.id, uuid).await?;
    Ok(Json(VrcAvatarView::of(&avatar::by_owner(up.db, &row, Event::RetryUpload, up.now).await?)))
}

/// Routes of this file.
pub fn routes() -> Vec<Route> {
    routes![
        list_avatars,
        create_avatar_order,
        show_avatar_order,
        pay_avatar_order,
        cancel_avatar_order,
        cancel_avatar,
        retry_upload
    ]
}
