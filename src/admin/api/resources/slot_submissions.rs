//! `slot_submissions`: every booth submitted for a slot (`crate::exhibit::submission`), with its
//! circle, plan, file and the automatic check's verdict beside staff's inspection. Staff inspect
//! the newest submission of a slot: `PUT {"inspection_status": "passed" | "needs_fix",
//! "findings": [{"rule_id", "reason", "blocking"}]}` — `needs_fix` needs a finding, each finding
//! a reason; an older submission answers 409 `not_newest`. The circle's owner is mailed the
//! verdict in their language.
//!
//! Filters: `event_id`, `circle_id`, `q` (circle name) as for applications; `inspection_status`,
//! `is_booth_error`, `newest` (only each slot's newest), `report_status` (`passed`, `warnings`,
//! `failed`: the check of the submitted version).

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::api::resources::applications::{application_records, circle_name, of_circle, of_event};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::event_slot_submission::InspectionStatus;
use crate::db::entities::{
    asset_version, circle, event, event_entry, event_entry_application, event_slot_submission, user,
};
use crate::error::{Error, Result};
use crate::exhibit::submission::{Finding, Verdict, findings_of, inspect, newest_ids, report_summary};
use crate::jobs::follow_up::FollowUp;
use crate::mail::{MailKind, Outgoing};

/// The resource.
pub struct SlotSubmissions;

/// A submission as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct SlotSubmissionRecord {
    /// Id.
    pub id: i32,
    /// The slot (its application).
    pub slot_id: i32,
    /// Event.
    pub event_id: i32,
    /// The circle.
    pub circle_id: i32,
    /// Its Japanese name.
    pub circle_name_ja: String,
    /// Its English name.
    pub circle_name_en: String,
    /// The plan's Japanese name.
    pub plan_name_ja: String,
    /// The plan's English name.
    pub plan_name_en: String,
    /// 1, 2, … per slot.
    pub version: i32,
    /// Whether it is the slot's newest (the one inspected).
    pub newest: bool,
    /// The file's name.
    pub file_name: String,
    /// The asset version sent (console `asset_versions`).
    pub asset_version_id: i32,
    /// The check's verdict: `passed`, `warnings`, `failed`.
    pub report_status: Option<String>,
    /// The check's errors.
    pub num_errors: u64,
    /// The check's warnings.
    pub num_warnings: u64,
    /// `pending`, `passed`, `needs_fix`.
    pub inspection_status: InspectionStatus,
    /// What staff found.
    pub findings: Vec<Finding>,
    /// Whether a blocking finding stands.
    pub is_booth_error: bool,
    /// When it was submitted.
    pub submitted_at: DateTime<Utc>,
    /// When staff decided.
    pub inspected_at: Option<DateTime<Utc>>,
    /// Who decided.
    pub inspected_by: Option<i32>,
}

/// Staff's verdict.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct InspectionInput {
    /// `passed` or `needs_fix`.
    pub inspection_status: Option<InspectionStatus>,
    /// What was found.
    pub findings: Vec<Finding>,
}

/// `application_id IN (applications where condition)`.
fn of_applications(condition: Option<Condition>) -> Option<Condition> {
    let ids = Query::select()
        .column(event_entry_application::Column::Id)
        .from(event_entry_application::Entity)
        .cond_where(condition?)
        .to_owned();
    Some(Condition::all().add(event_slot_submission::Column::ApplicationId.in_subquery(ids)))
}

fn event_filter(value: &Value) -> Option<Condition> {
    of_applications(of_event(value))
}

fn circle_filter(value: &Value) -> Option<Condition> {
    of_applications(of_circle(value))
}

fn name_filter(value: &Value) -> Option<Condition> {
    of_applications(circle_name(value))
}

fn newest_filter(value: &Value) -> Option<Condition> {
    let newest = match value {
        Value::Bool(b) => *b,
        Value::String(s) if s == "true" || s == "false" => s == "true",
        _ => return None,
    };
    let column = event_slot_submission::Column::Id;
    Some(Condition::all().add(if newest {
        column.in_subquery(newest_ids())
    } else {
        column.not_in_subquery(newest_ids())
    }))
}

fn report_filter(value: &Value) -> Option<Condition> {
    let status = value.as_str().filter(|s| ["passed", "warnings", "failed"].contains(s))?;
    // The report is JSON text; its verdict is matched as written by the analyser.
    let pattern = format!("%\"status\":\"{status}\"%");
    let ids = Query::select()
        .column(asset_version::Column::Id)
        .from(asset_version::Entity)
        .and_where(asset_version::Column::Report.like(pattern))
        .to_owned();
    Some(Condition::all().add(event_slot_submission::Column::AssetVersionId.in_subquery(ids)))
}

impl Resource for SlotSubmissions {
    type Entity = event_slot_submission::Entity;
    type Record = SlotSubmissionRecord;
    type Input = InspectionInput;

