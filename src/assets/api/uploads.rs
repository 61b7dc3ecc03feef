//! Multipart uploads: `GET /uploader/uploads/{id}` (the parts received, to resume after a dropped
//! connection, with fresh part URLs), `PUT /uploader/uploads/{id}/parts/{n}` (the local store's
//! part endpoint, behind a signed, expiring URL), `POST /uploader/uploads/{id}/complete` and
//! `DELETE /uploader/uploads/{id}` (abort). Opening one is part of creating an asset or a new
//! version ([`open_version`]).
//!
//! The local store streams each part's body into its own object, a chunk at a time, refusing a
//! part past its expected size; completion checks that every part from 1 to the last is there
//! with the ETag the client was given and the size the plan says, then hands the version to the
//! pipeline (which joins the parts). An S3-compatible store takes the parts itself through
//! presigned URLs and joins them on completion.

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use rocket::data::{Data, ToByteUnit};
use rocket::http::{Header, Status};
use rocket::serde::json::Json;
use rocket::{Responder, Route, delete, get, post, put, routes};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::uploader::Uploader;
use crate::assets::jobs::AssetPipeline;
use crate::assets::model::upload::{part_bytes, part_key, plan};
use crate::assets::model::views::{AssetView, VersionView, asset_views, version_view};
use crate::auth::guards::CurrentUser;
use crate::db::entities::asset_upload::{StoreKind, UploadState};
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_setting, asset_temporary_upload, asset_upload, asset_version};
use crate::error::{Error, Invalid, Result};

/// Where to send a part.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PartUrl {
    /// From 1.
    pub part_number: i32,
    /// `PUT` the part's raw bytes here; the answer's `ETag` header names it at completion.
    pub url: String,
}

/// A part the store holds.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReceivedPart {
    /// From 1.
    pub part_number: i32,
    /// Its ETag, quoted.
    pub etag: String,
    /// Bytes.
    pub size: u64,
}

/// An upload in progress, as its owner sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UploadView {
    /// The upload's id.
    pub id: String,
    /// Bytes of every part but the last.
    pub part_size: i64,
    /// How many parts.
    pub part_count: i32,
    /// Where each part goes.
    pub parts: Vec<PartUrl>,
    /// The parts the store already holds.
    pub parts_received: Vec<ReceivedPart>,
    /// `POST` `{"parts": [{"part_number", "etag"}]}` here once every part is sent.
    pub complete_url: String,
    /// Until when parts are taken (24 hours from the start).
    pub expires_at: DateTime<Utc>,
    /// `open`, `completed`, `aborted` or `expired`.
    pub status: UploadState,
}

/// What opening an upload answers: the asset, the new version, and where its bytes go (none for
/// a file already sent in one request).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Opened {
    /// The asset.
    pub asset: AssetView,
    /// The new version.
    pub version: VersionView,
    /// Where to send the bytes.
    pub upload: Option<UploadView>,
}

/// One part at completion.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct CompletedPart {
    /// From 1.
    pub part_number: i32,
    /// The `ETag` the part's `PUT` answered.
    pub etag: String,
}

/// The completion body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct Completion {
    /// Every part, from 1 to the last.
    pub parts: Vec<CompletedPart>,
}

/// What the file's bytes come from when a version opens.
pub struct FileToOpen<'a> {
    /// The client's name of the file.
    pub file_name: &'a str,
    /// Its declared size.
    pub byte_size: i64,
    /// A one-shot upload that holds it already.
    pub temporary_upload_id: Option<&'a str>,
}

