//! Paying for store items (issue 31): `store_orders`, one attempt of a buyer to pay for one item
//! through a provider.
//!
//! - `amount` and `fee_amount` are fixed when the order opens — the price in force then — and
//!   are what the provider is asked for and what the purchase records, for the order's lifetime
//!   (`expires_at`), whatever the item's price or discount does meanwhile.
//! - `open_key` (`"<item_id>:<buyer_id>"` while the order is `pending`, NULL once it is closed)
//!   is unique: a buyer has at most one open order per item, however many tabs open one at once.
//!   (A unique key over a nullable column rather than a partial index: both databases treat
//!   NULLs as distinct.)
//! - `purchase_id` names the purchase a captured order made; a second payment for an item the
//!   buyer already holds is `duplicate` and refunded at the provider.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates `store_orders`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("store_orders")
                .col(pk_auto("id"))
                .col(string_len("uuid", 36))
                .col(integer("item_id"))
                .col(integer("buyer_id"))
                .col(integer("amount"))
                .col(integer("fee_amount"))
                .col(string_len("provider", 16))
                .col(string_len_null("provider_order_id", 255))
                .col(string_len("state", 16))
                .col(string_len_null("open_key", 64))
                .col(integer_null("purchase_id"))
                .col(string_len_null("closed_reason", 64))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("store_orders", "item_id", "store_items"))
                .foreign_key(&mut fk("store_orders", "buyer_id", "users"))
                .foreign_key(&mut fk("store_orders", "purchase_id", "store_purchases"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("store_orders", &["uuid"]).unique().take()).await?;
        m.create_index(index("store_orders", &["open_key"]).unique().take()).await?;
        m.create_index(index("store_orders", &["provider", "provider_order_id"])).await?;
        m.create_index(index("store_orders", &["buyer_id"])).await?;
        m.create_index(index("store_orders", &["purchase_id"])).await?;
        Ok(())
    }
}
