//! `inquiry_categories`: the kinds of inquiry visitors choose from, and where each is forwarded
//! (a Slack webhook, a Jira project). A category with inquiries cannot be deleted; hide it instead.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, PaginatorTrait, QueryFilter, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::{self, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{inquiry, inquiry_category};
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct InquiryCategories;

/// A category as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct InquiryCategoryRecord {
    /// Category id.
    pub id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Slack incoming webhook.
    pub slack_webhook_url: Option<String>,
    /// Jira project key.
    pub jira_project_code: Option<String>,
    /// Jira issue type id.
    pub jira_issue_type_id: Option<String>,
    /// Jira parent issue key.
    pub jira_parent_issue: Option<String>,
    /// Offered on the contact form.
    pub is_public: bool,
    /// Position on the form.
    pub display_order: i32,
    /// Inquiries received in it.
    pub inquiry_count: u64,
}

/// What staff send for a category.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct InquiryCategoryInput {
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Slack incoming webhook (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub slack_webhook_url: Option<String>,
    /// Jira project key, e.g. `VKSUP`.
    #[serde(deserialize_with = "blank")]
    #[validate(length(max = 32), custom(function = "input::permalink"))]
    pub jira_project_code: Option<String>,
    /// Jira issue type id.
    #[serde(deserialize_with = "blank")]
    #[validate(length(max = 32), custom(function = "input::permalink"))]
    pub jira_issue_type_id: Option<String>,
    /// Jira parent issue key, e.g. `VKSUP-1`.
    #[serde(deserialize_with = "blank")]
    #[validate(length(max = 32), custom(function = "input::permalink"))]
    pub jira_parent_issue: Option<String>,
    /// Offered on the contact form.
    pub is_public: bool,
    /// Position on the form.
    #[validate(range(min = 0, max = 100000))]
    pub display_order: i32,
}

impl Resource for InquiryCategories {
    type Entity = inquiry_category::Entity;
    type Record = InquiryCategoryRecord;
    type Input = InquiryCategoryInput;

    const NAME: &'static str = "inquiry_categories";
    const AREA: Area = Area::Support;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["display_order", "name_ja", "name_en", "is_public"],
        filter: &["is_public"],
        search: &["name_ja", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<inquiry_category::Model>,
    ) -> Result<Vec<InquiryCategoryRecord>> {
        let mut out = Vec::with_capacity(rows.len());
        for c in rows {
            let inquiry_count = inquiry::Entity::find().filter(inquiry::Column::CategoryId.eq(c.id)).count(db).await?;
            out.push(InquiryCategoryRecord {
                id: c.id,
                name_ja: c.name_ja,
                name_en: c.name_en,
                slack_webhook_url: c.slack_webhook_url,
                jira_project_code: c.jira_project_code,
                jira_issue_type_id: c.jira_issue_type_id,
                jira_parent_issue: c.jira_parent_issue,
                is_public: c.is_public,
                display_order: c.display_order,
                inquiry_count,
            });
        }
        Ok(out)
    }

    async fn create(txn: &DatabaseTransaction, input: InquiryCategoryInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(Default::default(), input).insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: inquiry_category::Model,
        input: InquiryCategoryInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        fill(row.into(), input).update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: inquiry_category::Model, _cx: &Cx<'_>) -> Result<()> {
        Uses::new()
            .count(txn, "inquiries", inquiry::Entity::find().filter(inquiry::Column::CategoryId.eq(row.id)))
            .await?
            .refuse("in_use")?;
        inquiry_category::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

fn fill(mut row: inquiry_category::ActiveModel, input: InquiryCategoryInput) -> inquiry_category::ActiveModel {
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.slack_webhook_url = Set(input.slack_webhook_url);
    row.jira_project_code = Set(input.jira_project_code);
    row.jira_issue_type_id = Set(input.jira_issue_type_id);
    row.jira_parent_issue = Set(input.jira_parent_issue);
    row.is_public = Set(input.is_public);
    row.display_order = Set(input.display_order);
    row
}
