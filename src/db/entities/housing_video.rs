//! A user's housing video (issue 31, spec §3 "Housing video"): made from an uploaded version of
//! a `housing_video` asset, converted to an H.264/AAC MP4 and a thumbnail by a background job.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where the conversion stands (spec §3 `convertStatus`): `converting → finished | error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ConvertStatus {
    /// Waiting for or in the conversion job.
    Converting,
    /// The MP4 and its thumbnail are there.
    Finished,
    /// The conversion refused or failed; `convert_error` says why.
    Error,
}

/// Whether the owner still keeps it (spec §3 `discardStatus`): `active → discarded`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum DiscardStatus {
    /// Kept.
    Active,
    /// Discarded by its owner; its converted files are deleted.
    Discarded,
}

/// A row of `housing_videos`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "housing_videos")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Its public id (spec §3 `uuid`); its files are stored under `housing_videos/{uuid}/`.
    pub uuid: String,
    /// The owner (the asset's).
    pub user_id: i32,
    pub asset_id: i32,
    /// The uploaded version it is made from (one housing video per version).
    pub asset_version_id: i32,
    /// The name the video was uploaded as.
    pub video_filename: String,
    pub convert_status: ConvertStatus,
    /// Why the conversion ended in `error` (`crate::store::video::ConvertError`'s code).
    pub convert_error: Option<String>,
    /// Runs of the conversion job so far (a storage failure is retried with backoff).
    pub convert_attempts: i32,
    pub converted_bytes: Option<i64>,
    pub duration_ms: Option<i32>,
    pub width: Option<i32>,
    pub height: Option<i32>,
    pub discard_status: DiscardStatus,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    pub converted_at: Option<DateTimeUtc>,
    pub discarded_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
