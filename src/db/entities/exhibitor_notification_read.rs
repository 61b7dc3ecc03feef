//! That a user has opened an exhibitor notification (one row per user and notification).

use sea_orm::entity::prelude::*;

/// A row of `exhibitor_notification_reads`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "exhibitor_notification_reads")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    pub exhibitor_notification_id: i32,
    /// When the user first opened it.
    pub read_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
