//! Downloads: `POST /uploader/downloads` trades a download token (and its password) for a
//! short-lived link — presigned on an S3-compatible store, else `GET
//! /uploader/downloads/{uuid}?expires=&signature=` on this server, which streams the file. No
//! sign-in: the token is the proof. Attempts are limited per client address; a wrong token and a
//! wrong password answer the same (403 `download_refused`).

use std::time::Duration;

use chrono::Utc;
use rocket::http::{ContentType, Header};
use rocket::response::Responder;
use rocket::serde::json::Json;
use rocket::{Route, State, get, post, routes};
use serde::Deserialize;
use utoipa::ToSchema;

use super::uploader::Uploader;
use crate::assets::model::views::DownloadUrl;
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset_download_token, asset_version};
use crate::error::{Error, Result};
use crate::http::client_ip::ClientIp;
use crate::http::limit::Limiter;

/// How long a traded link works.
pub const LINK_SECS: u64 = 300;

/// Download-token attempts per client address and minute (managed state).
pub struct DownloadLimiter(Limiter<std::net::IpAddr>);

impl DownloadLimiter {
    /// `per_minute` attempts per client and minute.
    pub fn per_minute(db: &sea_orm::DatabaseConnection, per_minute: u32) -> Self {
        Self(Limiter::per_minute(db, "asset_download", per_minute))
    }
}

/// The body of a trade.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct Redeem {
    /// The token.
    pub token: String,
    /// Its password, when it has one.
    #[serde(default)]
    pub password: Option<String>,
}

/// A short-lived link to `version`'s file.
pub async fn link(up: &Uploader<'_>, version: &asset_version::Model, valid: Duration) -> Result<DownloadUrl> {
    let expires_on = up.now.max(Utc::now()) + chrono::Duration::seconds(valid.as_secs() as i64);
    let url = match up.storage.s3() {
        Some(s3) => s3.get_url(&version.object_key, &version.file_name, valid).await?,
        None => {
            let expires = expires_on.timestamp();
            let signature = up.key.sign("asset-download", &format!("{}:{expires}", version.uuid));
            format!("{}/downloads/{}?expires={expires}&signature={signature}", up.base(), version.uuid)
        }
    };
    Ok(DownloadUrl { url, expires_on })
}

/// Trades a token for a link to its version's file.
#[utoipa::path(post, path = "/uploader/downloads", tag = "uploader",
    params(("lang" = Option<String>, Query)),
    request_body = Redeem,
    responses((status = 200, body = DownloadUrl), (status = 400, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "download_refused: whatever was wrong"),
              (status = 429, body = crate::error::ErrorBody, description = "rate_limited, with Retry-After")))]
#[post("/downloads", data = "<body>")]
pub async fn redeem(
    up: Uploader<'_>,
    client: ClientIp,
    limiter: &State<DownloadLimiter>,
    body: super::uploader::Body<'_, Redeem>,
) -> Result<Json<DownloadUrl>> {
    limiter.0.check(&client.limit_key()).await?;
    let body = super::uploader::body(body)?;
    let version =
        asset_download_token::Model::redeem(up.db, body.token.trim(), body.password.as_deref(), up.now).await?;
    Ok(Json(link(&up, &version, Duration::from_secs(LINK_SECS)).await?))
}

/// A stored file, streamed.
type Stored = Box<dyn rocket::tokio::io::AsyncRead + Unpin + Send>;

/// A file, streamed, as an attachment named by its owner's file name.
pub struct File {
    reader: Stored,
    kind: ContentType,
    disposition: String,
}

impl File {
    /// `version`'s stored file, as an attachment named by its owner's file name; `None` when the
    /// store no longer holds it.
    pub async fn of(storage: &crate::storage::Storage, version: &asset_version::Model) -> Result<Option<Self>> {
        let Some(reader) = storage.reader(&version.object_key).await? else {
            return Ok(None);
        };
        let kind = version.mime_type.as_deref().and_then(ContentType::parse_flexible).unwrap_or(ContentType::Binary);
        Ok(Some(File { reader: Box::new(reader), kind, disposition: crate::storage::attachment(&version.file_name) }))
    }
}

impl<'r> Responder<'r, 'static> for File {
    fn respond_to(self, _: &'r rocket::Request<'_>) -> rocket::response::Result<'static> {
        rocket::Response::build()
            .header(self.kind)
            .header(Header::new("Content-Disposition", self.disposition))
            .header(Header::new("Cache-Control", "private, no-store"))
            .streamed_body(self.reader)
            .ok()
    }
}

/// The file behind a link this server signed (the local store's links).
#[utoipa::path(get, path = "/uploader/downloads/{uuid}", tag = "uploader",
    params(("uuid" = String, Path), ("expires" = i64, Query), ("signature" = String, Query)),
    responses((status = 200, description = "the file", content_type = "application/octet-stream"),
              (status = 403, body = crate::error::ErrorBody, description = "download_refused: a wrong or expired link")))]
#[get("/downloads/<uuid>?<expires>&<signature>")]
pub async fn fetch(up: Uploader<'_>, uuid: &str, expires: i64, signature: &str) -> Result<File> {
    let refused = || Error::Denied { code: "download_refused" };
    let valid = up.key.check("asset-download", &format!("{uuid}:{expires}"), signature);
    if !valid || Utc::now().max(up.now).timestamp() > expires {
        return Err(refused());
    }
    let version = asset_version::Model::by_uuid(up.db, uuid).await.map_err(|_| refused())?;
    if version.upload_status != UploadStatus::Uploaded {
        return Err(refused());
    }
    File::of(up.storage, &version).await?.ok_or_else(refused)
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![redeem, fetch]
}
