//! The staff console's own tables: the audit log of every staff write, the time-travel offset
//! every node and worker follows, and the handling status staff keep on inquiries.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::index;

/// Creates `audit_log` and `time_travel`, adds `inquiries.handling`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("audit_log")
                .col(pk_auto("id"))
                // No foreign key: the log outlives whatever it mentions.
                .col(integer("actor_id"))
                .col(string("actor_vmarket_id"))
                .col(string_len("actor_role", 16))
                .col(timestamp_with_time_zone("at"))
                .col(string_len("resource", 64))
                .col(string_len("record_id", 64))
                .col(string_len("action", 32))
                .col(text_null("before"))
                .col(text_null("after"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("audit_log", &["resource", "record_id"])).await?;
        m.create_index(index("audit_log", &["actor_id"])).await?;
        m.create_index(index("audit_log", &["at"])).await?;
        m.create_table(
            Table::create()
                .table("time_travel")
                // One row at most (id 1): how far the application clock is ahead of (or behind)
                // the real one, and who set it when.
                .col(pk_auto("id"))
                .col(big_integer("offset_ms"))
                .col(integer("set_by"))
                .col(timestamp_with_time_zone("set_at"))
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter().table("inquiries").add_column(string_len("handling", 16).default("open")).to_owned(),
        )
        .await?;
        m.create_index(index("inquiries", &["handling"])).await?;
        Ok(())
    }
}
