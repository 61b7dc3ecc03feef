//! Events with their phases, concepts, worlds, keywords, artists, world areas and posters.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the event and world tables.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("events")
                .col(pk_auto("id"))
                .col(string_uniq("permalink"))
                .col(integer("version"))
                .col(string("name_ja"))
                .col(string("name_en"))
                .col(string_null("image"))
                .col(string_null("logo"))
                .col(string_null("icon"))
                .col(string_null("first_view_image"))
                .col(string("theme_ja"))
                .col(string("theme_en"))
                .col(text("theme_description_ja"))
                .col(text("theme_description_en"))
                .col(boolean("is_entry_closed"))
                .col(boolean("is_public"))
                .col(string_null("exhibition_term_url"))
                .col(string_null("exhibition_guideline_url"))
                .col(string_null("submission_rule_url"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("event_phases")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(string("phase_type"))
                .col(timestamp_with_time_zone("phase_timestamp"))
                .col(boolean("is_private"))
                .col(boolean("is_displayable"))
                .foreign_key(&mut fk("event_phases", "event_id", "events"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("event_phases", &["event_id", "phase_timestamp"])).await?;

        for (table, extra_unique) in [("keywords", true), ("artists", false)] {
            let mut stmt = Table::create();
            stmt.table(table).col(pk_auto("id")).col(string("name_ja")).col(string("name_en"));
            m.create_table(stmt.to_owned()).await?;
            if extra_unique {
                m.create_index(index(table, &["name_ja", "name_en"]).unique().take()).await?;
            }
        }

        m.create_table(
            Table::create()
                .table("concepts")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(string("name_ja"))
                .col(string("name_en"))
                .col(text("description_ja"))
                .col(text("description_en"))
                .col(string("platform"))
                .col(string("venue"))
                .col(string("kind"))
                .col(boolean("is_company"))
                .col(string_null("image"))
                .col(string_null("logo"))
                .col(string_null("launch_link_image"))
                .col(string_null("map_image_ja"))
                .col(string_null("map_image_en"))
                .col(integer("display_order"))
                .foreign_key(&mut fk("concepts", "event_id", "events"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("concepts", &["event_id", "display_order"])).await?;

        m.create_table(
            Table::create()
                .table("worlds")
                .col(pk_auto("id"))
                .col(integer("event_id"))
                .col(integer("concept_id"))
                .col(string("name_ja"))
                .col(string("name_en"))
                .col(text("description_ja"))
                .col(text("description_en"))
                .col(string_null("image"))
                .col(string_null("logo"))
                .col(string("exhibition_platform"))
                .col(string("venue"))
                .col(boolean("is_company"))
                .col(string_null("launch_link"))
                .col(integer("display_order"))
                .foreign_key(&mut fk("worlds", "event_id", "events"))
                .foreign_key(&mut fk("worlds", "concept_id", "concepts"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("worlds", &["event_id", "display_order"])).await?;
        m.create_index(index("worlds", &["concept_id"])).await?;

        // Link tables: (table, owner column, owner table, linked column, linked table, has category)
        let links = [
            ("concept_keywords", "concept_id", "concepts", "keyword_id", "keywords", false),
            ("concept_artists", "concept_id", "concepts", "artist_id", "artists", true),
            ("world_keywords", "world_id", "worlds", "keyword_id", "keywords", false),
            ("world_artists", "world_id", "worlds", "artist_id", "artists", true),
        ];
        for (table, owner, owner_table, linked, linked_table, has_category) in links {
            let mut stmt = Table::create();
            stmt.table(table)
                .col(pk_auto("id"))
                .col(integer(owner))
                .col(integer(linked))
                .foreign_key(&mut fk(table, owner, owner_table))
                .foreign_key(&mut fk(table, linked, linked_table));
            if has_category {
                stmt.col(string("category"));
            }
            m.create_table(stmt.to_owned()).await?;
            m.create_index(index(table, &[owner])).await?;
        }

        m.create_table(
            Table::create()
                .table("world_areas")
                .col(pk_auto("id"))
                .col(integer("world_id"))
                .col(string("name"))
                .col(integer("number"))
                .col(string_null("image"))
                .foreign_key(&mut fk("world_areas", "world_id", "worlds"))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("posters")
                .col(pk_auto("id"))
                .col(integer("world_id"))
                .col(integer("number"))
                .col(string_len("name", 128))
                .col(string_null("image"))
                .foreign_key(&mut fk("posters", "world_id", "worlds"))
                .to_owned(),
        )
        .await?;
        for table in ["world_areas", "posters"] {
            m.create_index(index(table, &["world_id"])).await?;
        }
        Ok(())
    }
}
