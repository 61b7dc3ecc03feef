//! Where an event slot's booth stands (issue 28): the world area and booth number staff
//! assigned to a `paid` or `win` application. One booth per area and number (unique index).

use sea_orm::entity::prelude::*;

/// A row of `event_slot_placements`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "event_slot_placements")]
pub struct Model {
    /// The slot: its application.
    #[sea_orm(primary_key, auto_increment = false)]
    pub application_id: i32,
    pub world_area_id: i32,
    pub number: i32,
    /// The staff member who assigned it.
    pub assigned_by: Option<i32>,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
