//! The user's assets for the game (spec §7 "In-game"): `GET /ingame/user/assets` (what the game
//! can load: assets with an uploaded version) and `GET /ingame/user/uploaded_assets` (everything
//! the user uploaded; `filterUploaded=true` keeps the loadable ones). Both take `category` (an
//! asset type), `limit` (1–30) and `offset`, and answer each asset with its versions and
//! short-lived download links the game fetches. Bought store items join the first list once the
//! store exists (issue 31).

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::assets::api::assets::views_with_links;
use crate::assets::api::uploader::Uploader;
use crate::assets::model::views::AssetView;
use crate::error::{Error, Result};
use crate::ingame::model::assets::GameList;
use crate::ingame::player::Player;

/// One page of an in-game list.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameAssets {
    /// The assets, the newest change first.
    pub data: Vec<AssetView>,
    /// How many match in all.
    pub total: u64,
    /// The limit used.
    pub limit: u64,
    /// The offset used.
    pub offset: u64,
}

/// `true` or `false` (absent: false); 422 otherwise.
fn flag(raw: Option<&str>) -> Result<bool> {
    match raw.map(str::trim) {
        None | Some("") | Some("false") | Some("0") => Ok(false),
        Some("true") | Some("1") => Ok(true),
        Some(_) => Err(Error::invalid("filter_uploaded", "validation.boolean")),
    }
}

async fn answer(up: &Uploader<'_>, player: &Player, list: GameList) -> Result<Json<GameAssets>> {
    let (rows, total) = list.of(up.db, player.user.id).await?;
    let data = views_with_links(up, rows).await?;
    Ok(Json(GameAssets { data, total, limit: list.limit, offset: list.offset }))
}

/// The user's assets the game can load.
#[utoipa::path(get, path = "/ingame/user/assets", tag = "ingame", security(("ingame" = [])),
    params(("category" = Option<String>, Query, description = "avatar, furniture, zip or none"),
           ("limit" = Option<u64>, Query, description = "1–30, default 30"), ("offset" = Option<u64>, Query),
           ("filterUploaded" = Option<bool>, Query, description = "only what the user uploaded (today: all of it)"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = GameAssets), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "limit, offset, category or filterUploaded")))]
#[get("/user/assets?<category>&<limit>&<offset>&<filterUploaded>")]
#[allow(non_snake_case)]
pub async fn assets(
    up: Uploader<'_>,
    player: Player,
    category: Option<&str>,
    limit: Option<&str>,
    offset: Option<&str>,
    filterUploaded: Option<&str>,
) -> Result<Json<GameAssets>> {
    flag(filterUploaded)?;
    answer(&up, &player, GameList::parse(category, limit, offset, true)?).await
}

/// Every asset the user uploaded, loadable or not.
#[utoipa::path(get, path = "/ingame/user/uploaded_assets", tag = "ingame", security(("ingame" = [])),
    params(("category" = Option<String>, Query, description = "avatar, furniture, zip or none"),
           ("limit" = Option<u64>, Query, description = "1–30, default 30"), ("offset" = Option<u64>, Query),
           ("filterUploaded" = Option<bool>, Query, description = "only assets with an uploaded version"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = GameAssets), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "limit, offset, category or filterUploaded")))]
#[get("/user/uploaded_assets?<category>&<limit>&<offset>&<filterUploaded>")]
#[allow(non_snake_case)]
pub async fn uploaded_assets(
    up: Uploader<'_>,
    player: Player,
    category: Option<&str>,
    limit: Option<&str>,
    offset: Option<&str>,
    filterUploaded: Option<&str>,
) -> Result<Json<GameAssets>> {
    let usable_only = flag(filterUploaded)?;
    answer(&up, &player, GameList::parse(category, limit, offset, usable_only)?).await
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![assets, uploaded_assets]
}
