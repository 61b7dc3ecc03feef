//! `GET /ingame/user`: who the in-game token belongs to (spec §3 "In-game user": the fields the
//! site has today — follows, invitations and portals are not built yet and are not answered).

use chrono::{DateTime, Utc};
use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::ingame::player::Player;
use crate::ingame::state::Ingame;
use crate::model::user::IconView;

/// The signed-in player.
#[derive(Debug, Serialize, ToSchema)]
pub struct IngameUser {
    /// The user's id.
    pub id: i32,
    /// Their public id on the site.
    pub vmarket_id: String,
    /// Their name in the request's language.
    pub name: String,
    /// Their Japanese name.
    pub name_ja: String,
    /// Their English name.
    pub name_en: String,
    /// Their icon in its sizes (all null without one).
    pub icon: IconView,
    /// When they joined.
    pub created_at: DateTime<Utc>,
    /// When their profile last changed.
    pub updated_at: DateTime<Utc>,
    /// The client this token was issued to.
    pub client_name: String,
    /// When this token expires.
    pub token_expires_at: DateTime<Utc>,
}

/// The player the token belongs to.
#[utoipa::path(get, path = "/ingame/user", tag = "ingame", security(("ingame" = [])),
    params(("lang" = Option<String>, Query)),
    responses((status = 200, body = IngameUser),
              (status = 401, body = crate::error::ErrorBody, description = "no in-game token, or an expired, revoked or site token")))]
#[get("/user")]
pub async fn me(ig: Ingame<'_>, player: Player) -> Json<IngameUser> {
    let user = &player.user;
    Json(IngameUser {
        id: user.id,
        vmarket_id: user.vmarket_id.clone(),
        name: ig.lang.pick(&user.name_ja, &user.name_en).to_string(),
        name_ja: user.name_ja.clone(),
        name_en: user.name_en.clone(),
        icon: user.icon(),
        created_at: user.created_at,
        updated_at: user.updated_at,
        client_name: player.session.client_name.clone(),
        token_expires_at: player.session.expires_at,
    })
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![me]
}
