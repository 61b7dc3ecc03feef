//! The OpenAPI document of every API operation, served at `/api-docs/openapi.json`, and Swagger
//! UI at `/api-docs/` in development.
//!
//! Each API module lists its operations in a `Doc` (`#[derive(OpenApi)]`) right beside its
//! `routes()`; [`document`] merges them under the shared info, tags and security scheme.
//! `tests/it/api_contract.rs` compares the document with the routes the application mounts, and
//! the front end builds its types from a copy (`widgets/openapi.json`, written by
//! `vmarket openapi`). It sits above the APIs it documents (`crate::api`, `crate::account`,
//! `crate::admin`); the helpers that merge parts are `crate::api::docs`.

use std::path::PathBuf;
use std::sync::Arc;

use rocket::http::uri::Origin;
use rocket::response::Redirect;
use rocket::serde::json::Json;
use rocket::{Either, Route, get, routes};
use utoipa::openapi::OpenApi as Document;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_swagger_ui::SwaggerFile;

use crate::account;
use crate::api::docs::{merged, resource};
use crate::api::{example, ogp, support, tool_version, v1};
use crate::config::Environment;
use crate::error::{Error, Result};
use crate::http::redirect::{Kind, Target, redirect};

/// Where the document is served; Swagger UI loads it from here.
const DOCUMENT_URL: &str = "/api-docs/openapi.json";

/// What the whole document shares: info, tags and the bearer security scheme.
#[derive(OpenApi)]
#[openapi(
    info(title = "vmarket API", description = "Virtual Market product API"),
    modifiers(&BearerAuth),
    tags((name = "events"), (name = "worlds"), (name = "concepts"), (name = "user"), (name = "account"),
         (name = "support"), (name = "inquiries"), (name = "catalog"), (name = "redirects"), (name = "hub"),
         (name = "admin"), (name = "circles"), (name = "slots"))
)]
struct ApiDoc;

/// The API of the built-in account service (`crate::account::api::routes`, mounted at
/// `/account` unless an external account service is configured).
#[derive(OpenApi)]
#[openapi(paths(
    account::api::me,
    account::api::token,
    account::api::exchange,
    account::api::revoke,
    account::api::discovery_keys
))]
struct AccountDoc;

/// Declares the security schemes: `bearer` (an account-service JWT), `ingame` (an in-game
/// token, accepted on `/ingame` only) and `converter` (the converter workers' key).
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut Document) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
        components.add_security_scheme(
            "ingame",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("opaque in-game token (vmig_…), from /ingame/auth/token")
                    .description(Some("The in-game API's own token; site JWTs are refused on /ingame"))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "converter",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("the configured converter_worker_key")
                    .description(Some("Converter workers only, on /api/v1/store/converter"))
                    .build(),
            ),
        );
    }
}

/// The OpenAPI document of every API operation.
pub fn document() -> Document {
    let parts = [
        v1::openapi(),
        resource("time_travel", crate::admin::time_travel::Doc::openapi()),
        resource("support", support::Doc::openapi()),
        resource("ogp", ogp::Doc::openapi()),
        resource("example", example::Doc::openapi()),
        resource("tools", tool_version::Doc::openapi()),
        resource("account", AccountDoc::openapi()),
        resource("admin", crate::admin::session::Doc::openapi()),
        resource("admin", crate::admin::api::records::Doc::openapi()),
        resource("admin", crate::admin::api::images::Doc::openapi()),
        resource("admin", crate::admin::clock::Doc::openapi()),
        resource("admin", crate::admin::dashboard::Doc::openapi()),
        resource("uploader", crate::assets::api::Doc::openapi()),
        resource("ingame", crate::ingame::api::Doc::openapi()),
        resource("booth_maker", crate::booth::api::Doc::openapi()),
        resource("store", crate::store::api::Doc::openapi()),
    ];
    let mut doc = ApiDoc::openapi();
    doc.merge(merged(parts));
    doc
}

/// [`document`] as pretty-printed JSON with a final newline, as `vmarket openapi` prints it.
pub fn document_json() -> serde_json::Result<String> {
    serde_json::to_string_pretty(&document()).map(|json| json + "\n")
}

/// The OpenAPI document.
#[get("/openapi.json")]
pub fn openapi() -> Json<Document> {
    Json(document())
}

/// Swagger UI (development only): its page at `/api-docs/` and its files beside it; the page's
/// initializer script (a file too, no inline script) loads [`openapi`]. It runs under
/// `script-src 'self'; style-src 'self'` (`e2e/api-docs.test.mjs`).
#[get("/<file..>")]
pub fn swagger_ui(file: PathBuf, uri: &Origin<'_>) -> Result<Either<SwaggerFile<'static>, Redirect>> {
    if file.as_os_str().is_empty() && !uri.path().ends_with('/') {
        // The page loads its files by relative URLs, which resolve from `/api-docs/` only.
        return Ok(Either::Right(redirect(Kind::Moved, Target::Site(&format!("{}/", uri.path())))));
    }
    let file = file.to_str().ok_or_else(Error::not_found)?;
    // The base layout leaves out the top bar, whose logo is an SVG with an inline <style> that a
    // `style-src 'self'` policy blocks; no validator badge (an image from another site).
    let config = utoipa_swagger_ui::Config::from(DOCUMENT_URL).validator_url("none").use_base_layout();
    match utoipa_swagger_ui::serve(file, Arc::new(config)) {
        Ok(Some(found)) => Ok(Either::Left(found)),
        Ok(None) => Err(Error::not_found()),
        Err(e) => Err(Error::Internal(format!("swagger ui: {e}"))),
    }
}

/// Routes mounted at `/api-docs`: the document, and Swagger UI in development.
pub fn routes(environment: Environment) -> Vec<Route> {
    let mut routes = routes![openapi];
    if environment == Environment::Development {
        routes.extend(routes![swagger_ui]);
    }
    routes
}
