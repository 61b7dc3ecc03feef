//! Inquiries and their categories: the public category view, input validation (spec §5
//! "Inquiry": email, message, inquiryCategoryId and agreement required), storing an inquiry and
//! the per-target forwarding status the background job updates.

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::{ActiveValue::Set, ExprTrait, QueryOrder};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use validator::{Validate, ValidationError, ValidationErrors};

use crate::config::Config;
use crate::db::entities::{inquiry, inquiry_category};
use crate::error::{Error, FieldError, Result};
use crate::i18n::{Lang, Messages};
use crate::model::text;

/// Longest message accepted, in characters.
pub const MESSAGE_MAX: u64 = 4000;
/// Longest optional name accepted, in characters.
pub const NAME_MAX: u64 = 100;

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

/// A public inquiry category, as clients see it (no forwarding targets).
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct InquiryCategoryView {
    /// Category id, the value of `inquiry_category_id`.
    pub id: i32,
    /// Name in the request's language.
    pub name: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
}

impl InquiryCategoryView {
    /// The view of `c` in `lang`.
    pub fn new(c: &inquiry_category::Model, lang: Lang) -> Self {
        Self {
            id: c.id,
            name: lang.pick(&c.name_ja, &c.name_en).to_string(),
            name_ja: c.name_ja.clone(),
            name_en: c.name_en.clone(),
        }
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

/// What a visitor sends (JSON body of `POST /api/v1/inquiry`, or the contact form).
#[derive(Debug, Clone, Default, Deserialize, Serialize, Validate, ToSchema)]
pub struct InquiryInput {
    /// Reply address.
    #[validate(required(code = "required"), email(code = "email"), custom(function = "clean_text"))]
    pub email: Option<String>,
    /// The question, 1 to 4000 characters.
    #[validate(
        required(code = "required"),
        length(min = 1, max = 4000, code = "length"),
        custom(function = "clean_text")
    )]
    pub message: Option<String>,
    /// One of `GET /api/v1/inquiry_categories`.
    #[validate(required(code = "required"))]
    pub inquiry_category_id: Option<i64>,
    /// Consent to the privacy policy; must be `true`.
    #[validate(required(code = "required"), custom(function = "must_be_true"))]
    pub agreement: Option<bool>,
    /// Optional name, at most 100 characters.
    #[validate(length(max = 100, code = "length"), custom(function = "clean_text"))]
    pub name: Option<String>,
}

fn clean_text(value: &str) -> std::result::Result<(), ValidationError> {
    if text::is_clean(value) { Ok(()) } else { Err(ValidationError::new("control_chars")) }
}

fn must_be_true(value: &bool) -> std::result::Result<(), ValidationError> {
    if *value { Ok(()) } else { Err(ValidationError::new("agreement")) }
}

/// The fields in the order their errors are listed.
const FIELD_ORDER: [&str; 5] = ["inquiry_category_id", "email", "name", "message", "agreement"];

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

impl InquiryInput {
    /// Trims the text fields; empty strings count as missing.
    fn normalized(&self) -> Self {
        let clean = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        Self {
            email: clean(&self.email),
            message: clean(&self.message),
            name: clean(&self.name),
            inquiry_category_id: self.inquiry_category_id,
            agreement: self.agreement,
        }
    }

    /// Validates the input (and that the category exists and is public); every problem is
    /// reported per field in `lang`.
    pub async fn check(&self, db: &impl ConnectionTrait, messages: &Messages, lang: Lang) -> Result<NewInquiry> {
        let input = self.normalized();
        let mut details = match input.validate() {
            Ok(()) => Vec::new(),
            Err(errors) => field_errors(&errors, messages, lang),
        };
        let mut category = None;
        if let Some(id) = input.inquiry_category_id {
            category = match i32::try_from(id) {
                Ok(id) if id > 0 => inquiry_category::Model::find_public(db, id).await?,
                _ => None,
            };
            if category.is_none() {
                details.push(FieldError {
                    attribute: "inquiry_category_id".into(),
                    message: messages.t(lang, "validation.unknown_category"),
                });
            }
        }
        details.sort_by_key(|d| FIELD_ORDER.iter().position(|f| *f == d.attribute).unwrap_or(FIELD_ORDER.len()));
        match (details.is_empty(), category, input.email, input.message) {
            (true, Some(category), Some(email), Some(message)) => {
                Ok(NewInquiry { category, email, name: input.name, message })
            }
            _ => Err(Error::Validation(details)),
        }
    }
}

/// Turns validator errors into localized field errors.
fn field_errors(errors: &ValidationErrors, messages: &Messages, lang: Lang) -> Vec<FieldError> {
    let mut out = Vec::new();
    for (field, errs) in errors.field_errors() {
        let Some(first) = errs.first() else { continue };
        let message = match first.code.as_ref() {
            "required" => messages.t(lang, "validation.required"),
            "email" => messages.t(lang, "validation.email"),
            "agreement" => messages.t(lang, "validation.agreement"),
            "control_chars" => messages.t(lang, "validation.control_chars"),
            "length" if field == "name" => {
                messages.tf(lang, "validation.max_length", &[("max", &NAME_MAX.to_string())])
            }
            "length" => {
                messages.tf(lang, "validation.length_between", &[("min", "1"), ("max", &MESSAGE_MAX.to_string())])
            }
            _ => messages.t(lang, "validation.invalid_choice"),
        };
        out.push(FieldError { attribute: field.to_string(), message });
    }
    out
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
