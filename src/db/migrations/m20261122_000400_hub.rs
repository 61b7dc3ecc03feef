//! The public hub: notifications (official streams, metaverse events, campaigns, user events),
//! hub tags and their links, ambassadors, and the keyword-search index over notifications
//! (SQLite FTS5 `trigram` table kept in sync by triggers, or a PostgreSQL `pg_trgm` GIN index;
//! see `crate::model::search`).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index, search_index};
use crate::db::search::HUB_NOTIFICATIONS;

/// Creates the hub tables and their search index.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("hub_notifications")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(string_len("title", 256))
                .col(text("content"))
                .col(string_null("link_url"))
                .col(string_null("thumbnail"))
                .col(timestamp_with_time_zone("publish_at"))
                .col(timestamp_with_time_zone("start_at"))
                .col(timestamp_with_time_zone_null("end_at"))
                .col(timestamp_with_time_zone_null("display_date"))
                .col(string_len("locale", 16))
                .col(string_len("category", 32))
                .col(boolean("is_official"))
                .col(boolean("by_ambassador"))
                .col(boolean("is_certificated_stream"))
                .col(boolean("is_public"))
                .col(boolean("is_strong_recommended"))
                .col(integer_null("world_id"))
                .col(integer_null("user_id"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("hub_notifications", "event_id", "events"))
                .foreign_key(&mut fk("hub_notifications", "world_id", "worlds"))
                .foreign_key(&mut fk("hub_notifications", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("hub_notifications", &["event_id", "start_at"])).await?;
        m.create_index(index("hub_notifications", &["world_id"])).await?;
        m.create_index(index("hub_notifications", &["user_id"])).await?;

        m.create_table(
            Table::create()
                .table("hub_tags")
                .col(pk_auto("id"))
                .col(string_len("name_ja", 64))
                .col(string_len("name_en", 64))
                .col(integer("display_index"))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("hub_notification_tags")
                .col(pk_auto("id"))
                .col(integer("hub_notification_id"))
                .col(integer("hub_tag_id"))
                .foreign_key(&mut fk("hub_notification_tags", "hub_notification_id", "hub_notifications"))
                .foreign_key(&mut fk("hub_notification_tags", "hub_tag_id", "hub_tags"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("hub_notification_tags", &["hub_notification_id"])).await?;
        m.create_index(index("hub_notification_tags", &["hub_tag_id"])).await?;

        m.create_table(
            Table::create()
                .table("ambassadors")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(integer("generation"))
                .col(string_len("team_type", 32))
                .col(boolean("is_inactive"))
                .foreign_key(&mut fk("ambassadors", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ambassadors", &["user_id"])).await?;

        search_index(m, HUB_NOTIFICATIONS).await
    }
}
