//! VRC redirects of an event: `GET /api/v1/{event}/vrc_redirects/{id}`.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};

use crate::api::Api;
use crate::db::entities::{event, vrc_redirect};
use crate::error::Result;
use crate::model::redirect::VrcRedirectView;
use crate::types::Permalink;

/// One VRC redirect of an event, by numeric id or by its `url_key`.
#[utoipa::path(get, path = "/api/v1/{event}/vrc_redirects/{id}", tag = "redirects",
    params(("event" = String, Path, description = "event permalink or id"),
           ("id" = String, Path, description = "redirect id, or its url_key"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = VrcRedirectView),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_permalink or not_found")))]
#[get("/<event>/vrc_redirects/<id>", rank = 5)]
pub async fn show(api: Api<'_>, event: Permalink, id: &str) -> Result<Json<VrcRedirectView>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let row = vrc_redirect::Model::find_in_event(api.db, event.id, id).await?;
    Ok(Json(VrcRedirectView::new(row, api.lang)))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(show))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![show]
}
