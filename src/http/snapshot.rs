//! The data a public request starts from: the data version it runs at and the event tree of that
//! version ([`crate::model::tree`]), read once per request (request guard `&Snapshot`).

use std::sync::Arc;

use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::DatabaseConnection;

use crate::db::data_version::Watch;
use crate::error::{Error, Result};
use crate::model::tree::{Tree, Trees};

/// The data version of a request and the event tree at it.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The data version.
    pub version: i64,
    /// The event tree at that version (or newer).
    pub tree: Arc<Tree>,
}

impl Snapshot {
    /// The snapshot of `req`, read on first use; `None` when the database failed.
    pub async fn of<'r>(req: &'r Request<'_>) -> Option<&'r Snapshot> {
        req.local_cache_async(async {
            match load(req).await {
                Ok(s) => Some(s),
                Err(e) => {
                    tracing::error!(error = %e, "data version or event tree not read");
                    None
                }
            }
        })
        .await
        .as_ref()
    }
}

async fn load(req: &Request<'_>) -> Result<Snapshot> {
    let rocket = req.rocket();
    let (Some(watch), Some(trees), Some(db)) =
        (rocket.state::<Watch>(), rocket.state::<Trees>(), rocket.state::<DatabaseConnection>())
    else {
        return Err(Error::Internal("the data version is not managed".into()));
    };
    let version = watch.current().await?;
    let tree = trees.get(db, version).await?;
    Ok(Snapshot { version, tree })
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for &'r Snapshot {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        match Snapshot::of(req).await {
            Some(s) => Outcome::Success(s),
            None => Outcome::Error((Status::InternalServerError, ())),
        }
    }
}
