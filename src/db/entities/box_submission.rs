//! A user's avatar submitted for display in a box (issue 31, spec §3 "Box submission"), reviewed
//! by staff.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a box submission stands (ASSETS.md "The store and conversions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(24))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum BoxStatus {
    /// A draft its owner edits; not yet sent for review.
    NotPublished,
    /// Sent; staff review it.
    InReview,
    /// Staff approved it; it goes on display when staff publish it.
    ReviewApproved,
    /// On display.
    Published,
    /// Staff rejected it, with a reason; its owner fixes it and sends it again.
    ReviewRejected,
}

impl BoxStatus {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotPublished => "not_published",
            Self::InReview => "in_review",
            Self::ReviewApproved => "review_approved",
            Self::Published => "published",
            Self::ReviewRejected => "review_rejected",
        }
    }
}

/// A row of `box_submissions`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "box_submissions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Its public id.
    pub uuid: String,
    pub user_id: i32,
    /// Which of the user's `submission_limit_amount` places it takes (unique per user).
    pub slot: i32,
    /// The user's avatar asset.
    pub asset_id: i32,
    /// The version submitted (the asset's newest uploaded one when last saved).
    pub asset_version_id: i32,
    pub pose_id: i32,
    pub face_id: i32,
    pub name: String,
    pub author: String,
    /// An http(s) URL, or "".
    pub website: String,
    pub comment: String,
    pub status: BoxStatus,
    /// Why staff last rejected it.
    pub rejected_reason: Option<String>,
    pub submitted_at: Option<DateTimeUtc>,
    pub reviewed_at: Option<DateTimeUtc>,
    pub reviewed_by: Option<i32>,
    pub published_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
