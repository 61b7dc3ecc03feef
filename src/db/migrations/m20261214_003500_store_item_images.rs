//! Store item pictures (issue 31, spec §3 "Store item" `itemImages`): pictures a seller adds to
//! an item beside the asset's own rendering.
//!
//! - `store_item_images`: one picture of one item — its public `uuid`, its `position` (1 to 5,
//!   a CHECK), its stored size and where its PNGs are (`key_prefix`). `(store_item_id, position)`
//!   is unique: an item holds at most five pictures, and two uploads at once can never take the
//!   same place or a sixth.

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
                .table("store_item_images")
                .col(pk_auto("id"))
                .col(string_len_uniq("uuid", 36))
                .col(integer("store_item_id"))
                .col(integer("position").check(Expr::col("position").between(1, 5)))
                .col(integer("width"))
                .col(integer("height"))
                .col(string_len("key_prefix", 255))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("store_item_images", "store_item_id", "store_items"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("store_item_images", &["store_item_id", "position"]).unique().take()).await?;
        Ok(())
    }
}
