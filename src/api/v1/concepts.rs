//! Concepts of an event: `GET /api/v1/{event}/concepts` and `/concepts/{id}`.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::error::Result;
use crate::model::concept::{ConceptView, FullConceptView};
use crate::model::pagination::Pagination;
use crate::types::{Id, Permalink};

/// Concepts of an event with their worlds, paginated.
#[utoipa::path(get, path = "/api/v1/{event}/concepts", tag = "concepts",
    params(("event" = String, Path, description = "event permalink or id"),
           ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<ConceptView>),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/concepts?<page>&<limit>", rank = 5)]
pub async fn list(
    api: Api<'_>,
    event: Permalink,
    page: Option<&str>,
    limit: Option<&str>,
) -> Result<Json<ListBody<ConceptView>>> {
    let tree = api.tree.clone();
    let event = &tree.resolve(event.as_str()).ok_or_else(crate::error::Error::unknown_permalink)?.event;
    let req = api.page(page, limit)?;
    let all = tree.concepts_of(event.id);
    let shown = all.iter().skip(req.offset() as usize).take(req.limit as usize);
    let data = ConceptView::from_tree(&tree, shown, api.lang);
    let count = all.len() as u64;
    Ok(Json(ListBody { data, pagination: Pagination::new(req, count, count) }))
}

/// One concept with its worlds, concept artists and event.
#[utoipa::path(get, path = "/api/v1/{event}/concepts/{id}", tag = "concepts",
    params(("event" = String, Path), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = FullConceptView), (status = 404, body = crate::error::ErrorBody)))]
#[get("/<event>/concepts/<id>", rank = 5)]
pub async fn show(api: Api<'_>, event: Permalink, id: Id) -> Result<Json<FullConceptView>> {
    let tree = api.tree.clone();
    let event = tree.resolve(event.as_str()).ok_or_else(crate::error::Error::unknown_permalink)?;
    let concept = tree.concept(event.event.id, id.0).ok_or_else(crate::error::Error::not_found)?;
    Ok(Json(FullConceptView::from_tree(&tree, concept, event, api.lang, api.now)))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, show))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, show]
}