/// Opens the next version of `asset` (of `setting`) for `file`: from a one-shot upload straight
/// into the pipeline, or as a multipart upload whose part URLs the answer lists.
pub async fn open_version(
    up: &Uploader<'_>,
    user_id: i32,
    asset: &asset::Model,
    setting: &asset_setting::Model,
    file: FileToOpen<'_>,
) -> Result<Opened> {
    if file.byte_size > setting.max_bytes {
        return Err(Error::Validation(vec![
            Invalid::new("byte_size", "validation.bytes_over_limit").with("max", setting.max_bytes),
        ]));
    }
    if let Some(id) = file.temporary_upload_id {
        let temporary = asset_temporary_upload::Model::take(up.db, id, user_id, up.now).await?;
        let version = asset_version::Model::open(up.db, asset, file.file_name, temporary.byte_size, up.now).await?;
        up.storage.concat(std::slice::from_ref(&temporary.object_key), &version.object_key).await?;
        up.storage.delete(&temporary.object_key).await?;
        start_pipeline(up, &version).await?;
        return opened(up, asset, version.id, None).await;
    }
    let Some(cut) = plan(file.byte_size as u64) else {
        return Err(Error::invalid("byte_size", "validation.use_temporary_upload"));
    };
    let version = asset_version::Model::open(up.db, asset, file.file_name, file.byte_size, up.now).await?;
    let (store, multipart_id) = match up.storage.s3() {
        Some(s3) => (StoreKind::S3, Some(s3.create(&version.object_key).await?)),
        None => (StoreKind::Local, None),
    };
    let upload = asset_upload::Model::open(up.db, &version, user_id, cut, store, multipart_id, up.now).await?;
    let view = upload_view(up, &upload, &version).await?;
    opened(up, asset, version.id, Some(view)).await
}

/// The answer of [`open_version`].
async fn opened(
    up: &Uploader<'_>,
    asset: &asset::Model,
    version_id: i32,
    upload: Option<UploadView>,
) -> Result<Opened> {
    let fresh = asset::Model::by_id(up.db, asset.id).await?;
    let view = asset_views(up.db, vec![fresh], &HashMap::new()).await?.pop().ok_or_else(Error::not_found)?;
    let version = view.asset_versions.iter().find(|v| v.id == version_id).cloned().ok_or_else(Error::not_found)?;
    Ok(Opened { asset: view, version, upload })
}

/// Moves a version whose bytes are all there into the pipeline.
async fn start_pipeline(up: &Uploader<'_>, version: &asset_version::Model) -> Result<()> {
    if asset_version::Model::advance(up.db, version.id, UploadStatus::Waiting, UploadStatus::Analyzing, up.now).await? {
        AssetPipeline::enqueue(up.queue, version.id, 1, Duration::ZERO).await?;
    }
    Ok(())
}

/// The signed data of a local part URL.
fn part_claim(upload_id: &str, number: i32, expires: i64) -> String {
    format!("{upload_id}:{number}:{expires}")
}

/// The upload's view: fresh part URLs and the parts the store holds.
pub async fn upload_view(
    up: &Uploader<'_>,
    upload: &asset_upload::Model,
    version: &asset_version::Model,
) -> Result<UploadView> {
    let base = up.base();
    let expires = upload.expires_at.timestamp();
    let mut parts = Vec::with_capacity(upload.part_count as usize);
    let s3 = up.storage.s3().zip(upload.multipart_id.as_deref()).filter(|_| upload.store == StoreKind::S3);
    let valid = (upload.expires_at - up.now).to_std().unwrap_or(Duration::from_secs(1)).max(Duration::from_secs(1));
    for n in 1..=upload.part_count {
        let url = match s3 {
            Some((s3, id)) => s3.part_url(&version.object_key, id, n, valid).await?,
            None => {
                let signature = up.key.sign("upload-part", &part_claim(&upload.id, n, expires));
                format!("{base}/uploads/{}/parts/{n}?expires={expires}&signature={signature}", upload.id)
            }
        };
        parts.push(PartUrl { part_number: n, url });
    }
    let parts_received = received(up, upload, version).await?;
    Ok(UploadView {
        id: upload.id.clone(),
        part_size: upload.part_size,
        part_count: upload.part_count,
        parts,
        parts_received,
        complete_url: format!("{base}/uploads/{}/complete", upload.id),
        expires_at: upload.expires_at,
        status: upload.status,
    })
}

