//! Accounts of the built-in sign-in service (accounts, sessions, one-time codes, signing keys)
//! and the product's users with their external links.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the account and user tables.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("accounts")
                .col(pk_auto("id"))
                .col(string_uniq("sub"))
                .col(string_uniq("email"))
                .col(string("password_hash"))
                .col(string_uniq("vmarket_id"))
                .col(string_len("name_ja", 64))
                .col(string_len("name_en", 128))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
        )
        .await?;
        for table in ["account_sessions", "account_codes"] {
            m.create_table(
                Table::create()
                    .table(table)
                    .col(pk_auto("id"))
                    .col(integer("account_id"))
                    .col(string_uniq("token_hash"))
                    .col(timestamp_with_time_zone("created_at"))
                    .col(timestamp_with_time_zone("expires_at"))
                    .foreign_key(&mut fk(table, "account_id", "accounts"))
                    .to_owned(),
            )
            .await?;
            m.create_index(index(table, &["account_id"])).await?;
        }
        m.create_table(
            Table::create()
                .table("signing_keys")
                .col(pk_auto("id"))
                .col(string_uniq("kid"))
                .col(text("private_pem"))
                .col(text("n"))
                .col(string("e"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone_null("retired_at"))
                .col(timestamp_with_time_zone_null("expires_at"))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("users")
                .col(pk_auto("id"))
                .col(string_uniq("sub"))
                .col(string("vmarket_id"))
                .col(string_len("name_ja", 64))
                .col(string_len("name_en", 128))
                .col(integer("icon_version"))
                .col(string_null("icon_key"))
                .col(text_null("memo"))
                .col(integer("score"))
                .col(string("role"))
                .col(string("attribute"))
                .col(timestamp_with_time_zone_null("tokens_valid_after"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("users", &["vmarket_id"])).await?;
        m.create_table(
            Table::create()
                .table("user_external_links")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(string_len("url", 2048))
                .col(integer("position"))
                .foreign_key(&mut fk("user_external_links", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("user_external_links", &["user_id"])).await?;
        Ok(())
    }
}
