//! The link preview cache.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::index;

/// Creates `link_previews`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("link_previews")
                .col(pk_auto("id"))
                .col(string_len_uniq("url_hash", 64))
                .col(text("url"))
                .col(text("result"))
                .col(timestamp_with_time_zone("fetched_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("link_previews", &["fetched_at"])).await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("link_previews").to_owned()).await
    }
}
