//! The store's API, mounted at `/api/v1/store`: the user's housing videos ([`housing_videos`]).
//! Same sign-in and error body as `/api/v1`; cookie-authenticated writes need `X-CSRF-Token`.

pub mod housing_videos;

/// The OpenAPI operations of the store.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(
        housing_videos::list,
        housing_videos::create,
        housing_videos::discard,
        housing_videos::video,
        housing_videos::thumbnail,
    ),
    tags((name = "store", description = "The store and the avatar side (issue 31), mounted at /api/v1/store"))
)]
pub struct Doc;
