//! Link from `concept` to `keyword`.

use sea_orm::entity::prelude::*;

/// A row of `concept_keywords`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "concept_keywords")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub concept_id: i32,
    pub keyword_id: i32,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
