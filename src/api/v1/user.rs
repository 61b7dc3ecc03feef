//! The signed-in user's profile: `GET /api/v1/user/me` and `PUT /api/v1/user/me` (multipart:
//! `name_ja`, `name_en`, `external_links` as a JSON list, `icon`). Icons are decoded, resized to
//! 64 / 128 / 256 px PNGs and stored through `object_store`.

use rocket::form::{Errors, Form, FromForm};
use rocket::fs::TempFile;
use rocket::serde::json::Json;
use rocket::{Route, get, put, routes};

use crate::api::Api;
use crate::auth::guards::CurrentUser;
use crate::error::Result;
use crate::forms::Problems;
use crate::forms::profile::ProfileInput;
use crate::http::upload::{Uploads, fill, form_error, png, read_image};
use crate::model::user::{ICON_SIZES, ProfileUpdate, UserView, icon_key};

/// The signed-in user's profile.
#[utoipa::path(get, path = "/api/v1/user/me", tag = "user", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    responses((status = 200, body = UserView), (status = 401, body = crate::error::ErrorBody)))]
#[get("/user/me")]
pub async fn me(api: Api<'_>, current: CurrentUser) -> Result<Json<UserView>> {
    Ok(Json(UserView::load(api.db, &current.user, api.lang).await?))
}

/// The multipart profile form; absent fields stay as they are.
#[derive(FromForm)]
pub struct ProfileForm<'r> {
    name_ja: Option<String>,
    name_en: Option<String>,
    external_links: Option<String>,
    icon: Option<TempFile<'r>>,
}

/// The profile form as the OpenAPI document describes it (the handler reads [`ProfileForm`]);
/// absent fields stay as they are.
#[derive(utoipa::ToSchema)]
pub struct ProfileFormSchema {
    /// Japanese display name, 1 to 64 characters.
    #[schema(max_length = 64)]
    pub name_ja: Option<String>,
    /// English display name, 1 to 128 characters.
    #[schema(max_length = 128)]
    pub name_en: Option<String>,
    /// A JSON list of at most 5 http(s) URLs, e.g. `["https://example.com"]`.
    pub external_links: Option<String>,
    /// A PNG, JPEG, WebP or GIF of at most 5 MiB and 4096 px a side.
    #[schema(value_type = Option<String>, format = Binary)]
    pub icon: Option<Vec<u8>>,
}

/// Updates names, links and icon. Cookie-authenticated calls need `X-CSRF-Token`.
#[utoipa::path(put, path = "/api/v1/user/me", tag = "user", security(("bearer" = [])),
    request_body(content = inline(ProfileFormSchema), content_type = "multipart/form-data"),
    responses((status = 200, body = UserView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[put("/user/me", data = "<form>")]
pub async fn update(
    api: Api<'_>,
    current: CurrentUser,
    uploads: Uploads<'_>,
    form: std::result::Result<Form<ProfileForm<'_>>, Errors<'_>>,
) -> Result<Json<UserView>> {
    let form = form.map_err(form_error)?;
    let user = current.user;
    let input = ProfileInput::new(form.name_ja.as_deref(), form.name_en.as_deref(), form.external_links.as_deref());
    let mut problems = Problems::of(&input);
    let icon = match &form.icon {
        Some(file) if file.len() > 0 => {
            let bytes = read_image(file).await?;
            match uploads.images.render(bytes, ICON_SIZES[2].1, resize_icon).await {
                Ok(sizes) => Some(sizes),
                Err(refusal) => {
                    problems.fail("icon", refusal.message_key());
                    None
                }
            }
        }
        _ => None,
    };
    problems.into_result()?;
    let links = match input.links() {
        Some(links) => links,
        None => user.links(api.db).await?.into_iter().map(|l| l.url).collect(),
    };
    let name_ja = input.name_ja.unwrap_or_else(|| user.name_ja.clone());
    let name_en = input.name_en.unwrap_or_else(|| user.name_en.clone());
    let new_icon = icon.is_some();
    if let Some(sizes) = icon {
        for ((size, _), png) in ICON_SIZES.iter().zip(sizes) {
            uploads.storage.put(&icon_key(user.id, user.icon_version + 1, size), png).await?;
        }
    }
    let update = ProfileUpdate { name_ja, name_en, external_links: links, new_icon };
    let updated = update.apply(api.db, user, api.now).await?;
    Ok(Json(UserView::load(api.db, &updated, api.lang).await?))
}

/// Renders the icon sizes of a decoded image as square PNGs.
pub fn resize_icon(img: image::DynamicImage) -> std::result::Result<Vec<Vec<u8>>, image::ImageError> {
    ICON_SIZES.iter().map(|(_, side)| png(&fill(&img, *side))).collect()
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(me, update))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![me, update]
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    #[test]
    fn icons_are_resized_to_three_squares() {
        let mut png = Vec::new();
        image::RgbImage::from_pixel(300, 200, image::Rgb([200, 40, 120]))
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let sizes = resize_icon(image::load_from_memory(&png).unwrap()).unwrap();
        let dims: Vec<_> = sizes.iter().map(|b| image::load_from_memory(b).unwrap().width()).collect();
        assert_eq!(dims, [64, 128, 256]);
    }
}
