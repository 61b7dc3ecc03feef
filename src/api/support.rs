//! Application support calls (spec §7): message catalogues and the latest build id.

use rocket::http::Header;
use rocket::serde::json::Json;
use rocket::{Responder, Route, State, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Error, Result};
use crate::http::Site;
use crate::types::Lang;

/// A JSON body with caching headers.
#[derive(Responder)]
#[response(content_type = "json")]
pub struct CachedJson {
    body: String,
    cache: Header<'static>,
}

/// The message catalogue of `locale` (`ja` or `en`), cacheable for 24 hours.
#[utoipa::path(get, path = "/_i18n/{locale}/messages.json", tag = "support",
    params(("locale" = String, Path, description = "ja or en")),
    responses((status = 200, description = "Nested message catalogue", content_type = "application/json"),
               (status = 404, body = crate::error::ErrorBody)))]
#[get("/<locale>/messages.json")]
pub fn messages(locale: &str, site: &State<Site>) -> Result<CachedJson> {
    let lang = Lang::parse(locale).ok_or_else(Error::not_found)?;
    Ok(CachedJson {
        body: site.messages.json(lang).to_string(),
        cache: Header::new("Cache-Control", "public, max-age=86400"),
    })
}

/// The id of the build the server runs.
#[derive(Debug, Serialize, ToSchema)]
pub struct BuildInfo {
    /// Changes whenever a new front-end build is deployed.
    pub id: String,
}

/// The latest build id; clients poll it (with a `t` cache-buster) to detect new deployments.
#[utoipa::path(get, path = "/builds/latest.json", tag = "support",
    params(("t" = Option<String>, Query, description = "cache buster")),
    responses((status = 200, body = BuildInfo)))]
#[get("/latest.json?<t>")]
pub fn latest_build(t: Option<&str>, site: &State<Site>) -> NoStore<Json<BuildInfo>> {
    let _cache_buster = t;
    NoStore(Json(BuildInfo { id: site.assets.build_id.clone() }), Header::new("Cache-Control", "no-store"))
}

/// Wraps a responder with a `Cache-Control: no-store` header.
#[derive(Responder)]
pub struct NoStore<T>(T, Header<'static>);

/// The OpenAPI operations of the support calls: the handlers of [`i18n_routes`] and
/// [`build_routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(messages, latest_build))]
pub struct Doc;

/// Routes mounted at `/_i18n`.
pub fn i18n_routes() -> Vec<Route> {
    routes![messages]
}

/// Routes mounted at `/builds`.
pub fn build_routes() -> Vec<Route> {
    routes![latest_build]
}
