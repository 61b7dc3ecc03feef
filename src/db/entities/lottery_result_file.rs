//! The published file of a round's draw (`GET /api/v1/{event}/lottery_results/{round}`): its
//! exact bytes, written once in the publishing transaction, one per run (unique).

use sea_orm::entity::prelude::*;

/// A row of `lottery_result_files`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "lottery_result_files")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub run_id: i32,
    /// The JSON document (`model::lottery::PublicRun` with its material), as served.
    #[sea_orm(column_type = "Text")]
    pub body: String,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
