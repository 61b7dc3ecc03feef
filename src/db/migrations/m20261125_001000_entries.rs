//! Event entries and the lottery (issue 12, DOMAIN.md "Entries and applications", "The
//! lottery"): `event_entry_plans` (what a circle can apply for: category, world, `maximum`
//! slots, integer `fee` in JPY), `event_entries` (one per event and circle: a unique key, so a
//! double submit can never make two), `event_entry_applications` (1–3 ranked wishes of an
//! entry, unique per (entry, choice) and per (entry, plan), with their lottery status and AMP
//! options) and `lottery_runs` (one per event and round: the committed seed hash, the seed once
//! published, the digest of the input list and of the result).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the tables and indexes above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("event_entry_plans")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(integer("world_id"))
                .col(string_len("exhibition_category", 16))
                .col(string("name_ja"))
                .col(string("name_en"))
                .col(integer("maximum"))
                .col(integer("fee"))
                .col(string_null("preview_world_launch_url"))
                .col(integer("display_order"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("event_entry_plans", "event_id", "events"))
                .foreign_key(&mut fk("event_entry_plans", "world_id", "worlds"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("event_entry_plans", &["event_id", "exhibition_category"])).await?;

        m.create_table(
            Table::create()
                .table("event_entries")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(integer("circle_id"))
                .col(boolean("is_multiple_win"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("event_entries", "event_id", "events"))
                .foreign_key(&mut fk("event_entries", "circle_id", "circles"))
                .to_owned(),
        )
        .await?;
        // One entry per event and circle, held by the database.
        m.create_index(index("event_entries", &["event_id", "circle_id"]).unique().take()).await?;
        m.create_index(index("event_entries", &["circle_id"])).await?;

        m.create_table(
            Table::create()
                .table("event_entry_applications")
                .col(pk_auto("id"))
                .col(integer("entry_id"))
                .col(integer("plan_id"))
                .col(integer("choice"))
                .col(string_len("lottery_status", 24))
                .col(boolean("use_amp"))
                .col(string_len_null("amp_id", 64))
                .col(boolean("free_submission"))
                .col(string_len_null("won_round", 8))
                .col(integer_null("fee_at_draw"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("event_entry_applications", "entry_id", "event_entries"))
                .foreign_key(&mut fk("event_entry_applications", "plan_id", "event_entry_plans"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("event_entry_applications", &["entry_id", "choice"]).unique().take()).await?;
        m.create_index(index("event_entry_applications", &["entry_id", "plan_id"]).unique().take()).await?;
        m.create_index(index("event_entry_applications", &["plan_id", "lottery_status"])).await?;

        m.create_table(
            Table::create()
                .table("lottery_runs")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(string_len("round", 8))
                .col(string_len("state", 16))
                .col(string_len("seed_hash", 64))
                .col(string_len_null("seed", 64))
                .col(string_len_null("inputs_digest", 64))
                .col(string_len_null("result_digest", 64))
                .col(integer_null("created_by_user_id"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .col(timestamp_with_time_zone_null("previewed_at"))
                .col(timestamp_with_time_zone_null("published_at"))
                .foreign_key(&mut fk("lottery_runs", "event_id", "events"))
                .foreign_key(
                    ForeignKey::create()
                        .from("lottery_runs", "created_by_user_id")
                        .to("users", "id")
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(index("lottery_runs", &["event_id", "round"]).unique().take()).await?;
        Ok(())
    }
}
