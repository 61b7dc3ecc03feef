//! The [`Player`] request guard of every signed-in `/ingame` call: an in-game token in
//! `Authorization: Bearer`, nothing else. The site's tokens (its JWTs, its cookie) are refused
//! here, as in-game tokens are refused by the site's guards (they are not JWTs): a token that
//! leaks from a game client reaches no mypage, console or uploader call, and a page the user
//! visits cannot make in-game calls with their cookie.

use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::{DatabaseConnection, EntityTrait};

use crate::auth::guards::bearer;
use crate::clock::Clock;
use crate::db::entities::{ingame_session, user};
use crate::error::Error;

/// A game client signed in with an in-game token.
pub struct Player {
    /// Whose token it is.
    pub user: user::Model,
    /// The session the token belongs to.
    pub session: ingame_session::Model,
}

async fn player(req: &Request<'_>) -> Result<Option<Player>, Error> {
    let (Some(token), Some(db), Some(clock)) =
        (bearer(req), req.rocket().state::<DatabaseConnection>(), req.rocket().state::<Clock>())
    else {
        return Ok(None);
    };
    let Some(session) = ingame_session::Model::authenticate(db, token, clock.real_now()).await? else {
        return Ok(None);
    };
    let user = user::Entity::find_by_id(session.user_id).one(db).await?;
    Ok(user.map(|user| Player { user, session }))
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Player {
    type Error = Error;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Error> {
        match player(req).await {
            Ok(Some(found)) => Outcome::Success(found),
            Ok(None) => Outcome::Error((Status::Unauthorized, Error::Unauthorized)),
            Err(e) => {
                tracing::error!(error = %e, "in-game token lookup failed");
                Outcome::Error((Status::InternalServerError, e))
            }
        }
    }
}
