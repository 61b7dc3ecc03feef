//! The `Api` request guard: database, clock, messages and the `lang` the client asked for, plus
//! helpers that turn raw query values into typed filters with clear errors.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::DatabaseConnection;
use serde::de::DeserializeOwned;

use crate::clock::Clock;
use crate::error::{Error, Result, request_lang};
use crate::http::Site;
use crate::http::snapshot::Snapshot;
use crate::model::pagination::{DEFAULT_LIMIT, PageRequest};
use crate::model::tree::Tree;
use crate::types::Lang;

/// What an API handler needs.
pub struct Api<'r> {
    /// Site-wide state.
    pub site: &'r Site,
    /// The database.
    pub db: &'r DatabaseConnection,
    /// The `lang` query value (default ja).
    pub lang: Lang,
    /// "Now", from the application clock.
    pub now: DateTime<Utc>,
    /// The public event tree at the request's data version.
    pub tree: Arc<Tree>,
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Api<'r> {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        let (Some(site), Some(db), Some(clock)) =
            (req.rocket().state::<Site>(), req.rocket().state::<DatabaseConnection>(), req.rocket().state::<Clock>())
        else {
            return Outcome::Error((Status::InternalServerError, ()));
        };
        let Some(snapshot) = Snapshot::of(req).await else {
            return Outcome::Error((Status::InternalServerError, ()));
        };
        Outcome::Success(Api { site, db, lang: request_lang(req), now: clock.now(), tree: snapshot.tree.clone() })
    }
}

impl Api<'_> {
    /// A message in the request's language.
    pub fn t(&self, key: &str) -> String {
        self.site.messages.t(self.lang, key)
    }

    /// Parses `page` and `limit`.
    pub fn page(&self, page: Option<&str>, limit: Option<&str>) -> Result<PageRequest> {
        PageRequest::parse(page, limit, DEFAULT_LIMIT)
    }

    /// Parses an optional snake_case enum value such as `venue=vrc`.
    pub fn choice<T: DeserializeOwned>(&self, name: &str, raw: Option<&str>) -> Result<Option<T>> {
        crate::forms::choice(name, raw)
    }

    /// Parses an optional boolean (`true`/`false`/`1`/`0`).
    pub fn flag(&self, name: &str, raw: Option<&str>) -> Result<Option<bool>> {
        match raw.filter(|r| !r.is_empty()) {
            None => Ok(None),
            Some("true" | "1") => Ok(Some(true)),
            Some("false" | "0") => Ok(Some(false)),
            Some(_) => Err(Error::invalid(name, "validation.boolean")),
        }
    }

    /// Parses an optional positive integer id.
    pub fn id(&self, name: &str, raw: Option<&str>) -> Result<Option<i32>> {
        match raw.filter(|r| !r.is_empty()) {
            None => Ok(None),
            Some(r) => crate::types::Id::parse(r)
                .map(|id| Some(id.0))
                .map_err(|_| Error::invalid(name, "validation.positive_integer")),
        }
    }
}
