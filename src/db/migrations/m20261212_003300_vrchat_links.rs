//! VRChat account links (issue 31, spec §3 "VRChat": account link `vrchatId`, display name, icon,
//! bio). A user proves a VRChat account is theirs by putting a code vmarket gives them into its
//! bio; vmarket reads the profile through VRChat's API and links it.
//!
//! - `vrchat_link_challenges`: a user's pending proof — the VRChat account, the code, until when.
//!   One per user (unique); used once (deleted when the link is made).
//! - `vrchat_account_links`: the linked account and its profile as last read. One per user and
//!   one per VRChat account (both unique): an account cannot be linked to two users.

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
                .table("vrchat_link_challenges")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(string_len("vrchat_id", 64))
                .col(string_len("display_name", 64))
                .col(string_len("code", 32))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("vrchat_link_challenges", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("vrchat_link_challenges", &["user_id"]).unique().take()).await?;
        m.create_table(
            Table::create()
                .table("vrchat_account_links")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(string_len("vrchat_id", 64))
                .col(string_len("display_name", 64))
                .col(text("user_icon"))
                .col(text("bio"))
                .col(timestamp_with_time_zone("linked_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("vrchat_account_links", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("vrchat_account_links", &["user_id"]).unique().take()).await?;
        m.create_index(index("vrchat_account_links", &["vrchat_id"]).unique().take()).await?;
        Ok(())
    }
}
