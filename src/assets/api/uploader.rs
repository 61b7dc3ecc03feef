//! What every uploader handler works with: the [`Uploader`] request guard (state, language,
//! the application clock) and the JSON body type with its one error.

use chrono::{DateTime, Utc};
use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::DatabaseConnection;

use crate::clock::Clock;
use crate::error::request_lang;
use crate::http::Site;
use crate::http::protect::FormKey;
use crate::http::upload::ImageDecoder;
use crate::queue::Queue;
use crate::storage::Storage;
use crate::types::Lang;

/// What every uploader handler works with.
pub struct Uploader<'r> {
    /// Site-wide state (configuration, messages).
    pub site: &'r Site,
    /// The database.
    pub db: &'r DatabaseConnection,
    /// The object store.
    pub storage: &'r Storage,
    /// Where the pipeline's jobs go.
    pub queue: &'r Queue,
    /// Signs part and download URLs.
    pub key: &'r FormKey,
    /// The shared image decoder (snapshots).
    pub images: &'r ImageDecoder,
    /// The `lang` query value (default ja).
    pub lang: Lang,
    /// "Now", from the application clock.
    pub now: DateTime<Utc>,
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Uploader<'r> {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        let rocket = req.rocket();
        match (
            rocket.state::<Site>(),
            rocket.state::<DatabaseConnection>(),
            rocket.state::<Storage>(),
            rocket.state::<Queue>(),
            rocket.state::<FormKey>(),
            rocket.state::<ImageDecoder>(),
            rocket.state::<Clock>(),
        ) {
            (Some(site), Some(db), Some(storage), Some(queue), Some(key), Some(images), Some(clock)) => {
                Outcome::Success(Uploader {
                    site,
                    db,
                    storage,
                    queue,
                    key,
                    images,
                    lang: request_lang(req),
                    now: clock.now(),
                })
            }
            _ => Outcome::Error((Status::InternalServerError, ())),
        }
    }
}

/// A JSON body, or 400 `bad_request` when it cannot be read.
pub type Body<'r, T> = std::result::Result<rocket::serde::json::Json<T>, rocket::serde::json::Error<'r>>;

/// The body's value (400 `bad_request` when it could not be read).
pub fn body<T>(input: Body<'_, T>) -> crate::error::Result<T> {
    input.map(|rocket::serde::json::Json(t)| t).map_err(|_| crate::error::Error::BadRequest { code: "bad_request" })
}

impl Uploader<'_> {
    /// The uploader's public base URL.
    pub fn base(&self) -> String {
        self.site.config.uploader_base()
    }
}
