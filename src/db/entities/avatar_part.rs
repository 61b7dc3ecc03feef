//! A part the avatar maker offers (issue 31, spec §3 "Avatar part"): an uploaded
//! `avatar_part_bundle`, curated by staff.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The body a part fits (spec §3 `characterType`): one kind so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum CharacterType {
    /// The maker's human body.
    Human,
}

/// Where on the avatar a part goes (spec §3 `partType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum PartType {
    /// Hair.
    Hair,
    /// A face.
    Face,
    /// Eyes.
    Eye,
    /// Ears.
    Ear,
    /// Trousers or a skirt.
    Bottoms,
    /// A shirt or a jacket.
    Tops,
    /// A one-piece (tops and bottoms at once).
    Onepiece,
    /// Shoes.
    Shoes,
    /// An accessory.
    Accessory,
}

/// A row of `avatar_parts`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "avatar_parts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Its public id.
    pub uuid: String,
    pub name: String,
    /// The English name ("" when none).
    pub name_en: String,
    pub character_type: CharacterType,
    pub part_type: PartType,
    /// The `avatar_part_bundle` asset whose newest upload is the part.
    pub asset_id: i32,
    /// The store item whose buyers get it (set when `is_purchase_required`).
    pub store_item_id: Option<i32>,
    pub is_purchase_required: bool,
    /// Offered by its link only, never in the maker's list.
    pub is_limited: bool,
    pub published: bool,
    /// Its place in the maker's list (smaller first).
    pub part_order: i32,
    /// The oldest avatar maker version that reads it.
    pub avatar_maker_version: i32,
    /// An avatar wearing it may be uploaded to VRChat.
    pub is_vrc_uploadable: bool,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
