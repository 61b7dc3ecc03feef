//! The signed-in player (spec §3 "In-game user"): `GET|PUT /ingame/user` (their profile as
//! others see it, and changing what the game shows of them) and `GET /ingame/user/following`,
//! `/ingame/user/followers` (lists of 1–30 players, each with `follow_status` and
//! `follower_status`).

use chrono::{DateTime, Utc};
use rocket::serde::json::Json;
use rocket::{Route, get, put, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::Result;
use crate::forms::ingame::ProfileChange;
use crate::forms::validate;
use crate::ingame::model::people::{self, PlayerView};
use crate::ingame::player::Player;
use crate::ingame::state::Ingame;
use crate::ingame::window::Window;

/// The signed-in player: their profile, and the token's client.
#[derive(Debug, Serialize, ToSchema)]
pub struct IngameUser {
    /// The profile, as others see it.
    #[serde(flatten)]
    pub player: PlayerView,
    /// The client this token was issued to.
    pub client_name: String,
    /// When this token expires.
    pub token_expires_at: DateTime<Utc>,
}

/// A page of players.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerList {
    /// The players, the newest follow first.
    pub data: Vec<PlayerView>,
    /// How many there are in all.
    pub total: u64,
    /// The limit used.
    pub limit: u64,
    /// The offset used.
    pub offset: u64,
}

async fn me_view(ig: &Ingame<'_>, player: &Player) -> Result<IngameUser> {
    let view = people::views(ig.db, player.user.id, std::slice::from_ref(&player.user), ig.lang, ig.real_now).await?;
    let view = view.into_iter().next().ok_or_else(crate::error::Error::not_found)?;
    Ok(IngameUser {
        player: view,
        client_name: player.session.client_name.clone(),
        token_expires_at: player.session.expires_at,
    })
}

/// The player the token belongs to.
#[utoipa::path(get, path = "/ingame/user", tag = "ingame", security(("ingame" = [])),
    params(("lang" = Option<String>, Query)),
    responses((status = 200, body = IngameUser),
              (status = 401, body = crate::error::ErrorBody, description = "no in-game token, or an expired, revoked or site token")))]
#[get("/user")]
pub async fn me(ig: Ingame<'_>, player: Player) -> Result<Json<IngameUser>> {
    Ok(Json(me_view(&ig, &player).await?))
}

/// Changes the introduction and the top-page avatar (absent fields stay).
#[utoipa::path(put, path = "/ingame/user", tag = "ingame", security(("ingame" = [])),
    params(("lang" = Option<String>, Query)),
    request_body = ProfileChange,
    responses((status = 200, body = IngameUser), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "introduction too long, or an avatar that is not the user's usable avatar")))]
#[put("/user", data = "<body>")]
pub async fn change(
    ig: Ingame<'_>,
    player: Player,
    body: crate::assets::api::uploader::Body<'_, ProfileChange>,
) -> Result<Json<IngameUser>> {
    let input = crate::assets::api::uploader::body(body)?;
    validate(&input)?;
    people::change_profile(ig.db, player.user.id, &input, ig.real_now).await?;
    Ok(Json(me_view(&ig, &player).await?))
}

async fn list(ig: &Ingame<'_>, player: &Player, followers: bool, window: Window) -> Result<Json<PlayerList>> {
    let (users, total) = people::follow_list(ig.db, player.user.id, followers, window.limit, window.offset).await?;
    let data = people::views(ig.db, player.user.id, &users, ig.lang, ig.real_now).await?;
    Ok(Json(PlayerList { data, total, limit: window.limit, offset: window.offset }))
}

/// Whom the player follows.
#[utoipa::path(get, path = "/ingame/user/following", tag = "ingame", security(("ingame" = [])),
    params(("limit" = Option<u64>, Query, description = "1–30, default 30"), ("offset" = Option<u64>, Query),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = PlayerList), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "limit or offset")))]
#[get("/user/following?<limit>&<offset>")]
pub async fn following(
    ig: Ingame<'_>,
    player: Player,
    limit: Option<&str>,
    offset: Option<&str>,
) -> Result<Json<PlayerList>> {
    list(&ig, &player, false, Window::parse(limit, offset)?).await
}

/// Who follows the player.
#[utoipa::path(get, path = "/ingame/user/followers", tag = "ingame", security(("ingame" = [])),
    params(("limit" = Option<u64>, Query, description = "1–30, default 30"), ("offset" = Option<u64>, Query),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = PlayerList), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "limit or offset")))]
#[get("/user/followers?<limit>&<offset>")]
pub async fn followers(
    ig: Ingame<'_>,
    player: Player,
    limit: Option<&str>,
    offset: Option<&str>,
) -> Result<Json<PlayerList>> {
    list(&ig, &player, true, Window::parse(limit, offset)?).await
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![me, change, following, followers]
}
