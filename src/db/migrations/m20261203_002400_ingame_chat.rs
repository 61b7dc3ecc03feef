//! Chat and presence in game (issue 30 items 2 and 4, spec §3 "Chat message", "In-game user").
//!
//! - `ingame_chat_messages`: what players say on a channel (`channel`, the game's
//!   `channel_session_code`): a `Text` or an `Emote_stamp` (`emote_id`), where the speaker stood
//!   (`pos_x`, `pos_y`, `pos_z`), and whether staff hid it (`hidden_at`, `hidden_by`). Read by
//!   channel in id order (index `channel, id`); the id is what readers resume from.
//! - `ingame_chat_hides`: one row each time staff hide a message, read in id order by every
//!   node's chat hub so that live streams drop the message too.
//! - `ingame_chat_blocks`: the staff blacklist — a user here cannot post (once per user).
//! - `ingame_presences`: where a player's game client says they are (channel, world, join link)
//!   and whether they take invitations or can be joined, with when it last said so (once per
//!   user; stale after a few minutes without a heartbeat).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Makes the four tables above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("ingame_chat_messages")
                .col(pk_auto("id"))
                .col(string_len("channel", 64))
                .col(integer("user_id"))
                .col(string_len("message_type", 16))
                .col(string_len("message", 400).default(""))
                .col(integer_null("emote_id"))
                .col(double("pos_x").default(0.0))
                .col(double("pos_y").default(0.0))
                .col(double("pos_z").default(0.0))
                .col(timestamp_with_time_zone_null("hidden_at"))
                .col(integer_null("hidden_by"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("ingame_chat_messages", "user_id", "users"))
                .foreign_key(&mut fk("ingame_chat_messages", "emote_id", "ingame_emotes"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ingame_chat_messages", &["channel", "id"])).await?;
        m.create_index(index("ingame_chat_messages", &["user_id", "id"])).await?;

        m.create_table(
            Table::create()
                .table("ingame_chat_hides")
                .col(pk_auto("id"))
                .col(integer("message_id"))
                .col(string_len("channel", 64))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("ingame_chat_hides", "message_id", "ingame_chat_messages"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ingame_chat_hides", &["message_id"])).await?;

        m.create_table(
            Table::create()
                .table("ingame_chat_blocks")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(string_len("reason", 500).default(""))
                .col(integer_null("blocked_by"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("ingame_chat_blocks", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ingame_chat_blocks", &["user_id"]).unique().take()).await?;

        m.create_table(
            Table::create()
                .table("ingame_presences")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(string_len_null("channel", 64))
                .col(integer_null("world_id"))
                .col(string_len_null("join_url", 2048))
                .col(boolean("invitable").default(false))
                .col(boolean("joinable").default(false))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("ingame_presences", "user_id", "users"))
                .foreign_key(&mut fk("ingame_presences", "world_id", "worlds"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ingame_presences", &["user_id"]).unique().take()).await?;
        Ok(())
    }
}
