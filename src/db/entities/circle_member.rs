//! A member of a circle (the owner is one too): one row per circle and user.

use sea_orm::entity::prelude::*;

/// A row of `circle_members`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "circle_members")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub circle_id: i32,
    pub user_id: i32,
    /// When the user joined (the owner: when the circle was created).
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
