//! In-game people (issue 30, spec §3 "In-game user"): what a player shows others in game, and
//! whom they follow.
//!
//! - `ingame_profiles`: per user (unique), the introduction and the top-page avatar (one of the
//!   user's own avatar assets); a user without a row has an empty introduction and no avatar.
//! - `ingame_follows`: who follows whom, once per pair (unique), never oneself (the model
//!   refuses it).

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
                .table("ingame_profiles")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(text("introduction").default(""))
                .col(integer_null("top_page_avatar_id"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("ingame_profiles", "user_id", "users"))
                .foreign_key(&mut fk("ingame_profiles", "top_page_avatar_id", "assets"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ingame_profiles", &["user_id"]).unique().take()).await?;

        m.create_table(
            Table::create()
                .table("ingame_follows")
                .col(pk_auto("id"))
                .col(integer("follower_id"))
                .col(integer("followee_id"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("ingame_follows", "follower_id", "users"))
                .foreign_key(&mut fk("ingame_follows", "followee_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ingame_follows", &["follower_id", "followee_id"]).unique().take()).await?;
        m.create_index(index("ingame_follows", &["followee_id"])).await?;
        Ok(())
    }
}
