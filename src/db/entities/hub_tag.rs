//! A hub tag, named in both languages.

use sea_orm::entity::prelude::*;

/// A row of `hub_tags`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "hub_tags")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub name_ja: String,
    pub name_en: String,
    pub display_index: i32,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
