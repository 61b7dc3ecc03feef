//! Housing videos (issue 31, spec §3 "Housing video", ASSETS.md "The store and conversions"):
//! a user's video, uploaded through the uploader under the `housing_video` setting, converted by
//! a background job (ffmpeg) into an H.264/AAC MP4 of bounded size and a thumbnail.
//!
//! - `housing_videos`: the owner, the uploaded version it was made from (one housing video per
//!   version: a unique index), the file name it was uploaded as, `convert_status`
//!   (`converting → finished | error`, with the error's code), the converted file's measurements,
//!   and `discard_status` (`active → discarded`; the converted files are deleted then). The files
//!   are stored under `housing_videos/{uuid}/`, so their keys follow from the `uuid`.

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
                .table("housing_videos")
                .col(pk_auto("id"))
                .col(string_len("uuid", 36))
                .col(integer("user_id"))
                .col(integer("asset_id"))
                .col(integer("asset_version_id"))
                .col(string_len("video_filename", 255))
                .col(string_len("convert_status", 16))
                .col(string_len_null("convert_error", 32))
                .col(integer("convert_attempts"))
                .col(big_integer_null("converted_bytes"))
                .col(integer_null("duration_ms"))
                .col(integer_null("width"))
                .col(integer_null("height"))
                .col(string_len("discard_status", 16))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .col(timestamp_with_time_zone_null("converted_at"))
                .col(timestamp_with_time_zone_null("discarded_at"))
                .foreign_key(&mut fk("housing_videos", "user_id", "users"))
                .foreign_key(&mut fk("housing_videos", "asset_id", "assets"))
                .foreign_key(&mut fk("housing_videos", "asset_version_id", "asset_versions"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("housing_videos", &["uuid"]).unique().take()).await?;
        m.create_index(index("housing_videos", &["asset_version_id"]).unique().take()).await?;
        m.create_index(index("housing_videos", &["user_id"])).await?;
        m.create_index(index("housing_videos", &["convert_status"])).await?;
        Ok(())
    }
}
