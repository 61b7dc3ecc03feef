//! Other players (spec §3 "In-game user"): `GET /ingame/users/{id}` (as the signed-in player
//! sees them) and `POST|DELETE /ingame/users/{id}/follow` (follow once, never oneself; unfollow).

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, routes};

use crate::error::{Error, Result};
use crate::ingame::model::people::{self, PlayerView};
use crate::ingame::player::Player;
use crate::ingame::state::Ingame;
use crate::types::Id;

/// A player as the signed-in player sees them.
#[utoipa::path(get, path = "/ingame/users/{id}", tag = "ingame", security(("ingame" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = PlayerView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_user")))]
#[get("/users/<id>")]
pub async fn show(ig: Ingame<'_>, player: Player, id: Id) -> Result<Json<PlayerView>> {
    let found = people::player(ig.db, id.0).await?;
    let view = people::views(ig.db, player.user.id, &[found], ig.lang, ig.real_now).await?;
    Ok(Json(view.into_iter().next().ok_or_else(Error::not_found)?))
}

/// Follows a player (a second follow changes nothing).
#[utoipa::path(post, path = "/ingame/users/{id}/follow", tag = "ingame", security(("ingame" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_user"),
              (status = 422, body = crate::error::ErrorBody, description = "cannot_follow_self")))]
#[post("/users/<id>/follow")]
pub async fn follow(ig: Ingame<'_>, player: Player, id: Id) -> Result<Status> {
    people::follow(ig.db, player.user.id, id.0, ig.real_now).await?;
    Ok(Status::NoContent)
}

/// Stops following a player.
#[utoipa::path(delete, path = "/ingame/users/{id}/follow", tag = "ingame", security(("ingame" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_user")))]
#[delete("/users/<id>/follow")]
pub async fn unfollow(ig: Ingame<'_>, player: Player, id: Id) -> Result<Status> {
    people::unfollow(ig.db, player.user.id, id.0).await?;
    Ok(Status::NoContent)
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![show, follow, unfollow]
}
