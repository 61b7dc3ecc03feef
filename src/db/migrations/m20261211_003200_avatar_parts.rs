//! Avatar parts (issue 31, spec §3 "Avatar part"): the hair, faces, clothes and accessories the
//! avatar maker offers, each an uploaded `avatar_part_bundle` asset, curated by staff.
//!
//! - `avatar_parts`: `part_type`, the bundle (`asset_id`), `is_purchase_required` (then only the
//!   buyers of `store_item_id` get it), `is_limited` (offered by its link, never listed),
//!   `published`, `part_order`, `avatar_maker_version` (the oldest maker that reads it),
//!   `is_vrc_uploadable` (an avatar wearing it may go to VRChat).

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
                .table("avatar_parts")
                .col(pk_auto("id"))
                .col(string_len("uuid", 36))
                .col(string_len("name", 64))
                .col(string_len("name_en", 64))
                .col(string_len("character_type", 16))
                .col(string_len("part_type", 16))
                .col(integer("asset_id"))
                .col(integer_null("store_item_id"))
                .col(boolean("is_purchase_required").default(false))
                .col(boolean("is_limited").default(false))
                .col(boolean("published").default(false))
                .col(integer("part_order").default(0))
                .col(integer("avatar_maker_version"))
                .col(boolean("is_vrc_uploadable").default(false))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("avatar_parts", "asset_id", "assets"))
                .foreign_key(&mut fk("avatar_parts", "store_item_id", "store_items"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("avatar_parts", &["uuid"]).unique().take()).await?;
        m.create_index(index("avatar_parts", &["published", "avatar_maker_version"])).await?;
        Ok(())
    }
}
