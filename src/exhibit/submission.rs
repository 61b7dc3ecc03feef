//! Booth submissions and their inspection (issue 28 items 5 and 6, spec §3 "Upload file",
//! ASSETS.md "Submission term", "Inspection").
//!
//! The owner of a slot's circle submits, from `submission_start` until the term's end (the
//! application clock, time travel included), one of their own uploaded asset versions of the
//! `booth_package` kind (`submission_tools_type` `vmarket_tools`). Each submission is a new row
//! numbered 1, 2, … per slot (a unique index; the slot's application row is locked while the
//! next number is taken); the newest is the one staff inspect. A version whose report failed is
//! refused (422 `report_failed`), one still being checked waits (409 `version_not_ready`).
//!
//! Staff mark the newest submission `passed` or `needs_fix` with findings (a reason each, some
//! blocking); `is_booth_error` holds while a blocking finding stands. A new submission starts
//! `pending` again. After `inspection_end` only an explicit staff decision changes a verdict
//! (the console says so); the owner is mailed in their language either way.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TransactionSession, TransactionTrait,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::entities::event_slot_submission::{InspectionStatus, ToolsType};
use crate::db::entities::{asset, asset_setting, asset_version, event_entry_application, event_slot_submission};
use crate::error::{Error, Result};
use crate::exhibit::slot::SlotView;
use crate::exhibit::term::SubmissionTerm;
use crate::model::event::EventWithPhases;

/// The asset kind a booth package is uploaded as.
pub const BOOTH_PACKAGE: &str = "booth_package";
/// Findings one inspection may record.
pub const MAX_FINDINGS: usize = 50;
/// A finding's reason, at most this many characters.
pub const REASON_MAX: usize = 1000;

/// One thing inspection found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Finding {
    /// The rule it concerns (a rule of the report's rule set, or staff's own), if any.
    #[serde(default)]
    pub rule_id: Option<String>,
    /// What is wrong and what to do, as staff wrote it.
    pub reason: String,
    /// Whether the booth cannot be shown until it is fixed.
    #[serde(default)]
    pub blocking: bool,
}

/// The automatic check's verdict on the submitted file.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReportSummary {
    /// `passed`, `warnings` or `failed`.
    pub status: String,
    /// Errors.
    pub num_errors: u64,
    /// Warnings.
    pub num_warnings: u64,
}

/// Staff's inspection of a submission.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InspectionView {
    /// `pending`, `passed` or `needs_fix`.
    pub status: InspectionStatus,
    /// What staff found (empty while pending).
    pub findings: Vec<Finding>,
    /// When staff decided.
    pub inspected_at: Option<DateTime<Utc>>,
}

/// One submission (spec §3 "Upload file").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SubmissionView {
    /// Id.
    pub id: i32,
    /// The slot.
    pub slot_id: i32,
    /// 1, 2, … per slot.
    pub version: i32,
    /// The file's name.
    pub file_name: String,
    /// `vmarket_tools` or `booth_maker`.
    pub submission_tools_type: ToolsType,
    /// Whether a blocking finding stands.
    pub is_booth_error: bool,
    /// When it was submitted.
    pub submission_at: DateTime<Utc>,
    /// The file's picture, once made.
    pub submission_thumbnail: Option<String>,
    /// The file's size in bytes.
    pub build_data_size: i64,
    /// The asset version it sent.
    pub asset_version_id: i32,
    /// That version's asset.
    pub asset_id: i32,
    /// The automatic check of that version.
    pub report: Option<ReportSummary>,
    /// Staff's inspection.
    pub inspection: InspectionView,
}

/// The findings stored in `row`.
pub fn findings_of(row: &event_slot_submission::Model) -> Vec<Finding> {
    serde_json::from_str(&row.findings).unwrap_or_default()
}

/// The summary of a stored report, if it reads.
pub fn report_summary(report: Option<&str>) -> Option<ReportSummary> {
    let value: serde_json::Value = serde_json::from_str(report?).ok()?;
    Some(ReportSummary {
        status: value["status"].as_str()?.to_string(),
        num_errors: value["issues"]["num_errors"].as_u64().unwrap_or(0),
        num_warnings: value["issues"]["num_warnings"].as_u64().unwrap_or(0),
    })
}

/// Views of `rows` (any slots), each with its asset version.
pub async fn views(db: &impl ConnectionTrait, rows: Vec<event_slot_submission::Model>) -> Result<Vec<SubmissionView>> {
    let versions: std::collections::HashMap<i32, asset_version::Model> = asset_version::Entity::find()
        .filter(asset_version::Column::Id.is_in(rows.iter().map(|r| r.asset_version_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|v| (v.id, v))
        .collect();
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let v = versions.get(&r.asset_version_id)?;
            Some(SubmissionView {
                id: r.id,
                slot_id: r.application_id,
                version: r.version,
                file_name: v.file_name.clone(),
                submission_tools_type: r.submission_tools_type,
                is_booth_error: r.is_booth_error,
                submission_at: r.submitted_at,
                submission_thumbnail: v.thumbnail_key.as_ref().map(|k| format!("/media/{k}/320.png")),
                build_data_size: v.byte_size,
                asset_version_id: v.id,
                asset_id: v.asset_id,
                report: report_summary(v.report.as_deref()),
                inspection: InspectionView {
                    status: r.inspection_status,
                    findings: findings_of(&r),
                    inspected_at: r.inspected_at,
                },
            })
        })
        .collect())
}

