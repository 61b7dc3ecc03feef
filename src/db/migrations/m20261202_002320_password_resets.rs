//! Password resets of the built-in account service (issue 26 item 6): per request, the account,
//! the SHA-256 of the token mailed to it (never the token), when it was made, until when it
//! works (30 minutes) and when it was used (once).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Makes the table above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("account_password_resets")
                .col(pk_auto("id"))
                .col(integer("account_id"))
                .col(string_len("token_hash", 64))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone_null("used_at"))
                .foreign_key(&mut fk("account_password_resets", "account_id", "accounts"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("account_password_resets", &["token_hash"]).unique().take()).await?;
        m.create_index(index("account_password_resets", &["account_id"])).await?;
        Ok(())
    }
}
