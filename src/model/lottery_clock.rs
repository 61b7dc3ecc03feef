//! The lottery clock's work on the database (run once a minute by `jobs::LotteryClock`, by the
//! site's clock): writing the statuses time has changed ([`sweep`]) and moving the automatic
//! rounds ([`advance_rounds`]).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect};

use crate::db::entities::event_entry_application::{LotteryRound, LotteryStatus};
use crate::db::entities::lottery_run::LotteryRunState;
use crate::db::entities::{event, event_entry, event_entry_application, lottery_run};
use crate::error::Result;
use crate::lottery::Draw;
use crate::model::entry_status::effective_status;
use crate::model::event::EventWithPhases;
use crate::model::lottery::{commit, ensure_draw_window, ensure_scheduled, preview};
use crate::model::phase::PhaseType;

/// What [`sweep`] wrote: applications whose stored status time had already changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Rows rewritten (e.g. `first_win` → `first_win_unpaid` after the payment window).
    pub applications: u64,
}

/// Writes to the database the statuses time has changed ([`effective_status`]: a win whose
/// payment window closed unpaid, a loss made final), for every event, with one set-based update
/// per event and stored status. Idempotent (a second run finds nothing to change), and the
/// same result readers already see: views apply [`effective_status`] on read, so a stopped
/// worker never shows a wrong status. Payment (`paid`) ends `first_win` before the window
/// closes, so this only ever touches wins without a settled payment.
pub async fn sweep(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Swept> {
    let mut swept = Swept::default();
    for ev in event::Entity::find().all(db).await? {
        let timeline = EventWithPhases::load(db, ev).await?;
        for stored in
            [LotteryStatus::FirstWin, LotteryStatus::SecondWin, LotteryStatus::FirstLost, LotteryStatus::SecondLost]
        {
            let becomes = effective_status(stored, &timeline, now);
            if becomes == stored {
                continue;
            }
            let entries_of_event = Query::select()
                .column(event_entry::Column::Id)
                .from(event_entry::Entity)
                .and_where(event_entry::Column::EventId.eq(timeline.event.id))
                .to_owned();
            let result = event_entry_application::Entity::update_many()
                .col_expr(event_entry_application::Column::LotteryStatus, Expr::value(becomes))
                .col_expr(event_entry_application::Column::UpdatedAt, Expr::value(now))
                .filter(event_entry_application::Column::EntryId.in_subquery(entries_of_event))
                .filter(event_entry_application::Column::LotteryStatus.eq(stored))
                .exec(db)
                .await?;
            swept.applications += result.rows_affected;
        }
    }
    Ok(swept)
}

/// A step the lottery clock ([`advance_rounds`]) took on one round of one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockStep {
    /// The round was committed: its seed hash is public from now on.
    Committed {
        /// The event.
        event_id: i32,
        /// The round.
        round: LotteryRound,
        /// The committed seed's hash.
        seed_hash: String,
    },
    /// The round was drawn for staff, its window having opened.
    Previewed {
        /// The event.
        event_id: i32,
        /// The round.
        round: LotteryRound,
        /// The preview's draw, for staff to publish.
        draw: Draw,
    },
}

/// The rounds the clock moves on its own (DOMAIN.md "The lottery"), so that a round's seed hash
/// is public before its draw without anyone acting, and staff find its preview ready:
///
/// - the **first round** of an event with wishes still to draw (`applied`) is committed when its
///   entry window closes (`entry_end`);
/// - the **second round** of an event whose first round is published is committed when the
///   first payment window closes (unpaid and declined slots are then free);
/// - a committed round is drawn for staff (previewed) when its lottery window opens
///   ([`ensure_draw_window`]).
///
/// Only rounds the event's phases have. Publishing stays a staff action (the entry shows
/// `adjusting` until then): the draw is a result staff answer for. A round already committed
/// keeps its seed, and one already previewed or published is left alone (staff may preview it
/// again themselves), so running this again does nothing.
pub async fn advance_rounds(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Vec<ClockStep>> {
    let runs: HashMap<(i32, LotteryRound), LotteryRunState> = lottery_run::Entity::find()
        .select_only()
        .columns([lottery_run::Column::EventId, lottery_run::Column::Round, lottery_run::Column::State])
        .into_tuple::<(i32, LotteryRound, LotteryRunState)>()
        .all(db)
        .await?
        .into_iter()
        .map(|(event_id, round, state)| ((event_id, round), state))
        .collect();
    // The events with wishes the first draw has not decided yet (one statement for all events).
    let undrawn = Query::select()
        .column(event_entry_application::Column::EntryId)
        .from(event_entry_application::Entity)
        .and_where(event_entry_application::Column::LotteryStatus.eq(LotteryStatus::Applied))
        .to_owned();
    let with_applied: HashSet<i32> = event_entry::Entity::find()
        .select_only()
        .column(event_entry::Column::EventId)
        .filter(event_entry::Column::Id.in_subquery(undrawn))
        .distinct()
        .into_tuple::<i32>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    let published_first =
        |event_id: i32| runs.get(&(event_id, LotteryRound::First)) == Some(&LotteryRunState::Published);
    let mut steps = Vec::new();
    for ev in event::Entity::find().all(db).await? {
        let event_id = ev.id;
        let timeline = EventWithPhases::load(db, ev).await?;
        for round in [LotteryRound::First, LotteryRound::Second] {
            if ensure_scheduled(&timeline, round).is_err() {
                continue;
            }
            let mut state = runs.get(&(event_id, round)).copied();
            let due = match round {
                LotteryRound::First => {
                    with_applied.contains(&event_id)
                        && timeline.reached(PhaseType::EntryEnd, now)
                        && !timeline.entry_open(now)
                }
                LotteryRound::Second => published_first(event_id) && timeline.reached(PhaseType::FirstPaymentEnd, now),
            };
            if state.is_none() && due {
                let run = commit(db, event_id, round, None, now).await?;
                steps.push(ClockStep::Committed { event_id, round, seed_hash: run.seed_hash.clone() });
                state = Some(run.state);
            }
            if state == Some(LotteryRunState::Committed) && ensure_draw_window(&timeline, round, now).is_ok() {
                let draw = preview(db, event_id, round, now).await?;
                steps.push(ClockStep::Previewed { event_id, round, draw });
            }
        }
    }
    Ok(steps)
}
