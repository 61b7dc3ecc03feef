//! A published lottery draw, for anyone to check: `GET /api/v1/{event}/lottery_results/{round}`
//! (DOMAIN.md "The lottery"). The event page links to it once the round is published; the file
//! is what `vmarket lottery verify --published FILE` reads. It is stored when the round is
//! published and served as stored: every download has the same bytes, and no read draws again.

use rocket::response::content::RawJson;
use rocket::{Route, get, routes};

use crate::api::Api;
use crate::db::entities::event;
use crate::db::entities::event_entry_application::LotteryRound;
use crate::error::{Error, Result};
use crate::model::lottery::{self as runs, PublicRun};
use crate::model::lottery_results::published_file;
use crate::types::Permalink;

/// The published draw of an event's round: the seed (matching the hash committed before the
/// draw), the canonical input list, both digests and every application's outcome. 404 before
/// the round is published (the event page shows its seed hash until then) and for an unknown
/// or private event.
#[utoipa::path(get, path = "/api/v1/{event}/lottery_results/{round}", tag = "events",
    params(("event" = String, Path, description = "event permalink or id"),
           ("round" = String, Path, description = "`first` or `second`")),
    responses((status = 200, body = PublicRun), (status = 404, body = crate::error::ErrorBody)))]
#[get("/<event>/lottery_results/<round>", rank = 5)]
pub async fn show(api: Api<'_>, event: Permalink, round: &str) -> Result<RawJson<String>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let round = match round {
        "first" => LotteryRound::First,
        "second" => LotteryRound::Second,
        _ => return Err(Error::not_found()),
    };
    let run = runs::run_of(api.db, event.id, round).await?.ok_or_else(Error::not_found)?;
    let file = published_file(api.db, &run, &event.permalink).await?.ok_or_else(Error::not_found)?;
    Ok(RawJson(file))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(show))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![show]
}
