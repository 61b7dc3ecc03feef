//! The pipeline of ASSETS.md, step by step, for one version whose bytes are all there:
//!
//! ```text
//! analyzing ──▶ validating ──▶ converting ──▶ uploaded
//!     └─────────────┴──────────────┴────────▶ failed (the report says why)
//! ```
//!
//! - **analyzing** ([`analysis`]): a local upload's parts are joined into the version's file;
//!   the file is copied to a temporary file (streaming), its kind decided from its bytes, and the
//!   analysers run over it within their ceilings;
//! - **validating**: the report of the analysis against the setting's rule set; errors fail the
//!   version;
//! - **converting** ([`pictures`]): the pictures (160/320/640 and the in-game one) from an image,
//!   the snapshot the upload page rendered for a 3D file, a video's frame, or a placeholder;
//! - **uploaded**: the asset's latest version is the newest uploaded one.
//!
//! Every status change is a compare-and-set, and every step can run again: a job that runs twice
//! or a worker killed mid-way ([`crate::assets::jobs::pipeline`] resumes it) changes nothing
//! twice. A step that meets a storage failure leaves the status where it is and the job retries.

pub mod analysis;
pub mod pictures;
pub mod tools;

pub use tools::Tools;

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, Set};

use crate::assets::analyse::{ReportInput, build_report};
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_setting, asset_version};
use crate::error::{Error, Result};

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The version is uploaded.
    Uploaded,
    /// The version failed; its report says why.
    Failed,
    /// Nothing to do (not in the pipeline, or another run moved it).
    Nothing,
}

/// Runs the pipeline on version `id` from where it stands.
pub async fn run(tools: &Tools<'_>, id: i32, now: DateTime<Utc>) -> Result<Outcome> {
    let version = asset_version::Model::by_id(tools.db, id).await?;
    let asset = asset::Model::by_id(tools.db, version.asset_id).await?;
    let setting = asset_setting::Model::by_id(tools.db, asset.asset_setting_id).await?;
    match version.upload_status {
        UploadStatus::Analyzing | UploadStatus::Validating => {}
        UploadStatus::Converting => return convert(tools, version, now).await,
        _ => return Ok(Outcome::Nothing),
    }
    let local = analysis::assemble(tools, &version).await?;
    let analysed = analysis::analyse(tools, &version, &setting, &local).await;
    drop(local);
    let analysed = analysed?;
    let mut row: asset_version::ActiveModel = version.clone().into();
    row.sha256 = Set(Some(analysed.sha256.clone()));
    row.kind = Set(analysed.analysis.kind.map(|k| k.as_str().to_string()));
    row.mime_type = Set(analysed.analysis.kind.map(|k| k.mime_type().to_string()));
    row.detail = Set(Some(serde_json::to_string(&analysis::detail(&analysed, &asset, &setting)).unwrap_or_default()));
    row.updated_at = Set(now);
    let version = row.update(tools.db).await?;
    let from = version.upload_status;
    if from == UploadStatus::Analyzing
        && !asset_version::Model::advance(tools.db, version.id, from, UploadStatus::Validating, now).await?
    {
        return Ok(Outcome::Nothing);
    }

    let rules_row = setting.rule_set_row(tools.db).await?;
    let rules = rules_row.rule_set()?;
    let input = ReportInput {
        asset_id: u64::try_from(asset.id).unwrap_or(0),
        version: u32::try_from(version.version).unwrap_or(0),
        mime_type: None,
        byte_length: analysed.bytes,
        sha256: analysed.sha256.clone(),
        validated_at: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    };
    let report = build_report(&input, &analysed.analysis, &rules);
    let failed = report.status == crate::assets::analyse::report::Status::Failed;
    let mut row: asset_version::ActiveModel = version.clone().into();
    row.report = Set(Some(serde_json::to_string(&report).map_err(|e| Error::Internal(e.to_string()))?));
    row.rule_set_id = Set(Some(rules_row.id));
    row.rule_set_version = Set(Some(rules_row.version));
    row.updated_at = Set(now);
    let version = row.update(tools.db).await?;
    let next = if failed { UploadStatus::Failed } else { UploadStatus::Converting };
    if !asset_version::Model::advance(tools.db, version.id, UploadStatus::Validating, next, now).await? {
        return Ok(Outcome::Nothing);
    }
    if failed {
        return Ok(Outcome::Failed);
    }
    let version = asset_version::Model { upload_status: UploadStatus::Converting, ..version };
    convert(tools, version, now).await
}

/// The converting step, then uploaded.
async fn convert(tools: &Tools<'_>, version: asset_version::Model, now: DateTime<Utc>) -> Result<Outcome> {
    let made = pictures::make(tools, &version).await?;
    let mut row: asset_version::ActiveModel = version.clone().into();
    row.thumbnail_key = Set(Some(made.prefix.clone()));
    row.ingame_thumbnail_key = Set(Some(made.ingame));
    row.updated_at = Set(now);
    row.update(tools.db).await?;
    // Uploaded and the asset's latest in one transaction: nobody sees one without the other.
    let txn = crate::db::begin_write(tools.db).await?;
    if !asset_version::Model::advance(&txn, version.id, UploadStatus::Converting, UploadStatus::Uploaded, now).await? {
        return Ok(Outcome::Nothing);
    }
    version.promote(&txn, now).await?;
    txn.commit().await?;
    Ok(Outcome::Uploaded)
}
