//! The state of one key of a shared rate limiter (`crate::http::limit`).

use sea_orm::entity::prelude::*;

/// A row of `rate_limits`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "rate_limits")]
pub struct Model {
    /// A digest of the limiter's name and the key (never the address or email itself).
    #[sea_orm(primary_key, auto_increment = false)]
    pub bucket: String,
    /// The key's theoretical arrival time (GCRA), Unix milliseconds: the key is quiet again once
    /// the real time has passed it, and the row may then be pruned.
    pub tat: i64,
}

/// Limits stand alone: no relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
