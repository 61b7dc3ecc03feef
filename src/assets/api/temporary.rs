//! `POST /uploader/temporary_uploads`: a file of at most 5 MiB in one request (multipart field
//! `file`), kept for 24 hours until a new asset or version names it (`temporary_upload_id`).
//! Without a file: 422 `file_required`, "file is required" (spec §8).

use rocket::form::{Errors, Form};
use rocket::fs::TempFile;
use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::tokio::io::AsyncReadExt;
use rocket::{FromForm, Route, post, routes};

use super::uploader::Uploader;
use crate::assets::model::setting::MIN_PART_SIZE;
use crate::assets::model::temporary::{TemporaryView, object_key};
use crate::auth::guards::CurrentUser;
use crate::db::entities::asset_temporary_upload;
use crate::error::{Error, Result};
use crate::forms::asset::file_name;
use crate::http::upload::form_error;

/// The form.
#[derive(FromForm)]
pub struct TemporaryForm<'r> {
    /// The file.
    pub file: Option<TempFile<'r>>,
}

/// Takes a small file in one request.
#[utoipa::path(post, path = "/uploader/temporary_uploads", tag = "uploader", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    request_body(content_type = "multipart/form-data", description = "`file`: the file (at most 5 MiB)"),
    responses((status = 201, body = TemporaryView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 413, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "file_required: \"file is required\"")))]
#[post("/temporary_uploads", data = "<form>")]
pub async fn create_temporary(
    up: Uploader<'_>,
    current: CurrentUser,
    form: std::result::Result<Form<TemporaryForm<'_>>, Errors<'_>>,
) -> Result<(Status, Json<TemporaryView>)> {
    let form = form.map_err(form_error)?;
    let file = form.file.as_ref().filter(|f| f.len() > 0).ok_or(Error::Refused { code: "file_required" })?;
    if file.len() > MIN_PART_SIZE {
        return Err(Error::TooLarge);
    }
    let name = file
        .raw_name()
        .map(|n| n.dangerous_unsafe_unsanitized_raw().as_str().to_string())
        .filter(|n| file_name(n).is_ok())
        .unwrap_or_else(|| "file".to_string());
    let id = uuid::Uuid::new_v4().to_string();
    let reader = file.open().await.map_err(|e| Error::Internal(format!("upload: {e}")))?;
    let written = up.storage.write_stream(&object_key(&id), reader.take(MIN_PART_SIZE + 1), MIN_PART_SIZE).await?;
    let row = asset_temporary_upload::Model::create(up.db, &id, current.user.id, &name, &written, up.now).await?;
    Ok((Status::Created, Json(TemporaryView::from(&row))))
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![create_temporary]
}
