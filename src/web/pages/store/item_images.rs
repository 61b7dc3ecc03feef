//! A seller's pictures of their item without scripts, on the item's form
//! (`/mypage/store/items/{uuid}/edit`): `POST /mypage/store/items/{uuid}/images` (multipart:
//! `csrf_token`, `file`) adds one, `POST …/images/{image}/delete` removes one. Both answer with a
//! redirect back to the form, which says what happened (`?picture=added|removed`) or why not
//! (`?picture_error=<reason>`, one of [`REASONS`]). The same rules as the API
//! ([`crate::store::model::store_item_image`]).

use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, post, routes};

use crate::db::entities::store_item;
use crate::error::{Error, Result};
use crate::http::upload::{Uploads, read_picture};
use crate::store::api::item_images::picture_form_error;
use crate::store::model::store_item_image;
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::store::{back_to_form, refusal};

/// Why an upload was refused, as the redirect names it, and the message the form shows.
pub const REASONS: [(&str, &str); 5] = [
    ("required", "store.pictures.errors.required"),
    ("image", "validation.image"),
    ("image_pixels", "validation.image_pixels"),
    ("image_too_large", "validation.image_too_large"),
    ("too_many_images", "errors.too_many_images"),
];

/// The multipart form of an upload.
#[derive(FromForm)]
pub struct PictureForm<'r> {
    csrf_token: Option<String>,
    file: Option<TempFile<'r>>,
}

/// The form of a removal.
#[derive(FromForm)]
pub struct RemoveForm {
    csrf_token: Option<String>,
}

/// Adds a picture to one of the seller's items.
#[post("/mypage/store/items/<uuid>/images", data = "<form>")]
pub async fn add(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uploads: Uploads<'_>,
    uuid: &str,
    form: std::result::Result<Form<PictureForm<'_>>, Errors<'_>>,
) -> Result<Redirect> {
    let user = p.user.as_ref().ok_or(Error::Unauthorized)?;
    let item = store_item::Model::of_seller(p.db, uuid, user.id).await?;
    // A form Rocket could not read (a file over the limit) changes nothing: only the reason goes back.
    let added = match form.map_err(picture_form_error) {
        Ok(form) => {
            poster(&p, cookies, form.csrf_token.as_deref())?;
            match read_picture("file", form.file.as_ref()).await {
                Ok(bytes) => store_item_image::add(p.db, &uploads, &item, bytes, p.now).await.map(|_| ()),
                Err(e) => Err(e),
            }
        }
        Err(e) => Err(e),
    };
    match added {
        Ok(()) => Ok(back_to_form(&p, uuid, "picture=added", "pictures")),
        Err(e) => match refusal(&e, &REASONS) {
            Some(reason) => Ok(back_to_form(&p, uuid, &format!("picture_error={reason}"), "pictures")),
            None => Err(e),
        },
    }
}

/// Removes a picture of one of the seller's items.
#[post("/mypage/store/items/<uuid>/images/<image>/delete", data = "<form>")]
pub async fn remove(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uploads: Uploads<'_>,
    uuid: &str,
    image: &str,
    form: Form<RemoveForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let item = store_item::Model::of_seller(p.db, uuid, user.id).await?;
    store_item_image::remove(p.db, uploads.storage, &item, image).await?;
    Ok(back_to_form(&p, uuid, "picture=removed", "pictures"))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![add, remove]
}
