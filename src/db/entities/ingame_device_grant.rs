//! A device grant of the in-game sign-in (RFC 8628, ASSETS.md "In-game"): what a game client
//! asked for, where the user's confirmation stands, and how it is polled.

use sea_orm::entity::prelude::*;

/// Where a grant stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
pub enum GrantStatus {
    /// Waiting for the user to confirm the code.
    Pending,
    /// Confirmed: the next poll receives the token.
    Approved,
    /// The user said no.
    Denied,
    /// The token was handed out: the device code is spent.
    Issued,
    /// Killed by wrong user codes: nothing more happens to it.
    Dead,
}

/// A row of `ingame_device_grants`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ingame_device_grants")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Hex SHA-256 of the device code.
    pub device_code_hash: String,
    /// The user code's first half, which finds the grant.
    pub lookup: String,
    /// Hex SHA-256 of the whole user code.
    pub user_code_hash: String,
    /// The name the client gave (`client_id`), shown when the user confirms.
    pub client_name: String,
    pub status: GrantStatus,
    /// Who confirmed (or refused) it.
    pub user_id: Option<i32>,
    /// Wrong user codes typed for it; at five it is dead.
    pub failed_checks: i32,
    /// Seconds the client waits between polls (raised by each `slow_down`).
    pub interval_secs: i32,
    pub last_polled_at: Option<DateTimeUtc>,
    pub expires_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
