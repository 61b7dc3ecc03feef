//! The inputs of a lottery round as the database holds them (the draw itself:
//! [`crate::lottery`]; the runs: `model::lottery`).
//!
//! The inputs of a round:
//!
//! - **first**: every plan of the event with its `maximum` (minus slots already held, none in
//!   practice), every entry of a circle that is not suspended with its `applied` wishes.
//! - **second**: every plan with its freed slots — `maximum` minus the wishes that still hold a
//!   slot (`first_win` while its payment window is open, `win`, `paid`, `second_win`); unpaid
//!   and declined wins hold none — and every entry's `first_lost` wishes, except entries
//!   without multiple-win that won in the first round (they keep, paid, declined or lost their
//!   one win).
//!
//! Within an entry the wishes keep their order; in the draw's input they are ranked 1..n
//! among the wishes that take part (a multiple-win entry that won its second wish goes into the
//! second round with its first and third as 1 and 2).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect};

use crate::db::entities::event_entry_application::{LotteryRound, LotteryStatus};
use crate::db::entities::{circle, event, event_entry, event_entry_application, event_entry_plan};
use crate::error::{Error, Result};
use crate::lottery::{ApplicationInput, EntryInput, Inputs, PlanInput};
use crate::model::entry_status::{effective_status, holds_slot};
use crate::model::event::EventWithPhases;

/// The event `event_id` with its phases.
pub(crate) async fn timeline_of(db: &impl ConnectionTrait, event_id: i32) -> Result<EventWithPhases> {
    let event = event::Entity::find_by_id(event_id).one(db).await?.ok_or_else(Error::unknown_permalink)?;
    EventWithPhases::load(db, event).await
}

/// What the draw reads of an entry.
struct EntryRow {
    id: i32,
    circle_id: i32,
    is_multiple_win: bool,
}

/// What the draw reads of an application.
struct WishRow {
    id: i32,
    entry_id: i32,
    plan_id: i32,
    choice: i32,
    lottery_status: LotteryStatus,
    won_round: Option<LotteryRound>,
}

/// The inputs of `event_id`'s `round` as the database holds them now (module doc), with the
/// applications of suspended circles that the draw leaves out.
pub async fn load_inputs(
    db: &impl ConnectionTrait,
    event_id: i32,
    round: LotteryRound,
    now: DateTime<Utc>,
) -> Result<(Inputs, Vec<i32>)> {
    let loaded = inputs_of(db, &timeline_of(db, event_id).await?, round, now).await?;
    Ok((loaded.inputs, loaded.excluded))
}

/// What [`inputs_of`] read.
pub(crate) struct Loaded {
    /// The draw's inputs.
    pub(crate) inputs: Inputs,
    /// The applications of suspended circles that take no part (`incorrect` at publication).
    pub(crate) excluded: Vec<i32>,
    /// Their entries.
    pub(crate) excluded_entries: Vec<i32>,
}

