//! The event catalogue: circles, exhibitors and their slots, companies with highlights and
//! worlds, catalogue item categories and items, and the keyword-search indexes over them
//! (SQLite FTS5 `trigram` tables kept in sync by triggers, or PostgreSQL `pg_trgm` GIN indexes;
//! see `crate::model::search`).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index, search_index};
use crate::db::search::SEARCHABLE;

/// Creates the catalogue tables and their search indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("circles")
                .col(pk_auto("id"))
                .col(string_len("name_ja", 64))
                .col(string_len("name_en", 128))
                .col(text("description_ja"))
                .col(text("description_en"))
                .col(string_null("thumbnail"))
                .col(string_null("website_link"))
                .col(boolean("is_suspended"))
                // The owner's user id; the users table arrives with sign-in, so no foreign key yet.
                .col(integer_null("owner_user_id"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("companies")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(integer("display_index"))
                .col(string_len("name_ja", 128))
                .col(string_len("name_en", 128))
                .col(text("description_ja"))
                .col(text("description_en"))
                .col(string_null("thumbnail"))
                .col(string_null("website_link"))
                .col(string_len("site_name_ja", 128))
                .col(string_len("site_name_en", 128))
                .col(string_null("vmarket_cloud_url"))
                .col(boolean("is_public"))
                .foreign_key(&mut fk("companies", "event_id", "events"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("companies", &["event_id", "display_index"])).await?;
        m.create_table(
            Table::create()
                .table("company_highlights")
                .col(pk_auto("id"))
                .col(integer("company_id"))
                .col(string("image"))
                .col(integer("display_index"))
                .foreign_key(&mut fk("company_highlights", "company_id", "companies"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("company_highlights", &["company_id"])).await?;
        m.create_table(
            Table::create()
                .table("company_worlds")
                .col(pk_auto("id"))
                .col(integer("company_id"))
                .col(integer("world_id"))
                .foreign_key(&mut fk("company_worlds", "company_id", "companies"))
                .foreign_key(&mut fk("company_worlds", "world_id", "worlds"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("company_worlds", &["company_id"])).await?;
        m.create_index(index("company_worlds", &["world_id"])).await?;

        m.create_table(
            Table::create()
                .table("exhibitors")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(integer_null("circle_id"))
                .col(integer_null("company_id"))
                .col(string("kind"))
                .col(integer_null("world_id"))
                .col(string_len("name_ja", 128))
                .col(string_len("name_en", 128))
                .col(integer("display_index"))
                .foreign_key(&mut fk("exhibitors", "event_id", "events"))
                .foreign_key(&mut fk("exhibitors", "circle_id", "circles"))
                .foreign_key(&mut fk("exhibitors", "company_id", "companies"))
                .foreign_key(&mut fk("exhibitors", "world_id", "worlds"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("exhibitors", &["event_id", "display_index"])).await?;
        m.create_index(index("exhibitors", &["world_id"])).await?;
        m.create_index(index("exhibitors", &["circle_id"])).await?;
        m.create_index(index("exhibitors", &["company_id"])).await?;
        m.create_table(
            Table::create()
                .table("exhibitor_slots")
                .col(pk_auto("id"))
                .col(integer("exhibitor_id"))
                .col(integer_null("world_area_id"))
                .col(integer("number"))
                .foreign_key(&mut fk("exhibitor_slots", "exhibitor_id", "exhibitors"))
                .foreign_key(&mut fk("exhibitor_slots", "world_area_id", "world_areas"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("exhibitor_slots", &["exhibitor_id"])).await?;

        m.create_table(
            Table::create()
                .table("catalog_item_category_groups")
                .col(pk_auto("id"))
                .col(string("group_type"))
                .col(integer("display_index"))
                .col(string_len("name_ja", 128))
                .col(string_len("name_en", 128))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("catalog_item_categories")
                .col(pk_auto("id"))
                .col(integer("group_id"))
                .col(string_len("name_ja", 128))
                .col(string_len("name_en", 128))
                .col(integer("display_index"))
                .foreign_key(&mut fk("catalog_item_categories", "group_id", "catalog_item_category_groups"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("catalog_item_categories", &["group_id"])).await?;

        m.create_table(
            Table::create()
                .table("catalog_items")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(integer_null("exhibitor_id"))
                .col(integer_null("company_id"))
                .col(integer("category_id"))
                // 32 / 64 for exhibitor items, 128 for company items (checked by the model).
                .col(string_len("name_ja", 128))
                .col(string_len("name_en", 128))
                .col(text("description_ja"))
                .col(text("description_en"))
                .col(string_null("thumbnail"))
                .col(string_null("url"))
                .col(boolean("is_distributable"))
                .col(integer_null("price"))
                .col(integer("display_index"))
                .foreign_key(&mut fk("catalog_items", "event_id", "events"))
                .foreign_key(&mut fk("catalog_items", "exhibitor_id", "exhibitors"))
                .foreign_key(&mut fk("catalog_items", "company_id", "companies"))
                .foreign_key(&mut fk("catalog_items", "category_id", "catalog_item_categories"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("catalog_items", &["event_id", "display_index"])).await?;
        m.create_index(index("catalog_items", &["exhibitor_id"])).await?;
        m.create_index(index("catalog_items", &["company_id"])).await?;
        m.create_index(index("catalog_items", &["category_id"])).await?;

        create_search_indexes(m).await
    }
}

/// The keyword-search indexes of the catalogue tables (see [`search_index`]).
async fn create_search_indexes(m: &SchemaManager<'_>) -> Result<(), DbErr> {
    for s in SEARCHABLE {
        search_index(m, s).await?;
    }
    Ok(())
}
