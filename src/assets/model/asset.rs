//! Assets (spec §3 "Asset"): created by their owner for one setting, named and described,
//! `published` and `deleted` by the owner only. Anyone else asking for an asset gets 404.
//! A deleted asset is hidden from lists at once; its files are freed after
//! [`DELETE_GRACE_DAYS`] (the owner may take the deletion back until then).

use chrono::{DateTime, Duration, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};

use crate::db::entities::asset::SubType;
use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::{asset, asset_setting};
use crate::error::{Error, Result};
use crate::forms::asset::{AssetChange, NewAsset};
use crate::model::pagination::PageRequest;

/// Days a deleted asset keeps its files (and may be restored).
pub const DELETE_GRACE_DAYS: i64 = 7;
impl asset::Model {
    /// Creates `input`'s asset for `user_id` under `setting`.
    pub async fn create(
        db: &impl ConnectionTrait,
        user_id: i32,
        setting: &asset_setting::Model,
        input: &NewAsset,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let sub_type = match setting.asset_type {
            AssetType::Furniture => Some(input.sub_type.unwrap_or(SubType::Floor)),
            _ => None,
        };
        Ok(asset::ActiveModel {
            user_id: Set(user_id),
            asset_setting_id: Set(setting.id),
            name: Set(input.name.trim().to_string()),
            description: Set(input.description.clone()),
            sub_type: Set(sub_type),
            published: Set(false),
            deleted: Set(false),
            deleted_at: Set(None),
            latest_version_id: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await?)
    }

    /// Asset `id` if `user_id` owns it (deleted ones too, until their files are freed): 404 to
    /// anyone else.
    pub async fn for_owner(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<Self> {
        asset::Entity::find_by_id(id)
            .filter(asset::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// Asset `id`, whoever owns it (staff, jobs).
    pub async fn by_id(db: &impl ConnectionTrait, id: i32) -> Result<Self> {
        asset::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// A page of `user_id`'s assets (not deleted), newest first, optionally of one setting.
    pub async fn owned_page(
        db: &impl ConnectionTrait,
        user_id: i32,
        setting_id: Option<i32>,
        page: PageRequest,
    ) -> Result<(Vec<Self>, u64)> {
        let mut query =
            asset::Entity::find().filter(asset::Column::UserId.eq(user_id)).filter(asset::Column::Deleted.eq(false));
        if let Some(setting_id) = setting_id {
            query = query.filter(asset::Column::AssetSettingId.eq(setting_id));
        }
        let count = query.clone().count(db).await?;
        let rows = query
            .order_by_desc(asset::Column::UpdatedAt)
            .order_by_desc(asset::Column::Id)
            .offset(page.offset())
            .limit(page.limit)
            .all(db)
            .await?;
        Ok((rows, count))
    }

    /// Applies the owner's `change`.
    pub async fn change(self, db: &impl ConnectionTrait, change: &AssetChange, now: DateTime<Utc>) -> Result<Self> {
        let mut row = self.clone().into_active_model();
        if let Some(name) = &change.name {
            row.name = Set(name.trim().to_string());
        }
        if let Some(description) = &change.description {
            row.description = Set(description.clone());
        }
        if let (Some(sub_type), Some(_)) = (change.sub_type, self.sub_type) {
            row.sub_type = Set(Some(sub_type));
        }
        if let Some(published) = change.published {
            row.published = Set(published);
        }
        match change.deleted {
            Some(true) if !self.deleted => {
                row.deleted = Set(true);
                row.deleted_at = Set(Some(now));
                row.published = Set(false);
            }
            Some(false) if self.deleted => {
                row.deleted = Set(false);
                row.deleted_at = Set(None);
            }
            _ => {}
        }
        row.updated_at = Set(now);
        Ok(row.update(db).await?)
    }

    /// Deleted assets whose grace period ended by `now`.
    pub async fn due_for_purge(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Vec<Self>> {
        Ok(asset::Entity::find()
            .filter(asset::Column::Deleted.eq(true))
            .filter(asset::Column::DeletedAt.lte(now - Duration::days(DELETE_GRACE_DAYS)))
            .all(db)
            .await?)
    }
}
