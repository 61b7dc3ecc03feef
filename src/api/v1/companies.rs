//! Companies of an event: `GET /api/v1/{event}/companies`.
//!
//! Gated by the event-open phase (spec §4): before it the list is empty.

use rocket::serde::json::Json;
use rocket::{FromForm, Route, get, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::db::entities::company;
use crate::error::Result;
use crate::model::catalog::CatalogEvent;
use crate::model::company::{CompanyFilter, CompanyView};
use crate::model::pagination::Pagination;
use crate::types::Permalink;

/// Raw query of the companies list.
#[derive(Debug, FromForm)]
pub struct CompanyQuery<'r> {
    page: Option<&'r str>,
    limit: Option<&'r str>,
    keyword: Option<&'r str>,
    world_id: Option<&'r str>,
}

/// Public companies of an event with highlights, worlds and items, by display index.
#[utoipa::path(get, path = "/api/v1/{event}/companies", tag = "catalog",
    params(("event" = String, Path, description = "event permalink or id"),
           ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("keyword" = Option<String>, Query, description = "words in the company's names or descriptions or its items'"),
           ("world_id" = Option<i32>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<CompanyView>, description = "empty before the event opens"),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/companies?<q..>", rank = 5)]
pub async fn list(api: Api<'_>, event: Permalink, q: CompanyQuery<'_>) -> Result<Json<ListBody<CompanyView>>> {
    let event = CatalogEvent::from_tree(&api.tree, event.as_str(), api.now)?;
    let page = api.page(q.page, q.limit)?;
    let filter = CompanyFilter { keyword: q.keyword.map(str::to_string), world_id: api.id("world_id", q.world_id)? };
    if !event.open {
        return Ok(Json(ListBody { data: Vec::new(), pagination: Pagination::new(page, 0, 0) }));
    }
    let found = company::Model::page(api.db, event.id(), &filter, page).await?;
    let data = CompanyView::load(api.db, found.companies, api.lang).await?;
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
