//! Store items and their purchases (issue 31, spec §3 "Store item", ASSETS.md "The store and
//! conversions").
//!
//! - `store_items`: a seller's item made from one of their uploaded assets — its public `uuid`
//!   (item pages and links; a `limited` item is reachable by it alone), names, description,
//!   `product_category` (from the asset's kind) and `sub_category`, `accessible_status`
//!   (`private → limited → published`) and staff's `is_forced_private`, the sale window
//!   `start_at`–`end_at`, the price in yen with a discount of `discount_rate` % from
//!   `discount_start_at` to `discount_end_at`, `fee` (the platform's share of a sale, in percent),
//!   `item_order` and `purchase_count`. Searched by keyword like the catalogue (names and
//!   description: an FTS5 trigram table on SQLite, a pg_trgm index on PostgreSQL).
//! - `store_purchases`: who bought which item, at what price and fee (as charged), `paid` or
//!   `refunded`. **One purchase per buyer and item** is a unique key: however many requests race,
//!   the database stores one.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index, search_index};
use crate::db::search::STORE_ITEMS;

/// Creates the tables above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("store_items")
                .col(pk_auto("id"))
                .col(string_len("uuid", 36))
                .col(integer("user_id"))
                .col(integer("asset_id"))
                .col(string_len("name", 128))
                .col(string_len("name_en", 128))
                .col(text("description"))
                .col(string_len("product_category", 24))
                .col(string_len("sub_category", 24))
                .col(string_len("accessible_status", 16))
                .col(boolean("is_forced_private"))
                .col(integer("price"))
                .col(integer("discount_rate"))
                .col(timestamp_with_time_zone_null("discount_start_at"))
                .col(timestamp_with_time_zone_null("discount_end_at"))
                .col(integer("fee"))
                .col(timestamp_with_time_zone_null("start_at"))
                .col(timestamp_with_time_zone_null("end_at"))
                .col(integer("item_order"))
                .col(integer("purchase_count"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("store_items", "user_id", "users"))
                .foreign_key(&mut fk("store_items", "asset_id", "assets"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("store_items", &["uuid"]).unique().take()).await?;
        m.create_index(index("store_items", &["user_id"])).await?;
        m.create_index(index("store_items", &["accessible_status", "product_category"])).await?;
        search_index(m, STORE_ITEMS).await?;

        m.create_table(
            Table::create()
                .table("store_purchases")
                .col(pk_auto("id"))
                .col(string_len("uuid", 36))
                .col(integer("item_id"))
                .col(integer("buyer_id"))
                .col(integer("seller_id"))
                .col(integer("price"))
                .col(integer("fee_amount"))
                .col(string_len("status", 16))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone_null("refunded_at"))
                .col(string_len_null("refund_reason", 500))
                .foreign_key(&mut fk("store_purchases", "item_id", "store_items"))
                .foreign_key(&mut fk("store_purchases", "buyer_id", "users"))
                .foreign_key(&mut fk("store_purchases", "seller_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("store_purchases", &["uuid"]).unique().take()).await?;
        m.create_index(index("store_purchases", &["item_id", "buyer_id"]).unique().take()).await?;
        m.create_index(index("store_purchases", &["buyer_id"])).await?;
        m.create_index(index("store_purchases", &["seller_id"])).await?;
        Ok(())
    }
}
