//! Presence (spec §3 "In-game user"): `PUT /ingame/user/presence` (the game client's heartbeat:
//! channel, world, join link, whether the player takes invitations or can be joined),
//! `DELETE /ingame/user/presence` (the player left the game) and `GET /ingame/user/portal` (the
//! players to join: at most 6). Where a player is shows only to those they follow.

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, put, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::Result;
use crate::forms::ingame::PresenceUpdate;
use crate::ingame::model::people::{self, PlayerView};
use crate::ingame::model::presence;
use crate::ingame::player::Player;
use crate::ingame::state::Ingame;

/// The players to join.
#[derive(Debug, Serialize, ToSchema)]
pub struct PortalList {
    /// At most 6: players the viewer follows who follow back and can be joined now, the latest
    /// heartbeat first.
    pub data: Vec<PlayerView>,
}

/// The game client's heartbeat: where the player is now.
#[utoipa::path(put, path = "/ingame/user/presence", tag = "ingame", security(("ingame" = [])),
    request_body = PresenceUpdate,
    responses((status = 204, description = "stored; send it again within 3 minutes to stay online"),
              (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "channel, world, or a join link that is missing or not http(s)")))]
#[put("/user/presence", data = "<body>")]
pub async fn beat(
    ig: Ingame<'_>,
    player: Player,
    body: crate::assets::api::uploader::Body<'_, PresenceUpdate>,
) -> Result<Status> {
    let input = crate::assets::api::uploader::body(body)?;
    presence::beat(ig.db, player.user.id, &input, ig.real_now).await?;
    Ok(Status::NoContent)
}

/// The player left the game: offline at once.
#[utoipa::path(delete, path = "/ingame/user/presence", tag = "ingame", security(("ingame" = [])),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody)))]
#[delete("/user/presence")]
pub async fn leave(ig: Ingame<'_>, player: Player) -> Result<Status> {
    presence::leave(ig.db, player.user.id).await?;
    Ok(Status::NoContent)
}

/// The players the player can join now.
#[utoipa::path(get, path = "/ingame/user/portal", tag = "ingame", security(("ingame" = [])),
    params(("lang" = Option<String>, Query)),
    responses((status = 200, body = PortalList), (status = 401, body = crate::error::ErrorBody)))]
#[get("/user/portal")]
pub async fn portal(ig: Ingame<'_>, player: Player) -> Result<Json<PortalList>> {
    let ids = presence::portal(ig.db, player.user.id, ig.real_now).await?;
    let mut found = crate::db::entities::user::Model::by_ids(ig.db, ids.iter().copied()).await?;
    let users: Vec<_> = ids.iter().filter_map(|id| found.remove(id)).collect();
    let data = people::views(ig.db, player.user.id, &users, ig.lang, ig.real_now).await?;
    Ok(Json(PortalList { data }))
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![beat, leave, portal]
}
