//! Pictures uploaded from the console: `POST /admin/api/uploads?resource=events&field=image`
//! (multipart, one `file` part) decodes the picture through the site's image pipeline (the same
//! size cap, pixel limits and shared memory budget as profile icons and circle thumbnails,
//! [`crate::http::upload`]), scales it to fit the field's box (never enlarging), stores it as a
//! PNG in the object store under `admin/<resource>/<field>/<uuid>.png` and answers its address
//! (`/media/…`). The console then saves that address in the record's field with the normal,
//! audited `PUT`/`POST`, whose input checks it like any picture address.
//!
//! A picture of a row inside a record (a world's areas) is the field `<list>.<field>`
//! (`areas.image`). Only a field a resource declares in
//! [`Resource::IMAGES`](crate::admin::api::resource::Resource::IMAGES) takes an upload, and only from a role that may create or edit that resource. A picture that is not a
//! PNG, JPEG, WebP or GIF, is over 5 MiB or is over 4096 px a side is refused with a 422 naming
//! the field, so the console shows the reason beside it; nothing is stored then.

use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use rocket::response::status;
use rocket::serde::json::Json;
use rocket::{Route, post, routes};
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use crate::admin::api::access::Console;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::api::registered::Registered;
use crate::admin::api::resources::ALL;
use crate::admin::permissions::Action;
use crate::error::{Error, Result};
use crate::http::upload::{Uploads, fit, form_error, png, read_picture, too_large_at};

/// The multipart body of an upload.
#[derive(FromForm)]
pub struct ImageUpload<'r> {
    file: Option<TempFile<'r>>,
}

/// The upload as the OpenAPI document describes it (the handler reads [`ImageUpload`]).
#[derive(ToSchema)]
pub struct ImageUploadSchema {
    /// A PNG, JPEG, WebP or GIF of at most 5 MiB and 4096 px a side.
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

/// A stored picture.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Uploaded {
    /// Its address, to save in the record's field.
    pub url: String,
    /// Stored width, px.
    pub width: u32,
    /// Stored height, px.
    pub height: u32,
}

/// The picture fields of resource `name`, if it is one.
fn slot(name: &str, field: &str) -> Result<(&'static Registered, ImageSlot)> {
    let resource = ALL.iter().find(|r| r.name == name).ok_or_else(Error::not_found)?;
    let slot = resource
        .images
        .iter()
        .find(|s| s.field == field)
        .copied()
        .ok_or_else(|| Error::invalid("field", "validation.invalid_value"))?;
    Ok((resource, slot))
}

/// Stores a picture for field `field` of console resource `resource`; answers its address.
#[utoipa::path(post, path = "/admin/api/uploads", tag = "admin", security(("bearer" = [])),
    params(("resource" = String, Query, description = "A console resource with picture fields, e.g. `events`"),
           ("field" = String, Query, description = "One of its picture fields, e.g. `image`")),
    request_body(content = inline(ImageUploadSchema), content_type = "multipart/form-data"),
    responses((status = 201, body = Uploaded), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 413, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/api/uploads?<resource>&<field>", data = "<form>")]
pub async fn upload(
    resource: &str,
    field: &str,
    console: std::result::Result<Console<'_>, Error>,
    uploads: Uploads<'_>,
    form: std::result::Result<Form<ImageUpload<'_>>, Errors<'_>>,
) -> Result<status::Created<Json<Uploaded>>> {
    let Console(cx) = console?;
    let (found, slot) = slot(resource, field)?;
    let writes = [Action::Create, Action::Edit]
        .into_iter()
        .any(|a| found.actions.contains(&a) && found.area.allows(cx.staff.role, a));
    if !writes {
        return Err(Error::Forbidden);
    }
    // Too large for the form limits or for a picture: the reason goes beside the field.
    let form = form.map_err(|e| too_large_at(field, form_error(e)))?;
    let bytes = read_picture(field, form.file.as_ref()).await?;
    let (width, height) = (slot.width, slot.height);
    let (stored, w, h) = uploads
        .images
        .render(bytes, width.max(height), move |img| {
            let fitted = fit(&img, width, height);
            Ok((png(&fitted)?, fitted.width(), fitted.height()))
        })
        .await
        .map_err(|refusal| Error::invalid(field, refusal.message_key()))?;
    let key = format!("admin/{}/{}/{}.png", found.name, slot.field, uuid::Uuid::new_v4().simple());
    uploads.storage.put(&key, stored).await?;
    let url = format!("/media/{key}");
    Ok(status::Created::new(url.clone()).body(Json(Uploaded { url, width: w, height: h })))
}

/// The OpenAPI operations of this module.
#[derive(OpenApi)]
#[openapi(paths(upload))]
pub struct Doc;

/// Routes of console uploads (mounted at `/admin`).
pub fn routes() -> Vec<Route> {
    routes![upload]
}
