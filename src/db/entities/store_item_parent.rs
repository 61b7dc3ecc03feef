//! One item of a store item set (issue 31, spec §3 `parentItems`): item `item_id` is in the set
//! `parent_id`, at `position` in the set's list.

use sea_orm::entity::prelude::*;

/// A row of `store_item_parents`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "store_item_parents")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The set.
    pub parent_id: i32,
    /// The item in it.
    pub item_id: i32,
    /// Its place in the set's list (from 1).
    pub position: i32,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
