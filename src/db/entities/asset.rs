//! An uploaded asset (spec §3 "Asset"): owned by one user, with its versions; `published` and
//! `deleted` change only by the owner.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a piece of furniture goes (spec §3 furniture detail `subType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum SubType {
    /// Stands on the floor.
    Floor,
    /// Hangs on a wall.
    Wall,
    /// Hangs from the ceiling.
    Ceiling,
}

/// A row of `assets`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "assets")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    pub asset_setting_id: i32,
    pub name: String,
    pub description: String,
    pub sub_type: Option<SubType>,
    pub published: bool,
    pub deleted: bool,
    pub deleted_at: Option<DateTimeUtc>,
    /// The newest `uploaded` version.
    pub latest_version_id: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
