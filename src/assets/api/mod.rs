//! The asset uploader API (spec §7 "Asset uploader"), mounted at `/uploader` — its public base
//! URL is `uploader_base_url` (default `{site_url}/uploader`). Same sign-in as `/api/v1` (bearer
//! token, or the cookie with `X-CSRF-Token`), same error body; every operation is in the OpenAPI
//! document ([`Doc`]). Two routes need no sign-in and carry their own proof instead: a part
//! `PUT` of the local store (a signed, expiring URL, as S3's presigned ones) and a download (a
//! token, or a signed URL it was traded for).
//!
//! What every handler shares: [`uploader`] (the `Uploader` guard, JSON bodies). Resources: [`settings`], [`assets`], [`uploads`] (multipart parts and completion),
//! [`temporary`] (one-shot small files), [`versions`] (report, snapshot), [`tokens`] and
//! [`downloads`].

pub mod assets;
pub mod downloads;
pub mod settings;
pub mod temporary;
pub mod tokens;
pub mod uploader;
pub mod uploads;
pub mod versions;

use rocket::Route;

/// The OpenAPI operations of the uploader.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(
        settings::show_setting,
        assets::list,
        assets::create,
        assets::show,
        assets::update,
        assets::delete,
        assets::update_url,
        versions::upload_snapshot,
        versions::report,
        uploads::show_upload,
        uploads::put_part,
        uploads::complete,
        uploads::abort,
        temporary::create_temporary,
        tokens::list_tokens,
        tokens::create_token,
        tokens::revoke,
        downloads::redeem,
        downloads::fetch,
    ),
    tags((name = "uploader", description = "The asset uploader (spec §7), mounted at /uploader"))
)]
pub struct Doc;

/// Routes mounted at `/uploader`.
pub fn routes() -> Vec<Route> {
    [
        settings::routes(),
        assets::routes(),
        versions::routes(),
        uploads::routes(),
        temporary::routes(),
        tokens::routes(),
        downloads::routes(),
    ]
    .concat()
}
