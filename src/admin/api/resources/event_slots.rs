//! `event_slots`: every slot — an application `paid` or `win` (`crate::exhibit`) — with its
//! circle, plan, world and the booth it stands at. Staff place a slot: `PUT {"world_area_id",
//! "number"}` (both null: take the placement away), or `{"assign": "next"}` for the lowest
//! free number of its area (the world's first area when it has none yet) — the console's bulk
//! "assign in order" sends that for each selected slot. One booth per area and number (409
//! `booth_taken`); an area of another world is refused on the field.
//!
//! Filters: `event_id`, `circle_id`, `q` (circle name) as for applications, `world_id` (the
//! plan's world), `placed`, and `submission`: `none` (nothing submitted yet), or the inspection
//! status of the newest submission (`pending`, `passed`, `needs_fix`) — the organisers' lists of
//! who is late, waiting or asked to fix.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::api::resources::applications::{application_records, circle_name, id_value, of_circle, of_event};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::event_entry_application::LotteryStatus;
use crate::db::entities::event_slot_submission::{self, InspectionStatus};
use crate::db::entities::{event_entry_application, event_entry_plan, event_slot_placement, world_area};
use crate::error::{Error, Result};
use crate::exhibit::placement::{Booth, clear, first_area, place};
use crate::exhibit::slot::{SLOT_STATUSES, placements_of};
use crate::exhibit::submission::{newest_ids, newest_of};

/// The resource.
pub struct EventSlots;

/// A slot as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct EventSlotRecord {
    /// The slot's id (its application's).
    pub id: i32,
    /// Event.
    pub event_id: i32,
    /// The circle holding it.
    pub circle_id: i32,
    /// Its Japanese name.
    pub circle_name_ja: String,
    /// Its English name.
    pub circle_name_en: String,
    /// The plan won.
    pub plan_id: i32,
    /// Its Japanese name.
    pub plan_name_ja: String,
    /// Its English name.
    pub plan_name_en: String,
    /// The plan's world.
    pub world_id: i32,
    /// `paid` or `win`.
    pub lottery_status: LotteryStatus,
    /// The booth's area, once placed.
    pub world_area_id: Option<i32>,
    /// The areas of the plan's world, by number: what the console's area picker offers.
    pub areas: Vec<AreaChoice>,
    /// The booth's number in it.
    pub number: Option<i32>,
    /// Whether it has a booth.
    pub placed: bool,
    /// The newest submission's number, if any.
    pub submission_version: Option<i32>,
    /// Its inspection status; `none` without a submission.
    pub submission: String,
    /// Last change of the application.
    pub updated_at: DateTime<Utc>,
}

/// What staff send for a slot.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct EventSlotInput {
    /// The area (of the slot's world); null with `number` null: no booth.
    pub world_area_id: Option<i32>,
    /// The booth number in the area, from 1.
    #[validate(range(min = 1, max = 99999))]
    pub number: Option<i32>,
    /// `next`: take the lowest free number of the area instead of `number`.
    pub assign: Option<Assign>,
}

/// An area of a slot's world, as the area picker offers it.
#[derive(Debug, Clone, Serialize)]
pub struct AreaChoice {
    /// The area's id (`world_area_id`).
    pub id: i32,
    /// Its name and number.
    pub name: String,
}

/// How to choose the booth's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Assign {
    /// The lowest free number of the area.
    Next,
}

fn of_world(value: &Value) -> Option<Condition> {
    let id = id_value(value)?;
    let plans = Query::select()
        .column(event_entry_plan::Column::Id)
        .from(event_entry_plan::Entity)
        .and_where(event_entry_plan::Column::WorldId.eq(id))
        .to_owned();
    Some(Condition::all().add(event_entry_application::Column::PlanId.in_subquery(plans)))
}

fn is_placed(value: &Value) -> Option<Condition> {
    let placed = match value {
        Value::Bool(b) => *b,
        Value::String(s) if s == "true" || s == "false" => s == "true",
        _ => return None,
    };
    let ids = Query::select()
        .column(event_slot_placement::Column::ApplicationId)
        .from(event_slot_placement::Entity)
        .to_owned();
    let column = event_entry_application::Column::Id;
    Some(Condition::all().add(if placed { column.in_subquery(ids) } else { column.not_in_subquery(ids) }))
}

