//! The converter protocol (issue 31 item 4): how converter workers — services outside this
//! process, such as the reference converter (`vmarket converter`) — take VRChat avatars through
//! their steps. Mounted at `/api/v1/store/converter`; every call carries the configured worker
//! key (`Authorization: Bearer <converter_worker_key>`, compared in constant time; 401 without
//! it, 501 when no key is configured) and the worker's name (`X-Converter-Worker`, letters,
//! digits, `.`, `_`, `-`, at most 64; `worker` when absent).
//!
//! 1. `POST /jobs {stage: convert|upload}` claims the oldest step of that stage (200 with the
//!    job, or 204 when there is none). A claim is a lease of [`crate::store::vrchat::avatar::LEASE_MINUTES`]; a worker silent
//!    past it loses the step to the next claim. The job names the avatar and the attempt
//!    (`<uuid>.<n>`); every report below names it, and only the worker holding it may report
//!    (409 `job_not_held` after it lost it).
//! 2. `GET /jobs/{job}/source` is the file to work on: for `convert` a 302 to a short-lived link
//!    to the uploaded avatar; for `upload` the converted file.
//! 3. `POST /jobs/{job}/progress {progress 0–100, note}` renews the lease.
//! 4. `PUT /jobs/{job}/result` (the converted file, a GLB of at most [`RESULT_MAX_BYTES`];
//!    413 beyond, 422 when it is not a GLB) ends a conversion: `converted`.
//! 5. `POST /jobs/{job}/uploaded {vrchat_avatar_id: avtr_…}` ends an upload: `finished`.
//! 6. `POST /jobs/{job}/failure {code, message}` ends either step: `convert_failed`, or
//!    `upload_failed` (the upload is given back).

use std::time::Duration;

use rocket::data::{Data, ToByteUnit};
use rocket::http::{ContentType, Status};
use rocket::request::{FromRequest, Outcome, Request};
use rocket::response::Redirect;
use rocket::serde::json::Json;
use rocket::{Route, get, post, put, routes};
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;
use url::Url;
use utoipa::ToSchema;

use crate::assets::api::downloads::{LINK_SECS, link};
use crate::assets::api::uploader::{Body, Uploader, body};
use crate::auth::guards::{bearer, record};
use crate::db::entities::vrchat_account_link;
use crate::error::{Error, Result};
use crate::http::Site;
use crate::http::redirect::{Kind, Target, redirect};
use crate::store::vrchat::avatar::{self, Outcome as Report, VrcAvatarView};
use crate::store::vrchat::status::{Event, Stage};

/// The largest converted file a worker may deliver.
pub const RESULT_MAX_BYTES: u64 = 64 * 1024 * 1024;

/// A converter worker: it presented the worker key.
#[derive(Debug, Clone)]
pub struct Worker {
    /// Its name (`X-Converter-Worker`).
    pub name: String,
}

fn worker_name(raw: Option<&str>) -> Option<String> {
    let name = raw.map(str::trim).filter(|n| !n.is_empty()).unwrap_or("worker");
    let ok = name.len() <= 64 && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    ok.then(|| name.to_string())
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Worker {
    type Error = Error;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Error> {
        let Some(site) = req.rocket().state::<Site>() else {
            return Outcome::Error((Status::InternalServerError, Error::Internal("no site state".into())));
        };
        let key = site.config.converter_worker_key.expose();
        if key.is_empty() {
            // The catcher answers 501 `not_implemented` from the status (a recorded failure
            // would read as 401).
            return Outcome::Error((Status::NotImplemented, Error::NotImplemented));
        }
        let presented = bearer(req).unwrap_or_default();
        if !bool::from(presented.as_bytes().ct_eq(key.as_bytes())) {
            record(req, Error::Unauthorized);
            return Outcome::Error((Status::Unauthorized, Error::Unauthorized));
        }
        match worker_name(req.headers().get_one("X-Converter-Worker")) {
            Some(name) => Outcome::Success(Worker { name }),
            None => Outcome::Error((Status::BadRequest, Error::BadRequest { code: "bad_request" })),
        }
    }
}

/// Which step a worker takes.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ClaimInput {
    /// `convert` or `upload`.
    pub stage: Stage,
}

/// A claimed step.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Job {
    /// The job's name (`<avatar uuid>.<attempt>`), for the reports.
    pub job: String,
    /// `convert` or `upload`.
    pub stage: Stage,
    /// The avatar as the claim left it.
    pub avatar: VrcAvatarView,
    /// Where the file to work on is (`GET /jobs/{job}/source`, on this API).
    pub source_path: String,
    /// `upload`: the owner's linked VRChat account (`usr_…`) the avatar goes to.
    pub vrchat_user_id: Option<String>,
    /// The step is the worker's until then, unless it reports progress.
    pub lease_until: Option<chrono::DateTime<chrono::Utc>>,
}

