//! A keyword shared by concepts and worlds.

use sea_orm::entity::prelude::*;

/// A row of `keywords`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "keywords")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub name_ja: String,
    pub name_en: String,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
