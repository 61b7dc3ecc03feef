//! Worlds of an event: `GET /api/v1/{event}/worlds`.

use rocket::serde::json::Json;
use rocket::{FromForm, Route, get, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::db::entities::world;
use crate::error::Result;
use crate::model::pagination::Pagination;
use crate::model::world::{WorldFilter, WorldView};
use crate::types::Permalink;

/// Raw query of the worlds list; every value is checked before use.
#[derive(Debug, FromForm)]
pub struct WorldQuery<'r> {
    page: Option<&'r str>,
    limit: Option<&'r str>,
    keyword: Option<&'r str>,
    concept_id: Option<&'r str>,
    venue: Option<&'r str>,
    exhibition_platform: Option<&'r str>,
    is_company: Option<&'r str>,
}

/// Worlds of an event, filtered and paginated.
#[utoipa::path(get, path = "/api/v1/{event}/worlds", tag = "worlds",
    params(("event" = String, Path, description = "event permalink or id"),
           ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("keyword" = Option<String>, Query, description = "part of a name or keyword, ja or en"),
           ("concept_id" = Option<i32>, Query), ("venue" = Option<crate::types::kinds::Venue>, Query),
           ("exhibition_platform" = Option<crate::types::kinds::Platform>, Query),
           ("is_company" = Option<bool>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<WorldView>),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_permalink"),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/worlds?<q..>", rank = 5)]
pub async fn list(api: Api<'_>, event: Permalink, q: WorldQuery<'_>) -> Result<Json<ListBody<WorldView>>> {
    let tree = api.tree.clone();
    let event = &tree.resolve(event.as_str()).ok_or_else(crate::error::Error::unknown_permalink)?.event;
    let page = api.page(q.page, q.limit)?;
    let filter = WorldFilter {
        concept_id: api.id("concept_id", q.concept_id)?,
        keyword: q.keyword.map(str::to_string),
        venue: api.choice("venue", q.venue)?,
        exhibition_platform: api.choice("exhibition_platform", q.exhibition_platform)?,
        is_company: api.flag("is_company", q.is_company)?,
    };
    let all = tree.worlds_of(event.id);
    let unfiltered = filter.concept_id.is_none()
        && filter.keyword.as_deref().is_none_or(|k| k.trim().is_empty())
        && filter.venue.is_none()
        && filter.exhibition_platform.is_none()
        && filter.is_company.is_none();
    if unfiltered {
        // The event tree holds the event's worlds in display order: no statement.
        let shown = all.iter().skip(page.offset() as usize).take(page.limit as usize);
        let data = WorldView::from_tree(&tree, shown, api.lang);
        let count = all.len() as u64;
        return Ok(Json(ListBody { data, pagination: Pagination::new(page, count, count) }));
    }
    let found = world::Model::page(api.db, event.id, &filter, page).await?;
    let data = WorldView::from_tree(&tree, found.worlds.iter(), api.lang);
    Ok(Json(ListBody { data, pagination: Pagination::new(page, found.count, found.all) }))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list]
}
