//! The result mails of a published draw, out of the publishing transaction (issue 12):
//!
//! - `lottery_result_mails`: one row per (run, entry) the draw decided, written in the publishing
//!   transaction with the statuses — "this entry's result is to be mailed". The
//!   `SendLotteryResults` job renders the mails in batches afterwards and sets `done_at`.
//! - `mails.dedup_key`: a unique key for a mail that must exist at most once
//!   (`lottery_result:{run}:{entry}`); the job inserts with `ON CONFLICT DO NOTHING`, so a job
//!   run twice, or after a crash between its insert and its `done_at`, never mails twice.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Adds the column and the table.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(Table::alter().table("mails").add_column(string_len_null("dedup_key", 128)).to_owned()).await?;
        // NULLs are distinct on both backends: only keyed mails are unique.
        m.create_index(index("mails", &["dedup_key"]).unique().take()).await?;

        m.create_table(
            Table::create()
                .table("lottery_result_mails")
                .col(pk_auto("id"))
                .col(integer("run_id"))
                .col(integer("entry_id"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone_null("done_at"))
                .foreign_key(&mut fk("lottery_result_mails", "run_id", "lottery_runs"))
                .foreign_key(&mut fk("lottery_result_mails", "entry_id", "event_entries"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("lottery_result_mails", &["run_id", "entry_id"]).unique().take()).await?;
        // The job and the workers' start-up look for the rows still to mail.
        m.create_index(index("lottery_result_mails", &["done_at", "run_id"])).await?;
        Ok(())
    }
}
