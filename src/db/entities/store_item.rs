//! A store item (issue 31, spec §3 "Store item"): a seller's item made from one of their
//! uploaded assets, with its price, discount window, sale window and who may see it.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What kind of thing is sold (spec §3 product category), from the asset's upload kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(24))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ProductCategory {
    /// A VRM avatar (`avatar` uploads).
    Avatar,
    /// Furniture for the booth maker (`furniture` uploads).
    HousingFurniture,
    /// Avatar parts for the avatar maker (`avatar_part_bundle` uploads).
    AvatarPart,
}

impl ProductCategory {
    /// The snake_case name, as stored, sent and used in addresses.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Avatar => "avatar",
            Self::HousingFurniture => "housing_furniture",
            Self::AvatarPart => "avatar_part",
        }
    }
}

/// Where furniture goes (spec §3 sub category); other items have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(24))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum SubCategory {
    /// Not furniture.
    NoSubCategory,
    /// Stands on the floor.
    Floor,
    /// Hangs from the ceiling.
    Ceiling,
    /// Hangs on a wall.
    Wall,
}

/// Who may see an item (spec §3 `accessibleStatus`): `private → limited → published`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum AccessibleStatus {
    /// Its seller only.
    Private,
    /// Anyone with its link (never listed).
    Limited,
    /// Listed in the store.
    Published,
}

/// A row of `store_items`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "store_items")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Its public id: the item page's address (a `limited` item is reachable by it alone).
    pub uuid: String,
    /// The seller (the asset's owner).
    pub user_id: i32,
    /// The asset sold (its newest uploaded version is what a buyer downloads).
    pub asset_id: i32,
    pub name: String,
    /// The English name (empty: the name is shown).
    pub name_en: String,
    pub description: String,
    pub product_category: ProductCategory,
    pub sub_category: SubCategory,
    pub accessible_status: AccessibleStatus,
    /// Set by staff: hidden from everyone but its seller, whatever `accessible_status` says.
    pub is_forced_private: bool,
    /// Yen, before any discount.
    pub price: i32,
    /// Percent off from `discount_start_at` to `discount_end_at` (0: none).
    pub discount_rate: i32,
    pub discount_start_at: Option<DateTimeUtc>,
    pub discount_end_at: Option<DateTimeUtc>,
    /// The platform's share of a sale, in percent (recorded in yen with each purchase).
    pub fee: i32,
    /// On sale from (none: from the start).
    pub start_at: Option<DateTimeUtc>,
    /// On sale until, exclusive (none: no end).
    pub end_at: Option<DateTimeUtc>,
    /// The seller's order of their items (smaller first).
    pub item_order: i32,
    /// Purchases that stand (refunds taken off).
    pub purchase_count: i32,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
