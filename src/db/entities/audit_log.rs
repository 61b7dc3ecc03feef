//! One staff write: who did what to which record when, with the record before and after.

use sea_orm::entity::prelude::*;

/// A row of `audit_log`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_log")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The staff member's user id.
    pub actor_id: i32,
    /// Their handle at the time.
    pub actor_vmarket_id: String,
    /// Their role at the time.
    pub actor_role: String,
    pub at: DateTimeUtc,
    /// The console resource, e.g. `events`.
    pub resource: String,
    pub record_id: String,
    /// `create`, `edit`, `delete` or a resource's own action.
    pub action: String,
    /// The record before the write (JSON), absent for a creation.
    #[sea_orm(column_type = "Text", nullable)]
    pub before: Option<String>,
    /// The record after the write (JSON), absent for a deletion.
    #[sea_orm(column_type = "Text", nullable)]
    pub after: Option<String>,
}

/// The log stands alone: no relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
