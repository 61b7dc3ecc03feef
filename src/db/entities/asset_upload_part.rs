//! A part the local store received for an upload (an S3-compatible store lists its own).

use sea_orm::entity::prelude::*;

/// A row of `asset_upload_parts`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "asset_upload_parts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub upload_id: String,
    /// From 1.
    #[sea_orm(primary_key, auto_increment = false)]
    pub part_number: i32,
    /// Quoted, as the `ETag` header carried it.
    pub etag: String,
    pub byte_size: i64,
    pub received_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
