//! Exhibitor notifications: organisers' news for exhibitors (spec §3 "Exhibitor notification"),
//! read on mypage, and which of them each user has opened.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates `exhibitor_notifications` and `exhibitor_notification_reads`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("exhibitor_notifications")
                .col(pk_auto("id"))
                .col(integer_null("event_id"))
                .col(string_len("title_ja", 256))
                .col(string_len("title_en", 256))
                .col(string_len("label_ja", 32))
                .col(string_len("label_en", 64))
                .col(text("description_ja"))
                .col(text("description_en"))
                .col(timestamp_with_time_zone("published_at"))
                .col(boolean("is_public"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("exhibitor_notifications", "event_id", "events"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("exhibitor_notifications", &["is_public", "published_at"])).await?;
        m.create_table(
            Table::create()
                .table("exhibitor_notification_reads")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(integer("exhibitor_notification_id"))
                .col(timestamp_with_time_zone("read_at"))
                .foreign_key(&mut fk("exhibitor_notification_reads", "user_id", "users"))
                .foreign_key(&mut fk(
                    "exhibitor_notification_reads",
                    "exhibitor_notification_id",
                    "exhibitor_notifications",
                ))
                .to_owned(),
        )
        .await?;
        m.create_index(
            index("exhibitor_notification_reads", &["user_id", "exhibitor_notification_id"]).unique().take(),
        )
        .await?;
        Ok(())
    }
}
