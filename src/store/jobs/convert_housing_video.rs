//! `ConvertHousingVideo { video_id, attempt }`: one run of a housing video's conversion
//! ([`crate::store::video::convert`]). The video's uploaded file is copied to a scratch directory,
//! converted there, and the MP4 and its thumbnail are stored under `housing_videos/{uuid}/`; then
//! `converting → finished`. A video the conversion refuses ends in `error` with the refusal's
//! code. A run that meets a failure of the store or the database leaves the video `converting`
//! and schedules the next run with backoff; after [`MAX_ATTEMPTS`] runs it ends in `error`
//! (`conversion_failed`). Workers resume every video still converting when they start.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::db::entities::asset_version;
use crate::db::entities::housing_video::{self, ConvertStatus, DiscardStatus};
use crate::error::{Error, Result};
use crate::queue::{Job, JobContext, Queue};
use crate::store::model::housing_video::{Finished, folder, key};
use crate::store::video::convert::{self, ConvertError, MAX_OUTPUT_BYTES};

/// Runs before a video fails for good.
pub const MAX_ATTEMPTS: i32 = 4;

/// The encoder's time ceiling: far above what [`convert::MAX_DURATION`] of video takes at
/// `veryfast` on two cores.
pub const ENCODE_TIMEOUT: Duration = Duration::from_secs(20 * 60);

/// Run `attempt` (from 1) of the conversion of housing video `video_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConvertHousingVideo {
    /// The housing video.
    pub video_id: i32,
    /// Which run this is.
    pub attempt: i32,
}

impl ConvertHousingVideo {
    /// Enqueues run `attempt` of video `video_id` after `delay`.
    pub async fn enqueue(queue: &Queue, video_id: i32, attempt: i32, delay: Duration) -> Result<(), sea_orm::DbErr> {
        queue.push(Self { video_id, attempt }, delay, &format!("housing_video:{video_id}:convert:{attempt}")).await
    }
}

/// A run's scratch directory, removed with everything in it when the run ends.
struct Scratch(std::path::PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How a run ended.
enum Ran {
    Finished,
    Refused(ConvertError),
    Nothing,
}

/// The conversion of `video`, stored.
async fn run(ctx: &JobContext, video: &housing_video::Model) -> Result<Ran> {
    if video.convert_status != ConvertStatus::Converting || video.discard_status != DiscardStatus::Active {
        return Ok(Ran::Nothing);
    }
    let version = asset_version::Model::by_id(&ctx.db, video.asset_version_id).await?;
    let dir = Scratch(std::path::Path::new(&ctx.config.data_dir).join("scratch").join(format!("video-{}", video.uuid)));
    tokio::fs::create_dir_all(&dir.0).await.map_err(|e| Error::Internal(format!("{}: {e}", dir.0.display())))?;
    let input = dir.0.join("input");
    ctx.storage.download_to(&version.object_key, &input).await?;
    let made = match convert::convert(&input, &dir.0, ENCODE_TIMEOUT).await {
        Ok(made) => made,
        Err(refused) => {
            video.fail(&ctx.db, refused.code(), ctx.clock.now()).await?;
            return Ok(Ran::Refused(refused));
        }
    };
    let file = tokio::fs::File::open(&made.video).await.map_err(|e| Error::Internal(format!("converted: {e}")))?;
    ctx.storage.write_stream(&key(&video.uuid, "video.mp4"), file, MAX_OUTPUT_BYTES).await?;
    let thumbnail = tokio::fs::read(&made.thumbnail).await.map_err(|e| Error::Internal(format!("thumbnail: {e}")))?;
    ctx.storage.put(&key(&video.uuid, "thumbnail.jpg"), thumbnail).await?;
    let finished = Finished {
        bytes: made.bytes as i64,
        duration_ms: i32::try_from(made.duration_ms).unwrap_or(i32::MAX),
        width: i32::try_from(made.width).unwrap_or(0),
        height: i32::try_from(made.height).unwrap_or(0),
    };
    if !video.finish(&ctx.db, &finished, ctx.clock.now()).await? {
        // Discarded while it converted: what was stored goes with it.
        ctx.storage.delete_prefix(&folder(&video.uuid)).await?;
        return Ok(Ran::Nothing);
    }
    Ok(Ran::Finished)
}

impl Job for ConvertHousingVideo {
    const QUEUE: &'static str = "housing_video_convert";

    async fn run(self, ctx: &JobContext) -> Result<String, sea_orm::DbErr> {
        let db_err = |e: Error| sea_orm::DbErr::Custom(e.to_string());
        let video = housing_video::Model::by_id(&ctx.db, self.video_id).await.map_err(db_err)?;
        match run(ctx, &video).await {
            Ok(Ran::Finished) => Ok(format!("housing video {}: finished", self.video_id)),
            Ok(Ran::Refused(e)) => Ok(format!("housing video {}: {}", self.video_id, e.code())),
            Ok(Ran::Nothing) => Ok(format!("housing video {}: nothing to do", self.video_id)),
            Err(e) => {
                tracing::warn!(video_id = self.video_id, attempt = self.attempt, error = %e, "housing video conversion failed");
                let attempts = video.count_attempt(&ctx.db, ctx.clock.now()).await.map_err(db_err)?;
                if self.attempt < MAX_ATTEMPTS {
                    Self::enqueue(&ctx.queue, self.video_id, self.attempt + 1, ctx.backoff(attempts as u32)).await?;
                    return Ok(format!("housing video {}: run {} scheduled", self.video_id, self.attempt + 1));
                }
                video.fail(&ctx.db, ConvertError::Failed.code(), ctx.clock.now()).await.map_err(db_err)?;
                Ok(format!("housing video {}: failed after {MAX_ATTEMPTS} runs", self.video_id))
            }
        }
    }

    async fn resume(ctx: &JobContext) -> Result<(), sea_orm::DbErr> {
        let waiting =
            housing_video::Model::converting(&ctx.db).await.map_err(|e| sea_orm::DbErr::Custom(e.to_string()))?;
        for video in waiting {
            Self::enqueue(&ctx.queue, video.id, video.convert_attempts + 1, Duration::ZERO).await?;
        }
        Ok(())
    }
}
