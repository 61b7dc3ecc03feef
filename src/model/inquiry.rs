//! Inquiries and their categories: the public category view, storing a checked inquiry (the
//! input and its checks are `forms::inquiry`) and the per-target forwarding status the
//! background job updates.

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::{ActiveValue::Set, ExprTrait, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::config::Config;
use crate::db::entities::{inquiry, inquiry_category};
use crate::error::{Error, Result};
use crate::types::{Lang, Localized, localized};

/// Defined with its entity (`db::entities::inquiry`); part of this model's API.
pub use crate::db::entities::inquiry::{ForwardStatus, Handling};

/// A public inquiry category, as clients see it (no forwarding targets).
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct InquiryCategoryView {
    /// Category id, the value of `inquiry_category_id`.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
}

impl InquiryCategoryView {
    /// The view of `c` in `lang`.
    pub fn new(c: &inquiry_category::Model, lang: Lang) -> Self {
        Self { id: c.id, name: Localized::new(lang, c.name_ja.clone(), c.name_en.clone()) }
    }
}

impl inquiry_category::Model {
    /// Public categories in display order.
    pub async fn public(db: &impl ConnectionTrait) -> Result<Vec<Self>> {
        Ok(inquiry_category::Entity::find()
            .filter(inquiry_category::Column::IsPublic.eq(true))
            .order_by_asc(inquiry_category::Column::DisplayOrder)
            .order_by_asc(inquiry_category::Column::Id)
            .all(db)
            .await?)
    }

    /// The category `id` (public or not), or `not_found`.
    pub async fn find(db: &impl ConnectionTrait, id: i32) -> Result<Self> {
        inquiry_category::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// The public category `id`, if there is one.
    pub async fn find_public(db: &impl ConnectionTrait, id: i32) -> Result<Option<Self>> {
        Ok(inquiry_category::Entity::find_by_id(id).filter(inquiry_category::Column::IsPublic.eq(true)).one(db).await?)
    }

    /// Whether inquiries of this category go to Slack.
    pub fn has_slack(&self) -> bool {
        self.slack_webhook_url.as_deref().is_some_and(|u| !u.trim().is_empty())
    }

    /// Whether inquiries of this category become Jira issues (needs Jira configured too).
    pub fn has_jira(&self, config: &Config) -> bool {
        config.jira_enabled()
            && self.jira_project_code.as_deref().is_some_and(|c| !c.trim().is_empty())
            && self.jira_issue_type_id.as_deref().is_some_and(|c| !c.trim().is_empty())
    }
}

/// A checked inquiry, ready to store.
#[derive(Debug, Clone)]
pub struct NewInquiry {
    /// The (public) category.
    pub category: inquiry_category::Model,
    /// Reply address, trimmed.
    pub email: String,
    /// Name, trimmed; `None` when empty.
    pub name: Option<String>,
    /// The message, trimmed at both ends.
    pub message: String,
}

/// The overall state of an inquiry, as told to the sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InquiryStatus {
    /// Stored; staff read it in the console (no forwarding target).
    Received,
    /// Stored and waiting to be forwarded.
    Pending,
    /// Forwarded to every target.
    Sent,
    /// Stored, but a target could not be reached; staff will pick it up from the console.
    Failed,
}

/// The answer to a new inquiry.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InquiryReceipt {
    /// Inquiry number.
    pub id: i32,
    /// Where it stands.
    pub status: InquiryStatus,
}

impl inquiry::Model {
    /// Stores a checked inquiry; targets start `pending` (or `none` when the category has none).
    pub async fn create(
        db: &impl ConnectionTrait,
        new: NewInquiry,
        config: &Config,
        lang: Lang,
        client_ip_hash: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let target = |on: bool| if on { ForwardStatus::Pending } else { ForwardStatus::None };
        let row = inquiry::ActiveModel {
            category_id: Set(new.category.id),
            email: Set(new.email),
            name: Set(new.name),
            message: Set(new.message),
            lang: Set(lang.code().to_string()),
            client_ip_hash: Set(client_ip_hash),
            slack_status: Set(target(new.category.has_slack())),
            jira_status: Set(target(new.category.has_jira(config))),
            attempts: Set(0),
            last_error: Set(None),
            jira_issue_key: Set(None),
            next_attempt_at: Set(Some(now)),
            forwarded_at: Set(None),
            created_at: Set(now),
            ..Default::default()
        };
        Ok(row.insert(db).await?)
    }

    /// The inquiry `id`, or `not_found`.
    pub async fn find(db: &impl ConnectionTrait, id: i32) -> Result<Self> {
        inquiry::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// Whether a target still waits for an attempt.
    pub fn is_pending(&self) -> bool {
        self.slack_status == ForwardStatus::Pending || self.jira_status == ForwardStatus::Pending
    }

    /// The overall state.
    pub fn status(&self) -> InquiryStatus {
        let all = [self.slack_status, self.jira_status];
        if all.contains(&ForwardStatus::Pending) {
            InquiryStatus::Pending
        } else if all.contains(&ForwardStatus::Failed) {
            InquiryStatus::Failed
        } else if all.contains(&ForwardStatus::Sent) {
            InquiryStatus::Sent
        } else {
            InquiryStatus::Received
        }
    }

    /// Inquiries with a target still pending, oldest first.
    pub async fn pending(db: &impl ConnectionTrait) -> Result<Vec<Self>, DbErr> {
        inquiry::Entity::find()
            .filter(
                inquiry::Column::SlackStatus
                    .eq(ForwardStatus::Pending)
                    .or(inquiry::Column::JiraStatus.eq(ForwardStatus::Pending)),
            )
            .order_by_asc(inquiry::Column::Id)
            .all(db)
            .await
    }
}
