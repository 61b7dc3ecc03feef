//! An event entry plan: what a circle can apply for in an event (spec §3 "Event entry plan"): a
//! category, a world, `maximum` slots and an integer fee in JPY.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A row of `event_entry_plans`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "event_entry_plans")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    /// The world the slots are in (a world of the same event).
    pub world_id: i32,
    pub exhibition_category: ExhibitionCategory,
    pub name_ja: String,
    pub name_en: String,
    /// How many slots the lottery gives away (at most this many winners).
    pub maximum: i32,
    /// Fee per slot in JPY (0: free, a win needs no payment).
    pub fee: i32,
    /// Where a circle can look at the world before applying.
    pub preview_world_launch_url: Option<String>,
    /// Order within the event (ascending).
    pub display_order: i32,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// What a plan's slots are for (spec §3: space, item or avatar).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ExhibitionCategory {
    /// A booth space in a world.
    Space,
    /// An item exhibition.
    Item,
    /// An avatar exhibition.
    Avatar,
}

impl ExhibitionCategory {
    /// The snake_case name, as stored, sent and used in message keys.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Space => "space",
            Self::Item => "item",
            Self::Avatar => "avatar",
        }
    }

    /// The category named `s` (snake_case), if any.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "space" => Some(Self::Space),
            "item" => Some(Self::Item),
            "avatar" => Some(Self::Avatar),
            _ => None,
        }
    }
}
