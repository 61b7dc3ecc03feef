//! One version of one of the user's assets: `PUT /uploader/assets/{id}/versions/{versionId}`
//! sends the snapshot the upload page rendered of a 3D file (a PNG, multipart field `snapshot`),
//! which becomes the version's pictures; `GET …/report` is the version's validation report in
//! the request's language (the same JSON staff and the booth maker read).

use rocket::fs::TempFile;
use rocket::serde::json::Json;
use rocket::{FromForm, Route, get, put, routes};
use serde_json::Value;

use super::uploader::Uploader;
use crate::assets::model::version::picture_prefix;
use crate::assets::model::views::{VersionView, version_view};
use crate::assets::pipeline::pictures::SIZES;
use crate::auth::guards::CurrentUser;
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_version};
use crate::error::{Error, Result};
use crate::http::upload::{form_error, png, read_image};
use crate::i18n::Messages;
use crate::types::{Id, Lang};

/// The snapshot form.
#[derive(FromForm)]
pub struct SnapshotForm<'r> {
    /// A PNG, JPEG or WebP rendering of the model (at most 5 MiB, 4096 px).
    pub snapshot: Option<TempFile<'r>>,
}

/// The version `version_id` of the user's asset `id` (404 to anyone else).
async fn own_version(up: &Uploader<'_>, user_id: i32, id: Id, version_id: Id) -> Result<asset_version::Model> {
    let found = asset::Model::for_owner(up.db, id.0, user_id).await?;
    asset_version::Model::of_asset(up.db, found.id, version_id.0).await
}

/// Stores the snapshot of a 3D version; once the version is uploaded, its pictures are made from
/// it at once (before, the pipeline's converting step uses it).
#[utoipa::path(put, path = "/uploader/assets/{id}/versions/{version_id}", tag = "uploader", security(("bearer" = [])),
    params(("id" = i32, Path), ("version_id" = i32, Path), ("lang" = Option<String>, Query)),
    request_body(content_type = "multipart/form-data", description = "`snapshot`: a PNG, JPEG or WebP picture"),
    responses((status = 200, body = VersionView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, or someone else's"),
              (status = 409, body = crate::error::ErrorBody, description = "version_closed: failed or expired"),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[put("/assets/<id>/versions/<version_id>", data = "<form>")]
pub async fn upload_snapshot(
    up: Uploader<'_>,
    current: CurrentUser,
    id: Id,
    version_id: Id,
    form: std::result::Result<rocket::form::Form<SnapshotForm<'_>>, rocket::form::Errors<'_>>,
) -> Result<Json<VersionView>> {
    let version = own_version(&up, current.user.id, id, version_id).await?;
    if matches!(version.upload_status, UploadStatus::Failed | UploadStatus::Expired) {
        return Err(Error::Conflict { code: "version_closed" });
    }
    let form = form.map_err(form_error)?;
    let file = form
        .snapshot
        .as_ref()
        .filter(|f| f.len() > 0)
        .ok_or_else(|| Error::invalid("snapshot", "validation.required"))?;
    let bytes = read_image(file).await?;
    let pictures = up
        .images
        .render(bytes.clone(), SIZES[2], |img| png(&img))
        .await
        .map_err(|refusal| Error::invalid("snapshot", refusal.message_key()))?;
    let key = format!("{}/snapshot.png", picture_prefix(&version.uuid));
    up.storage.put(&key, pictures).await?;
    let mut row: asset_version::ActiveModel = version.clone().into();
    row.snapshot_key = sea_orm::Set(Some(key));
    row.updated_at = sea_orm::Set(up.now);
    let version = sea_orm::ActiveModelTrait::update(row, up.db).await?;
    if version.upload_status == UploadStatus::Uploaded {
        let tools = crate::assets::pipeline::Tools::new(up.db, up.storage, up.images, &up.site.config.data_dir);
        let made = crate::assets::pipeline::pictures::make(&tools, &version).await?;
        if let Some(old) = version.thumbnail_key.as_deref().filter(|old| *old != made.prefix) {
            up.storage.delete_prefix(old).await?;
        }
        let mut row: asset_version::ActiveModel = version.clone().into();
        row.thumbnail_key = sea_orm::Set(Some(made.prefix));
        row.ingame_thumbnail_key = sea_orm::Set(Some(made.ingame));
        let version = sea_orm::ActiveModelTrait::update(row, up.db).await?;
        return Ok(Json(version_view(&version, None)));
    }
    Ok(Json(version_view(&version, None)))
}

/// The validation report of a version, its messages and fixes in the request's language; 404
/// before the version was validated.
#[utoipa::path(get, path = "/uploader/assets/{id}/versions/{version_id}/report", tag = "uploader",
    security(("bearer" = [])),
    params(("id" = i32, Path), ("version_id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, description = "the report (ASSETS.md \"The report\")", body = Object),
              (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown, someone else's, or not validated yet")))]
#[get("/assets/<id>/versions/<version_id>/report")]
pub async fn report(up: Uploader<'_>, current: CurrentUser, id: Id, version_id: Id) -> Result<Json<Value>> {
    let version = own_version(&up, current.user.id, id, version_id).await?;
    Ok(Json(translated_report(&version, &up.site.messages, up.lang)?))
}

/// `version`'s report with `message` and `solution` in `lang` (their keys kept as
/// `message_key` / `solution_key`).
pub fn translated_report(version: &asset_version::Model, messages: &Messages, lang: Lang) -> Result<Value> {
    let stored = version.report.as_deref().ok_or(Error::NotFound { code: "report_not_ready" })?;
    let mut report: Value = serde_json::from_str(stored).map_err(|e| Error::Internal(format!("report: {e}")))?;
    if let Some(list) = report.pointer_mut("/issues/messages").and_then(Value::as_array_mut) {
        for message in list {
            let text = |value: &Value| match value {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let args = [("limit", text(&message["limit"])), ("actual", text(&message["actual"]))];
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            for field in ["message", "solution"] {
                if let Some(key) = message[field].as_str().map(str::to_string) {
                    message[format!("{field}_key")] = Value::String(key.clone());
                    message[field] = Value::String(messages.tf(lang, &key, &args));
                }
            }
        }
    }
    Ok(report)
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![upload_snapshot, report]
}
