//! `housing_videos`: users' housing videos and their conversion (issue 31), for the staff who
//! answer "my video did not convert": the owner, the upload it was made from, the conversion's
//! status and error, the converted file's size and picture, and whether the owner discarded it.
//! Read only: a video is its owner's to convert and discard.

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;
use serde::Serialize;

use crate::admin::api::contract::Columns;
use crate::admin::api::resource::{NoInput, Resource};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::housing_video::{self, ConvertStatus, DiscardStatus};
use crate::error::Result;

/// The resource.
pub struct HousingVideos;

/// A housing video as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct HousingVideoRecord {
    /// Id.
    pub id: i32,
    /// Its public id.
    pub uuid: String,
    /// The owner.
    pub user_id: i32,
    /// The asset it was made from.
    pub asset_id: i32,
    /// The uploaded version converted.
    pub asset_version_id: i32,
    /// The name it was uploaded as.
    pub video_filename: String,
    /// `converting`, `finished` or `error`.
    pub convert_status: ConvertStatus,
    /// Why it is `error`.
    pub convert_error: Option<String>,
    /// Runs of the conversion job.
    pub convert_attempts: i32,
    /// Bytes of the MP4.
    pub converted_bytes: Option<i64>,
    /// Milliseconds.
    pub duration_ms: Option<i32>,
    /// Pixels.
    pub width: Option<i32>,
    /// Pixels.
    pub height: Option<i32>,
    /// `active` or `discarded`.
    pub discard_status: DiscardStatus,
    /// Made.
    pub created_at: DateTime<Utc>,
    /// Converted.
    pub converted_at: Option<DateTime<Utc>>,
    /// Discarded.
    pub discarded_at: Option<DateTime<Utc>>,
}

impl Resource for HousingVideos {
    type Entity = housing_video::Entity;
    type Record = HousingVideoRecord;
    type Input = NoInput;

    const NAME: &'static str = "housing_videos";
    const AREA: Area = Area::Assets;
    const ACTIONS: &'static [Action] = Action::READ;
    const COLUMNS: Columns = Columns {
        sort: &["id", "created_at", "convert_status"],
        filter: &["user_id", "convert_status", "discard_status", "convert_error"],
        search: &["video_filename", "uuid"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<housing_video::Model>,
    ) -> Result<Vec<HousingVideoRecord>> {
        Ok(rows
            .into_iter()
            .map(|r| HousingVideoRecord {
                id: r.id,
                uuid: r.uuid,
                user_id: r.user_id,
                asset_id: r.asset_id,
                asset_version_id: r.asset_version_id,
                video_filename: r.video_filename,
                convert_status: r.convert_status,
                convert_error: r.convert_error,
                convert_attempts: r.convert_attempts,
                converted_bytes: r.converted_bytes,
                duration_ms: r.duration_ms,
                width: r.width,
                height: r.height,
                discard_status: r.discard_status,
                created_at: r.created_at,
                converted_at: r.converted_at,
                discarded_at: r.discarded_at,
            })
            .collect())
    }
}
