//! Emotes and pallets in game (issue 30 item 3, spec §3 "Emote", "Emote pallets").
//!
//! - `ingame_emotes`: what staff publish in the console: names in both languages, the icon and
//!   the motion (`json_url`) the game loads, the list order, the client version an emote needs
//!   (`version`, at least 1), whether everyone owns it (`is_free`; paid emotes come with the
//!   store) and the staff blacklist (`is_blacklist`: no one can put it on a pallet).
//! - `ingame_emote_pallets`: per user, which emote sits in which slot (`pallet_num`), once per
//!   slot (unique).

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
                .table("ingame_emotes")
                .col(pk_auto("id"))
                .col(string_len("name", 64))
                .col(string_len("name_en", 128))
                .col(string_len("icon_url", 2048))
                .col(string_len("json_url", 2048))
                .col(integer("emote_order").default(0))
                .col(integer("version").default(1))
                .col(boolean("is_free").default(true))
                .col(boolean("is_blacklist").default(false))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("ingame_emote_pallets")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(integer("pallet_num"))
                .col(integer("emote_id"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("ingame_emote_pallets", "user_id", "users"))
                .foreign_key(&mut fk("ingame_emote_pallets", "emote_id", "ingame_emotes"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ingame_emote_pallets", &["user_id", "pallet_num"]).unique().take()).await?;
        m.create_index(index("ingame_emote_pallets", &["emote_id"])).await?;
        Ok(())
    }
}