/// The submissions of `slot_ids`, newest first within each slot.
pub async fn of_slots(db: &impl ConnectionTrait, slot_ids: &[i32]) -> Result<Vec<SubmissionView>> {
    let rows = event_slot_submission::Entity::find()
        .filter(event_slot_submission::Column::ApplicationId.is_in(slot_ids.iter().copied()))
        .order_by_asc(event_slot_submission::Column::ApplicationId)
        .order_by_desc(event_slot_submission::Column::Version)
        .all(db)
        .await?;
    views(db, rows).await
}

/// The ids of every slot's newest submission (the highest id: numbers rise with ids), as a
/// subquery for the console's filters.
pub fn newest_ids() -> sea_orm::sea_query::SelectStatement {
    sea_orm::sea_query::Query::select()
        .expr(event_slot_submission::Column::Id.max())
        .from(event_slot_submission::Entity)
        .group_by_col(event_slot_submission::Column::ApplicationId)
        .to_owned()
}

/// The newest submission of each of `slot_ids`, by slot.
pub async fn newest_of(
    db: &impl ConnectionTrait,
    slot_ids: &[i32],
) -> Result<std::collections::HashMap<i32, SubmissionView>> {
    let mut out = std::collections::HashMap::new();
    for s in of_slots(db, slot_ids).await? {
        out.entry(s.slot_id).or_insert(s);
    }
    Ok(out)
}

/// The 409 when the term is not open at `now`: before it, `submission_not_open` with its start;
/// after it, `submission_closed` with its end; no term at all, `submission_closed` now.
pub fn ensure_open(term: &SubmissionTerm, now: DateTime<Utc>) -> Result<()> {
    match (term.submission_start_at, term.submission_end_at) {
        (Some(start), _) if now < start => Err(Error::Closed { code: "submission_not_open", deadline: start }),
        (Some(_), Some(end)) if now < end => Ok(()),
        (_, end) => Err(Error::Closed { code: "submission_closed", deadline: end.unwrap_or(now) }),
    }
}

/// The user's own asset version `version_id` of the booth package kind, ready to submit: 404
/// when it is not theirs (or deleted), 422 when it is of another kind or its report failed,
/// 409 while it is still being checked.
pub async fn submittable_version(
    db: &impl ConnectionTrait,
    user_id: i32,
    version_id: i32,
) -> Result<asset_version::Model> {
    let version = asset_version::Entity::find_by_id(version_id).one(db).await?.ok_or_else(Error::not_found)?;
    let owner = asset::Entity::find_by_id(version.asset_id)
        .one(db)
        .await?
        .filter(|a| a.user_id == user_id && !a.deleted)
        .ok_or_else(Error::not_found)?;
    let setting = asset_setting::Entity::find_by_id(owner.asset_setting_id).one(db).await?;
    if setting.is_none_or(|s| s.label != BOOTH_PACKAGE) {
        return Err(Error::invalid("asset_version_id", "submissions.validation.kind"));
    }
    use crate::db::entities::asset_version::UploadStatus;
    match version.upload_status {
        UploadStatus::Uploaded => Ok(version),
        UploadStatus::Failed => Err(Error::Refused { code: "report_failed" }),
        _ => Err(Error::Conflict { code: "version_not_ready" }),
    }
}

