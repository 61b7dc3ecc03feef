//! An exhibitor: a circle (or a company) exhibiting at one event, placed in a world.

use sea_orm::entity::prelude::*;

use crate::types::kinds::ConceptKind;

/// A row of `exhibitors`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "exhibitors")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub circle_id: Option<i32>,
    pub company_id: Option<i32>,
    pub kind: ConceptKind,
    pub world_id: Option<i32>,
    pub name_ja: String,
    pub name_en: String,
    pub display_index: i32,
    /// The slot (application) whose catalogue items hang from this row, for rows made by
    /// exhibitors themselves (issue 28); `None` for rows staff or the demo made.
    pub application_id: Option<i32>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
