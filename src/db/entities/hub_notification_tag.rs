//! A hub tag on a hub notification.

use sea_orm::entity::prelude::*;

/// A row of `hub_notification_tags`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "hub_notification_tags")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub hub_notification_id: i32,
    pub hub_tag_id: i32,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