/// The user's booth-package versions that could be submitted now, newest first.
pub async fn candidates(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<(asset::Model, asset_version::Model)>> {
    let Some(setting) =
        asset_setting::Entity::find().filter(asset_setting::Column::Label.eq(BOOTH_PACKAGE)).one(db).await?
    else {
        return Ok(Vec::new());
    };
    let assets = asset::Entity::find()
        .filter(asset::Column::UserId.eq(user_id))
        .filter(asset::Column::AssetSettingId.eq(setting.id))
        .filter(asset::Column::Deleted.eq(false))
        .all(db)
        .await?;
    let versions = asset_version::Entity::find()
        .filter(asset_version::Column::AssetId.is_in(assets.iter().map(|a| a.id)))
        .filter(asset_version::Column::UploadStatus.eq(asset_version::UploadStatus::Uploaded))
        .order_by_desc(asset_version::Column::Id)
        .all(db)
        .await?;
    Ok(versions
        .into_iter()
        .filter_map(|v| assets.iter().find(|a| a.id == v.asset_id).map(|a| (a.clone(), v)))
        .collect())
}

/// Submits the user's asset version `version_id` for `slot` (its owner, inside the term); the
/// new submission.
pub async fn submit<C: ConnectionTrait + TransactionTrait>(
    db: &C,
    event: &EventWithPhases,
    slot: &SlotView,
    user_id: i32,
    version_id: i32,
    now: DateTime<Utc>,
) -> Result<SubmissionView> {
    if !slot.circle.is_owner {
        return Err(Error::Forbidden);
    }
    ensure_open(&SubmissionTerm::of(event, now), now)?;
    let version = submittable_version(db, user_id, version_id).await?;
    let row = record(db, slot.id, &version, ToolsType::VmarketTools, user_id, now).await?;
    views(db, vec![row]).await?.pop().ok_or_else(Error::not_found)
}

/// Records `version`, made by `tools`, as the next submission of slot `slot_id` by `user_id`,
/// whoever asks and whenever (the demo's seed, and the booth maker once it checked the scene;
/// people go through [`submit`] or `crate::booth`).
pub async fn record<C: ConnectionTrait + TransactionTrait>(
    db: &C,
    slot_id: i32,
    version: &asset_version::Model,
    tools: ToolsType,
    user_id: i32,
    now: DateTime<Utc>,
) -> Result<event_slot_submission::Model> {
    let txn = crate::db::begin_write(db).await?;
    // The slot's application row, locked (PostgreSQL) while the next number is taken; SQLite
    // has one writer at a time. The unique index (slot, version) backs both.
    event_entry_application::Entity::find_by_id(slot_id).lock_exclusive().one(&txn).await?;
    let last: Option<i32> = event_slot_submission::Entity::find()
        .select_only()
        .column_as(event_slot_submission::Column::Version.max(), "m")
        .filter(event_slot_submission::Column::ApplicationId.eq(slot_id))
        .into_tuple::<Option<i32>>()
        .one(&txn)
        .await?
        .flatten();
    let row = event_slot_submission::ActiveModel {
        application_id: Set(slot_id),
        version: Set(last.unwrap_or(0) + 1),
        asset_version_id: Set(version.id),
        submission_tools_type: Set(tools),
        submitted_by: Set(user_id),
        submitted_at: Set(now),
        inspection_status: Set(InspectionStatus::Pending),
        findings: Set("[]".into()),
        is_booth_error: Set(false),
        inspected_by: Set(None),
        inspected_at: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(row)
}

/// Staff's verdict on a submission.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// `passed` or `needs_fix`.
    pub status: InspectionStatus,
    /// What was found (`needs_fix` needs at least one).
    pub findings: Vec<Finding>,
}

/// Records `verdict` on submission `id` by staff member `staff_id`: only the newest of its slot
/// is inspected (409 `not_newest`); `pending` is no verdict (422). The row after.
pub async fn inspect(
    db: &impl ConnectionTrait,
    id: i32,
    verdict: Verdict,
    staff_id: i32,
    now: DateTime<Utc>,
) -> Result<event_slot_submission::Model> {
    let row = event_slot_submission::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)?;
    let newest = event_slot_submission::Entity::find()
        .filter(event_slot_submission::Column::ApplicationId.eq(row.application_id))
        .order_by_desc(event_slot_submission::Column::Version)
        .one(db)
        .await?;
    if newest.is_some_and(|n| n.id != row.id) {
        return Err(Error::Conflict { code: "not_newest" });
    }
    check_verdict(&verdict)?;
    let blocking = verdict.status == InspectionStatus::NeedsFix && verdict.findings.iter().any(|f| f.blocking);
    let mut active: event_slot_submission::ActiveModel = row.into();
    active.inspection_status = Set(verdict.status);
    active.findings = Set(serde_json::to_string(&verdict.findings).map_err(|e| Error::Internal(e.to_string()))?);
    active.is_booth_error = Set(blocking);
    active.inspected_by = Set(Some(staff_id));
    active.inspected_at = Set(Some(now));
    Ok(active.update(db).await?)
}

/// The one check of a verdict: a decision, findings for `needs_fix`, each with a reason.
pub fn check_verdict(verdict: &Verdict) -> Result<()> {
    let mut problems = Vec::new();
    if verdict.status == InspectionStatus::Pending {
        problems.push(crate::error::Invalid::new("inspection_status", "submissions.validation.decide"));
    }
    if verdict.status == InspectionStatus::NeedsFix && verdict.findings.is_empty() {
        problems.push(crate::error::Invalid::new("findings", "submissions.validation.findings"));
    }
    if verdict.findings.len() > MAX_FINDINGS {
        problems.push(crate::error::Invalid::new("findings", "validation.at_most").with("max", MAX_FINDINGS));
    }
    for (i, f) in verdict.findings.iter().enumerate() {
        let n = f.reason.trim().chars().count();
        if n == 0 {
            problems.push(crate::error::Invalid::new(format!("findings.{i}.reason"), "validation.required"));
        } else if n > REASON_MAX || !crate::model::text::is_clean(&f.reason) {
            problems.push(
                crate::error::Invalid::new(format!("findings.{i}.reason"), "validation.too_long")
                    .with("max", REASON_MAX),
            );
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(Error::Validation(problems)) }
}
