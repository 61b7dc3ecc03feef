//! Exhibitors of an event: `GET /api/v1/{event}/exhibitors` and `/exhibitors/{id}`.
//!
//! Gated by the event-open phase (spec §4): before it the list is empty and a detail is 404.

use rocket::serde::json::Json;
use rocket::{FromForm, Route, get, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::db::entities::exhibitor;
use crate::error::{Error, Result};
use crate::model::catalog::CatalogEvent;
use crate::model::exhibitor::{ExhibitorDetailView, ExhibitorFilter, ExhibitorView};
use crate::model::pagination::Pagination;
use crate::types::{Id, Permalink};

/// Raw query of the exhibitors list; every value is checked before use.
#[derive(Debug, FromForm)]
pub struct ExhibitorQuery<'r> {
    page: Option<&'r str>,
    limit: Option<&'r str>,
    keyword: Option<&'r str>,
    world_id: Option<&'r str>,
    category_id: Option<&'r str>,
    is_distributable: Option<&'r str>,
    kind: Option<&'r str>,
}

/// Exhibitors of an event, filtered and paginated; name matches first, then display order.
#[utoipa::path(get, path = "/api/v1/{event}/exhibitors", tag = "catalog",
    params(("event" = String, Path, description = "event permalink or id"),
           ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("keyword" = Option<String>, Query, description = "words in the circle's names or descriptions or its items' (ja or en, partial)"),
           ("world_id" = Option<i32>, Query), ("category_id" = Option<i32>, Query, description = "has an item in this category"),
           ("is_distributable" = Option<bool>, Query, description = "has an item handed out free"),
           ("kind" = Option<crate::types::kinds::ConceptKind>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<ExhibitorView>, description = "empty before the event opens"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_permalink"),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/exhibitors?<q..>", rank = 5)]
pub async fn list(api: Api<'_>, event: Permalink, q: ExhibitorQuery<'_>) -> Result<Json<ListBody<ExhibitorView>>> {
    let event = CatalogEvent::from_tree(&api.tree, event.as_str(), api.now)?;
    let page = api.page(q.page, q.limit)?;
    let filter = ExhibitorFilter {
        keyword: q.keyword.map(str::to_string),
        world_id: api.id("world_id", q.world_id)?,
        category_id: api.id("category_id", q.category_id)?,
        is_distributable: api.flag("is_distributable", q.is_distributable)?,
        kind: api.choice("kind", q.kind)?,
    };
    if !event.open {
        return Ok(Json(ListBody { data: Vec::new(), pagination: Pagination::new(page, 0, 0) }));
    }
    let found = exhibitor::Model::page(api.db, event.id(), &filter, page).await?;
    let data = ExhibitorView::load(api.db, found.exhibitors, api.lang).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(page, found.count, found.all) }))
}

/// One exhibitor with its circle, world, slots and catalogue items.
#[utoipa::path(get, path = "/api/v1/{event}/exhibitors/{id}", tag = "catalog",
    params(("event" = String, Path), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ExhibitorDetailView),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, suspended, or before the event opens")))]
#[get("/<event>/exhibitors/<id>", rank = 5)]
pub async fn show(api: Api<'_>, event: Permalink, id: Id) -> Result<Json<ExhibitorDetailView>> {
    let event = CatalogEvent::from_tree(&api.tree, event.as_str(), api.now)?;
    if !event.open {
        return Err(Error::not_found());
    }
    let found = exhibitor::Model::find_visible(api.db, event.id(), id.0).await?;
    Ok(Json(ExhibitorDetailView::load(api.db, found, api.lang).await?))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, show))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, show]
}
