//! A mail in the queue: recipient, language, kind, the rendered subject and bodies, and where its
//! delivery stands.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

/// Where a mail stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum MailStatus {
    /// Waiting for its first or a later attempt.
    Pending,
    /// Accepted by the SMTP server (or written to the outbox); never sent again.
    Sent,
    /// Given up on (attempts spent, or the server refused it for good); kept for staff.
    Failed,
}

/// A row of `mails`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "mails")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub recipient: String,
    pub lang: String,
    pub kind: String,
    #[sea_orm(column_type = "Text")]
    pub subject: String,
    #[sea_orm(column_type = "Text")]
    pub text_body: String,
    #[sea_orm(column_type = "Text")]
    pub html_body: String,
    pub message_id: String,
    pub status: MailStatus,
    pub attempts: i32,
    #[sea_orm(column_type = "Text", nullable)]
    pub last_error: Option<String>,
    pub created_at: DateTimeUtc,
    pub next_attempt_at: Option<DateTimeUtc>,
    pub sent_at: Option<DateTimeUtc>,
    /// Set for a mail that must exist at most once (unique): e.g. `lottery_result:{run}:{entry}`.
    pub dedup_key: Option<String>,
}

/// A mail stands alone: no relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
