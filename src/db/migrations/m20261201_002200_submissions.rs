//! After the win, part two (issue 28): a slot's catalogue items and its booth submissions.
//!
//! - `exhibitors.application_id`: the exhibitor row a slot's catalogue items hang from (the
//!   public catalogue reads `catalog_items` by exhibitor), made the first time the circle's owner
//!   adds an item; one per slot by a unique index (rows made by staff or the demo have none).
//! - `event_slot_submissions`: per slot, each booth the owner submitted, numbered 1, 2, … by a
//!   unique index, pointing at the asset version it sent; the newest is the one staff inspect.
//!   `inspection_status` is `pending`, `passed` or `needs_fix`; `findings` is a JSON list of
//!   `{ "rule_id", "reason", "blocking" }`; `is_booth_error` holds while a blocking finding stands.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Makes the column and table above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(Table::alter().table("exhibitors").add_column(integer_null("application_id")).to_owned()).await?;
        m.create_index(index("exhibitors", &["application_id"]).unique().take()).await?;

        m.create_table(
            Table::create()
                .table("event_slot_submissions")
                .col(pk_auto("id"))
                .col(integer("application_id"))
                .col(integer("version"))
                .col(integer("asset_version_id"))
                .col(string_len("submission_tools_type", 16))
                .col(integer("submitted_by"))
                .col(timestamp_with_time_zone("submitted_at"))
                .col(string_len("inspection_status", 16).default("pending"))
                .col(text("findings").default("[]"))
                .col(boolean("is_booth_error").default(false))
                .col(integer_null("inspected_by"))
                .col(timestamp_with_time_zone_null("inspected_at"))
                .foreign_key(&mut fk("event_slot_submissions", "application_id", "event_entry_applications"))
                .foreign_key(&mut fk("event_slot_submissions", "asset_version_id", "asset_versions"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("event_slot_submissions", &["application_id", "version"]).unique().take()).await?;
        m.create_index(index("event_slot_submissions", &["asset_version_id"])).await?;
        Ok(())
    }
}
