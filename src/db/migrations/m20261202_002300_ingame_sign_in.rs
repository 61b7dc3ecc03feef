//! The in-game sign-in (issue 30, ASSETS.md "In-game"): the game client's device grants
//! (RFC 8628) and the opaque tokens they end in.
//!
//! - `ingame_device_grants`: one per `POST /ingame/auth/device`: the SHA-256 of the device code
//!   (the client's secret), the user code's first half (`lookup`, unique: it finds the grant
//!   the user types) and the SHA-256 of the whole user code, the client's name, `status`
//!   (`pending`, `approved`, `denied`, `issued`, `dead`), who confirmed it, wrong checks so far,
//!   the polling interval and the last poll, and the expiry. Rows past their expiry are deleted
//!   as new grants are made.
//! - `ingame_sessions`: one per issued token: the user, the SHA-256 of the token (never the
//!   token), the client's name, when it was made, last used and expires, and when it was
//!   revoked.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Makes the two tables above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("ingame_device_grants")
                .col(pk_auto("id"))
                .col(string_len("device_code_hash", 64))
                .col(string_len("lookup", 8))
                .col(string_len("user_code_hash", 64))
                .col(string_len("client_name", 64))
                .col(string_len("status", 16).default("pending"))
                .col(integer_null("user_id"))
                .col(integer("failed_checks").default(0))
                .col(integer("interval_secs"))
                .col(timestamp_with_time_zone_null("last_polled_at"))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("ingame_device_grants", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ingame_device_grants", &["device_code_hash"]).unique().take()).await?;
        m.create_index(index("ingame_device_grants", &["lookup"]).unique().take()).await?;
        m.create_index(index("ingame_device_grants", &["expires_at"])).await?;
        m.create_index(index("ingame_device_grants", &["user_id"])).await?;

        m.create_table(
            Table::create()
                .table("ingame_sessions")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(string_len("token_hash", 64))
                .col(string_len("client_name", 64))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("last_used_at"))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone_null("revoked_at"))
                .foreign_key(&mut fk("ingame_sessions", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ingame_sessions", &["token_hash"]).unique().take()).await?;
        m.create_index(index("ingame_sessions", &["user_id"])).await?;
        Ok(())
    }
}
