//! Who drew a lottery run, besides who committed it (issue 12: runs record "who and when"):
//! `previewed_by_user_id` (the last preview) and `published_by_user_id`, each the staff member
//! who did it in the console — `NULL` for the command line and the lottery clock, which act for
//! no one — and set to `NULL` if the account goes, like `created_by_user_id`.

use sea_orm_migration::prelude::*;

/// Adds the two columns (one statement each: SQLite alters one column at a time; the same
/// `ADD COLUMN … REFERENCES` on both backends).
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        for column in ["previewed_by_user_id", "published_by_user_id"] {
            db.execute_unprepared(&format!(
                "ALTER TABLE lottery_runs ADD COLUMN {column} INTEGER NULL REFERENCES users (id) ON DELETE SET NULL"
            ))
            .await?;
        }
        Ok(())
    }
}
