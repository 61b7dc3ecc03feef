//! Catalogue items and their categories: `GET /api/v1/{event}/catalog_items`,
//! `/{event}/company_items`, `/catalog_item_groups`, `/company_catalog_item_groups` and a world's
//! catalogue `/{event}/worlds/{id}/catalog_info`.
//!
//! Gated by the event-open phase (spec §4): before it item lists are empty and a world's
//! catalogue is 404. Category groups are always public.

use rocket::serde::json::Json;
use rocket::{FromForm, Route, get, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::db::entities::world;
use crate::error::{Error, Result};
use crate::model::catalog::{
    CatalogEvent, CatalogItemView, CategoryGroupType, CategoryGroupView, ItemFilter, OwnerType,
};
use crate::model::company::WorldCatalogInfo;
use crate::model::pagination::Pagination;
use crate::types::{Id, Permalink};

/// Raw query of the item lists.
#[derive(Debug, FromForm)]
pub struct ItemQuery<'r> {
    page: Option<&'r str>,
    limit: Option<&'r str>,
    keyword: Option<&'r str>,
    world_id: Option<&'r str>,
    category_id: Option<&'r str>,
    is_distributable: Option<&'r str>,
}

async fn items(
    api: Api<'_>,
    event: Permalink,
    q: ItemQuery<'_>,
    owner: OwnerType,
) -> Result<Json<ListBody<CatalogItemView>>> {
    let event = CatalogEvent::from_tree(&api.tree, event.as_str(), api.now)?;
    let page = api.page(q.page, q.limit)?;
    let filter = ItemFilter {
        owner,
        keyword: q.keyword.map(str::to_string),
        world_id: api.id("world_id", q.world_id)?,
        category_id: api.id("category_id", q.category_id)?,
        is_distributable: api.flag("is_distributable", q.is_distributable)?,
    };
    if !event.open {
        return Ok(Json(ListBody { data: Vec::new(), pagination: Pagination::new(page, 0, 0) }));
    }
    let found = CatalogItemView::page(api.db, &api.tree, event.id(), &filter, page, api.lang).await?;
    Ok(Json(ListBody { data: found.data, pagination: Pagination::new(page, found.count, found.all) }))
}

/// Exhibitors' catalogue items, filtered and paginated; name matches first, then display order.
#[utoipa::path(get, path = "/api/v1/{event}/catalog_items", tag = "catalog",
    params(("event" = String, Path, description = "event permalink or id"),
           ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("keyword" = Option<String>, Query, description = "words in the name or description, ja or en, partial"),
           ("world_id" = Option<i32>, Query), ("category_id" = Option<i32>, Query),
           ("is_distributable" = Option<bool>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<CatalogItemView>, description = "empty before the event opens"),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/catalog_items?<q..>", rank = 5)]
pub async fn catalog_items(
    api: Api<'_>,
    event: Permalink,
    q: ItemQuery<'_>,
) -> Result<Json<ListBody<CatalogItemView>>> {
    items(api, event, q, OwnerType::Exhibitor).await
}

/// Companies' catalogue items, filtered and paginated.
#[utoipa::path(get, path = "/api/v1/{event}/company_items", tag = "catalog",
    params(("event" = String, Path, description = "event permalink or id"),
           ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("keyword" = Option<String>, Query), ("world_id" = Option<i32>, Query), ("category_id" = Option<i32>, Query),
           ("is_distributable" = Option<bool>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<CatalogItemView>, description = "empty before the event opens"),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/company_items?<q..>", rank = 5)]
pub async fn company_items(
    api: Api<'_>,
    event: Permalink,
    q: ItemQuery<'_>,
) -> Result<Json<ListBody<CatalogItemView>>> {
    items(api, event, q, OwnerType::Company).await
}

/// The category groups of exhibitors' items, with their categories.
#[utoipa::path(get, path = "/api/v1/catalog_item_groups", tag = "catalog",
    params(("lang" = Option<String>, Query)), responses((status = 200, body = Vec<CategoryGroupView>)))]
#[get("/catalog_item_groups")]
pub async fn groups(api: Api<'_>) -> Result<Json<Vec<CategoryGroupView>>> {
    Ok(Json(CategoryGroupView::from_tree(&api.tree, CategoryGroupType::General, api.lang)))
}

/// The category groups of companies' items, with their categories.
#[utoipa::path(get, path = "/api/v1/company_catalog_item_groups", tag = "catalog",
    params(("lang" = Option<String>, Query)), responses((status = 200, body = Vec<CategoryGroupView>)))]
#[get("/company_catalog_item_groups")]
pub async fn company_groups(api: Api<'_>) -> Result<Json<Vec<CategoryGroupView>>> {
    Ok(Json(CategoryGroupView::from_tree(&api.tree, CategoryGroupType::Company, api.lang)))
}

/// A world's catalogue: its exhibitors and companies with item counts.
#[utoipa::path(get, path = "/api/v1/{event}/worlds/{id}/catalog_info", tag = "catalog",
    params(("event" = String, Path), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = WorldCatalogInfo),
              (status = 404, body = crate::error::ErrorBody, description = "unknown world, or before the event opens")))]
#[get("/<event>/worlds/<id>/catalog_info", rank = 5)]
pub async fn catalog_info(api: Api<'_>, event: Permalink, id: Id) -> Result<Json<WorldCatalogInfo>> {
    let event = CatalogEvent::from_tree(&api.tree, event.as_str(), api.now)?;
    if !event.open {
        return Err(Error::not_found());
    }
    let w = world::Model::find_in_event(api.db, event.id(), id.0).await?;
    Ok(Json(WorldCatalogInfo::load(api.db, event.id(), &w, api.lang).await?))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(catalog_items, company_items, groups, company_groups, catalog_info))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![catalog_items, company_items, groups, company_groups, catalog_info]
}
