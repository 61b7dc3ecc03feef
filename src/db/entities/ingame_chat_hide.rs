//! Staff hid a chat message: the event every node's chat hub passes to live streams.

use sea_orm::entity::prelude::*;

/// A row of `ingame_chat_hides`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_chat_hides")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The hidden message.
    pub message_id: i32,
    /// Its channel.
    pub channel: String,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
