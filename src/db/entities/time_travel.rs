//! The time-travel offset (one row at most): how far the application clock is moved from the
//! real one.

use sea_orm::entity::prelude::*;

/// A row of `time_travel`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "time_travel")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i32,
    /// Milliseconds added to the real clock.
    pub offset_ms: i64,
    /// The staff member who set it.
    pub set_by: i32,
    pub set_at: DateTimeUtc,
}

/// The offset stands alone: no relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
