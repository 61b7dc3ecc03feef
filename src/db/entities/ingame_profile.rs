//! What a player shows others in game (spec §3 "In-game user"): their introduction and the
//! avatar on their top page.

use sea_orm::entity::prelude::*;

/// A row of `ingame_profiles`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_profiles")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    pub introduction: String,
    /// One of the user's own avatar assets.
    pub top_page_avatar_id: Option<i32>,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
