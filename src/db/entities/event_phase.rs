//! A point on an event's timeline (entry start, event open, …).

use sea_orm::entity::prelude::*;

use crate::model::phase::PhaseType;

/// A row of `event_phases`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "event_phases")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub phase_type: PhaseType,
    pub phase_timestamp: DateTimeUtc,
    pub is_private: bool,
    pub is_displayable: bool,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
