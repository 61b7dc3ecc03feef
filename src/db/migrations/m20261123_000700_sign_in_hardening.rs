//! Sign-in hardening: one-time codes bound to their callback and a PKCE challenge, sign-in
//! states bound to the browser that started them, token generations instead of timestamps for
//! revocation, unique handles (case-insensitive) for accounts and users, and the email address
//! and language the product mails a user in.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

/// Applies the changes above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        // Codes live for a minute; any issued before this change carry no binding and must go.
        db.execute_unprepared("DELETE FROM account_codes").await?;
        for (table, column) in [("account_codes", "redirect_url"), ("account_codes", "code_challenge")] {
            m.alter_table(Table::alter().table(table).add_column(text(column).default("")).to_owned()).await?;
        }
        m.alter_table(
            Table::alter().table("accounts").add_column(big_integer("token_generation").default(0)).to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter().table("users").add_column(big_integer("min_token_generation").default(0)).to_owned(),
        )
        .await?;
        m.alter_table(Table::alter().table("users").add_column(string_null("email")).to_owned()).await?;
        m.alter_table(Table::alter().table("users").add_column(string_len("lang", 2).default("ja")).to_owned()).await?;
        db.execute_unprepared("ALTER TABLE users DROP COLUMN tokens_valid_after").await?;

        // Handles are unique whatever their case. Rows that already collide keep the oldest
        // handle; later ones get their id appended, so the index can be built.
        for table in ["users", "accounts"] {
            db.execute_unprepared(&format!(
                "UPDATE {table} SET vmarket_id = vmarket_id || '_' || CAST(id AS TEXT) WHERE id NOT IN \
                 (SELECT MIN(id) FROM {table} GROUP BY LOWER(vmarket_id))"
            ))
            .await?;
            db.execute_unprepared(&format!(
                "CREATE UNIQUE INDEX idx_{table}_vmarket_id_ci ON {table} (LOWER(vmarket_id))"
            ))
            .await?;
        }

        m.create_table(
            Table::create()
                .table("sign_in_states")
                .col(pk_auto("id"))
                .col(string_uniq("state_hash"))
                .col(string("code_verifier"))
                .col(text("next"))
                .col(string_len("lang", 2))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone_null("used_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(crate::db::migrations::statements::index("sign_in_states", &["expires_at"])).await?;
        Ok(())
    }
}
