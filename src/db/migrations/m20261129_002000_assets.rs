//! The asset uploader (issue 27, ASSETS.md "The asset uploader"):
//!
//! - `asset_rule_sets`: the rules a kind of upload is checked against, as data (JSON), edited by
//!   staff; every change raises `version`, and each report names the id and version it used;
//! - `asset_settings`: one per upload kind (`label`: avatar, furniture, …), with the kinds of
//!   file it accepts (by content), its byte limit and its rule set;
//! - `assets`: owned by one user; `published` and `deleted` are the owner's flags;
//!   `latest_version_id` is the newest `uploaded` version;
//! - `asset_versions`: one per upload, immutable once uploaded, with its pipeline status, the
//!   object's key, digest and kind, the analysis' detail and the report;
//! - `asset_uploads` and `asset_upload_parts`: a multipart upload in progress (the parts a local
//!   store received; an S3-compatible store keeps its own), open until completed, aborted or
//!   expired (24 h by the clock);
//! - `asset_temporary_uploads`: the one-shot small-file path (`POST /uploader/temporary_uploads`);
//! - `asset_download_tokens`: per version, the token's SHA-256 (never the token), an optional
//!   argon2 password hash, an expiry.

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
                .table("asset_rule_sets")
                .col(pk_auto("id"))
                .col(string_len("key", 64))
                .col(integer("version"))
                .col(string_len("name_ja", 128))
                .col(string_len("name_en", 128))
                .col(text("rules"))
                .col(integer_null("updated_by"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("asset_rule_sets", &["key"]).unique().take()).await?;

        m.create_table(
            Table::create()
                .table("asset_settings")
                .col(pk_auto("id"))
                .col(string_len("label", 32))
                .col(string_len("name_ja", 128))
                .col(string_len("name_en", 128))
                .col(string_len("asset_type", 16))
                .col(text("accepted"))
                .col(big_integer("max_bytes"))
                .col(integer("rule_set_id"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("asset_settings", "rule_set_id", "asset_rule_sets"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("asset_settings", &["label"]).unique().take()).await?;

        m.create_table(
            Table::create()
                .table("assets")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(integer("asset_setting_id"))
                .col(string_len("name", 128))
                .col(text("description"))
                .col(string_len_null("sub_type", 16))
                .col(boolean("published"))
                .col(boolean("deleted"))
                .col(timestamp_with_time_zone_null("deleted_at"))
                .col(integer_null("latest_version_id"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("assets", "user_id", "users"))
                .foreign_key(&mut fk("assets", "asset_setting_id", "asset_settings"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("assets", &["user_id", "deleted"])).await?;

        m.create_table(
            Table::create()
                .table("asset_versions")
                .col(pk_auto("id"))
                .col(string_len("uuid", 36))
                .col(integer("asset_id"))
                .col(integer("version"))
                .col(string_len("upload_status", 16))
                .col(string_len("file_name", 255))
                .col(big_integer("byte_size"))
                .col(string_len_null("sha256", 64))
                .col(string_len_null("mime_type", 128))
                .col(string_len_null("kind", 16))
                .col(string_len("object_key", 255))
                .col(text_null("detail"))
                .col(text_null("report"))
                .col(integer_null("rule_set_id"))
                .col(integer_null("rule_set_version"))
                .col(string_len_null("thumbnail_key", 255))
                .col(string_len_null("ingame_thumbnail_key", 255))
                .col(string_len_null("snapshot_key", 255))
                .col(integer("pipeline_attempts"))
                .col(text_null("status_reason"))
                .col(integer_null("status_changed_by"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .col(timestamp_with_time_zone_null("completed_at"))
                .col(timestamp_with_time_zone_null("uploaded_at"))
                .foreign_key(&mut fk("asset_versions", "asset_id", "assets"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("asset_versions", &["uuid"]).unique().take()).await?;
        m.create_index(index("asset_versions", &["asset_id", "version"]).unique().take()).await?;
        m.create_index(index("asset_versions", &["upload_status"])).await?;

        m.create_table(
            Table::create()
                .table("asset_uploads")
                .col(string_len("id", 36).primary_key())
                .col(integer("asset_version_id"))
                .col(integer("user_id"))
                .col(big_integer("byte_size"))
                .col(big_integer("part_size"))
                .col(integer("part_count"))
                .col(string_len("store", 8))
                .col(string_len_null("multipart_id", 1024))
                .col(string_len("status", 16))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone_null("completed_at"))
                .foreign_key(&mut fk("asset_uploads", "asset_version_id", "asset_versions"))
                .foreign_key(&mut fk("asset_uploads", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("asset_uploads", &["asset_version_id"]).unique().take()).await?;
        m.create_index(index("asset_uploads", &["status", "expires_at"])).await?;

        m.create_table(
            Table::create()
                .table("asset_upload_parts")
                .col(string_len("upload_id", 36))
                .col(integer("part_number"))
                .col(string_len("etag", 80))
                .col(big_integer("byte_size"))
                .col(timestamp_with_time_zone("received_at"))
                .primary_key(Index::create().col("upload_id").col("part_number"))
                .foreign_key(
                    ForeignKey::create()
                        .from("asset_upload_parts", "upload_id")
                        .to("asset_uploads", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("asset_temporary_uploads")
                .col(string_len("id", 36).primary_key())
                .col(integer("user_id"))
                .col(string_len("object_key", 255))
                .col(string_len("file_name", 255))
                .col(big_integer("byte_size"))
                .col(string_len("sha256", 64))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone_null("used_at"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("asset_temporary_uploads", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("asset_temporary_uploads", &["expires_at"])).await?;

        m.create_table(
            Table::create()
                .table("asset_download_tokens")
                .col(pk_auto("id"))
                .col(integer("asset_version_id"))
                .col(string_len("token_hash", 64))
                .col(string_len_null("password_hash", 255))
                .col(timestamp_with_time_zone("expires_at"))
                .col(integer("created_by"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone_null("revoked_at"))
                .foreign_key(&mut fk("asset_download_tokens", "asset_version_id", "asset_versions"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("asset_download_tokens", &["token_hash"]).unique().take()).await?;
        m.create_index(index("asset_download_tokens", &["asset_version_id"])).await?;
        Ok(())
    }
}
