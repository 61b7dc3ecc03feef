//! Concepts of an event: `GET /api/v1/{event}/concepts` and `/concepts/{id}`.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::db::entities::{concept, event};
use crate::error::Result;
use crate::model::concept::{ConceptView, FullConceptView};
use crate::model::event::EventWithPhases;
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
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let req = api.page(page, limit)?;
    let found = concept::Model::page(api.db, event.id, req).await?;
    let data = ConceptView::load(api.db, found.concepts, api.lang).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(req, found.count, found.count) }))
}

/// One concept with its worlds, concept artists and event.
#[utoipa::path(get, path = "/api/v1/{event}/concepts/{id}", tag = "concepts",
    params(("event" = String, Path), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = FullConceptView), (status = 404, body = crate::error::ErrorBody)))]
#[get("/<event>/concepts/<id>", rank = 5)]
pub async fn show(api: Api<'_>, event: Permalink, id: Id) -> Result<Json<FullConceptView>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let concept = concept::Model::find_in_event(api.db, event.id, id.0).await?;
    let event = EventWithPhases::load(api.db, event).await?;
    Ok(Json(FullConceptView::load(api.db, concept, &event, api.lang, api.now).await?))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, show))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, show]
}
