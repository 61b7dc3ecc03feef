//! A small file sent in one request (`POST /uploader/temporary_uploads`), waiting to become an
//! asset version; gone after its expiry.

use sea_orm::entity::prelude::*;

/// A row of `asset_temporary_uploads`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "asset_temporary_uploads")]
pub struct Model {
    /// A UUID v4, its public id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub user_id: i32,
    pub object_key: String,
    pub file_name: String,
    pub byte_size: i64,
    pub sha256: String,
    pub expires_at: DateTimeUtc,
    /// When a version took it (it is used once).
    pub used_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
