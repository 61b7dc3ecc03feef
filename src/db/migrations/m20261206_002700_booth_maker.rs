//! The booth maker (issue 29, ASSETS.md "The booth maker", spec §3 "Housing"):
//!
//! - `preset_homes`: the rooms a booth is built in, kept by staff: a GLB of the room (`scene_url`)
//!   and its interior (`width` × `height` × `depth` metres: the floor at y = 0, walls at the back
//!   and both sides, the ceiling at `height`, the front open), `platform_code`, names, `order`, a
//!   thumbnail, `published`.
//! - `housing_scenes`: a user's booths: the home, `scene_json` (ASSETS.md's versioned scene),
//!   `revision` (bumped by every save), the server's `totals` of the saved scene, and what staff
//!   set for a world's lookup (`world_id`, `world_code`, `published`); `asset_id` is the asset the
//!   scene is frozen into when submitted (one per scene, a version per submission).
//! - `temporary_scenes`: the editor's autosaved draft of each scene (one per scene, a unique
//!   index), with its own `revision`: a save from a tab that read an older revision is refused,
//!   never merged.

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
                .table("preset_homes")
                .col(pk_auto("id"))
                .col(string_len("platform_code", 32))
                .col(string_len("name_ja", 100))
                .col(string_len("name_en", 100))
                .col(integer("order"))
                .col(string_len("scene_url", 2048))
                .col(string_len_null("thumbnail_url", 2048))
                .col(double("width"))
                .col(double("height"))
                .col(double("depth"))
                .col(boolean("published"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("housing_scenes")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(integer("preset_home_id"))
                .col(integer_null("world_id"))
                .col(string_len_null("world_code", 64))
                .col(string_len("name", 100))
                .col(string_len("introduction", 2000))
                .col(text("scene_json"))
                .col(integer("revision"))
                .col(text("totals"))
                .col(boolean("published"))
                .col(integer_null("asset_id"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("housing_scenes", "user_id", "users"))
                // A home in use cannot be deleted (the console says so); a world or an asset
                // that goes leaves the scene (the lookup and the freeze read them by id).
                .foreign_key(
                    ForeignKey::create()
                        .from("housing_scenes", "preset_home_id")
                        .to("preset_homes", "id")
                        .on_delete(ForeignKeyAction::Restrict),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(index("housing_scenes", &["user_id"])).await?;
        m.create_index(index("housing_scenes", &["world_code", "published"])).await?;

        m.create_table(
            Table::create()
                .table("temporary_scenes")
                .col(pk_auto("id"))
                .col(integer("housing_scene_id"))
                .col(integer("user_id"))
                .col(text("scene_json"))
                .col(integer("revision"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("temporary_scenes", "housing_scene_id", "housing_scenes"))
                .foreign_key(&mut fk("temporary_scenes", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("temporary_scenes", &["housing_scene_id"]).unique().take()).await?;
        Ok(())
    }
}
