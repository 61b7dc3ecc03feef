//! An asset setting (spec §7 "Asset uploader" `asset_settings/{label}`): one kind of upload —
//! what it accepts (by content), how large, and which rule set checks it.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The asset's type as the spec lists it (`assetType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum AssetType {
    /// Scene assets, videos.
    None,
    /// VRM avatars.
    Avatar,
    /// Archives: avatar-part bundles, booth packages.
    Zip,
    /// Furniture for the booth maker.
    Furniture,
}

/// A row of `asset_settings`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "asset_settings")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// `avatar`, `furniture`, `scene_asset`, `avatar_part_bundle`, `booth_package`, `housing_video`.
    pub label: String,
    pub name_ja: String,
    pub name_en: String,
    pub asset_type: AssetType,
    /// The kinds of file accepted, as a JSON list of `assets::analyse::Kind` names.
    pub accepted: String,
    pub max_bytes: i64,
    pub rule_set_id: i32,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
