//! Download tokens of one version of one of the user's assets: `GET|POST
//! /uploader/assets/{id}/versions/{versionId}/download_tokens` and `DELETE …/{tokenId}`. The
//! token is in the answer that makes it, never again.

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, routes};

use super::uploader::Uploader;
use crate::assets::model::token::TokenView;
use crate::auth::guards::CurrentUser;
use crate::db::entities::{asset, asset_download_token, asset_version};
use crate::error::Result;
use crate::forms::asset::NewToken;
use crate::forms::validate;
use crate::types::Id;

/// The version `version_id` of the user's asset `id` (404 to anyone else).
async fn own_version(up: &Uploader<'_>, user_id: i32, id: Id, version_id: Id) -> Result<asset_version::Model> {
    let found = asset::Model::for_owner(up.db, id.0, user_id).await?;
    asset_version::Model::of_asset(up.db, found.id, version_id.0).await
}

/// The tokens of a version, newest first (without the tokens themselves).
#[utoipa::path(get, path = "/uploader/assets/{id}/versions/{version_id}/download_tokens", tag = "uploader",
    security(("bearer" = [])),
    params(("id" = i32, Path), ("version_id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = Vec<TokenView>), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's")))]
#[get("/assets/<id>/versions/<version_id>/download_tokens")]
pub async fn list_tokens(
    up: Uploader<'_>,
    current: CurrentUser,
    id: Id,
    version_id: Id,
) -> Result<Json<Vec<TokenView>>> {
    let version = own_version(&up, current.user.id, id, version_id).await?;
    let rows = asset_download_token::Model::of_version(up.db, version.id).await?;
    Ok(Json(rows.iter().map(TokenView::from).collect()))
}

/// Makes a token for an uploaded version: optional password (8–128 characters), expiry within 90
/// days (default 7). The answer holds the token, once.
#[utoipa::path(post, path = "/uploader/assets/{id}/versions/{version_id}/download_tokens", tag = "uploader",
    security(("bearer" = [])),
    params(("id" = i32, Path), ("version_id" = i32, Path), ("lang" = Option<String>, Query)),
    request_body = NewToken,
    responses((status = 201, body = TokenView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's"),
              (status = 409, body = crate::error::ErrorBody, description = "version_not_uploaded"),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/assets/<id>/versions/<version_id>/download_tokens", data = "<body>")]
pub async fn create_token(
    up: Uploader<'_>,
    current: CurrentUser,
    id: Id,
    version_id: Id,
    body: super::uploader::Body<'_, NewToken>,
) -> Result<(Status, Json<TokenView>)> {
    let version = own_version(&up, current.user.id, id, version_id).await?;
    let input = super::uploader::body(body)?;
    validate(&input)?;
    let made = asset_download_token::Model::create(up.db, &version, &input, current.user.id, up.now).await?;
    Ok((Status::Created, Json(made)))
}

/// Revokes a token.
#[utoipa::path(delete, path = "/uploader/assets/{id}/versions/{version_id}/download_tokens/{token_id}",
    tag = "uploader", security(("bearer" = [])),
    params(("id" = i32, Path), ("version_id" = i32, Path), ("token_id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, revoked, or someone else's")))]
#[delete("/assets/<id>/versions/<version_id>/download_tokens/<token_id>")]
pub async fn revoke(up: Uploader<'_>, current: CurrentUser, id: Id, version_id: Id, token_id: Id) -> Result<Status> {
    let version = own_version(&up, current.user.id, id, version_id).await?;
    asset_download_token::Model::revoke(up.db, version.id, token_id.0, up.now).await?;
    Ok(Status::NoContent)
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list_tokens, create_token, revoke]
}