/// A worker's progress.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ProgressInput {
    /// 0–100.
    pub progress: i32,
    /// What it is doing (at most 200 characters).
    #[serde(default)]
    pub note: Option<String>,
}

/// An upload's end.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct UploadedInput {
    /// The avatar's id on VRChat (`avtr_` and a UUID).
    pub vrchat_avatar_id: String,
}

/// A step's failure.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct FailureInput {
    /// A short code (letters, digits, `_`; at most 64).
    pub code: String,
    /// What went wrong, for the owner and staff (at most 2,000 characters).
    #[serde(default)]
    pub message: String,
}

/// Claims the oldest step of a stage.
#[utoipa::path(post, path = "/api/v1/store/converter/jobs", tag = "converter", security(("converter" = [])),
    request_body = ClaimInput,
    responses((status = 200, body = Job), (status = 204, description = "nothing to do"),
              (status = 401, body = crate::error::ErrorBody), (status = 501, body = crate::error::ErrorBody)))]
#[post("/converter/jobs", data = "<input>")]
pub async fn claim(up: Uploader<'_>, worker: Worker, input: Body<'_, ClaimInput>) -> Result<Claim> {
    let stage = body(input)?.stage;
    let Some(claimed) = avatar::claim(up.db, stage, &worker.name, up.now).await? else {
        return Ok(Claim::Nothing(()));
    };
    let vrchat_user_id = match stage {
        Stage::Upload => {
            use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
            vrchat_account_link::Entity::find()
                .filter(vrchat_account_link::Column::UserId.eq(claimed.avatar.user_id))
                .one(up.db)
                .await?
                .map(|l| l.vrchat_id)
        }
        Stage::Convert => None,
    };
    Ok(Claim::Job(Box::new(Json(Job {
        source_path: format!("/api/v1/store/converter/jobs/{}/source", claimed.job),
        job: claimed.job,
        stage,
        lease_until: claimed.avatar.lease_until,
        avatar: VrcAvatarView::of(&claimed.avatar),
        vrchat_user_id,
    }))))
}

/// A claim's answer: a job, or 204 when nothing waits.
#[derive(rocket::Responder)]
pub enum Claim {
    /// The step claimed.
    Job(Box<Json<Job>>),
    /// Nothing waits.
    #[response(status = 204)]
    Nothing(()),
}

/// What a source answers: a link to the upload, or the converted file.
#[derive(rocket::Responder)]
pub enum Source {
    /// The uploaded avatar, by a short-lived link.
    Link(Redirect),
    /// The converted file.
    File((ContentType, Vec<u8>)),
}

/// The file a held step works on.
#[utoipa::path(get, path = "/api/v1/store/converter/jobs/{job}/source", tag = "converter", security(("converter" = [])),
    params(("job" = String, Path)),
    responses((status = 302, description = "convert: the uploaded avatar"), (status = 200, description = "upload: the converted GLB"),
              (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "job_not_held")))]
#[get("/converter/jobs/<job>/source")]
pub async fn source(up: Uploader<'_>, worker: Worker, job: &str) -> Result<Source> {
    let row = avatar::held_by(up.db, job, &worker.name).await?;
    match avatar::stage_of(&row) {
        Stage::Convert => {
            let version = crate::db::entities::asset_version::Model::by_id(up.db, row.asset_version_id).await?;
            let to = link(&up, &version, Duration::from_secs(LINK_SECS)).await?;
            let url = Url::parse(&to.url).map_err(|e| Error::Internal(format!("source link: {e}")))?;
            Ok(Source::Link(redirect(Kind::Found, Target::Url(&url))))
        }
        Stage::Upload => {
            let key = row.result_key.as_deref().ok_or_else(Error::not_found)?;
            let bytes = up.storage.get(key).await?.ok_or_else(Error::not_found)?;
            Ok(Source::File((ContentType::new("model", "gltf-binary"), bytes.to_vec())))
        }
    }
}

/// Records progress on a held step and renews its lease.
#[utoipa::path(post, path = "/api/v1/store/converter/jobs/{job}/progress", tag = "converter", security(("converter" = [])),
    params(("job" = String, Path)), request_body = ProgressInput,
    responses((status = 200, body = VrcAvatarView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody, description = "job_not_held"),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/converter/jobs/<job>/progress", data = "<input>")]
pub async fn progress(
    up: Uploader<'_>,
    worker: Worker,
    job: &str,
    input: Body<'_, ProgressInput>,
) -> Result<Json<VrcAvatarView>> {
    let input = body(input)?;
    if !(0..=100).contains(&input.progress) {
        return Err(Error::invalid("progress", "validation.invalid_value"));
    }
    let note = input.note.map(|n| n.trim().chars().take(200).collect::<String>()).filter(|n| !n.is_empty());
    let row = avatar::held_by(up.db, job, &worker.name).await?;
    let row = avatar::progress(up.db, &row, input.progress, note, up.now).await?;
    Ok(Json(VrcAvatarView::of(&row)))
}

/// Delivers a conversion's result: the converted GLB.
#[utoipa::path(put, path = "/api/v1/store/converter/jobs/{job}/result", tag = "converter", security(("converter" = [])),
    params(("job" = String, Path)), request_body(content = Vec<u8>, content_type = "model/gltf-binary"),
    responses((status = 200, body = VrcAvatarView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody, description = "job_not_held"),
              (status = 413, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody, description = "not a GLB")))]
