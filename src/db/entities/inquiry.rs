//! An inquiry sent through the contact form or `POST /api/v1/inquiry`, with the forwarding
//! status of each target (Slack, Jira).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where an inquiry stands with one forwarding target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ForwardStatus {
    /// The category has no such target: nothing to send.
    None,
    /// Waiting for the first or a later attempt.
    Pending,
    /// Delivered.
    Sent,
    /// Given up on (retry budget spent or the remote refused it); kept for staff.
    Failed,
}

/// Where staff stand with answering an inquiry (set in the console; new inquiries are `open`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Handling {
    /// Nobody has picked it up yet.
    Open,
    /// Someone is on it.
    InProgress,
    /// Answered or otherwise settled.
    Resolved,
}

/// A row of `inquiries`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "inquiries")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub category_id: i32,
    pub email: String,
    pub name: Option<String>,
    #[sea_orm(column_type = "Text")]
    pub message: String,
    pub lang: String,
    pub client_ip_hash: Option<String>,
    pub slack_status: ForwardStatus,
    pub jira_status: ForwardStatus,
    pub attempts: i32,
    #[sea_orm(column_type = "Text", nullable)]
    pub last_error: Option<String>,
    pub jira_issue_key: Option<String>,
    pub next_attempt_at: Option<DateTimeUtc>,
    pub forwarded_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    /// Where staff stand with answering it.
    pub handling: Handling,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
