//! `AssetPipeline { version_id, attempt }`: one run of the pipeline ([`crate::assets::pipeline`])
//! over a version whose bytes are all there. A run that meets a failure of the store or the
//! database leaves the version where it stands and schedules the next run with backoff; after
//! [`MAX_ATTEMPTS`] runs the version fails with its reason for the owner and staff. Workers
//! resume every version left mid-way when they start.

use std::time::Duration;

use sea_orm::{ActiveModelTrait, Set};
use serde::{Deserialize, Serialize};

use crate::assets::pipeline::{self, Outcome, Tools};
use crate::db::entities::asset_version::{self, UploadStatus};
use crate::http::upload::ImageDecoder;
use crate::queue::{Job, JobContext, Queue};

/// Runs before a version fails for good.
pub const MAX_ATTEMPTS: i32 = 6;

/// Run `attempt` (from 1) of the pipeline of version `version_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssetPipeline {
    /// The version.
    pub version_id: i32,
    /// Which run this is.
    pub attempt: i32,
}

impl AssetPipeline {
    fn key(version_id: i32, attempt: i32) -> String {
        format!("asset:{version_id}:pipeline:{attempt}")
    }

    /// Enqueues run `attempt` of version `version_id` after `delay`.
    pub async fn enqueue(queue: &Queue, version_id: i32, attempt: i32, delay: Duration) -> Result<(), sea_orm::DbErr> {
        queue.push(Self { version_id, attempt }, delay, &Self::key(version_id, attempt)).await
    }
}

impl Job for AssetPipeline {
    const QUEUE: &'static str = "asset_pipeline";

    async fn run(self, ctx: &JobContext) -> Result<String, sea_orm::DbErr> {
        // The pictures' decodes: one run at a time per worker, with the budget the web's uploads
        // have (`image_decode_budget_mib`) for itself.
        let images = ImageDecoder::new(ctx.config.image_decode_budget_mib);
        let tools = Tools::new(&ctx.db, &ctx.storage, &images, &ctx.config.data_dir);
        let now = ctx.clock.now();
        match pipeline::run(&tools, self.version_id, now).await {
            Ok(Outcome::Uploaded) => Ok(format!("version {}: uploaded", self.version_id)),
            Ok(Outcome::Failed) => Ok(format!("version {}: failed its report", self.version_id)),
            Ok(Outcome::Nothing) => Ok(format!("version {}: nothing to do", self.version_id)),
            Err(e) => {
                tracing::warn!(version_id = self.version_id, attempt = self.attempt, error = %e, "asset pipeline run failed");
                let version = asset_version::Model::by_id(&ctx.db, self.version_id)
                    .await
                    .map_err(|e| sea_orm::DbErr::Custom(e.to_string()))?;
                let attempts = version
                    .clone()
                    .count_attempt(&ctx.db, now)
                    .await
                    .map_err(|e| sea_orm::DbErr::Custom(e.to_string()))?;
                if self.attempt < MAX_ATTEMPTS {
                    Self::enqueue(&ctx.queue, self.version_id, self.attempt + 1, ctx.backoff(attempts as u32)).await?;
                    return Ok(format!("version {}: run {} scheduled", self.version_id, self.attempt + 1));
                }
                let mut row: asset_version::ActiveModel = version.into();
                row.upload_status = Set(UploadStatus::Failed);
                row.status_reason = Set(Some("pipeline_error".into()));
                row.updated_at = Set(now);
                row.update(&ctx.db).await?;
                Ok(format!("version {}: failed after {MAX_ATTEMPTS} runs", self.version_id))
            }
        }
    }

    async fn resume(ctx: &JobContext) -> Result<(), sea_orm::DbErr> {
        let stuck =
            asset_version::Model::in_pipeline(&ctx.db).await.map_err(|e| sea_orm::DbErr::Custom(e.to_string()))?;
        for version in stuck {
            Self::enqueue(&ctx.queue, version.id, version.pipeline_attempts + 1, Duration::ZERO).await?;
        }
        Ok(())
    }
}
