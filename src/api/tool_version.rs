//! `GET /api/get/version`: the desktop submission tool asks for its newest release (spec
//! "Other", on the tools host; here the site's own `/api`). No sign-in: the tool asks before the
//! user signs in, and the answer is public.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};

use crate::api::Api;
use crate::error::Result;
use crate::exhibit::tool_release::{ToolVersion, latest};

/// The newest published release of the desktop submission tool.
#[utoipa::path(get, path = "/api/get/version", tag = "slots",
    responses((status = 200, body = ToolVersion),
              (status = 404, body = crate::error::ErrorBody, description = "no_tool_release: none published yet")))]
#[get("/get/version")]
pub async fn version(api: Api<'_>) -> Result<Json<ToolVersion>> {
    Ok(Json(latest(api.db).await?))
}

/// The OpenAPI operations of this resource.
#[derive(utoipa::OpenApi)]
#[openapi(paths(version))]
pub struct Doc;

/// Routes of this resource, mounted at `/api`.
pub fn routes() -> Vec<Route> {
    routes![version]
}
