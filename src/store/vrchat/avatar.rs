//! VRChat avatars in the database (spec §3 "VRChat" avatar): what their owner sees and may do
//! (cancel, try a failed upload again), and what a converter worker does with them (claim a
//! step, report progress, deliver the converted file, say VRChat has it, or say the step
//! failed). Every move is the pure machine's ([`crate::store::vrchat::status`]) written as one
//! conditional update on the status it started from: two workers, or a worker and the owner,
//! racing for one avatar make one move, and an upload is spent once (the database's CHECK keeps
//! `remaining_uploads` at 0 or more).
//!
//! A claimed step is a job named `<avatar uuid>.<attempt>`: reports name it, so a worker whose
//! lease ran out and whose step another worker took again can no longer report on it.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter, QueryOrder,
    Set,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::vrchat_avatar::{self, VrcAvatarStatus};
use crate::error::{Error, Result};
use crate::store::vrchat::status::{Event, Stage, is_held, next, stage_statuses};

/// How long a claimed step is the worker's without a word from it.
pub const LEASE_MINUTES: i64 = 10;

/// A VRChat avatar as its owner (and staff) see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VrcAvatarView {
    /// Its id.
    pub uuid: String,
    /// Its name on VRChat.
    pub avatar_name: String,
    /// The user's avatar asset it is made from.
    pub asset_id: i32,
    /// The version converted.
    pub asset_version_id: i32,
    /// Where it stands.
    pub status: VrcAvatarStatus,
    /// Uploads to VRChat still paid for.
    pub remaining_uploads: i32,
    /// The step under way, 0–100, and the worker's note on it.
    pub progress: i32,
    /// The worker's note on that step.
    pub progress_note: Option<String>,
    /// The avatar's id on VRChat, once uploaded.
    pub vrchat_avatar_id: Option<String>,
    /// Why the last step failed (a code and the worker's words).
    pub failure_code: Option<String>,
    /// … and the worker's words.
    pub failure_message: Option<String>,
    /// The size of the converted file, once converted.
    pub result_bytes: Option<i64>,
    /// What its owner may do now.
    pub can_cancel: bool,
    /// Whether its owner may try a failed upload again now.
    pub can_retry_upload: bool,
    /// Whether an update order may convert it again now.
    pub can_update: bool,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

