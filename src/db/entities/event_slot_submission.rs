//! A booth an exhibitor submitted for a slot (issue 28, spec §3 "Upload file"): numbered per
//! slot, pointing at the asset version it sent, with staff's inspection of it.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What made the submitted file (spec `submissionToolsType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ToolsType {
    /// A Unity package from the desktop submission tool, uploaded as a `booth_package` asset.
    VmarketTools,
    /// A scene saved in the browser's booth maker.
    BoothMaker,
}

/// Where staff's inspection of a submission stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum InspectionStatus {
    /// Not inspected yet.
    Pending,
    /// Inspected: fine.
    Passed,
    /// Inspected: the owner must fix what the findings say and submit again.
    NeedsFix,
}

impl InspectionStatus {
    /// The stored (and serialized) name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Passed => "passed",
            Self::NeedsFix => "needs_fix",
        }
    }
}

/// A row of `event_slot_submissions`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "event_slot_submissions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The slot: its application.
    pub application_id: i32,
    /// 1, 2, … per slot.
    pub version: i32,
    pub asset_version_id: i32,
    pub submission_tools_type: ToolsType,
    pub submitted_by: i32,
    pub submitted_at: DateTimeUtc,
    pub inspection_status: InspectionStatus,
    /// JSON list of `{ "rule_id", "reason", "blocking" }`.
    pub findings: String,
    /// Whether a blocking finding stands.
    pub is_booth_error: bool,
    pub inspected_by: Option<i32>,
    pub inspected_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
