//! An event entry: one circle's application to one event (spec §3 "Event entry"); unique per
//! (event, circle). Its wishes are `event_entry_applications`; its lottery type is derived from
//! them, never stored.

use sea_orm::entity::prelude::*;

/// A row of `event_entries`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "event_entries")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub circle_id: i32,
    /// The circle accepts more than one win (otherwise the lottery gives it at most one).
    pub is_multiple_win: bool,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
