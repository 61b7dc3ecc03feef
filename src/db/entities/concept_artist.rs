//! Link from `concept` to `artist`.

use sea_orm::entity::prelude::*;

use crate::types::kinds::ConceptArtistCategory;

/// A row of `concept_artists`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "concept_artists")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub concept_id: i32,
    pub artist_id: i32,
    pub category: ConceptArtistCategory,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
