//! A download token of an asset version (spec §3 "Asset download token"): the SHA-256 of the
//! token (the token itself is shown once), an optional argon2 password hash, an expiry.

use sea_orm::entity::prelude::*;

/// A row of `asset_download_tokens`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "asset_download_tokens")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub asset_version_id: i32,
    /// Hex SHA-256 of the token.
    pub token_hash: String,
    /// argon2 PHC string, when the owner set a password.
    pub password_hash: Option<String>,
    pub expires_at: DateTimeUtc,
    pub created_by: i32,
    pub created_at: DateTimeUtc,
    pub revoked_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
