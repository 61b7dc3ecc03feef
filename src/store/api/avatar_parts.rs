//! The avatar maker's parts (issue 31): `GET /api/v1/store/avatar_parts?avatar_maker_version=N`
//! lists the parts a maker of version N offers the signed-in user, `GET /avatar_parts/{uuid}`
//! is one part by its link (limited ones too) and `GET /avatar_parts/{uuid}/bundle` answers a
//! redirect to a short-lived link to its bundle — to a user who may use it
//! ([`crate::store::model::avatar_part`] says who).

use std::time::Duration;

use rocket::response::Redirect;
use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use url::Url;

use crate::assets::api::downloads::{LINK_SECS, link};
use crate::assets::api::uploader::Uploader;
use crate::auth::guards::CurrentUser;
use crate::db::entities::avatar_part;
use crate::error::{Error, Result};
use crate::http::redirect::{Kind, Target, redirect};
use crate::store::model::avatar_part::{AvatarPartView, bundle, offered, views};

/// The oldest avatar maker version there is.
const FIRST_MAKER_VERSION: i32 = 1;

/// `avatar_maker_version` read: a whole number from 1 (422 `positive_integer` otherwise,
/// `required` when missing).
fn maker_version(raw: Option<&str>) -> Result<i32> {
    let raw = raw.map(str::trim).filter(|s| !s.is_empty());
    let raw = raw.ok_or_else(|| Error::invalid("avatar_maker_version", "validation.required"))?;
    raw.parse::<i32>()
        .ok()
        .filter(|v| *v >= FIRST_MAKER_VERSION)
        .ok_or_else(|| Error::invalid("avatar_maker_version", "validation.positive_integer"))
}

/// The parts the maker of `avatar_maker_version` offers the signed-in user, in their order: each
/// says whether it is `available` to them (a part that needs a purchase they have not made is
/// listed with where to buy it, without its bundle).
#[utoipa::path(get, path = "/api/v1/store/avatar_parts", tag = "store", security(("bearer" = [])),
    params(("avatar_maker_version" = i32, Query)),
    responses((status = 200, body = Vec<AvatarPartView>), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/avatar_parts?<avatar_maker_version>")]
pub async fn list_parts(
    up: Uploader<'_>,
    current: CurrentUser,
    avatar_maker_version: Option<&str>,
) -> Result<Json<Vec<AvatarPartView>>> {
    let rows = offered(up.db, maker_version(avatar_maker_version)?).await?;
    Ok(Json(views(up.db, rows, current.user.id, &up.base()).await?))
}

/// One published part by its link (a limited part is offered this way only).
#[utoipa::path(get, path = "/api/v1/store/avatar_parts/{uuid}", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, body = AvatarPartView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody)))]
#[get("/avatar_parts/<uuid>")]
pub async fn show_part(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<Json<AvatarPartView>> {
    let part = avatar_part::Model::published(up.db, uuid).await?;
    Ok(Json(views(up.db, vec![part], current.user.id, &up.base()).await?.remove(0)))
}

/// The part's bundle: 302 to a short-lived link to its file. 409 `purchase_required` to a user
/// who has not bought (or was refunded) the item it needs.
#[utoipa::path(get, path = "/api/v1/store/avatar_parts/{uuid}/bundle", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 302, description = "to the file"), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "purchase_required, asset_not_uploaded")))]
#[get("/avatar_parts/<uuid>/bundle")]
pub async fn part_bundle(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<Redirect> {
    let version = bundle(up.db, current.user.id, uuid).await?;
    let to = link(&up, &version, Duration::from_secs(LINK_SECS)).await?;
    let url = Url::parse(&to.url).map_err(|e| Error::Internal(format!("download link: {e}")))?;
    Ok(redirect(Kind::Found, Target::Url(&url)))
}

/// Routes of this file.
pub fn routes() -> Vec<Route> {
    routes![list_parts, show_part, part_bundle]
}
