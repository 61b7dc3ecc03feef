//! `inquiries`: what visitors sent, with where its forwarding stands per target (Slack, Jira) and
//! the last error; staff only change their handling status (open → in progress → resolved).
//! `filter={"forwarding":"failed"}` finds those a target gave up on;
//! `filter={"unforwarded_before":"<instant>"}` those a target gave up on or still waits for
//! although they were sent before that instant (the dashboard's "not forwarded" card).

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, Set};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::inquiry;
use crate::error::Result;
use crate::model::inquiry::{ForwardStatus, Handling, InquiryStatus};

/// The resource.
pub struct Inquiries;

/// An inquiry as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct InquiryRecord {
    /// Inquiry number.
    pub id: i32,
    /// Its category.
    pub category_id: i32,
    /// Reply address.
    pub email: String,
    /// Sender's name, if given.
    pub name: Option<String>,
    /// The message.
    pub message: String,
    /// The language it was sent in.
    pub lang: String,
    /// Where staff stand with it.
    pub handling: Handling,
    /// Forwarding overall.
    pub status: InquiryStatus,
    /// Slack forwarding.
    pub slack_status: ForwardStatus,
    /// Jira forwarding.
    pub jira_status: ForwardStatus,
    /// Forwarding attempts so far.
    pub attempts: i32,
    /// The last forwarding error.
    pub last_error: Option<String>,
    /// The Jira issue created for it.
    pub jira_issue_key: Option<String>,
    /// When every target was reached.
    pub forwarded_at: Option<DateTime<Utc>>,
    /// When it was sent.
    pub created_at: DateTime<Utc>,
}

/// What staff change on an inquiry.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct InquiryInput {
    /// The handling status.
    #[validate(required)]
    pub handling: Option<Handling>,
}

/// The `forwarding` filter: `failed` (a target given up on), `pending` (a target waiting), `sent`
/// (every target reached) or `none` (nothing to forward).
fn forwarding(value: &Value) -> Option<Condition> {
    let status = |s: ForwardStatus| {
        Condition::any().add(inquiry::Column::SlackStatus.eq(s)).add(inquiry::Column::JiraStatus.eq(s))
    };
    let neither = |s: ForwardStatus| {
        Condition::all().add(inquiry::Column::SlackStatus.ne(s)).add(inquiry::Column::JiraStatus.ne(s))
    };
    Some(match value.as_str()? {
        "failed" => status(ForwardStatus::Failed),
        "pending" => status(ForwardStatus::Pending),
        "sent" => status(ForwardStatus::Sent).add(neither(ForwardStatus::Pending)).add(neither(ForwardStatus::Failed)),
        "none" => Condition::all()
            .add(inquiry::Column::SlackStatus.eq(ForwardStatus::None))
            .add(inquiry::Column::JiraStatus.eq(ForwardStatus::None)),
        _ => return None,
    })
}

/// The `unforwarded_before` filter: a target failed, or still pending for an inquiry sent before
/// the instant given (RFC 3339).
pub fn unforwarded_before(value: &Value) -> Option<Condition> {
    let before = crate::forms::checks::parse_instant(value.as_str()?.trim())?;
    let status = |s: ForwardStatus| {
        Condition::any().add(inquiry::Column::SlackStatus.eq(s)).add(inquiry::Column::JiraStatus.eq(s))
    };
    Some(
        Condition::any()
            .add(status(ForwardStatus::Failed))
            .add(Condition::all().add(status(ForwardStatus::Pending)).add(inquiry::Column::CreatedAt.lte(before))),
    )
}

impl Resource for Inquiries {
    type Entity = inquiry::Entity;
    type Record = InquiryRecord;
    type Input = InquiryInput;

    const NAME: &'static str = "inquiries";
    const AREA: Area = Area::Support;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    // Which inquiry and where it stands: not the sender's address, name or message.
    const AUDIT_FIELDS: Option<&'static [&'static str]> =
        Some(&["id", "category_id", "lang", "handling", "status", "slack_status", "jira_status", "created_at"]);
    const COLUMNS: Columns = Columns {
        sort: &["created_at", "handling", "category_id", "email"],
        filter: &["created_at", "handling", "category_id", "slack_status", "jira_status", "lang", "email"],
        search: &["email", "name", "message"],
        computed: &[("forwarding", forwarding), ("unforwarded_before", unforwarded_before)],
    };

    async fn records<C: ConnectionTrait + Sync>(_db: &C, rows: Vec<inquiry::Model>) -> Result<Vec<InquiryRecord>> {
        Ok(rows
            .into_iter()
            .map(|i| InquiryRecord {
                status: i.status(),
                id: i.id,
                category_id: i.category_id,
                email: i.email,
                name: i.name,
                message: i.message,
                lang: i.lang,
                handling: i.handling,
                slack_status: i.slack_status,
                jira_status: i.jira_status,
                attempts: i.attempts,
                last_error: i.last_error,
                jira_issue_key: i.jira_issue_key,
                forwarded_at: i.forwarded_at,
                created_at: i.created_at,
            })
            .collect())
    }

    async fn update(txn: &DatabaseTransaction, row: inquiry::Model, input: InquiryInput, _cx: &Cx<'_>) -> Result<()> {
        let mut row: inquiry::ActiveModel = row.into();
        row.handling = Set(input.handling.unwrap_or(Handling::Open));
        row.update(txn).await?;
        Ok(())
    }
}
