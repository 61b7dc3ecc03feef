//! One verdict of staff on a box submission (spec §3 "Box submission" `reviews`).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ReviewResult {
    /// Fit for display.
    Approved,
    /// To be fixed (`rejected_reason` says what).
    Rejected,
}

/// A row of `box_submission_reviews`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "box_submission_reviews")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub submission_id: i32,
    pub reviewer_id: i32,
    pub result: ReviewResult,
    pub rejected_reason: Option<String>,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