fn submission_state(value: &Value) -> Option<Condition> {
    let state = value.as_str()?;
    let column = event_entry_application::Column::Id;
    let submitted = Query::select()
        .column(event_slot_submission::Column::ApplicationId)
        .from(event_slot_submission::Entity)
        .to_owned();
    if state == "none" {
        return Some(Condition::all().add(column.not_in_subquery(submitted)));
    }
    let status = match state {
        "pending" => InspectionStatus::Pending,
        "passed" => InspectionStatus::Passed,
        "needs_fix" => InspectionStatus::NeedsFix,
        _ => return None,
    };
    let newest_with = Query::select()
        .column(event_slot_submission::Column::ApplicationId)
        .from(event_slot_submission::Entity)
        .and_where(event_slot_submission::Column::Id.in_subquery(newest_ids()))
        .and_where(event_slot_submission::Column::InspectionStatus.eq(status))
        .to_owned();
    Some(Condition::all().add(column.in_subquery(newest_with)))
}

impl Resource for EventSlots {
    type Entity = event_entry_application::Entity;
    type Record = EventSlotRecord;
    type Input = EventSlotInput;

    const NAME: &'static str = "event_slots";
    const AREA: Area = Area::Exhibitors;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["plan_id", "updated_at"],
        filter: &["plan_id", "lottery_status"],
        search: &[],
        computed: &[
            ("event_id", of_event),
            ("circle_id", of_circle),
            ("q", circle_name),
            ("world_id", of_world),
            ("placed", is_placed),
            ("submission", submission_state),
        ],
    };

    fn scope(_cx: &Cx<'_>) -> Condition {
        Condition::all().add(event_entry_application::Column::LotteryStatus.is_in(SLOT_STATUSES))
    }

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<event_entry_application::Model>,
    ) -> Result<Vec<EventSlotRecord>> {
        let mut placements = placements_of(db, rows.iter().map(|a| a.id)).await?;
        let ids: Vec<i32> = rows.iter().map(|a| a.id).collect();
        let mut newest = newest_of(db, &ids).await?;
        let worlds: std::collections::HashMap<i32, i32> = event_entry_plan::Entity::find()
            .filter(event_entry_plan::Column::Id.is_in(rows.iter().map(|a| a.plan_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|p| (p.id, p.world_id))
            .collect();
        let mut areas: std::collections::HashMap<i32, Vec<AreaChoice>> = std::collections::HashMap::new();
        for a in world_area::Entity::find()
            .filter(world_area::Column::WorldId.is_in(worlds.values().copied()))
            .order_by_asc(world_area::Column::Number)
            .all(db)
            .await?
        {
            areas
                .entry(a.world_id)
                .or_default()
                .push(AreaChoice { id: a.id, name: format!("{} ({})", a.name, a.number) });
        }
        Ok(application_records(db, rows, DateTime::<Utc>::MIN_UTC)
            .await?
            .into_iter()
            .map(|a| {
                let placement = placements.remove(&a.id);
                let submitted = newest.remove(&a.id);
                let world_id = worlds.get(&a.plan_id).copied().unwrap_or_default();
                EventSlotRecord {
                    id: a.id,
                    event_id: a.event_id,
                    circle_id: a.circle_id,
                    circle_name_ja: a.circle_name_ja,
                    circle_name_en: a.circle_name_en,
                    world_id,
                    plan_id: a.plan_id,
                    plan_name_ja: a.plan_name_ja,
                    plan_name_en: a.plan_name_en,
                    lottery_status: a.stored_status,
                    placed: placement.is_some(),
                    world_area_id: placement.as_ref().map(|p| p.world_area_id),
                    areas: areas.get(&world_id).cloned().unwrap_or_default(),
                    number: placement.map(|p| p.number),
                    submission_version: submitted.as_ref().map(|s| s.version),
                    submission: submitted
                        .map_or_else(|| "none".to_string(), |s| s.inspection.status.as_str().to_string()),
                    updated_at: a.updated_at,
                }
            })
            .collect())
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: event_entry_application::Model,
        input: EventSlotInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        let booth = match (input.assign, input.world_area_id, input.number) {
            (Some(Assign::Next), Some(world_area_id), _) => Booth::NextIn { world_area_id },
            (Some(Assign::Next), None, _) => {
                let area = first_area(txn, &row).await?;
                let area = area.ok_or_else(|| Error::invalid("world_area_id", "validation.world_without_areas"))?;
                Booth::NextIn { world_area_id: area.id }
            }
            (None, Some(world_area_id), Some(number)) => Booth::At { world_area_id, number },
            (None, None, None) => return clear(txn, row.id).await,
            (None, Some(_), None) => return Err(Error::invalid("number", "validation.required")),
            (None, None, Some(_)) => return Err(Error::invalid("world_area_id", "validation.required")),
        };
        place(txn, row.id, booth, Some(cx.staff.id), cx.now).await?;
        Ok(())
    }
}
