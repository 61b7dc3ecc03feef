//! `applications`: every wish of every entry (DOMAIN.md "Entries and applications"), with its
//! circle, plan and lottery status as the site shows it now (the stored status with the
//! transitions time makes, [`effective_status`]). Staff change one thing: the status, as a
//! **corrective change with a mandatory reason** — `PUT {"lottery_status": "…", "reason": "…"}`
//! — limited to the transitions of `correction_allowed` (DOMAIN.md's diagram either way, to
//! or from `incorrect`, never `paid`) and to what a draw could do: the draw's fee, the plan's
//! `maximum`, one win per entry without multiple-win (`model::entry_correction`: 409
//! `correction_needs_fee`, `plan_full`, `entry_already_won`). The audit entry holds the record
//! before and after and the reason.
//!
//! Filters: `event_id`, `circle_id` and `q` (circle name) through the entry; `lottery_status`
//! is the stored status.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr, Query, SimpleExpr};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::event_entry_application::{LotteryRound, LotteryStatus};
use crate::db::entities::{circle, event, event_entry, event_entry_application, event_entry_plan};
use crate::error::{Error, Result};
use crate::forms::checks;
use crate::model::entry_correction::correct;
use crate::model::entry_status::{corrections_from, effective_status};
use crate::model::event::EventWithPhases;
use crate::model::search::escape_like;
use crate::model::search::terms;

/// The resource.
pub struct Applications;

/// An application as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct ApplicationRecord {
    /// Application id.
    pub id: i32,
    /// Its entry.
    pub entry_id: i32,
    /// The entry's event.
    pub event_id: i32,
    /// The entry's circle.
    pub circle_id: i32,
    /// The circle's Japanese name.
    pub circle_name_ja: String,
    /// The circle's English name.
    pub circle_name_en: String,
    /// The plan wished for.
    pub plan_id: i32,
    /// The plan's Japanese name.
    pub plan_name_ja: String,
    /// The plan's English name.
    pub plan_name_en: String,
    /// 1 = first wish.
    pub choice: i32,
    /// The status as the site shows it now.
    pub lottery_status: LotteryStatus,
    /// The status as stored (differs once a window has closed on it).
    pub stored_status: LotteryStatus,
    /// What staff may correct it to.
    pub corrections: Vec<LotteryStatus>,
    /// The round that made it a winner.
    pub won_round: Option<LotteryRound>,
    /// The fee it won at.
    pub fee_at_draw: Option<i32>,
    /// Uses AMP.
    pub use_amp: bool,
    /// The AMP id.
    pub amp_id: Option<String>,
    /// Free submission.
    pub free_submission: bool,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

/// A corrective status change.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct ApplicationInput {
    /// The status it should have.
    #[validate(required)]
    pub lottery_status: Option<LotteryStatus>,
    /// Why (kept in the audit log).
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 1000), custom(function = "checks::clean_text"))]
    pub reason: Option<String>,
}

