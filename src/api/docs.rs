//! The OpenAPI document of every API operation, served at `/api-docs/openapi.json`.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use utoipa::OpenApi;

use crate::api::{support, v1};

/// The API description.
#[derive(OpenApi)]
#[openapi(
    info(title = "vmarket API", description = "Virtual Market product API"),
    paths(
        v1::events::list, v1::events::show, v1::events::active,
        v1::worlds::list,
        v1::concepts::list, v1::concepts::show,
        v1::exhibitors::list, v1::exhibitors::show, v1::companies::list,
        v1::catalog_items::catalog_items, v1::catalog_items::company_items,
        v1::catalog_items::groups, v1::catalog_items::company_groups, v1::catalog_items::catalog_info,
        support::messages, support::latest_build,
    ),
    tags((name = "events"), (name = "worlds"), (name = "concepts"), (name = "support"), (name = "catalog"))
)]
pub struct ApiDoc;

/// The OpenAPI document.
#[get("/openapi.json")]
pub fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

/// Routes mounted at `/api-docs`.
pub fn routes() -> Vec<Route> {
    routes![openapi]
}
