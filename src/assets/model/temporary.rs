//! One-shot small uploads (`POST /uploader/temporary_uploads`, spec §5 "Temporary upload requires
//! a file"): a file of at most 5 MiB sent in one request, kept for [`TEMPORARY_HOURS`] until a
//! new asset or version takes it — once.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::asset_temporary_upload;
use crate::error::{Error, Result};
use crate::storage::Written;

/// Hours a temporary upload waits to be used.
pub const TEMPORARY_HOURS: i64 = 24;

/// A temporary upload as its sender sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TemporaryView {
    /// Its id, for `temporary_upload_id`.
    pub id: String,
    /// The file's name as sent.
    pub file_name: String,
    /// Bytes.
    pub byte_size: i64,
    /// SHA-256 of the bytes (hex).
    pub sha256: String,
    /// Until when it can be used.
    pub expires_at: DateTime<Utc>,
}

impl From<&asset_temporary_upload::Model> for TemporaryView {
    fn from(row: &asset_temporary_upload::Model) -> Self {
        Self {
            id: row.id.clone(),
            file_name: row.file_name.clone(),
            byte_size: row.byte_size,
            sha256: row.sha256.clone(),
            expires_at: row.expires_at,
        }
    }
}

/// Where temporary upload `id` keeps its bytes.
pub fn object_key(id: &str) -> String {
    format!("uploads/temporary/{id}")
}

impl asset_temporary_upload::Model {
    /// Records the file `written` under id `id` for `user_id`.
    pub async fn create(
        db: &impl ConnectionTrait,
        id: &str,
        user_id: i32,
        file_name: &str,
        written: &Written,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        Ok(asset_temporary_upload::ActiveModel {
            id: Set(id.to_string()),
            user_id: Set(user_id),
            object_key: Set(object_key(id)),
            file_name: Set(file_name.to_string()),
            byte_size: Set(written.bytes as i64),
            sha256: Set(written.sha256.clone()),
            expires_at: Set(now + Duration::hours(TEMPORARY_HOURS)),
            used_at: Set(None),
            created_at: Set(now),
        }
        .insert(db)
        .await?)
    }

    /// Takes `user_id`'s temporary upload `id` for a version: 404 to anyone else, 409
    /// `temporary_upload_used` the second time, `upload_expired` past its time.
    pub async fn take(db: &impl ConnectionTrait, id: &str, user_id: i32, now: DateTime<Utc>) -> Result<Self> {
        let found = asset_temporary_upload::Entity::find_by_id(id.to_string())
            .filter(asset_temporary_upload::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)?;
        if found.expires_at <= now {
            return Err(Error::Conflict { code: "upload_expired" });
        }
        let taken = asset_temporary_upload::Entity::update_many()
            .col_expr(asset_temporary_upload::Column::UsedAt, Expr::value(now))
            .filter(asset_temporary_upload::Column::Id.eq(id))
            .filter(asset_temporary_upload::Column::UsedAt.is_null())
            .exec(db)
            .await?;
        if taken.rows_affected != 1 {
            return Err(Error::Conflict { code: "temporary_upload_used" });
        }
        Ok(found)
    }

    /// Unused temporary uploads past their time.
    pub async fn overdue(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Vec<Self>> {
        Ok(asset_temporary_upload::Entity::find()
            .filter(asset_temporary_upload::Column::UsedAt.is_null())
            .filter(asset_temporary_upload::Column::ExpiresAt.lte(now))
            .all(db)
            .await?)
    }

    /// Forgets this upload (its bytes are deleted by the caller).
    pub async fn forget(self, db: &impl ConnectionTrait) -> Result<()> {
        asset_temporary_upload::Entity::delete_by_id(self.id).exec(db).await?;
        Ok(())
    }
}
