//! `GET /api/example` (spec §7 "Application support"): a small call that shows the API's
//! conventions — the `lang` query, localized text and the server clock.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;

/// The example answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExampleBody {
    /// A greeting in the request's language.
    pub message: String,
    /// The language answered in (`ja` or `en`).
    pub lang: String,
    /// The server's current time, RFC 3339 in UTC.
    pub server_time: String,
}

/// A greeting in the requested language with the server time.
#[utoipa::path(get, path = "/api/example", tag = "support",
    params(("lang" = Option<String>, Query, description = "ja (default) or en")),
    responses((status = 200, body = ExampleBody)))]
#[get("/example")]
pub fn show(api: Api<'_>) -> Json<ExampleBody> {
    Json(ExampleBody {
        message: api.t("example.message"),
        lang: api.lang.code().to_string(),
        server_time: api.now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    })
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(show))]
pub struct Doc;

/// Routes mounted at `/api`.
pub fn routes() -> Vec<Route> {
    routes![show]
}
