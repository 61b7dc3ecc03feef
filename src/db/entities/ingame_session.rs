//! An in-game session: the opaque token a device grant ended in (only its SHA-256 is stored),
//! whose user, from which client, until when, and whether the user revoked it.

use sea_orm::entity::prelude::*;

/// A row of `ingame_sessions`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_sessions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    /// Hex SHA-256 of the token.
    pub token_hash: String,
    /// The client's name from its device grant.
    pub client_name: String,
    pub created_at: DateTimeUtc,
    pub last_used_at: DateTimeUtc,
    pub expires_at: DateTimeUtc,
    pub revoked_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