/// [`load_inputs`] of the event `timeline`, with the entries the draw leaves out.
pub(crate) async fn inputs_of(
    db: &impl ConnectionTrait,
    timeline: &EventWithPhases,
    round: LotteryRound,
    now: DateTime<Utc>,
) -> Result<Loaded> {
    let event_id = timeline.event.id;
    let plans = event_entry_plan::Entity::find().filter(event_entry_plan::Column::EventId.eq(event_id)).all(db).await?;
    // Only the columns the draw needs (as for the applications below).
    let entries: Vec<EntryRow> = event_entry::Entity::find()
        .select_only()
        .columns([event_entry::Column::Id, event_entry::Column::CircleId, event_entry::Column::IsMultipleWin])
        .filter(event_entry::Column::EventId.eq(event_id))
        .into_tuple::<(i32, i32, bool)>()
        .all(db)
        .await?
        .into_iter()
        .map(|(id, circle_id, is_multiple_win)| EntryRow { id, circle_id, is_multiple_win })
        .collect();
    // Subqueries, not lists of ids: an event has tens of thousands of entries, more than a
    // statement may bind on SQLite.
    let entries_of_event = Query::select()
        .column(event_entry::Column::Id)
        .from(event_entry::Entity)
        .and_where(event_entry::Column::EventId.eq(event_id))
        .to_owned();
    let circles_of_event = Query::select()
        .column(event_entry::Column::CircleId)
        .from(event_entry::Entity)
        .and_where(event_entry::Column::EventId.eq(event_id))
        .to_owned();
    let suspended: HashSet<i32> = circle::Entity::find()
        .filter(circle::Column::Id.in_subquery(circles_of_event))
        .filter(circle::Column::IsSuspended.eq(true))
        .all(db)
        .await?
        .into_iter()
        .map(|c| c.id)
        .collect();
    // Only the columns the draw needs: a full row per application costs more than the draw.
    use event_entry_application::Column as A;
    let applications: Vec<WishRow> = event_entry_application::Entity::find()
        .select_only()
        .columns([A::Id, A::EntryId, A::PlanId, A::Choice, A::LotteryStatus, A::WonRound])
        .filter(A::EntryId.in_subquery(entries_of_event))
        .into_tuple::<(i32, i32, i32, i32, LotteryStatus, Option<LotteryRound>)>()
        .all(db)
        .await?
        .into_iter()
        .map(|(id, entry_id, plan_id, choice, lottery_status, won_round)| WishRow {
            id,
            entry_id,
            plan_id,
            choice,
            lottery_status,
            won_round,
        })
        .collect();
    let status = |a: &WishRow| effective_status(a.lottery_status, timeline, now);

    let mut held: HashMap<i32, i64> = HashMap::new();
    for a in &applications {
        if holds_slot(status(a)) {
            *held.entry(a.plan_id).or_default() += 1;
        }
    }
    let plan_inputs = plans
        .iter()
        .map(|p| PlanInput {
            id: i64::from(p.id),
            capacity: u32::try_from((i64::from(p.maximum) - held.get(&p.id).copied().unwrap_or(0)).max(0)).unwrap_or(0),
        })
        .collect();

    let mut by_entry: HashMap<i32, Vec<&WishRow>> = HashMap::new();
    for a in &applications {
        by_entry.entry(a.entry_id).or_default().push(a);
    }
    let mut excluded = Vec::new();
    let mut excluded_entries = Vec::new();
    let mut entry_inputs = Vec::new();
    for entry in &entries {
        let mut wishes = by_entry.remove(&entry.id).unwrap_or_default();
        wishes.sort_by_key(|a| a.choice);
        let taking: Vec<&WishRow> = match round {
            LotteryRound::First => {
                wishes.iter().copied().filter(|a| a.lottery_status == LotteryStatus::Applied).collect()
            }
            LotteryRound::Second => {
                let won_first = wishes.iter().any(|a| a.won_round == Some(LotteryRound::First));
                if won_first && !entry.is_multiple_win {
                    Vec::new()
                } else {
                    wishes.iter().copied().filter(|a| status(a) == LotteryStatus::FirstLost).collect()
                }
            }
        };
        if taking.is_empty() {
            continue;
        }
        if suspended.contains(&entry.circle_id) {
            excluded.extend(taking.iter().map(|a| a.id));
            excluded_entries.push(entry.id);
            continue;
        }
        entry_inputs.push(EntryInput {
            id: i64::from(entry.id),
            multiple_win: entry.is_multiple_win,
            applications: taking
                .iter()
                .enumerate()
                .map(|(rank, a)| ApplicationInput {
                    id: i64::from(a.id),
                    choice: u8::try_from(rank + 1).unwrap_or(u8::MAX),
                    plan_id: i64::from(a.plan_id),
                })
                .collect(),
        });
    }
    let inputs = Inputs::new(plan_inputs, entry_inputs).map_err(|e| Error::Internal(format!("lottery inputs: {e}")))?;
    Ok(Loaded { inputs, excluded, excluded_entries })
}
