//! Multipart uploads (ASSETS.md "Upload", spec §5): at least 2 parts, numbered from 1, each at
//! least 5 MiB but the last, at most 10,000; open for [`UPLOAD_HOURS`] by the application clock,
//! then expired (parts freed, version `expired`). The local store records each part it received
//! here; an S3-compatible store keeps its own list.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use crate::assets::model::setting::{MAX_PARTS, MIN_PART_SIZE};
use crate::db::entities::asset_upload::{StoreKind, UploadState};
use crate::db::entities::{asset_upload, asset_upload_part, asset_version};
use crate::error::{Error, Result};

/// Hours an upload stays open.
pub const UPLOAD_HOURS: i64 = 24;

/// How a file of `byte_size` bytes is cut: the part size (whole MiB, at least 5 MiB, so that at
/// most 10,000 parts are needed) and the number of parts; `None` when it fits one request (or is
/// past 10,000 parts of the largest size).
pub fn plan(byte_size: u64) -> Option<(u64, u64)> {
    if byte_size <= MIN_PART_SIZE {
        return None;
    }
    let mib = 1024 * 1024;
    let part_size = byte_size.div_ceil(MAX_PARTS).div_ceil(mib).max(MIN_PART_SIZE / mib) * mib;
    let parts = byte_size.div_ceil(part_size);
    (2..=MAX_PARTS).contains(&parts).then_some((part_size, parts))
}

/// The expected size of part `number` (from 1) of an upload.
pub fn part_bytes(upload: &asset_upload::Model, number: i32) -> Option<u64> {
    let (size, parts, part) = (upload.byte_size as u64, upload.part_count as u64, u64::try_from(number).ok()?);
    if part == 0 || part > parts {
        return None;
    }
    Some(if part < parts { upload.part_size as u64 } else { size - upload.part_size as u64 * (parts - 1) })
}

/// Where the local store keeps part `number` of `upload_id`.
pub fn part_key(upload_id: &str, number: i32) -> String {
    format!("uploads/{upload_id}/{number:05}")
}

impl asset_upload::Model {
    /// Opens the upload of `version` (its size already planned by [`plan`]).
    pub async fn open(
        db: &impl ConnectionTrait,
        version: &asset_version::Model,
        user_id: i32,
        (part_size, parts): (u64, u64),
        store: StoreKind,
        multipart_id: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        Ok(asset_upload::ActiveModel {
            id: Set(uuid::Uuid::new_v4().to_string()),
            asset_version_id: Set(version.id),
            user_id: Set(user_id),
            byte_size: Set(version.byte_size),
            part_size: Set(part_size as i64),
            part_count: Set(parts as i32),
            store: Set(store),
            multipart_id: Set(multipart_id),
            status: Set(UploadState::Open),
            expires_at: Set(now + Duration::hours(UPLOAD_HOURS)),
            created_at: Set(now),
            completed_at: Set(None),
        }
        .insert(db)
        .await?)
    }

