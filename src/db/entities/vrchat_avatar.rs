//! A user's avatar converted for VRChat (spec §3 "VRChat" avatar): made by a paid avatar order,
//! worked on by a converter worker, uploaded to VRChat a limited number of times.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a VRChat avatar stands (ASSETS.md "The store and conversions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(24))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum VrcAvatarStatus {
    /// Paid for; waits for a converter worker.
    Waiting,
    /// A worker converts it.
    Converting,
    /// Converted; waits for an upload to VRChat.
    Converted,
    /// A worker uploads it to VRChat (one of `remaining_uploads` spent).
    Uploading,
    /// On VRChat.
    Finished,
    /// The conversion failed (the reason is kept); an update order converts it again.
    ConvertFailed,
    /// The upload failed (the upload is given back); its owner may try again.
    UploadFailed,
    /// Its owner cancelled it before an upload began.
    Cancelled,
}

/// A row of `vrchat_avatars`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "vrchat_avatars")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Its public id.
    pub uuid: String,
    pub user_id: i32,
    /// The user's avatar asset.
    pub asset_id: i32,
    /// The version converted (the newest paid order's).
    pub asset_version_id: i32,
    pub avatar_name: String,
    pub status: VrcAvatarStatus,
    /// Uploads to VRChat still paid for (never below 0).
    pub remaining_uploads: i32,
    /// The worker's progress through the step under way, 0–100.
    pub progress: i32,
    /// The worker's note on that step.
    pub progress_note: Option<String>,
    /// The worker holding the step under way.
    pub worker: Option<String>,
    /// Past this, a silent worker's step goes back to the queue.
    pub lease_until: Option<DateTimeUtc>,
    /// Steps begun for it (claims), for staff.
    pub attempts: i32,
    /// The converted file's object key.
    pub result_key: Option<String>,
    pub result_bytes: Option<i64>,
    pub result_sha256: Option<String>,
    /// The avatar's id on VRChat (`avtr_…`), once uploaded.
    pub vrchat_avatar_id: Option<String>,
    /// Why the last step failed: a code, and the worker's words.
    pub failure_code: Option<String>,
    pub failure_message: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
