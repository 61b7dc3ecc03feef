//! VRChat avatars and their orders (issue 31, spec §3 "VRChat"; ASSETS.md "The store and
//! conversions").
//!
//! - `vrchat_avatar_orders`: a user's order to have one of their uploaded avatars converted for
//!   VRChat (`new`) or an avatar of theirs converted again from a newer version (`update`).
//!   `total_price` (yen, never below 0: a CHECK) and the uploads it buys are fixed when it opens;
//!   it is paid through PayPal or GMO like an application until `closing_date`. `open_key`
//!   (`"<user_id>"` while `open`, NULL after) is unique: one open order per user. `paid_at` is
//!   set once, by the one update that moves `open` to `paid`.
//! - `vrchat_avatars`: what a paid order made — the avatar, the version it is converted from,
//!   its `status` (waiting → converting → converted → uploading → finished; convert_failed,
//!   upload_failed; cancelled) and `remaining_uploads` (a CHECK keeps it at 0 or more). A
//!   converter worker holds a job (`worker`, `lease_until`) while it works on it; the result of
//!   a conversion is kept as an object (`result_key`).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the tables above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("vrchat_avatars")
                .col(pk_auto("id"))
                .col(string_len("uuid", 36))
                .col(integer("user_id"))
                .col(integer("asset_id"))
                .col(integer("asset_version_id"))
                .col(string_len("avatar_name", 64))
                .col(string_len("status", 24))
                .col(integer("remaining_uploads"))
                .col(integer("progress"))
                .col(string_len_null("progress_note", 200))
                .col(string_len_null("worker", 64))
                .col(timestamp_with_time_zone_null("lease_until"))
                .col(integer("attempts"))
                .col(text_null("result_key"))
                .col(big_integer_null("result_bytes"))
                .col(string_len_null("result_sha256", 64))
                .col(string_len_null("vrchat_avatar_id", 64))
                .col(string_len_null("failure_code", 64))
                .col(text_null("failure_message"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .check(Expr::col("remaining_uploads").gte(0))
                .foreign_key(&mut fk("vrchat_avatars", "user_id", "users"))
                .foreign_key(&mut fk("vrchat_avatars", "asset_id", "assets"))
                .foreign_key(&mut fk("vrchat_avatars", "asset_version_id", "asset_versions"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("vrchat_avatars", &["uuid"]).unique().take()).await?;
        m.create_index(index("vrchat_avatars", &["user_id"])).await?;
        m.create_index(index("vrchat_avatars", &["status"])).await?;
        m.create_table(
            Table::create()
                .table("vrchat_avatar_orders")
                .col(pk_auto("id"))
                .col(string_len("uuid", 36))
                .col(integer("user_id"))
                .col(integer_null("vrchat_avatar_id"))
                .col(integer("asset_version_id"))
                .col(string_len("avatar_name", 64))
                .col(string_len("purchase_type", 16))
                .col(string_len("payment_type", 16))
                .col(integer("total_price"))
                .col(integer("uploads"))
                .col(timestamp_with_time_zone("closing_date"))
                .col(string_len("state", 16))
                .col(string_len_null("open_key", 32))
                .col(string_len_null("paypal_order_id", 64))
                .col(string_len_null("invoice_id", 64))
                .col(string_len_null("gmo_payment_order_id", 32))
                .col(string_len_null("provider_url", 2048))
                .col(timestamp_with_time_zone_null("paid_at"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .check(Expr::col("total_price").gte(0))
                .foreign_key(&mut fk("vrchat_avatar_orders", "user_id", "users"))
                .foreign_key(&mut fk("vrchat_avatar_orders", "vrchat_avatar_id", "vrchat_avatars"))
                .foreign_key(&mut fk("vrchat_avatar_orders", "asset_version_id", "asset_versions"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("vrchat_avatar_orders", &["uuid"]).unique().take()).await?;
        m.create_index(index("vrchat_avatar_orders", &["open_key"]).unique().take()).await?;
        m.create_index(index("vrchat_avatar_orders", &["user_id"])).await?;
        m.create_index(index("vrchat_avatar_orders", &["vrchat_avatar_id"])).await?;
        Ok(())
    }
}
