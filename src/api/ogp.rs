//! Link preview (spec §7 `GET /api/ogp?url={x}`): title and image of a public web page, from
//! the cache when fresh, else fetched through [`LinkPreviewer`] (each fetch also prunes expired
//! cache rows). Rate-limited per client IP.

use rocket::serde::json::Json;
use rocket::{Route, State, get, routes};

use crate::api::Api;
use crate::db::entities::link_preview;
use crate::error::{Error, Result};
use crate::http::client_ip::ClientIp;
use crate::linkpreview::{FetchError, LinkPreviewer, UrlError};
use crate::model::link_preview::LinkPreview;

/// Preview of the page at `url`. Answers 200 whenever the page's server gave an HTTP response
/// (its status in `status`); refused URLs are 422 `url_not_allowed` before any connection.
#[utoipa::path(get, path = "/api/ogp", tag = "support",
    params(("url" = String, Query, description = "absolute http(s) URL of a public page, at most 2048 bytes"),
           ("lang" = Option<String>, Query, description = "ja or en, for error messages")),
    responses((status = 200, body = LinkPreview),
              (status = 422, body = crate::error::ErrorBody,
               description = "validation_failed (no usable URL) or url_not_allowed (scheme, credentials, private or special address, at any redirect hop)"),
              (status = 429, body = crate::error::ErrorBody, description = "rate_limited, with Retry-After"),
              (status = 502, body = crate::error::ErrorBody, description = "upstream_unreachable or too_many_redirects (more than 5)"),
              (status = 504, body = crate::error::ErrorBody, description = "upstream_timeout")))]
#[get("/ogp?<url>")]
pub async fn show(
    api: Api<'_>,
    previewer: &State<LinkPreviewer>,
    client: ClientIp,
    url: Option<&str>,
) -> Result<Json<LinkPreview>> {
    previewer.admit(client).await?;
    let url = previewer.parse(url.unwrap_or_default()).map_err(|e| match e {
        UrlError::Invalid => Error::invalid("url", "validation.url"),
        UrlError::Refused(reason) => FetchError::Refused(reason).into(),
    })?;
    if let Some(cached) = link_preview::Model::fresh(api.db, url.as_str(), api.now - previewer.cache_ttl).await? {
        return Ok(Json(cached));
    }
    let preview = LinkPreview::from(previewer.fetch(url.clone()).await?);
    if preview.cacheable() {
        link_preview::Model::store(api.db, url.as_str(), &preview, api.now).await?;
        link_preview::Model::prune(api.db, api.now - previewer.cache_ttl).await?;
    }
    Ok(Json(preview))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(show))]
pub struct Doc;

/// Routes mounted at `/api`.
pub fn routes() -> Vec<Route> {
    routes![show]
}