/// `value` as an id, if it is one (a number or a numeric text).
pub(crate) fn id_value(value: &Value) -> Option<i32> {
    match value {
        Value::Number(n) => n.as_i64().and_then(|n| i32::try_from(n).ok()),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Ids of the circles whose name (Japanese or English) holds every word of `text`.
pub(crate) fn circles_named(text: &str) -> sea_orm::sea_query::SelectStatement {
    let mut condition = Condition::all();
    for word in terms(text) {
        let pattern = format!("%{}%", escape_like(&word.to_lowercase()));
        let like = |col: circle::Column| {
            let lowered: SimpleExpr = Func::lower(Expr::col(col)).into();
            lowered.like(LikeExpr::new(pattern.clone()).escape('\\'))
        };
        condition = condition.add(Condition::any().add(like(circle::Column::NameJa)).add(like(circle::Column::NameEn)));
    }
    Query::select().column(circle::Column::Id).from(circle::Entity).cond_where(condition).to_owned()
}

/// Entries matching `condition`, as a subquery of their ids.
pub(crate) fn entries_where(condition: Condition) -> sea_orm::sea_query::SelectStatement {
    Query::select().column(event_entry::Column::Id).from(event_entry::Entity).cond_where(condition).to_owned()
}

pub(crate) fn of_event(value: &Value) -> Option<Condition> {
    let id = id_value(value)?;
    let entries = entries_where(Condition::all().add(event_entry::Column::EventId.eq(id)));
    Some(Condition::all().add(event_entry_application::Column::EntryId.in_subquery(entries)))
}

pub(crate) fn of_circle(value: &Value) -> Option<Condition> {
    let id = id_value(value)?;
    let entries = entries_where(Condition::all().add(event_entry::Column::CircleId.eq(id)));
    Some(Condition::all().add(event_entry_application::Column::EntryId.in_subquery(entries)))
}

pub(crate) fn circle_name(value: &Value) -> Option<Condition> {
    let text = value.as_str()?;
    let entries = entries_where(Condition::all().add(event_entry::Column::CircleId.in_subquery(circles_named(text))));
    Some(Condition::all().add(event_entry_application::Column::EntryId.in_subquery(entries)))
}

/// Records of `rows` at `now`, with their entries, circles, plans and events loaded in a fixed
/// number of queries.
pub(crate) async fn application_records<C: ConnectionTrait + Sync>(
    db: &C,
    rows: Vec<event_entry_application::Model>,
    now: DateTime<Utc>,
) -> Result<Vec<ApplicationRecord>> {
    let entry_ids: Vec<i32> = rows.iter().map(|a| a.entry_id).collect();
    let entries: HashMap<i32, event_entry::Model> = event_entry::Entity::find()
        .filter(event_entry::Column::Id.is_in(entry_ids))
        .all(db)
        .await?
        .into_iter()
        .map(|e| (e.id, e))
        .collect();
    let circles = circles_of(db, entries.values().map(|e| e.circle_id).collect()).await?;
    let timelines = timelines_of(db, entries.values().map(|e| e.event_id).collect()).await?;
    let plan_ids: Vec<i32> = rows.iter().map(|a| a.plan_id).collect();
    let plans: HashMap<i32, event_entry_plan::Model> = event_entry_plan::Entity::find()
        .filter(event_entry_plan::Column::Id.is_in(plan_ids))
        .all(db)
        .await?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    Ok(rows
        .into_iter()
        .filter_map(|a| {
            let entry = entries.get(&a.entry_id)?;
            let circle = circles.get(&entry.circle_id);
            let plan = plans.get(&a.plan_id);
            let status =
                timelines.get(&entry.event_id).map_or(a.lottery_status, |t| effective_status(a.lottery_status, t, now));
            Some(ApplicationRecord {
                id: a.id,
                entry_id: a.entry_id,
                event_id: entry.event_id,
                circle_id: entry.circle_id,
                circle_name_ja: circle.map(|c| c.name_ja.clone()).unwrap_or_default(),
                circle_name_en: circle.map(|c| c.name_en.clone()).unwrap_or_default(),
                plan_id: a.plan_id,
                plan_name_ja: plan.map(|p| p.name_ja.clone()).unwrap_or_default(),
                plan_name_en: plan.map(|p| p.name_en.clone()).unwrap_or_default(),
                choice: a.choice,
                lottery_status: status,
                stored_status: a.lottery_status,
                corrections: corrections_from(status),
                won_round: a.won_round,
                fee_at_draw: a.fee_at_draw,
                use_amp: a.use_amp,
                amp_id: a.amp_id,
                free_submission: a.free_submission,
                created_at: a.created_at,
                updated_at: a.updated_at,
            })
        })
        .collect())
}

/// The circles `ids`, by id.
pub(crate) async fn circles_of<C: ConnectionTrait>(db: &C, ids: Vec<i32>) -> Result<HashMap<i32, circle::Model>> {
    Ok(circle::Entity::find()
        .filter(circle::Column::Id.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .map(|c| (c.id, c))
        .collect())
}

/// The events `ids` with their phases, by id.
pub(crate) async fn timelines_of<C: ConnectionTrait>(
    db: &C,
    mut ids: Vec<i32>,
) -> Result<HashMap<i32, EventWithPhases>> {
    ids.sort_unstable();
    ids.dedup();
    let mut out = HashMap::new();
    for event in event::Entity::find().filter(event::Column::Id.is_in(ids)).all(db).await? {
        out.insert(event.id, EventWithPhases::load(db, event).await?);
    }
    Ok(out)
}

impl Resource for Applications {
    type Entity = event_entry_application::Entity;
    type Record = ApplicationRecord;
    type Input = ApplicationInput;

    const NAME: &'static str = "applications";
    const AREA: Area = Area::Exhibitors;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["entry_id", "plan_id", "choice", "lottery_status", "created_at", "updated_at"],
        filter: &["entry_id", "plan_id", "choice", "lottery_status", "won_round", "created_at"],
        search: &[],
        computed: &[("event_id", of_event), ("circle_id", of_circle), ("q", circle_name)],
    };

    /// Without a clock: the statuses as stored.
    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<event_entry_application::Model>,
    ) -> Result<Vec<ApplicationRecord>> {
        application_records(db, rows, DateTime::<Utc>::MIN_UTC).await
    }

    async fn records_at<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<event_entry_application::Model>,
        now: DateTime<Utc>,
    ) -> Result<Vec<ApplicationRecord>> {
        application_records(db, rows, now).await
    }

    fn reason(input: &ApplicationInput) -> Option<String> {
        input.reason.clone()
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: event_entry_application::Model,
        input: ApplicationInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        let to = input.lottery_status.ok_or_else(|| Error::invalid("lottery_status", "validation.required"))?;
        let from = application_records(txn, vec![row.clone()], cx.now)
            .await?
            .first()
            .map_or(row.lottery_status, |r| r.lottery_status);
        correct(txn, row, from, to, cx.now, cx.acted_at()).await
    }
}
