//! An inquiry sent through the contact form or `POST /api/v1/inquiry`, with the forwarding
//! status of each target (Slack, Jira).

use sea_orm::entity::prelude::*;

use crate::model::inquiry::{ForwardStatus, Handling};

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