/// The parts the store holds for `upload`.
async fn received(
    up: &Uploader<'_>,
    upload: &asset_upload::Model,
    version: &asset_version::Model,
) -> Result<Vec<ReceivedPart>> {
    if upload.status != UploadState::Open {
        return Ok(Vec::new());
    }
    match (upload.store, up.storage.s3(), upload.multipart_id.as_deref()) {
        (StoreKind::S3, Some(s3), Some(id)) => {
            let http = reqwest::Client::new();
            let parts = s3.list_parts(&http, &version.object_key, id).await?;
            Ok(parts
                .into_iter()
                .map(|p| ReceivedPart { part_number: p.part_number, etag: p.etag, size: p.size })
                .collect())
        }
        _ => Ok(upload
            .local_parts(up.db)
            .await?
            .into_iter()
            .map(|p| ReceivedPart { part_number: p.part_number, etag: p.etag, size: p.byte_size as u64 })
            .collect()),
    }
}

/// One of the user's uploads: its parts received and fresh part URLs, to resume.
#[utoipa::path(get, path = "/uploader/uploads/{id}", tag = "uploader", security(("bearer" = [])),
    params(("id" = String, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = UploadView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's")))]
#[get("/uploads/<id>")]
pub async fn show_upload(up: Uploader<'_>, current: CurrentUser, id: &str) -> Result<Json<UploadView>> {
    let upload = asset_upload::Model::for_owner(up.db, id, current.user.id).await?;
    let version = asset_version::Model::by_id(up.db, upload.asset_version_id).await?;
    Ok(Json(upload_view(&up, &upload, &version).await?))
}

/// A part's answer: its `ETag`.
#[derive(Responder)]
#[response(status = 200)]
pub struct PartStored(&'static str, Header<'static>);

/// Takes one part of a local upload (raw bytes), through the signed URL the upload listed: no
/// sign-in needed, the signature is the proof. A part sent again replaces the first.
#[utoipa::path(put, path = "/uploader/uploads/{id}/parts/{part_number}", tag = "uploader",
    params(("id" = String, Path), ("part_number" = i32, Path), ("expires" = i64, Query), ("signature" = String, Query)),
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses((status = 200, description = "stored; the `ETag` header names it"),
              (status = 403, body = crate::error::ErrorBody, description = "upload_url_invalid: a wrong or expired signature"),
              (status = 404, body = crate::error::ErrorBody, description = "unknown upload or part number"),
              (status = 409, body = crate::error::ErrorBody, description = "upload_closed, upload_expired"),
              (status = 413, body = crate::error::ErrorBody, description = "larger than the part"),
              (status = 422, body = crate::error::ErrorBody, description = "part_size_mismatch: shorter than the part")))]
#[put("/uploads/<id>/parts/<part_number>?<expires>&<signature>", data = "<body>")]
pub async fn put_part(
    up: Uploader<'_>,
    id: &str,
    part_number: i32,
    expires: i64,
    signature: &str,
    body: Data<'_>,
) -> Result<PartStored> {
    if !up.key.check("upload-part", &part_claim(id, part_number, expires), signature) || up.now.timestamp() > expires {
        return Err(Error::Denied { code: "upload_url_invalid" });
    }
    let upload = asset_upload::Model::by_id(up.db, id).await?;
    upload.ensure_open(up.now)?;
    if upload.store != StoreKind::Local {
        return Err(Error::not_found());
    }
    let expected = part_bytes(&upload, part_number).ok_or_else(Error::not_found)?;
    let key = part_key(&upload.id, part_number);
    let stream = body.open((expected + 1).bytes());
    let written = up.storage.write_stream(&key, stream, expected).await?;
    if written.bytes != expected {
        up.storage.delete(&key).await?;
        return Err(Error::Validation(vec![
            Invalid::new("part", "validation.part_size").with("expected", expected).with("actual", written.bytes),
        ]));
    }
    let etag = format!("\"{}\"", &written.sha256[..32]);
    upload.record_part(up.db, part_number, &etag, written.bytes, up.now).await?;
    Ok(PartStored("", Header::new("ETag", etag)))
}

