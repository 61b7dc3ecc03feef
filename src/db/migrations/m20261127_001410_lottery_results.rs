//! A draw's result kept with its run (issue 12), so that reading it never draws again:
//!
//! - `lottery_runs.summary`: the result as staff check it (entries, applications, winners, and
//!   per plan the slots, wishes and winners), JSON, written by every preview;
//! - `lottery_result_files`: the published file of a round (`GET /api/v1/{event}/lottery_results/{round}`,
//!   what `vmarket lottery verify --published` reads), its exact bytes written once, in the
//!   publishing transaction.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Adds the column and the table.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(Table::alter().table("lottery_runs").add_column(text_null("summary")).to_owned()).await?;
        m.create_table(
            Table::create()
                .table("lottery_result_files")
                .col(pk_auto("id"))
                .col(integer("run_id"))
                .col(text("body"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("lottery_result_files", "run_id", "lottery_runs"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("lottery_result_files", &["run_id"]).unique().take()).await?;
        Ok(())
    }
}
