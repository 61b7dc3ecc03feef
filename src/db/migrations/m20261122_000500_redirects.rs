//! Redirects: the per-event VRC redirects (`/{permalink}/redirect/{id}`) and the site-wide slug
//! rules the `/{slug}` catch-all applies.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates `vrc_redirects` and `redirect_rules`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("vrc_redirects")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(string("url_key"))
                .col(text("url"))
                .col(text("description_ja"))
                .col(text("description_en"))
                .foreign_key(&mut fk("vrc_redirects", "event_id", "events"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("vrc_redirects", &["event_id", "url_key"]).unique().take()).await?;
        m.create_table(
            Table::create()
                .table("redirect_rules")
                .col(pk_auto("id"))
                .col(string("slug"))
                .col(text("target"))
                .col(boolean("permanent"))
                .col(boolean("is_active"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("redirect_rules", &["slug"]).unique().take()).await?;
        Ok(())
    }
}