#[put("/converter/jobs/<job>/result", data = "<data>")]
pub async fn result(up: Uploader<'_>, worker: Worker, job: &str, data: Data<'_>) -> Result<Json<VrcAvatarView>> {
    let row = avatar::held_by(up.db, job, &worker.name).await?;
    if avatar::stage_of(&row) != Stage::Convert {
        return Err(Error::Conflict { code: "job_not_held" });
    }
    let read = data
        .open((RESULT_MAX_BYTES + 1).bytes())
        .into_bytes()
        .await
        .map_err(|_| Error::BadRequest { code: "bad_request" })?;
    if !read.is_complete() || read.len() as u64 > RESULT_MAX_BYTES {
        return Err(Error::TooLarge);
    }
    let bytes = read.into_inner();
    if crate::assets::analyse::glb::split(&bytes).is_err() {
        return Err(Error::invalid("result", "validation.not_a_glb"));
    }
    let sha256 = crate::assets::analyse::sha256_hex(&bytes);
    let key = format!("vrchat-avatars/{}/{}.glb", row.uuid, row.attempts);
    let size = bytes.len() as i64;
    up.storage.put(&key, bytes).await?;
    let outcome = Report { result: Some((key, size, sha256)), ..Report::default() };
    let row = avatar::finish(up.db, &row, Event::Converted, outcome, up.now).await?;
    Ok(Json(VrcAvatarView::of(&row)))
}

/// Ends an upload: VRChat has the avatar.
#[utoipa::path(post, path = "/api/v1/store/converter/jobs/{job}/uploaded", tag = "converter", security(("converter" = [])),
    params(("job" = String, Path)), request_body = UploadedInput,
    responses((status = 200, body = VrcAvatarView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody, description = "job_not_held"),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/converter/jobs/<job>/uploaded", data = "<input>")]
pub async fn uploaded(
    up: Uploader<'_>,
    worker: Worker,
    job: &str,
    input: Body<'_, UploadedInput>,
) -> Result<Json<VrcAvatarView>> {
    let id = body(input)?.vrchat_avatar_id.trim().to_string();
    let valid = id.strip_prefix("avtr_").is_some_and(|rest| uuid::Uuid::parse_str(rest).is_ok()) && id.len() == 41;
    if !valid {
        return Err(Error::invalid("vrchat_avatar_id", "validation.invalid_value"));
    }
    // A conversion's job cannot end as uploaded: `finish` answers 409 `job_not_held`.
    let row = avatar::held_by(up.db, job, &worker.name).await?;
    let outcome = Report { vrchat_avatar_id: Some(id), ..Report::default() };
    let row = avatar::finish(up.db, &row, Event::Uploaded, outcome, up.now).await?;
    Ok(Json(VrcAvatarView::of(&row)))
}

/// Ends a step as failed.
#[utoipa::path(post, path = "/api/v1/store/converter/jobs/{job}/failure", tag = "converter", security(("converter" = [])),
    params(("job" = String, Path)), request_body = FailureInput,
    responses((status = 200, body = VrcAvatarView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody, description = "job_not_held"),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/converter/jobs/<job>/failure", data = "<input>")]
pub async fn failure(
    up: Uploader<'_>,
    worker: Worker,
    job: &str,
    input: Body<'_, FailureInput>,
) -> Result<Json<VrcAvatarView>> {
    let input = body(input)?;
    let code = input.code.trim().to_string();
    if code.is_empty() || code.len() > 64 || !code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(Error::invalid("code", "validation.invalid_value"));
    }
    let message: String = input.message.trim().chars().take(2000).collect();
    let row = avatar::held_by(up.db, job, &worker.name).await?;
    let stage = avatar::stage_of(&row);
    let outcome = Report { failure: Some((code, message)), ..Report::default() };
    let row = avatar::finish(up.db, &row, Event::Failed(stage), outcome, up.now).await?;
    Ok(Json(VrcAvatarView::of(&row)))
}

/// Routes of this file.
pub fn routes() -> Vec<Route> {
    routes![claim, source, progress, result, uploaded, failure]
}

#[cfg(test)]
mod tests {
    use super::worker_name;

    #[test]
    fn a_worker_name_is_plain_and_short() {
        assert_eq!(worker_name(None).as_deref(), Some("worker"));
        assert_eq!(worker_name(Some(" gpu-1.tokyo ")).as_deref(), Some("gpu-1.tokyo"));
        assert_eq!(worker_name(Some("a b")), None);
        assert_eq!(worker_name(Some(&"x".repeat(65))), None);
    }
}
