//! What a lottery run keeps besides the published columns (issue 12, DOMAIN.md "The lottery"):
//! `secret_seed`, the seed from the commitment on, never shown until the run is published (then
//! copied to `seed`), and `inputs`, the canonical input list of the draw (`src/lottery`), stored
//! at preview and published with the result so that anyone can recompute it.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

/// Adds the two columns (one statement each: SQLite alters one column at a time).
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(Table::alter().table("lottery_runs").add_column(string_len_null("secret_seed", 64)).to_owned())
            .await?;
        m.alter_table(Table::alter().table("lottery_runs").add_column(text_null("inputs")).to_owned()).await?;
        Ok(())
    }
}