/// Completes an upload: every part from 1 to the last, each with the `ETag` its `PUT` answered.
/// The version then moves to `analyzing`.
#[utoipa::path(post, path = "/uploader/uploads/{id}/complete", tag = "uploader", security(("bearer" = [])),
    params(("id" = String, Path), ("lang" = Option<String>, Query)),
    request_body = Completion,
    responses((status = 200, body = VersionView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's"),
              (status = 409, body = crate::error::ErrorBody, description = "upload_closed, upload_expired, parts_missing"),
              (status = 422, body = crate::error::ErrorBody, description = "parts out of order, a wrong ETag or a part of the wrong size")))]
#[post("/uploads/<id>/complete", data = "<body>")]
pub async fn complete(
    up: Uploader<'_>,
    current: CurrentUser,
    id: &str,
    body: super::uploader::Body<'_, Completion>,
) -> Result<Json<VersionView>> {
    let upload = asset_upload::Model::for_owner(up.db, id, current.user.id).await?;
    let body = super::uploader::body(body)?;
    upload.ensure_open(up.now)?;
    let version = asset_version::Model::by_id(up.db, upload.asset_version_id).await?;
    let numbers: Vec<i32> = body.parts.iter().map(|p| p.part_number).collect();
    if numbers != (1..=upload.part_count).collect::<Vec<_>>() {
        return Err(Error::invalid("parts", "validation.parts_in_order"));
    }
    let held = received(&up, &upload, &version).await?;
    let held: HashMap<i32, ReceivedPart> = held.into_iter().map(|p| (p.part_number, p)).collect();
    let mut missing = Vec::new();
    for part in &body.parts {
        let Some(found) = held.get(&part.part_number) else {
            missing.push(part.part_number);
            continue;
        };
        if found.etag.trim_matches('"') != part.etag.trim_matches('"') {
            return Err(Error::Validation(vec![
                Invalid::new("parts", "validation.etag_mismatch").with("part", part.part_number),
            ]));
        }
        if Some(found.size) != part_bytes(&upload, part.part_number) {
            return Err(Error::Validation(vec![
                Invalid::new("parts", "validation.part_size_of").with("part", part.part_number),
            ]));
        }
    }
    if !missing.is_empty() {
        return Err(Error::Conflict { code: "parts_missing" });
    }
    if let (StoreKind::S3, Some(s3), Some(multipart)) = (upload.store, up.storage.s3(), upload.multipart_id.as_deref())
    {
        let etags = body.parts.iter().map(|p| held[&p.part_number].etag.clone()).collect();
        s3.complete(&version.object_key, multipart, etags).await?;
    }
    if upload.close(up.db, UploadState::Completed, up.now).await? {
        start_pipeline(&up, &version).await?;
    }
    let version = asset_version::Model::by_id(up.db, version.id).await?;
    Ok(Json(version_view(&version, None)))
}

/// Gives an upload up: its parts are freed and its version expires.
#[utoipa::path(delete, path = "/uploader/uploads/{id}", tag = "uploader", security(("bearer" = [])),
    params(("id" = String, Path), ("lang" = Option<String>, Query)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's"),
              (status = 409, body = crate::error::ErrorBody, description = "upload_closed")))]
#[delete("/uploads/<id>")]
pub async fn abort(up: Uploader<'_>, current: CurrentUser, id: &str) -> Result<Status> {
    let upload = asset_upload::Model::for_owner(up.db, id, current.user.id).await?;
    if upload.status != UploadState::Open {
        return Err(Error::Conflict { code: "upload_closed" });
    }
    crate::assets::jobs::sweep::expire(up.db, up.storage, &upload, UploadState::Aborted, up.now).await?;
    Ok(Status::NoContent)
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![show_upload, put_part, complete, abort]
}
