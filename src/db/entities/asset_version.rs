//! One uploaded file of an asset (spec §3 "Asset version"), immutable once uploaded, moving
//! through the pipeline of ASSETS.md: `waiting → analyzing → validating → converting → uploaded`,
//! or `failed` (the report says why), or `expired` (never completed within 24 h).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a version stands (spec §3 `uploadStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum UploadStatus {
    /// Opened; its bytes are being sent.
    Waiting,
    /// All bytes are there; the file is being read.
    Analyzing,
    /// Its measurements are being checked against the rule set.
    Validating,
    /// Passed; thumbnails and derived files are being made.
    Converting,
    /// Ready.
    Uploaded,
    /// Refused: the report says why (or staff failed it, with a reason).
    Failed,
    /// Never completed within 24 hours; its bytes are gone.
    Expired,
}

impl UploadStatus {
    /// The snake_case name, as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Waiting => "waiting",
            Self::Analyzing => "analyzing",
            Self::Validating => "validating",
            Self::Converting => "converting",
            Self::Uploaded => "uploaded",
            Self::Failed => "failed",
            Self::Expired => "expired",
        }
    }

    /// Whether the pipeline still has work to do on it.
    pub fn in_pipeline(self) -> bool {
        matches!(self, Self::Analyzing | Self::Validating | Self::Converting)
    }
}

/// A row of `asset_versions`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "asset_versions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub uuid: String,
    pub asset_id: i32,
    /// 1, 2, … per asset.
    pub version: i32,
    pub upload_status: UploadStatus,
    /// The file's name as the owner sent it (a name only: no path).
    pub file_name: String,
    /// Bytes, as declared when the upload opened (and checked when it completed).
    pub byte_size: i64,
    pub sha256: Option<String>,
    /// From the bytes, never from the name.
    pub mime_type: Option<String>,
    /// `assets::analyse::Kind`, from the bytes.
    pub kind: Option<String>,
    /// Where the file is in the object store (under the asset's own prefix).
    pub object_key: String,
    /// The analysis' detail (JSON): avatar, zip, furniture or scene fields of spec §3.
    pub detail: Option<String>,
    /// The validation report (JSON, ASSETS.md "The report").
    pub report: Option<String>,
    pub rule_set_id: Option<i32>,
    pub rule_set_version: Option<i32>,
    /// Prefix of the thumbnails (`…/160.png`, `…/320.png`, `…/640.png`).
    pub thumbnail_key: Option<String>,
    pub ingame_thumbnail_key: Option<String>,
    /// The browser-rendered snapshot of a 3D file the owner sent, if any.
    pub snapshot_key: Option<String>,
    /// Pipeline runs that met a transient failure (storage, a crash), for the backoff.
    pub pipeline_attempts: i32,
    /// Why staff failed or restored it.
    pub status_reason: Option<String>,
    pub status_changed_by: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// When all its bytes were there.
    pub completed_at: Option<DateTimeUtc>,
    /// When it became `uploaded`.
    pub uploaded_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
