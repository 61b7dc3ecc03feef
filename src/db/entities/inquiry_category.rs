//! An inquiry category: what visitors pick on the contact form, and where staff want those
//! inquiries forwarded (a Slack incoming webhook and/or a Jira project).

use sea_orm::entity::prelude::*;

/// A row of `inquiry_categories`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "inquiry_categories")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub name_ja: String,
    pub name_en: String,
    pub slack_webhook_url: Option<String>,
    pub jira_project_code: Option<String>,
    pub jira_issue_type_id: Option<String>,
    pub jira_parent_issue: Option<String>,
    pub is_public: bool,
    pub display_order: i32,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
