//! A user staff barred from in-game chat (the chat blacklist).

use sea_orm::entity::prelude::*;

/// A row of `ingame_chat_blocks`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_chat_blocks")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Who may not post.
    pub user_id: i32,
    /// Why (for staff).
    pub reason: String,
    /// The staff member who barred them.
    pub blocked_by: Option<i32>,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
