//! Emotes and pallets (spec §3): `GET /ingame/emotes?version=` (every emote, as the player's
//! client of that version sees it), `GET|PUT /ingame/user/pallets?version=` (the player's pallet;
//! a PUT replaces it whole). `version` is the client's, a whole number of at least 1.

use rocket::serde::json::Json;
use rocket::{Route, get, put, routes};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::Result;
use crate::ingame::model::emotes::{self, EmoteView, PalletSlot, client_version};
use crate::ingame::player::Player;
use crate::ingame::state::Ingame;
use crate::ingame::window::Window;

/// A page of emotes.
#[derive(Debug, Serialize, ToSchema)]
pub struct EmoteList {
    /// The emotes, in list order.
    pub data: Vec<EmoteView>,
    /// How many there are in all.
    pub total: u64,
    /// The limit used.
    pub limit: u64,
    /// The offset used.
    pub offset: u64,
}

/// One slot of the pallet with its emote.
#[derive(Debug, Serialize, ToSchema)]
pub struct PalletEntry {
    /// The slot, 1 to 10.
    pub pallet_num: i32,
    /// The emote's id.
    pub emote_id: i32,
    /// The emote.
    pub emote: EmoteView,
}

/// The body of `PUT /ingame/user/pallets`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PalletInput {
    /// Every slot to fill (at most 10, each slot once); the others are emptied.
    pub pallets: Vec<PalletSlot>,
}

/// Every emote, as the player's client sees it.
#[utoipa::path(get, path = "/ingame/emotes", tag = "ingame", security(("ingame" = [])),
    params(("version" = i32, Query, description = "the client's version, at least 1"),
           ("limit" = Option<u64>, Query, description = "1–30, default 30"), ("offset" = Option<u64>, Query),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = EmoteList), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "version, limit or offset")))]
#[get("/emotes?<version>&<limit>&<offset>")]
pub async fn list(
    ig: Ingame<'_>,
    _player: Player,
    version: Option<&str>,
    limit: Option<&str>,
    offset: Option<&str>,
) -> Result<Json<EmoteList>> {
    let client = client_version(version)?;
    let window = Window::parse(limit, offset)?;
    let (data, total) = emotes::list(ig.db, client, window, ig.lang).await?;
    Ok(Json(EmoteList { data, total, limit: window.limit, offset: window.offset }))
}

async fn answer(ig: &Ingame<'_>, player: &Player, client: i32) -> Result<Json<Vec<PalletEntry>>> {
    let slots = emotes::pallet(ig.db, player.user.id, client, ig.lang).await?;
    Ok(Json(
        slots
            .into_iter()
            .map(|(slot, emote)| PalletEntry { pallet_num: slot.pallet_num, emote_id: slot.emote_id, emote })
            .collect(),
    ))
}

/// The player's pallet.
#[utoipa::path(get, path = "/ingame/user/pallets", tag = "ingame", security(("ingame" = [])),
    params(("version" = i32, Query, description = "the client's version, at least 1"), ("lang" = Option<String>, Query)),
    responses((status = 200, body = Vec<PalletEntry>), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "version")))]
#[get("/user/pallets?<version>")]
pub async fn pallet(ig: Ingame<'_>, player: Player, version: Option<&str>) -> Result<Json<Vec<PalletEntry>>> {
    let client = client_version(version)?;
    answer(&ig, &player, client).await
}

/// Replaces the player's pallet: only emotes they own, not blacklisted, that their client plays.
#[utoipa::path(put, path = "/ingame/user/pallets", tag = "ingame", security(("ingame" = [])),
    params(("version" = i32, Query, description = "the client's version, at least 1"), ("lang" = Option<String>, Query)),
    request_body = PalletInput,
    responses((status = 200, body = Vec<PalletEntry>), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "a slot out of range or twice, an emote unknown, not owned, blacklisted or too new")))]
#[put("/user/pallets?<version>", data = "<body>")]
pub async fn set_pallet(
    ig: Ingame<'_>,
    player: Player,
    version: Option<&str>,
    body: crate::assets::api::uploader::Body<'_, PalletInput>,
) -> Result<Json<Vec<PalletEntry>>> {
    let client = client_version(version)?;
    let input = crate::assets::api::uploader::body(body)?;
    emotes::set_pallet(ig.db, player.user.id, &input.pallets, client, ig.real_now).await?;
    answer(&ig, &player, client).await
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, pallet, set_pallet]
}
