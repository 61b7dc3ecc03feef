//! `UploadSweep { minute }`: once a minute, by the application clock (time travel included):
//! uploads still open past their 24 hours are expired — the store's parts aborted or deleted,
//! the version `expired` — unused one-shot uploads past their time are dropped, and the files of
//! assets deleted more than seven days ago are freed. Scheduled like the payment sweep: each tick
//! first enqueues the next one under the minute's key.

use std::time::Duration;

use sea_orm::EntityTrait;
use serde::{Deserialize, Serialize};

use crate::db::entities::asset_upload::{StoreKind, UploadState};
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_temporary_upload, asset_upload, asset_version};
use crate::error::Result;
use crate::queue::{Job, JobContext, next_minute};
use crate::storage::Storage;

/// The sweep due at the start of minute `minute` (Unix minutes, real time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UploadSweep {
    /// The minute it is due (its idempotency key).
    pub minute: i64,
}

/// What one tick did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Uploads expired.
    pub expired: usize,
    /// One-shot uploads dropped.
    pub dropped: usize,
    /// Deleted assets whose files were freed.
    pub purged: usize,
}

impl UploadSweep {
    fn key(minute: i64) -> String {
        format!("upload_sweep:{minute}")
    }

    /// The work of one tick at the clock's now.
    pub async fn tick(ctx: &JobContext) -> Result<Swept> {
        let now = ctx.clock.now();
        let mut swept = Swept::default();
        for upload in asset_upload::Model::overdue(&ctx.db, now).await? {
            if expire(&ctx.db, &ctx.storage, &upload, UploadState::Expired, now).await? {
                swept.expired += 1;
            }
        }
        for temporary in asset_temporary_upload::Model::overdue(&ctx.db, now).await? {
            ctx.storage.delete(&temporary.object_key).await?;
            temporary.forget(&ctx.db).await?;
            swept.dropped += 1;
        }
        for gone in asset::Model::due_for_purge(&ctx.db, now).await? {
            ctx.storage.delete_prefix(&format!("assets/{}", gone.id)).await?;
            for version in asset_version::Model::of_assets(&ctx.db, &[gone.id]).await? {
                ctx.storage.delete_prefix(&crate::assets::model::version::picture_prefix(&version.uuid)).await?;
            }
            asset::Entity::delete_by_id(gone.id).exec(&ctx.db).await?;
            swept.purged += 1;
        }
        Ok(swept)
    }
}

/// Ends `upload` as `to` (expired, or aborted by its owner): frees its parts and marks it so, and
/// its version expired (`false` when it was no longer open).
pub async fn expire(
    db: &sea_orm::DatabaseConnection,
    storage: &Storage,
    upload: &asset_upload::Model,
    to: UploadState,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<bool> {
    let version = asset_version::Model::by_id(db, upload.asset_version_id).await?;
    match (upload.store, storage.s3(), upload.multipart_id.as_deref()) {
        (StoreKind::S3, Some(s3), Some(id)) => s3.abort(&version.object_key, id).await?,
        _ => storage.delete_prefix(&format!("uploads/{}", upload.id)).await?,
    }
    if !upload.close(db, to, now).await? {
        return Ok(false);
    }
    asset_version::Model::advance(db, version.id, UploadStatus::Waiting, UploadStatus::Expired, now).await?;
    Ok(true)
}

impl Job for UploadSweep {
    const QUEUE: &'static str = "upload_sweep";

    async fn run(self, ctx: &JobContext) -> std::result::Result<String, sea_orm::DbErr> {
        let (minute, delay) = next_minute(ctx);
        ctx.queue.push(Self { minute }, delay, &Self::key(minute)).await?;
        let swept = Self::tick(ctx).await.map_err(|e| sea_orm::DbErr::Custom(format!("upload sweep: {e}")))?;
        Ok(format!(
            "upload sweep: {} uploads expired, {} one-shot uploads dropped, {} deleted assets freed",
            swept.expired, swept.dropped, swept.purged
        ))
    }

    async fn resume(ctx: &JobContext) -> std::result::Result<(), sea_orm::DbErr> {
        let minute = ctx.clock.real_now().timestamp().div_euclid(60);
        ctx.queue.push(Self { minute }, Duration::ZERO, &Self::key(minute)).await
    }
}
