//! The `/ingame` routes: the game client's sign-in ([`auth`], RFC 8628), who it is signed in as
//! and whom they follow ([`user`]), other players and following them ([`users`]), emotes and the
//! player's pallet ([`emotes`]), the user's assets ([`assets`]), where players are and whom to
//! join ([`presence`]), and chat ([`chat`]). Signed-in calls take an in-game token
//! (`crate::ingame::player`) and nothing else; errors are the site's JSON error body.

pub mod assets;
pub mod auth;
pub mod chat;
pub mod emotes;
pub mod presence;
pub mod user;
pub mod users;

use rocket::Route;

/// The OpenAPI operations of `/ingame`, under their own security scheme `ingame`.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(
        auth::device,
        auth::token,
        user::me,
        user::change,
        user::following,
        user::followers,
        users::show,
        users::follow,
        users::unfollow,
        emotes::list,
        emotes::pallet,
        emotes::set_pallet,
        assets::assets,
        assets::uploaded_assets,
        presence::beat,
        presence::leave,
        presence::portal,
        chat::chat_post,
        chat::chat_messages,
        chat::chat_stream
    ),
    tags((name = "ingame", description = "The in-game API (issue 30), mounted at /ingame: its own token"))
)]
pub struct Doc;

/// Routes mounted at `/ingame`.
pub fn routes() -> Vec<Route> {
    [
        auth::routes(),
        user::routes(),
        users::routes(),
        emotes::routes(),
        assets::routes(),
        presence::routes(),
        chat::routes(),
    ]
    .concat()
}
