//! The data version (issue 10, DOMAIN.md "Caching public pages"): one row, `data_version`, whose
//! `version` every committed write to a table public output depends on raises. The triggers that
//! raise it are not created here but by [`crate::db::data_version::install`], which `db::migrate`
//! runs after every migration, over every table not excluded — so a table a later migration adds
//! is covered without anyone remembering to.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

/// Creates the table and its one row.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create().table("data_version").col(integer("id").primary_key()).col(big_integer("version")).take(),
        )
        .await?;
        // Starts at the creation time in milliseconds rather than at 0, so that a database built
        // again from scratch never repeats a version a running node has already seen.
        let start = chrono::Utc::now().timestamp_millis();
        m.get_connection()
            .execute_unprepared(&format!("INSERT INTO data_version (id, version) VALUES (1, {start})"))
            .await?;
        Ok(())
    }
}
