//! Inquiry categories (where each kind of inquiry is forwarded) and the inquiries themselves,
//! with their forwarding status per target.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates `inquiry_categories` and `inquiries`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("inquiry_categories")
                .col(pk_auto("id"))
                .col(string("name_ja"))
                .col(string("name_en"))
                .col(text_null("slack_webhook_url"))
                .col(string_null("jira_project_code"))
                .col(string_null("jira_issue_type_id"))
                .col(string_null("jira_parent_issue"))
                .col(boolean("is_public"))
                .col(integer("display_order"))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("inquiries")
                .col(pk_auto("id"))
                .col(integer("category_id"))
                .col(string("email"))
                .col(string_null("name"))
                .col(text("message"))
                .col(string("lang"))
                .col(string_null("client_ip_hash"))
                .col(string("slack_status"))
                .col(string("jira_status"))
                .col(integer("attempts"))
                .col(text_null("last_error"))
                .col(string_null("jira_issue_key"))
                .col(timestamp_with_time_zone_null("next_attempt_at"))
                .col(timestamp_with_time_zone_null("forwarded_at"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("inquiries", "category_id", "inquiry_categories"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("inquiries", &["category_id"])).await?;
        m.create_index(index("inquiries", &["created_at"])).await?;
        Ok(())
    }
}
