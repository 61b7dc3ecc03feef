//! The user's assets: `GET /uploader/assets` (their own, newest first), `POST /uploader/assets`
//! (a new asset and its first upload), `GET|PUT|DELETE /uploader/assets/{id}` and `GET
//! /uploader/assets/{id}/update_url` (a new version's upload). Owner only: anyone else's asset is
//! 404. `published` and `deleted` change only by the owner.

use std::collections::HashMap;
use std::time::Duration;

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, put, routes};

use super::uploader::Uploader;
use super::uploads::{FileToOpen, Opened, open_version};
use crate::assets::model::views::{AssetView, asset_views};
use crate::auth::guards::CurrentUser;
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_setting, asset_version};
use crate::error::{Error, Result};
use crate::forms::asset::{AssetChange, NewAsset, NewVersion};
use crate::forms::validate;
use crate::model::pagination::{PageRequest, Pagination};
use crate::types::Id;

/// How long the download links in an asset's view work.
pub const LINK_SECS: u64 = 300;

/// A list answer.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct AssetList {
    /// The assets.
    pub data: Vec<AssetView>,
    /// Where this page is.
    pub pagination: Pagination,
}

/// The views of `rows` with download links for their uploaded versions.
pub async fn views_with_links(up: &Uploader<'_>, rows: Vec<asset::Model>) -> Result<Vec<AssetView>> {
    let ids: Vec<i32> = rows.iter().map(|a| a.id).collect();
    let mut links = HashMap::new();
    for version in asset_version::Model::of_assets(up.db, &ids).await? {
        if version.upload_status == UploadStatus::Uploaded {
            links.insert(version.id, super::downloads::link(up, &version, Duration::from_secs(LINK_SECS)).await?);
        }
    }
    asset_views(up.db, rows, &links).await
}

/// One asset's view, with links.
async fn one(up: &Uploader<'_>, row: asset::Model) -> Result<AssetView> {
    views_with_links(up, vec![row]).await?.pop().ok_or_else(Error::not_found)
}

/// The user's assets (not deleted), newest first; `label` keeps one upload kind.
#[utoipa::path(get, path = "/uploader/assets", tag = "uploader", security(("bearer" = [])),
    params(("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("label" = Option<String>, Query, description = "an asset setting's label"), ("lang" = Option<String>, Query)),
    responses((status = 200, body = AssetList), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_asset_setting"),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/assets?<page>&<limit>&<label>")]
pub async fn list(
    up: Uploader<'_>,
    current: CurrentUser,
    page: Option<&str>,
    limit: Option<&str>,
    label: Option<&str>,
) -> Result<Json<AssetList>> {
    let req = PageRequest::parse(page, limit, 20)?;
    let setting = match label.filter(|l| !l.is_empty()) {
        Some(label) => Some(asset_setting::Model::by_label(up.db, label).await?.id),
        None => None,
    };
    let (rows, count) = asset::Model::owned_page(up.db, current.user.id, setting, req).await?;
    let data = views_with_links(&up, rows).await?;
    Ok(Json(AssetList { data, pagination: Pagination::new(req, count, count) }))
}

/// Creates an asset and opens its first upload: in parts (the answer lists where each part goes),
/// or from a one-shot upload of up to 5 MiB (`temporary_upload_id`), which goes straight to the
/// pipeline.
#[utoipa::path(post, path = "/uploader/assets", tag = "uploader", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    request_body = NewAsset,
    responses((status = 201, body = Opened), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_asset_setting, or a temporary upload not the user's"),
              (status = 409, body = crate::error::ErrorBody, description = "temporary_upload_used, upload_expired"),
              (status = 422, body = crate::error::ErrorBody, description = "a field; byte_size over the setting's limit, or small enough for one request")))]
#[post("/assets", data = "<body>")]
pub async fn create(
    up: Uploader<'_>,
    current: CurrentUser,
    body: super::uploader::Body<'_, NewAsset>,
) -> Result<(Status, Json<Opened>)> {
    let input = super::uploader::body(body)?;
    validate(&input)?;
    let setting = asset_setting::Model::by_label(up.db, &input.asset_setting_label).await?;
    if !setting.uploadable() {
        return Err(Error::NotFound { code: "unknown_asset_setting" });
    }
    let created = asset::Model::create(up.db, current.user.id, &setting, &input, up.now).await?;
    let file = FileToOpen {
        file_name: &input.file_name,
        byte_size: input.byte_size,
        temporary_upload_id: input.temporary_upload_id.as_deref(),
    };
    match open_version(&up, current.user.id, &created, &setting, file).await {
        Ok(opened) => Ok((Status::Created, Json(opened))),
        Err(e) => {
            // Nothing half-made stays behind: the asset goes with the refusal.
            <asset::Entity as sea_orm::EntityTrait>::delete_by_id(created.id).exec(up.db).await?;
            Err(e)
        }
    }
}

