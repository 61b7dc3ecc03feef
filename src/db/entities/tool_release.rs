//! A release of the desktop submission tool (issue 28 item 4), kept by staff in the console;
//! `GET /api/get/version` answers the newest published one.

use sea_orm::entity::prelude::*;

/// A row of `tool_releases`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "tool_releases")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The tool's version, e.g. `2.4.1`.
    pub version: String,
    /// The package's file name.
    pub package_name: String,
    /// Where the package is downloaded.
    pub download_url: String,
    /// Which tool (`vmarket_tools`).
    pub tool_type: String,
    /// Served by `GET /api/get/version`.
    pub is_published: bool,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