impl VrcAvatarView {
    /// The view of `row`.
    pub fn of(row: &vrchat_avatar::Model) -> Self {
        Self {
            uuid: row.uuid.clone(),
            avatar_name: row.avatar_name.clone(),
            asset_id: row.asset_id,
            asset_version_id: row.asset_version_id,
            status: row.status,
            remaining_uploads: row.remaining_uploads,
            progress: row.progress,
            progress_note: row.progress_note.clone(),
            vrchat_avatar_id: row.vrchat_avatar_id.clone(),
            failure_code: row.failure_code.clone(),
            failure_message: row.failure_message.clone(),
            result_bytes: row.result_bytes,
            can_cancel: next(row.status, Event::Cancel, row.remaining_uploads).is_some(),
            can_retry_upload: next(row.status, Event::RetryUpload, row.remaining_uploads).is_some(),
            can_update: next(row.status, Event::UpdatePaid, row.remaining_uploads).is_some(),
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

/// `user_id`'s avatars, newest first.
pub async fn of_user(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<vrchat_avatar::Model>> {
    Ok(vrchat_avatar::Entity::find()
        .filter(vrchat_avatar::Column::UserId.eq(user_id))
        .order_by_desc(vrchat_avatar::Column::Id)
        .all(db)
        .await?)
}

/// `user_id`'s avatar `uuid`; 404 for anyone else's.
pub async fn of_owner(db: &impl ConnectionTrait, user_id: i32, uuid: &str) -> Result<vrchat_avatar::Model> {
    vrchat_avatar::Entity::find()
        .filter(vrchat_avatar::Column::Uuid.eq(uuid))
        .filter(vrchat_avatar::Column::UserId.eq(user_id))
        .one(db)
        .await?
        .ok_or_else(Error::not_found)
}

/// The avatar `id` as it is now.
pub async fn reload(db: &impl ConnectionTrait, id: i32) -> Result<vrchat_avatar::Model> {
    vrchat_avatar::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
}

/// Moves `row` by its owner's `event` (cancel, retry an upload): 409 `avatar_status` when its
/// status does not allow it (now: a worker may have moved it meanwhile).
pub async fn by_owner(
    db: &impl ConnectionTrait,
    row: &vrchat_avatar::Model,
    event: Event,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar::Model> {
    let to = next(row.status, event, row.remaining_uploads).ok_or(Error::Conflict { code: "avatar_status" })?;
    let mut update = vrchat_avatar::Entity::update_many()
        .col_expr(vrchat_avatar::Column::Status, Expr::value(to))
        .col_expr(vrchat_avatar::Column::Worker, Expr::value(Option::<String>::None))
        .col_expr(vrchat_avatar::Column::LeaseUntil, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(vrchat_avatar::Column::UpdatedAt, Expr::value(now))
        .filter(vrchat_avatar::Column::Id.eq(row.id))
        .filter(vrchat_avatar::Column::Status.eq(row.status));
    if event == Event::RetryUpload {
        update = update
            .col_expr(vrchat_avatar::Column::FailureCode, Expr::value(Option::<String>::None))
            .col_expr(vrchat_avatar::Column::FailureMessage, Expr::value(Option::<String>::None));
    }
    if update.exec(db).await?.rows_affected != 1 {
        return Err(Error::Conflict { code: "avatar_status" });
    }
    reload(db, row.id).await
}

/// A claimed step: the avatar and the job's name.
#[derive(Debug, Clone)]
pub struct Claimed {
    /// The avatar, as the claim left it.
    pub avatar: vrchat_avatar::Model,
    /// `<uuid>.<attempt>`.
    pub job: String,
}

/// The job name of `row`'s current step.
pub fn job_name(row: &vrchat_avatar::Model) -> String {
    format!("{}.{}", row.uuid, row.attempts)
}

/// Hands `worker` the oldest step of `stage` waiting for one — or one whose worker went silent
/// past its lease — or nothing. An upload spends one of the avatar's uploads (not again when a
/// silent worker's upload is taken over).
pub async fn claim(
    db: &impl ConnectionTrait,
    stage: Stage,
    worker: &str,
    now: DateTime<Utc>,
) -> Result<Option<Claimed>> {
    let (from, held) = stage_statuses(stage);
    let ready = match stage {
        Stage::Convert => Condition::all().add(vrchat_avatar::Column::Status.eq(from)),
        Stage::Upload => Condition::all()
            .add(vrchat_avatar::Column::Status.eq(from))
            .add(vrchat_avatar::Column::RemainingUploads.gte(1)),
    };
    let silent =
        Condition::all().add(vrchat_avatar::Column::Status.eq(held)).add(vrchat_avatar::Column::LeaseUntil.lt(now));
    // A few tries: another worker may take the candidate first.
    for _ in 0..5 {
        let Some(found) = vrchat_avatar::Entity::find()
            .filter(Condition::any().add(ready.clone()).add(silent.clone()))
            .order_by_asc(vrchat_avatar::Column::UpdatedAt)
            .order_by_asc(vrchat_avatar::Column::Id)
            .one(db)
            .await?
        else {
            return Ok(None);
        };
        let mut update = vrchat_avatar::Entity::update_many()
            .col_expr(vrchat_avatar::Column::Status, Expr::value(held))
            .col_expr(vrchat_avatar::Column::Worker, Expr::value(worker))
            .col_expr(vrchat_avatar::Column::LeaseUntil, Expr::value(now + Duration::minutes(LEASE_MINUTES)))
            .col_expr(vrchat_avatar::Column::Attempts, Expr::col(vrchat_avatar::Column::Attempts).add(1))
            .col_expr(vrchat_avatar::Column::Progress, Expr::value(0))
            .col_expr(vrchat_avatar::Column::ProgressNote, Expr::value(Option::<String>::None))
            .col_expr(vrchat_avatar::Column::UpdatedAt, Expr::value(now))
            .filter(vrchat_avatar::Column::Id.eq(found.id))
            .filter(vrchat_avatar::Column::Attempts.eq(found.attempts));
        if found.status == from {
            update = update.filter(vrchat_avatar::Column::Status.eq(from));
            if stage == Stage::Upload {
                update = update
                    .col_expr(
                        vrchat_avatar::Column::RemainingUploads,
                        Expr::col(vrchat_avatar::Column::RemainingUploads).sub(1),
                    )
                    .filter(vrchat_avatar::Column::RemainingUploads.gte(1));
            }
        } else {
            update =
                update.filter(vrchat_avatar::Column::Status.eq(held)).filter(vrchat_avatar::Column::LeaseUntil.lt(now));
        }
        if update.exec(db).await?.rows_affected == 1 {
            let avatar = reload(db, found.id).await?;
            return Ok(Some(Claimed { job: job_name(&avatar), avatar }));
        }
    }
    Ok(None)
}

/// The avatar of job `job` while `worker` holds its step: 404 for a job that never was, 409
/// `job_not_held` once the step is over or another worker took it.
pub async fn held_by(db: &impl ConnectionTrait, job: &str, worker: &str) -> Result<vrchat_avatar::Model> {
    let (uuid, attempt) = job.rsplit_once('.').ok_or_else(Error::not_found)?;
    let attempt: i32 = attempt.parse().map_err(|_| Error::not_found())?;
    let row = vrchat_avatar::Entity::find()
        .filter(vrchat_avatar::Column::Uuid.eq(uuid))
        .one(db)
        .await?
        .filter(|row| attempt >= 1 && attempt <= row.attempts)
        .ok_or_else(Error::not_found)?;
    if row.attempts != attempt || !is_held(row.status) || row.worker.as_deref() != Some(worker) {
        return Err(Error::Conflict { code: "job_not_held" });
    }
    Ok(row)
}

/// The stage of a held avatar's step.
pub fn stage_of(row: &vrchat_avatar::Model) -> Stage {
    if row.status == VrcAvatarStatus::Uploading { Stage::Upload } else { Stage::Convert }
}

/// Records the worker's progress on `row`'s step (and renews its lease).
pub async fn progress(
    db: &impl ConnectionTrait,
    row: &vrchat_avatar::Model,
    percent: i32,
    note: Option<String>,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar::Model> {
    let mut active = row.clone().into_active_model();
    active.progress = Set(percent.clamp(0, 100));
    active.progress_note = Set(note);
    active.lease_until = Set(Some(now + Duration::minutes(LEASE_MINUTES)));
    active.updated_at = Set(now);
    Ok(active.update(db).await?)
}

/// What a worker's report changes besides the status.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// The converted file: object key, size, SHA-256.
    pub result: Option<(String, i64, String)>,
    /// The avatar's id on VRChat.
    pub vrchat_avatar_id: Option<String>,
    /// Why the step failed.
    pub failure: Option<(String, String)>,
}

/// Ends `row`'s step by `event` (converted, uploaded, failed) with `outcome`; 409
/// `job_not_held` when the step changed hands meanwhile. A failed upload gives its upload back.
pub async fn finish(
    db: &impl ConnectionTrait,
    row: &vrchat_avatar::Model,
    event: Event,
    outcome: Outcome,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar::Model> {
    let to = next(row.status, event, row.remaining_uploads).ok_or(Error::Conflict { code: "job_not_held" })?;
    let mut update = vrchat_avatar::Entity::update_many()
        .col_expr(vrchat_avatar::Column::Status, Expr::value(to))
        .col_expr(vrchat_avatar::Column::Worker, Expr::value(Option::<String>::None))
        .col_expr(vrchat_avatar::Column::LeaseUntil, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(
            vrchat_avatar::Column::Progress,
            Expr::value(if to == VrcAvatarStatus::Converted { 100 } else { row.progress }),
        )
        .col_expr(vrchat_avatar::Column::UpdatedAt, Expr::value(now))
        .filter(vrchat_avatar::Column::Id.eq(row.id))
        .filter(vrchat_avatar::Column::Status.eq(row.status))
        .filter(vrchat_avatar::Column::Attempts.eq(row.attempts));
    if let Some((key, bytes, sha256)) = outcome.result {
        update = update
            .col_expr(vrchat_avatar::Column::ResultKey, Expr::value(key))
            .col_expr(vrchat_avatar::Column::ResultBytes, Expr::value(bytes))
            .col_expr(vrchat_avatar::Column::ResultSha256, Expr::value(sha256));
    }
    if let Some(id) = outcome.vrchat_avatar_id {
        update = update.col_expr(vrchat_avatar::Column::VrchatAvatarId, Expr::value(id));
    }
    let (code, message) = match outcome.failure {
        Some((code, message)) => (Some(code), Some(message)),
        None => (None, None),
    };
    update = update
        .col_expr(vrchat_avatar::Column::FailureCode, Expr::value(code))
        .col_expr(vrchat_avatar::Column::FailureMessage, Expr::value(message));
    if event == Event::Failed(Stage::Upload) {
        update = update.col_expr(
            vrchat_avatar::Column::RemainingUploads,
            Expr::col(vrchat_avatar::Column::RemainingUploads).add(1),
        );
    }
    if update.exec(db).await?.rows_affected != 1 {
        return Err(Error::Conflict { code: "job_not_held" });
    }
    reload(db, row.id).await
}
