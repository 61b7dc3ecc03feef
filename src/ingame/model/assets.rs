//! The user's assets as the game lists them (spec §7 "In-game"): offset lists of 1–30, by
//! kind of asset, the newest change first.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::{asset, asset_setting};
use crate::error::{Error, Result};
use crate::ingame::window::Window;

/// Which of the user's assets a list holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameList {
    /// Only assets of this type.
    pub category: Option<AssetType>,
    /// Only assets with an uploaded version (what the game can load).
    pub usable_only: bool,
    /// At most this many (1–30).
    pub limit: u64,
    /// After skipping this many.
    pub offset: u64,
}

impl GameList {
    /// The list the query asks for: `category` an asset type (`avatar`, `furniture`, `zip`,
    /// `none`) and the window (`crate::ingame::window`); 422 on the field that is wrong.
    pub fn parse(category: Option<&str>, limit: Option<&str>, offset: Option<&str>, usable_only: bool) -> Result<Self> {
        let category = match category.map(str::trim).filter(|c| !c.is_empty()) {
            None => None,
            Some(raw) => Some(
                serde_json::from_value::<AssetType>(serde_json::Value::String(raw.to_string()))
                    .map_err(|_| Error::invalid("category", "validation.ingame_category"))?,
            ),
        };
        let Window { limit, offset } = Window::parse(limit, offset)?;
        Ok(Self { category, usable_only, limit, offset })
    }

    /// `user_id`'s assets (not deleted) on this list, and how many there are in all.
    pub async fn of(&self, db: &impl ConnectionTrait, user_id: i32) -> Result<(Vec<asset::Model>, u64)> {
        let mut query =
            asset::Entity::find().filter(asset::Column::UserId.eq(user_id)).filter(asset::Column::Deleted.eq(false));
        if let Some(kind) = self.category {
            let settings: Vec<i32> = asset_setting::Entity::find()
                .filter(asset_setting::Column::AssetType.eq(kind))
                .select_only()
                .column(asset_setting::Column::Id)
                .into_tuple()
                .all(db)
                .await?;
            query = query.filter(asset::Column::AssetSettingId.is_in(settings));
        }
        if self.usable_only {
            query = query.filter(asset::Column::LatestVersionId.is_not_null());
        }
        let total = query.clone().count(db).await?;
        let rows = query
            .order_by_desc(asset::Column::UpdatedAt)
            .order_by_desc(asset::Column::Id)
            .offset(self.offset)
            .limit(self.limit)
            .all(db)
            .await?;
        Ok((rows, total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_are_asset_types() {
        let list = GameList::parse(Some("furniture"), Some("30"), Some("5"), true).unwrap();
        assert_eq!((list.category, list.limit, list.offset), (Some(AssetType::Furniture), 30, 5));
        match GameList::parse(Some("chairs"), None, None, false) {
            Err(Error::Validation(found)) => assert_eq!(found[0].attribute, "category"),
            other => panic!("{other:?}"),
        }
    }
}