/// One of the user's assets with its versions.
#[utoipa::path(get, path = "/uploader/assets/{id}", tag = "uploader", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = AssetView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's")))]
#[get("/assets/<id>")]
pub async fn show(up: Uploader<'_>, current: CurrentUser, id: Id) -> Result<Json<AssetView>> {
    let found = asset::Model::for_owner(up.db, id.0, current.user.id).await?;
    Ok(Json(one(&up, found).await?))
}

/// Changes one of the user's assets: name, description, where furniture goes, `published`,
/// `deleted` (deleting hides it at once and frees its files after seven days; `false` takes it
/// back until then).
#[utoipa::path(put, path = "/uploader/assets/{id}", tag = "uploader", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    request_body = AssetChange,
    responses((status = 200, body = AssetView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's"),
              (status = 422, body = crate::error::ErrorBody)))]
#[put("/assets/<id>", data = "<body>")]
pub async fn update(
    up: Uploader<'_>,
    current: CurrentUser,
    id: Id,
    body: super::uploader::Body<'_, AssetChange>,
) -> Result<Json<AssetView>> {
    let found = asset::Model::for_owner(up.db, id.0, current.user.id).await?;
    let change = super::uploader::body(body)?;
    validate(&change)?;
    let changed = found.change(up.db, &change, up.now).await?;
    Ok(Json(one(&up, changed).await?))
}

/// Deletes one of the user's assets (as `PUT` with `deleted: true`).
#[utoipa::path(delete, path = "/uploader/assets/{id}", tag = "uploader", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = AssetView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's")))]
#[delete("/assets/<id>")]
pub async fn delete(up: Uploader<'_>, current: CurrentUser, id: Id) -> Result<Json<AssetView>> {
    let found = asset::Model::for_owner(up.db, id.0, current.user.id).await?;
    let change = AssetChange { deleted: Some(true), ..AssetChange::default() };
    let changed = found.change(up.db, &change, up.now).await?;
    Ok(Json(one(&up, changed).await?))
}

/// Opens the upload of a new version of one of the user's assets (`file_name`, `byte_size`, or a
/// `temporary_upload_id`), like `POST /uploader/assets` does for the first.
#[utoipa::path(get, path = "/uploader/assets/{id}/update_url", tag = "uploader", security(("bearer" = [])),
    params(("id" = i32, Path), ("file_name" = String, Query), ("byte_size" = i64, Query),
           ("temporary_upload_id" = Option<String>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = Opened), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's"),
              (status = 409, body = crate::error::ErrorBody, description = "asset_deleted"),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/assets/<id>/update_url?<file_name>&<byte_size>&<temporary_upload_id>")]
pub async fn update_url(
    up: Uploader<'_>,
    current: CurrentUser,
    id: Id,
    file_name: Option<String>,
    byte_size: Option<&str>,
    temporary_upload_id: Option<String>,
) -> Result<Json<Opened>> {
    let found = asset::Model::for_owner(up.db, id.0, current.user.id).await?;
    if found.deleted {
        return Err(Error::Conflict { code: "asset_deleted" });
    }
    let input = NewVersion {
        file_name: file_name.unwrap_or_default(),
        byte_size: byte_size.and_then(|b| b.parse().ok()).unwrap_or(0),
        temporary_upload_id,
    };
    validate(&input)?;
    let setting = asset_setting::Model::by_id(up.db, found.asset_setting_id).await?;
    if !setting.uploadable() {
        // A booth frozen by the booth maker: its versions come from the editor only.
        return Err(Error::Conflict { code: "asset_not_uploadable" });
    }
    let file = FileToOpen {
        file_name: &input.file_name,
        byte_size: input.byte_size,
        temporary_upload_id: input.temporary_upload_id.as_deref(),
    };
    Ok(Json(open_version(&up, current.user.id, &found, &setting, file).await?))
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, create, show, update, delete, update_url]
}
