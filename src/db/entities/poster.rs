//! A numbered poster slot inside a world.

use sea_orm::entity::prelude::*;

/// A row of `posters`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "posters")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub world_id: i32,
    pub number: i32,
    pub name: String,
    pub image: Option<String>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
