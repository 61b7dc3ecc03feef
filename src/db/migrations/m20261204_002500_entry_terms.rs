//! Terms agreed with an entry (issue 26 item 3): `event_entries.terms_digest` (the SHA-256 of the
//! terms shown: each document's kind and URL), `terms_shown` (what was shown, as JSON) and
//! `terms_agreed_at`. Null for an entry made before, or at an event without terms.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

/// Adds the columns.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite's ALTER TABLE adds one at a time.
        for column in [
            string_len_null("terms_digest", 64),
            text_null("terms_shown"),
            timestamp_with_time_zone_null("terms_agreed_at"),
        ] {
            let mut column = column;
            m.alter_table(Table::alter().table("event_entries").add_column(&mut column).to_owned()).await?;
        }
        Ok(())
    }
}
