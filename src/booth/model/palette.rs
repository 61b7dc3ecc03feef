//! What the editor may place: the user's furniture and the furniture they bought in the store
//! (each asset's newest uploaded version, and any version the draft already places), each with a short-lived link to its GLB and its stats.

use std::time::Duration;

use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use super::check::{furniture_versions, setting_ids, stats_of, sub_type_name};
use crate::assets::api::downloads::link;
use crate::assets::api::uploader::Uploader;
use crate::booth::totals::ItemStats;
use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::store_item::ProductCategory;
use crate::db::entities::{asset, asset_version};
use crate::error::Result;
use crate::store::model::purchase::bought_assets;

/// How long the editor's links to the files stay valid (the editor loads them at once).
pub const LINK_SECS: u64 = 900;

/// One placeable version.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PaletteItem {
    /// The version to place.
    pub asset_version_id: i32,
    /// Its asset.
    pub asset_id: i32,
    /// The asset's name.
    pub name: String,
    /// `floor`, `wall` or `ceiling`.
    pub sub_type: String,
    /// A short-lived link to the GLB.
    pub url: String,
    /// Its picture.
    pub thumbnail: Option<String>,
    /// What it weighs.
    pub stats: ItemStats,
}

/// The user's newest uploaded furniture versions plus `also` (versions the draft places), each
/// once, newest asset first.
pub async fn palette(up: &Uploader<'_>, user_id: i32, also: &[i32]) -> Result<Vec<PaletteItem>> {
    let furniture = setting_ids(up.db, AssetType::Furniture).await?;
    let bought = bought_assets(up.db, user_id, ProductCategory::HousingFurniture).await?;
    let assets = asset::Entity::find()
        .filter(Condition::any().add(asset::Column::UserId.eq(user_id)).add(asset::Column::Id.is_in(bought)))
        .filter(asset::Column::Deleted.eq(false))
        .filter(asset::Column::AssetSettingId.is_in(furniture))
        .order_by_desc(asset::Column::Id)
        .all(up.db)
        .await?;
    let mut ids: Vec<i32> = assets.iter().filter_map(|a| a.latest_version_id).collect();
    for id in also {
        if !ids.contains(id) {
            ids.push(*id);
        }
    }
    let found = furniture_versions(up.db, user_id, &ids).await?;
    let mut out = Vec::new();
    for id in ids {
        let Some((version, asset)) = found.get(&id) else { continue };
        if version.upload_status != UploadStatus::Uploaded {
            continue;
        }
        out.push(item(up, version, asset).await?);
    }
    Ok(out)
}

async fn item(up: &Uploader<'_>, version: &asset_version::Model, asset: &asset::Model) -> Result<PaletteItem> {
    let url = link(up, version, Duration::from_secs(LINK_SECS)).await?.url;
    Ok(PaletteItem {
        asset_version_id: version.id,
        asset_id: asset.id,
        name: asset.name.clone(),
        sub_type: asset.sub_type.map_or("floor", sub_type_name).to_string(),
        url,
        thumbnail: version.thumbnail_key.as_ref().map(|k| format!("/media/{k}/160.png")),
        stats: stats_of(version),
    })
}

/// The user's newest uploaded avatar (VRM), shown in the editor for scale: its name and link.
pub async fn avatar(up: &Uploader<'_>, user_id: i32) -> Result<Option<(String, String)>> {
    let avatars = setting_ids(up.db, AssetType::Avatar).await?;
    let newest = asset::Entity::find()
        .filter(asset::Column::UserId.eq(user_id))
        .filter(asset::Column::Deleted.eq(false))
        .filter(asset::Column::AssetSettingId.is_in(avatars))
        .filter(asset::Column::LatestVersionId.is_not_null())
        .order_by_desc(asset::Column::Id)
        .one(up.db)
        .await?;
    let Some(found) = newest else { return Ok(None) };
    let Some(version) = asset_version::Entity::find_by_id(found.latest_version_id.unwrap_or(0)).one(up.db).await?
    else {
        return Ok(None);
    };
    let url = link(up, &version, Duration::from_secs(LINK_SECS)).await?.url;
    Ok(Some((found.name, url)))
}
