//! The user's housing videos: `GET /api/v1/store/housing_videos` (theirs, and their uploaded
//! videos not converted yet), `POST /housing_videos` (convert an uploaded `housing_video` asset),
//! `POST /housing_videos/{uuid}/discard`, and the converted files `GET
//! /housing_videos/{uuid}/video.mp4` and `/thumbnail.jpg`. Owner only: anyone else's is 404.

use rocket::http::{ContentType, Header, Status};
use rocket::response::Responder;
use rocket::serde::json::Json;
use rocket::{Route, get, post, routes};
use serde::Deserialize;
use std::time::Duration;
use utoipa::ToSchema;

use crate::assets::api::uploader::{Body, Uploader, body};
use crate::auth::guards::CurrentUser;
use crate::db::entities::housing_video::{self, ConvertStatus, DiscardStatus};
use crate::error::{Error, Result};
use crate::store::jobs::ConvertHousingVideo;
use crate::store::model::housing_video::{HousingVideoView, HousingVideos, folder, key, of_user, views};

/// What converting an upload names.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct NewHousingVideo {
    /// The user's uploaded `housing_video` asset (its newest uploaded version is converted).
    pub asset_id: i32,
}

/// The user's housing videos and the uploads they can convert.
#[utoipa::path(get, path = "/api/v1/store/housing_videos", tag = "store", security(("bearer" = [])),
    responses((status = 200, body = HousingVideos), (status = 401, body = crate::error::ErrorBody)))]
#[get("/housing_videos")]
pub async fn list(up: Uploader<'_>, current: CurrentUser) -> Result<Json<HousingVideos>> {
    Ok(Json(of_user(up.db, current.user.id).await?))
}

/// Converts an uploaded video into a housing video (once per uploaded version: asking again
/// answers the one already made, 200).
#[utoipa::path(post, path = "/api/v1/store/housing_videos", tag = "store", security(("bearer" = [])),
    request_body = NewHousingVideo,
    responses((status = 201, body = HousingVideoView), (status = 200, body = HousingVideoView, description = "made before"),
              (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "not the user's asset"),
              (status = 409, body = crate::error::ErrorBody, description = "asset_not_uploaded"),
              (status = 422, body = crate::error::ErrorBody, description = "not a housing video asset")))]
#[post("/housing_videos", data = "<input>")]
pub async fn create(
    up: Uploader<'_>,
    current: CurrentUser,
    input: Body<'_, NewHousingVideo>,
) -> Result<(Status, Json<HousingVideoView>)> {
    let input = body(input)?;
    let (row, new) = make(&up, current.user.id, input.asset_id).await?;
    let status = if new { Status::Created } else { Status::Ok };
    let view = views(up.db, std::slice::from_ref(&row)).await?.remove(0);
    Ok((status, Json(view)))
}

/// The one way a housing video is made (the API and the page's form): the row, and its
/// conversion enqueued when it is new.
pub async fn make(up: &Uploader<'_>, user_id: i32, asset_id: i32) -> Result<(housing_video::Model, bool)> {
    let (row, new) = housing_video::Model::make(up.db, user_id, asset_id, up.now).await?;
    if new {
        ConvertHousingVideo::enqueue(up.queue, row.id, 1, Duration::ZERO).await?;
    }
    Ok((row, new))
}

/// Discards a housing video: its converted files are deleted (a conversion still running keeps
/// nothing). Discarding again changes nothing.
#[utoipa::path(post, path = "/api/v1/store/housing_videos/{uuid}/discard", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, body = HousingVideoView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "not the user's")))]
#[post("/housing_videos/<uuid>/discard")]
pub async fn discard(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<Json<HousingVideoView>> {
    let row = throw_away(&up, current.user.id, uuid).await?;
    Ok(Json(views(up.db, std::slice::from_ref(&row)).await?.remove(0)))
}

/// The one way a housing video is discarded (the API and the page's form); the video as it
/// stands after.
pub async fn throw_away(up: &Uploader<'_>, user_id: i32, uuid: &str) -> Result<housing_video::Model> {
    let mut row = housing_video::Model::of_owner(up.db, uuid, user_id).await?;
    // The compare-and-set fails only when it was discarded already: then the row is as it stands.
    if row.discard(up.db, up.now).await? {
        up.storage.delete_prefix(&folder(&row.uuid)).await?;
        row.discard_status = DiscardStatus::Discarded;
        row.discarded_at = Some(up.now);
        row.updated_at = up.now;
    }
    Ok(row)
}

/// A converted file, streamed to its owner.
pub struct VideoFile {
    reader: Box<dyn rocket::tokio::io::AsyncRead + Unpin + Send>,
    kind: ContentType,
    length: Option<u64>,
}

impl<'r> Responder<'r, 'static> for VideoFile {
    fn respond_to(self, _: &'r rocket::Request<'_>) -> rocket::response::Result<'static> {
        let mut res = rocket::Response::build();
        res.header(self.kind).header(Header::new("Cache-Control", "private, max-age=3600"));
        if let Some(length) = self.length {
            res.header(Header::new("Content-Length", length.to_string()));
        }
        res.streamed_body(self.reader).ok()
    }
}

/// File `name` of the owner's finished video.
async fn file(up: &Uploader<'_>, user_id: i32, uuid: &str, name: &str, kind: ContentType) -> Result<VideoFile> {
    let row = housing_video::Model::of_owner(up.db, uuid, user_id).await?;
    if row.convert_status != ConvertStatus::Finished || row.discard_status != DiscardStatus::Active {
        return Err(Error::not_found());
    }
    let stored = key(&row.uuid, name);
    let length = up.storage.size(&stored).await?;
    let reader = up.storage.reader(&stored).await?.ok_or_else(Error::not_found)?;
    Ok(VideoFile { reader: Box::new(reader), kind, length })
}

/// The converted MP4.
#[utoipa::path(get, path = "/api/v1/store/housing_videos/{uuid}/video.mp4", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, description = "the MP4", content_type = "video/mp4"),
              (status = 404, body = crate::error::ErrorBody, description = "not the user's, or not converted")))]
#[get("/housing_videos/<uuid>/video.mp4")]
pub async fn video(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<VideoFile> {
    file(&up, current.user.id, uuid, "video.mp4", ContentType::new("video", "mp4")).await
}

/// Its thumbnail.
#[utoipa::path(get, path = "/api/v1/store/housing_videos/{uuid}/thumbnail.jpg", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, description = "the JPEG", content_type = "image/jpeg"),
              (status = 404, body = crate::error::ErrorBody, description = "not the user's, or not converted")))]
#[get("/housing_videos/<uuid>/thumbnail.jpg")]
pub async fn thumbnail(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<VideoFile> {
    file(&up, current.user.id, uuid, "thumbnail.jpg", ContentType::JPEG).await
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, create, discard, video, thumbnail]
}
