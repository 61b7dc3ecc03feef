//! Store item sets (issue 31, spec §3 "Store item" `parentItems`): a seller sells several of
//! their items together as one item, a set.
//!
//! - `store_item_parents`: item `item_id` is in the set `parent_id`. `(parent_id, item_id)` is
//!   unique (an item is in a set once) and a CHECK keeps an item out of itself. The rest of the
//!   rules (the seller's own items, at most twenty, one level, contents of a bought set only
//!   grow) are `crate::store::model::item_set`'s, checked in the write transaction.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the table above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("store_item_parents")
                .col(pk_auto("id"))
                .col(integer("parent_id"))
                .col(integer("item_id"))
                .col(integer("position"))
                .col(timestamp_with_time_zone("created_at"))
                .check(Expr::col("item_id").ne(Expr::col("parent_id")))
                .foreign_key(&mut fk("store_item_parents", "parent_id", "store_items"))
                .foreign_key(&mut fk("store_item_parents", "item_id", "store_items"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("store_item_parents", &["parent_id", "item_id"]).unique().take()).await?;
        m.create_index(index("store_item_parents", &["item_id"])).await?;
        Ok(())
    }
}
