//! One slot of a player's emote pallet (spec §3 "Emote pallets": `pallet_num` → `emote_id`).

use sea_orm::entity::prelude::*;

/// A row of `ingame_emote_pallets`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_emote_pallets")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    /// The slot, 1 to 10.
    pub pallet_num: i32,
    pub emote_id: i32,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
