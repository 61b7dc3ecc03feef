//! A seller's pictures of their item: `POST /api/v1/store/my/items/{uuid}/images` (multipart, one
//! `file` part: a PNG, JPEG, WebP or GIF) adds one, `DELETE /my/items/{uuid}/images/{image}`
//! removes one ([`crate::store::model::store_item_image`]). Another seller's item is a 404.
//! Cookie-authenticated calls need `X-CSRF-Token`.

use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, delete, post, routes};

use crate::assets::api::uploader::Uploader;
use crate::auth::guards::CurrentUser;
use crate::db::entities::store_item;
use crate::error::{Error, Result};
use crate::http::upload::{Uploads, form_error, read_picture, too_large_at};
use crate::store::model::store_item_image::{self, ItemImage};

/// The multipart body of an upload.
#[derive(FromForm)]
pub struct PictureUpload<'r> {
    file: Option<TempFile<'r>>,
}

/// The upload as the OpenAPI document describes it (the handler reads [`PictureUpload`]).
#[derive(utoipa::ToSchema)]
pub struct PictureUploadSchema {
    /// A PNG, JPEG, WebP or GIF of at most 5 MiB and 4096 px a side.
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

/// The error of an upload form Rocket could not read (a part over its limit: beside `file`).
pub fn picture_form_error(errors: Errors<'_>) -> Error {
    too_large_at("file", form_error(errors))
}

/// Adds a picture to one of the seller's items (at most five).
#[utoipa::path(post, path = "/api/v1/store/my/items/{uuid}/images", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    request_body(content = inline(PictureUploadSchema), content_type = "multipart/form-data"),
    responses((status = 201, body = ItemImage), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "too_many_images"),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[post("/my/items/<uuid>/images", data = "<form>")]
pub async fn add_image(
    up: Uploader<'_>,
    current: CurrentUser,
    uuid: &str,
    form: std::result::Result<Form<PictureUpload<'_>>, Errors<'_>>,
) -> Result<(Status, Json<ItemImage>)> {
    let item = store_item::Model::of_seller(up.db, uuid, current.user.id).await?;
    let form = form.map_err(picture_form_error)?;
    let bytes = read_picture("file", form.file.as_ref()).await?;
    let uploads = Uploads { storage: up.storage, images: up.images };
    let added = store_item_image::add(up.db, &uploads, &item, bytes, up.now).await?;
    Ok((Status::Created, Json(added)))
}

/// Removes a picture of one of the seller's items.
#[utoipa::path(delete, path = "/api/v1/store/my/items/{uuid}/images/{image}", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path), ("image" = String, Path)),
    responses((status = 204), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody)))]
#[delete("/my/items/<uuid>/images/<image>")]
pub async fn remove_image(up: Uploader<'_>, current: CurrentUser, uuid: &str, image: &str) -> Result<Status> {
    let item = store_item::Model::of_seller(up.db, uuid, current.user.id).await?;
    store_item_image::remove(up.db, up.storage, &item, image).await?;
    Ok(Status::NoContent)
}

/// Routes of this file.
pub fn routes() -> Vec<Route> {
    routes![add_image, remove_image]
}
