//! An ambassador: a user who promotes the event, by generation and team.

use sea_orm::entity::prelude::*;

use crate::model::hub::TeamType;

/// A row of `ambassadors`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ambassadors")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    pub generation: i32,
    pub team_type: TeamType,
    pub is_inactive: bool,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
