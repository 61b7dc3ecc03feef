//! Where a player's game client last said they are, and whether others may invite or join them.

use sea_orm::entity::prelude::*;

/// A row of `ingame_presences`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_presences")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    /// The channel (`channel_session_code`) they are on.
    pub channel: Option<String>,
    /// The event world they are in.
    pub world_id: Option<i32>,
    /// The link that takes others to their instance (https).
    pub join_url: Option<String>,
    /// They take invitations.
    pub invitable: bool,
    /// Those they follow back may join them.
    pub joinable: bool,
    /// The last heartbeat.
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
