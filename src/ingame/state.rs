//! The [`Ingame`] request guard: what every `/ingame` handler works with (site state, the
//! database, the request's language and the clocks).

use chrono::{DateTime, Utc};
use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::DatabaseConnection;

use crate::clock::Clock;
use crate::error::request_lang;
use crate::http::Site;
use crate::types::Lang;

/// What every in-game handler works with.
pub struct Ingame<'r> {
    /// Site-wide state (configuration, messages).
    pub site: &'r Site,
    /// The database.
    pub db: &'r DatabaseConnection,
    /// The `lang` query value (default ja).
    pub lang: Lang,
    /// "Now" without time travel: credentials expire on the real clock.
    pub real_now: DateTime<Utc>,
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Ingame<'r> {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        let rocket = req.rocket();
        match (rocket.state::<Site>(), rocket.state::<DatabaseConnection>(), rocket.state::<Clock>()) {
            (Some(site), Some(db), Some(clock)) => {
                Outcome::Success(Ingame { site, db, lang: request_lang(req), real_now: clock.real_now() })
            }
            _ => Outcome::Error((Status::InternalServerError, ())),
        }
    }
}
