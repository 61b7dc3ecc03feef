//! A cached link preview result.

use sea_orm::entity::prelude::*;

/// A row of `link_previews`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "link_previews")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// SHA-256 of `url`, hex; the lookup key.
    #[sea_orm(unique)]
    pub url_hash: String,
    #[sea_orm(column_type = "Text")]
    pub url: String,
    /// The `LinkPreview` JSON served to clients.
    #[sea_orm(column_type = "Text")]
    pub result: String,
    pub fetched_at: DateTimeUtc,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
