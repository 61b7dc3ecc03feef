//! An invitation of a user into a circle, from its owner, and how it was answered.

use sea_orm::entity::prelude::*;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A row of `circle_invitations`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "circle_invitations")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub circle_id: i32,
    /// The invited user.
    pub user_id: i32,
    /// The owner who invited them.
    pub invited_by_user_id: i32,
    /// As stored: a `pending` row past `expires_at` is expired all the same.
    pub status: InvitationStatus,
    pub created_at: DateTimeUtc,
    pub expires_at: DateTimeUtc,
    /// When it was approved, withdrawn, cancelled or marked expired.
    pub responded_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// Where an invitation stands (spec: pending / approved / withdrawn / cancelled / expired).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum InvitationStatus {
    /// Waiting for the invitee.
    Pending,
    /// The invitee joined.
    Approved,
    /// The invitee declined.
    Withdrawn,
    /// The owner took it back.
    Cancelled,
    /// Nobody answered within 14 days.
    Expired,
}