    /// Upload `id` of `user_id`: 404 to anyone else (and for an unknown id).
    pub async fn for_owner(db: &impl ConnectionTrait, id: &str, user_id: i32) -> Result<Self> {
        asset_upload::Entity::find_by_id(id.to_string())
            .filter(asset_upload::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// Upload `id`, whoever's (the signed part URL already names it).
    pub async fn by_id(db: &impl ConnectionTrait, id: &str) -> Result<Self> {
        asset_upload::Entity::find_by_id(id.to_string()).one(db).await?.ok_or_else(Error::not_found)
    }

    /// The upload of version `version_id`, if any.
    pub async fn of_version(db: &impl ConnectionTrait, version_id: i32) -> Result<Option<Self>> {
        Ok(asset_upload::Entity::find().filter(asset_upload::Column::AssetVersionId.eq(version_id)).one(db).await?)
    }

    /// Refuses anything but an open upload still within its time: 409 `upload_closed` (completed,
    /// aborted) or `upload_expired`.
    pub fn ensure_open(&self, now: DateTime<Utc>) -> Result<()> {
        match self.status {
            UploadState::Open if now < self.expires_at => Ok(()),
            UploadState::Open | UploadState::Expired => Err(Error::Conflict { code: "upload_expired" }),
            UploadState::Completed | UploadState::Aborted => Err(Error::Conflict { code: "upload_closed" }),
        }
    }

    /// Records (or replaces: a part sent again) part `number` the local store received.
    pub async fn record_part(
        &self,
        db: &impl ConnectionTrait,
        number: i32,
        etag: &str,
        bytes: u64,
        now: DateTime<Utc>,
    ) -> Result<()> {
        asset_upload_part::Entity::insert(asset_upload_part::ActiveModel {
            upload_id: Set(self.id.clone()),
            part_number: Set(number),
            etag: Set(etag.to_string()),
            byte_size: Set(bytes as i64),
            received_at: Set(now),
        })
        .on_conflict(
            OnConflict::columns([asset_upload_part::Column::UploadId, asset_upload_part::Column::PartNumber])
                .update_columns([
                    asset_upload_part::Column::Etag,
                    asset_upload_part::Column::ByteSize,
                    asset_upload_part::Column::ReceivedAt,
                ])
                .to_owned(),
        )
        .exec(db)
        .await?;
        Ok(())
    }

    /// The parts the local store received, by number.
    pub async fn local_parts(&self, db: &impl ConnectionTrait) -> Result<Vec<asset_upload_part::Model>> {
        Ok(asset_upload_part::Entity::find()
            .filter(asset_upload_part::Column::UploadId.eq(&self.id))
            .order_by_asc(asset_upload_part::Column::PartNumber)
            .all(db)
            .await?)
    }

    /// Moves the upload from open to `to`; `false` when it was no longer open.
    pub async fn close(&self, db: &impl ConnectionTrait, to: UploadState, now: DateTime<Utc>) -> Result<bool> {
        let mut update = asset_upload::Entity::update_many().col_expr(asset_upload::Column::Status, Expr::value(to));
        if to == UploadState::Completed {
            update = update.col_expr(asset_upload::Column::CompletedAt, Expr::value(now));
        }
        let done = update
            .filter(asset_upload::Column::Id.eq(&self.id))
            .filter(asset_upload::Column::Status.eq(UploadState::Open))
            .exec(db)
            .await?;
        Ok(done.rows_affected == 1)
    }

    /// Open uploads past their time.
    pub async fn overdue(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Vec<Self>> {
        Ok(asset_upload::Entity::find()
            .filter(asset_upload::Column::Status.eq(UploadState::Open))
            .filter(asset_upload::Column::ExpiresAt.lte(now))
            .all(db)
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1024 * 1024;

    #[test]
    fn files_are_cut_into_two_to_ten_thousand_parts_of_at_least_five_mib() {
        assert_eq!(plan(5 * MIB), None, "one request");
        assert_eq!(plan(5 * MIB + 1), Some((5 * MIB, 2)));
        assert_eq!(plan(200 * MIB), Some((5 * MIB, 40)));
        assert_eq!(plan(50_000 * MIB), Some((5 * MIB, 10_000)));
        assert_eq!(plan(50_000 * MIB + 1), Some((6 * MIB, 8334)));
        let (size, parts) = plan(5_000_000_000_000).unwrap();
        assert!(parts <= 10_000 && size * parts >= 5_000_000_000_000 && size % MIB == 0);
    }

    #[test]
    fn the_last_part_takes_the_rest() {
        let upload = asset_upload::Model {
            id: "u".into(),
            asset_version_id: 1,
            user_id: 1,
            byte_size: (12 * MIB + 3) as i64,
            part_size: (5 * MIB) as i64,
            part_count: 3,
            store: StoreKind::Local,
            multipart_id: None,
            status: UploadState::Open,
            expires_at: Utc::now(),
            created_at: Utc::now(),
            completed_at: None,
        };
        assert_eq!(part_bytes(&upload, 1), Some(5 * MIB));
        assert_eq!(part_bytes(&upload, 3), Some(2 * MIB + 3));
        assert_eq!(part_bytes(&upload, 0), None);
        assert_eq!(part_bytes(&upload, 4), None);
    }
}
