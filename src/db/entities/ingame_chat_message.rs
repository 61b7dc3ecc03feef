//! A chat message in game (spec §3 "Chat message"): a text or an emote stamp on a channel.

use sea_orm::entity::prelude::*;

/// A row of `ingame_chat_messages`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_chat_messages")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The game's `channel_session_code`.
    pub channel: String,
    /// Who said it.
    pub user_id: i32,
    /// `Text` or `Emote_stamp`.
    pub message_type: String,
    /// The text (empty for a stamp).
    pub message: String,
    /// The stamp's emote.
    pub emote_id: Option<i32>,
    /// Where the speaker stood.
    pub pos_x: f64,
    pub pos_y: f64,
    pub pos_z: f64,
    /// When staff hid it.
    pub hidden_at: Option<DateTimeUtc>,
    /// Which staff member hid it.
    pub hidden_by: Option<i32>,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
