//! Event slots (issue 28, ASSETS.md "Slots and the exhibitor's work after paying"): a slot is an
//! application whose stored status is `paid` or `win` — derived, never stored twice, so no path
//! that pays, declines or corrects an application has to keep a second table in step. What a
//! slot adds is its placement, kept here:
//!
//! - `event_slot_placements`: per application (its slot), the world area and the booth number
//!   staff assigned; one booth per area and number, enforced by a unique index.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the tables above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("event_slot_placements")
                .col(integer("application_id").primary_key())
                .col(integer("world_area_id"))
                .col(integer("number"))
                .col(integer_null("assigned_by"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("event_slot_placements", "application_id", "event_entry_applications"))
                .foreign_key(&mut fk("event_slot_placements", "world_area_id", "world_areas"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("event_slot_placements", &["world_area_id", "number"]).unique().take()).await?;

        m.create_table(
            Table::create()
                .table("tool_releases")
                .col(pk_auto("id"))
                .col(string_len("version", 32))
                .col(string_len("package_name", 128))
                .col(string_len("download_url", 2048))
                .col(string_len("tool_type", 32))
                .col(boolean("is_published"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
        )
        .await?;
        Ok(())
    }
}
