//! One player following another in game.

use sea_orm::entity::prelude::*;

/// A row of `ingame_follows`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_follows")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Who follows.
    pub follower_id: i32,
    /// Whom.
    pub followee_id: i32,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
