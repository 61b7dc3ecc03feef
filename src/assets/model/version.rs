//! Asset versions (spec §3 "Asset version"): one per upload, numbered per asset, moving through
//! the pipeline of ASSETS.md. Every status change is a compare-and-set on the row (`UPDATE …
//! WHERE upload_status = <from>`), so a step run twice — a retried job, two workers — changes it
//! once.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TransactionSession, TransactionTrait,
};

use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_version};
use crate::error::{Error, Result};

/// Where a version's file lives: under its asset's own prefix, named by the version's UUID
/// (never by the client's file name).
pub fn object_key(asset_id: i32, uuid: &str) -> String {
    format!("assets/{asset_id}/{uuid}/file")
}

/// Where a version's pictures live (served under `/media`, named by an unguessable UUID).
pub fn picture_prefix(uuid: &str) -> String {
    format!("asset-thumbs/{uuid}")
}

impl asset_version::Model {
    /// Opens the next version of `asset` for a file of `byte_size` bytes named `file_name`, in
    /// `waiting`.
    pub async fn open<C: ConnectionTrait + TransactionTrait>(
        db: &C,
        asset: &asset::Model,
        file_name: &str,
        byte_size: i64,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let txn = crate::db::begin_write(db).await?;
        let last: Option<i32> = asset_version::Entity::find()
            .select_only()
            .column_as(asset_version::Column::Version.max(), "max")
            .filter(asset_version::Column::AssetId.eq(asset.id))
            .into_tuple::<Option<i32>>()
            .one(&txn)
            .await?
            .flatten();
        let uuid = uuid::Uuid::new_v4().to_string();
        let row = asset_version::ActiveModel {
            uuid: Set(uuid.clone()),
            asset_id: Set(asset.id),
            version: Set(last.unwrap_or(0) + 1),
            upload_status: Set(UploadStatus::Waiting),
            file_name: Set(file_name.to_string()),
            byte_size: Set(byte_size),
            object_key: Set(object_key(asset.id, &uuid)),
            pipeline_attempts: Set(0),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        asset::Entity::update_many()
            .col_expr(asset::Column::UpdatedAt, Expr::value(now))
            .filter(asset::Column::Id.eq(asset.id))
            .exec(&txn)
            .await?;
        txn.commit().await?;
        Ok(row)
    }

    /// Version `id` of `asset_id` (404 otherwise).
    pub async fn of_asset(db: &impl ConnectionTrait, asset_id: i32, id: i32) -> Result<Self> {
        asset_version::Entity::find_by_id(id)
            .filter(asset_version::Column::AssetId.eq(asset_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// Version `uuid`.
    pub async fn by_uuid(db: &impl ConnectionTrait, uuid: &str) -> Result<Self> {
        asset_version::Entity::find()
            .filter(asset_version::Column::Uuid.eq(uuid))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// Version `id`, whatever its asset.
    pub async fn by_id(db: &impl ConnectionTrait, id: i32) -> Result<Self> {
        asset_version::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// The newest uploaded version of `asset` (what a housing video, a store item or a buyer's
    /// download is made from): 409 `asset_not_uploaded` when it has none.
    pub async fn newest_uploaded(db: &impl ConnectionTrait, asset: &asset::Model) -> Result<Self> {
        let not_uploaded = || Error::Conflict { code: "asset_not_uploaded" };
        let version = Self::by_id(db, asset.latest_version_id.ok_or_else(not_uploaded)?).await?;
        if version.upload_status == UploadStatus::Uploaded { Ok(version) } else { Err(not_uploaded()) }
    }

    /// Every version of the assets `asset_ids`, newest first.
    pub async fn of_assets(db: &impl ConnectionTrait, asset_ids: &[i32]) -> Result<Vec<Self>> {
        if asset_ids.is_empty() {
            return Ok(Vec::new());
        }
        Ok(asset_version::Entity::find()
            .filter(asset_version::Column::AssetId.is_in(asset_ids.to_vec()))
            .order_by_desc(asset_version::Column::Version)
            .all(db)
            .await?)
    }

    /// Moves version `id` from `from` to `to`; `false` when it was not at `from` (another run
    /// moved it first).
    pub async fn advance(
        db: &impl ConnectionTrait,
        id: i32,
        from: UploadStatus,
        to: UploadStatus,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let mut update = asset_version::Entity::update_many()
            .col_expr(asset_version::Column::UploadStatus, Expr::value(to.as_str()))
            .col_expr(asset_version::Column::UpdatedAt, Expr::value(now));
        if to == UploadStatus::Analyzing {
            update = update.col_expr(asset_version::Column::CompletedAt, Expr::value(now));
        }
        if to == UploadStatus::Uploaded {
            update = update.col_expr(asset_version::Column::UploadedAt, Expr::value(now));
        }
        let result = update
            .filter(asset_version::Column::Id.eq(id))
            .filter(asset_version::Column::UploadStatus.eq(from.as_str()))
            .exec(db)
            .await?;
        Ok(result.rows_affected == 1)
    }

    /// Records a transient failure of a pipeline run; returns the attempts so far.
    pub async fn count_attempt(self, db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<i32> {
        let attempts = self.pipeline_attempts + 1;
        let mut row: asset_version::ActiveModel = self.into();
        row.pipeline_attempts = Set(attempts);
        row.updated_at = Set(now);
        row.update(db).await?;
        Ok(attempts)
    }

    /// Makes this version its asset's latest when it is the newest uploaded one.
    pub async fn promote(&self, db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<()> {
        let newest = asset_version::Entity::find()
            .filter(asset_version::Column::AssetId.eq(self.asset_id))
            .filter(asset_version::Column::UploadStatus.eq(UploadStatus::Uploaded.as_str()))
            .order_by_desc(asset_version::Column::Version)
            .one(db)
            .await?;
        asset::Entity::update_many()
            .col_expr(asset::Column::LatestVersionId, Expr::value(newest.map(|v| v.id)))
            .col_expr(asset::Column::UpdatedAt, Expr::value(now))
            .filter(asset::Column::Id.eq(self.asset_id))
            .exec(db)
            .await?;
        Ok(())
    }

    /// Staff's correction of version `id`: an uploaded version failed, or a failed one whose
    /// bytes all arrived restored, with `reason` (shown to its owner); its asset's latest version
    /// follows. Anything else is 409 `version_not_correctable`.
    pub async fn correct(
        db: &impl ConnectionTrait,
        id: i32,
        to: UploadStatus,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let version = Self::by_id(db, id).await?;
        let from = version.upload_status;
        let allowed = match (from, to) {
            (UploadStatus::Uploaded, UploadStatus::Failed) => true,
            (UploadStatus::Failed, UploadStatus::Uploaded) => {
                version.completed_at.is_some() && version.sha256.is_some()
            }
            _ => false,
        };
        if !allowed || !Self::advance(db, id, from, to, now).await? {
            return Err(Error::Conflict { code: "version_not_correctable" });
        }
        asset_version::Entity::update_many()
            .col_expr(asset_version::Column::StatusReason, Expr::value(reason))
            .filter(asset_version::Column::Id.eq(id))
            .exec(db)
            .await?;
        version.promote(db, now).await
    }

    /// Versions stuck in the pipeline (a worker stopped mid-way): what workers resume on start.
    pub async fn in_pipeline(db: &impl ConnectionTrait) -> Result<Vec<Self>> {
        Ok(asset_version::Entity::find()
            .filter(asset_version::Column::UploadStatus.is_in([
                UploadStatus::Analyzing.as_str(),
                UploadStatus::Validating.as_str(),
                UploadStatus::Converting.as_str(),
            ]))
            .all(db)
            .await?)
    }
}
