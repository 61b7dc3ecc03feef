//! A group of catalogue item categories (general or company).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Whose items a category group classifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum CategoryGroupType {
    /// Items of exhibitors (circles).
    General,
    /// Items of companies.
    Company,
}

/// A row of `catalog_item_category_groups`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "catalog_item_category_groups")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub group_type: CategoryGroupType,
    pub display_index: i32,
    pub name_ja: String,
    pub name_en: String,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
