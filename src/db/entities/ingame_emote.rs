//! An emote players can play in game (spec §3 "Emote"), published by staff.

use sea_orm::entity::prelude::*;

/// A row of `ingame_emotes`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_emotes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Japanese name.
    pub name: String,
    pub name_en: String,
    pub icon_url: String,
    /// The motion the game loads.
    pub json_url: String,
    /// Position in lists.
    pub emote_order: i32,
    /// The client version it needs (at least 1).
    pub version: i32,
    /// Everyone owns it.
    pub is_free: bool,
    /// Blacklisted by staff: on no pallet.
    pub is_blacklist: bool,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
