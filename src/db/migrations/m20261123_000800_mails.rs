//! The mail queue: every mail the site sends, rendered when it was queued, with its delivery
//! status, attempt count and last error (for staff; never a secret).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::index;

/// Creates `mails`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("mails")
                .col(pk_auto("id"))
                .col(string("recipient"))
                .col(string_len("lang", 8))
                .col(string_len("kind", 64))
                .col(text("subject"))
                .col(text("text_body"))
                .col(text("html_body"))
                .col(string("message_id"))
                .col(string_len("status", 16))
                .col(integer("attempts"))
                .col(text_null("last_error"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone_null("next_attempt_at"))
                .col(timestamp_with_time_zone_null("sent_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("mails", &["status", "next_attempt_at"])).await?;
        m.create_index(index("mails", &["recipient"])).await?;
        m.create_index(index("mails", &["created_at"])).await?;
        Ok(())
    }
}