    const NAME: &'static str = "slot_submissions";
    const AREA: Area = Area::Exhibitors;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["submitted_at", "inspected_at", "version"],
        filter: &["inspection_status", "is_booth_error", "application_id"],
        search: &[],
        computed: &[
            ("event_id", event_filter),
            ("circle_id", circle_filter),
            ("q", name_filter),
            ("newest", newest_filter),
            ("report_status", report_filter),
        ],
    };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<event_slot_submission::Model>,
    ) -> Result<Vec<SlotSubmissionRecord>> {
        let applications = event_entry_application::Entity::find()
            .filter(event_entry_application::Column::Id.is_in(rows.iter().map(|r| r.application_id)))
            .all(db)
            .await?;
        let apps: std::collections::HashMap<i32, _> = application_records(db, applications, DateTime::<Utc>::MIN_UTC)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        let versions: std::collections::HashMap<i32, asset_version::Model> = asset_version::Entity::find()
            .filter(asset_version::Column::Id.is_in(rows.iter().map(|r| r.asset_version_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|v| (v.id, v))
            .collect();
        let mut newest: std::collections::HashMap<i32, i32> = std::collections::HashMap::new();
        for s in event_slot_submission::Entity::find()
            .filter(event_slot_submission::Column::ApplicationId.is_in(rows.iter().map(|r| r.application_id)))
            .all(db)
            .await?
        {
            let best = newest.entry(s.application_id).or_insert(s.version);
            *best = (*best).max(s.version);
        }
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                let a = apps.get(&r.application_id)?;
                let v = versions.get(&r.asset_version_id)?;
                let report = report_summary(v.report.as_deref());
                Some(SlotSubmissionRecord {
                    id: r.id,
                    slot_id: r.application_id,
                    event_id: a.event_id,
                    circle_id: a.circle_id,
                    circle_name_ja: a.circle_name_ja.clone(),
                    circle_name_en: a.circle_name_en.clone(),
                    plan_name_ja: a.plan_name_ja.clone(),
                    plan_name_en: a.plan_name_en.clone(),
                    version: r.version,
                    newest: newest.get(&r.application_id) == Some(&r.version),
                    file_name: v.file_name.clone(),
                    asset_version_id: v.id,
                    num_errors: report.as_ref().map(|s| s.num_errors).unwrap_or(0),
                    num_warnings: report.as_ref().map(|s| s.num_warnings).unwrap_or(0),
                    report_status: report.map(|s| s.status),
                    findings: findings_of(&r),
                    inspection_status: r.inspection_status,
                    is_booth_error: r.is_booth_error,
                    submitted_at: r.submitted_at,
                    inspected_at: r.inspected_at,
                    inspected_by: r.inspected_by,
                })
            })
            .collect())
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: event_slot_submission::Model,
        input: InspectionInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        let status =
            input.inspection_status.ok_or_else(|| Error::invalid("inspection_status", "validation.required"))?;
        let verdict = Verdict { status, findings: input.findings };
        let inspected = inspect(txn, row.id, verdict, cx.staff.id, cx.now).await?;
        if let Some(mail) = verdict_mail(txn, &inspected).await? {
            cx.after_commit([FollowUp::Mail(cx.mailer.queue(txn, &mail, cx.now).await?)]);
        }
        Ok(())
    }
}

/// The mail telling the slot's circle owner the verdict on `row`, in their language (none
/// without an owner or an address).
async fn verdict_mail(db: &impl ConnectionTrait, row: &event_slot_submission::Model) -> Result<Option<Outgoing>> {
    let Some(application) = event_entry_application::Entity::find_by_id(row.application_id).one(db).await? else {
        return Ok(None);
    };
    let entry = event_entry::Entity::find_by_id(application.entry_id).one(db).await?.ok_or_else(Error::not_found)?;
    let found = event::Entity::find_by_id(entry.event_id).one(db).await?.ok_or_else(Error::not_found)?;
    let owner_circle = circle::Entity::find_by_id(entry.circle_id).one(db).await?.ok_or_else(Error::not_found)?;
    let owner = match owner_circle.owner_user_id {
        Some(id) => user::Entity::find_by_id(id).one(db).await?,
        None => None,
    };
    let Some(owner) = owner else { return Ok(None) };
    let Some((email, lang)) = owner.mail_to() else { return Ok(None) };
    let findings: Vec<Value> = findings_of(row)
        .into_iter()
        .map(|f| json!({ "rule_id": f.rule_id, "reason": f.reason, "blocking": f.blocking }))
        .collect();
    let context = json!({
        "recipient_name": owner.name(lang),
        "circle_name": owner_circle.name(lang),
        "event_name": lang.pick(&found.name_ja, &found.name_en),
        "version": row.version,
        "passed": row.inspection_status == InspectionStatus::Passed,
        "findings": findings,
        "path": format!("{}/mypage/entry_history/{}/submissions/{}", lang.prefix(), found.permalink, row.application_id),
    });
    Ok(Some(Outgoing { to: email.to_string(), lang, kind: MailKind::SubmissionInspected, context }))
}
