//! A numbered area inside a world where booths stand.

use sea_orm::entity::prelude::*;

/// A row of `world_areas`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "world_areas")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub world_id: i32,
    pub name: String,
    pub number: i32,
    pub image: Option<String>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
