//! A booth placement of an exhibitor: an area of its world and a booth number.

use sea_orm::entity::prelude::*;

/// A row of `exhibitor_slots`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "exhibitor_slots")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub exhibitor_id: i32,
    pub world_area_id: Option<i32>,
    pub number: i32,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
