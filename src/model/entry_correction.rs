//! Staff correcting an application's lottery status (the console's `applications`, a corrective
//! change with a reason). Which transitions are corrections is [`correction_allowed`]'s (pure);
//! this file applies one on the database and keeps the rules a draw keeps, so a correction can
//! never do what a draw could not:
//!
//! - **the fee the draw fixed**: `first_win` / `second_win` keep the fee snapshotted at the draw
//!   (the plan's fee when the application was never drawn); `win` (a slot without payment) is
//!   only for a free plan — on a plan with a fee it is refused, 409 `correction_needs_fee`
//!   (correct to `first_win` / `second_win`, which the owner pays);
//! - **the plan's `maximum`**: a correction that makes the application hold a slot (`first_win`
//!   while its payment window is open, `second_win`, `win`, `paid`: the slots the second draw
//!   counts, `model::lottery_inputs`) is refused when the plan's slots are all held, 409
//!   `plan_full`;
//! - **one win per entry without multiple-win**: a win for an entry whose other wish already won
//!   (held, paid, declined or lapsed unpaid: the second draw passes over such an entry too) is
//!   refused, 409 `entry_already_won`.
//!
//! The checks run in the correction's write transaction, after locking the plan's row and the
//! entry's row (PostgreSQL `FOR UPDATE`; SQLite's write transaction holds the database), so two
//! corrections at once cannot both take the last slot or both give an entry its one win.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter, QuerySelect, Set,
};

use crate::db::entities::{event, event_entry, event_entry_application, event_entry_plan};
use crate::error::{Error, Result};
use crate::model::entry_status::{LotteryRound, LotteryStatus, correction_allowed, effective_status, holds_slot};
use crate::model::event::EventWithPhases;

/// Whether an application in (effective) `status` won, whatever became of the win since.
fn won(status: LotteryStatus) -> bool {
    use LotteryStatus::*;
    matches!(status, FirstWin | SecondWin | Win | Paid | FirstWinUnpaid | SecondWinUnpaid | Decline)
}

/// Corrects `application` (whose effective status at `now`, the application clock, is `from`)
/// to `to` for staff, in `txn`, stamped `acted_at`: 422 `validation.status_change_not_allowed`
/// on `lottery_status` unless [`correction_allowed`]; 409 `correction_needs_fee`, `plan_full` or
/// `entry_already_won` when it would break a rule of the draw (module docs). A win records its
/// round and the fee; a status without a win (`applied`, a loss, `incorrect`) forgets them;
/// `decline` and the unpaid statuses keep them.
pub async fn correct(
    txn: &impl ConnectionTrait,
    application: event_entry_application::Model,
    from: LotteryStatus,
    to: LotteryStatus,
    now: DateTime<Utc>,
    acted_at: DateTime<Utc>,
) -> Result<()> {
    use LotteryStatus::*;
    if !correction_allowed(from, to) {
        return Err(Error::invalid("lottery_status", "validation.status_change_not_allowed"));
    }
    // The plan's row, then the entry's: the order every correction takes them in.
    let plan = event_entry_plan::Entity::find_by_id(application.plan_id)
        .lock_exclusive()
        .one(txn)
        .await?
        .ok_or_else(Error::not_found)?;
    let entry = event_entry::Entity::find_by_id(application.entry_id)
        .lock_exclusive()
        .one(txn)
        .await?
        .ok_or_else(Error::not_found)?;
    if to == Win && (plan.fee > 0 || application.fee_at_draw.is_some_and(|fee| fee > 0)) {
        return Err(Error::Conflict { code: "correction_needs_fee" });
    }
    if holds_slot(to) || won(to) {
        let ev = event::Entity::find_by_id(entry.event_id).one(txn).await?.ok_or_else(Error::not_found)?;
        let timeline = EventWithPhases::load(txn, ev).await?;
        let status = |a: &event_entry_application::Model| effective_status(a.lottery_status, &timeline, now);
        if holds_slot(to) && !holds_slot(from) {
            let holders = event_entry_application::Entity::find()
                .filter(event_entry_application::Column::PlanId.eq(plan.id))
                .filter(event_entry_application::Column::Id.ne(application.id))
                .all(txn)
                .await?
                .iter()
                .filter(|a| holds_slot(status(a)))
                .count();
            if holders >= usize::try_from(plan.maximum).unwrap_or(0) {
                return Err(Error::Conflict { code: "plan_full" });
            }
        }
        if !entry.is_multiple_win && !won(from) {
            let siblings = event_entry_application::Entity::find()
                .filter(event_entry_application::Column::EntryId.eq(entry.id))
                .filter(event_entry_application::Column::Id.ne(application.id))
                .all(txn)
                .await?;
            if siblings.iter().any(|a| won(status(a))) {
                return Err(Error::Conflict { code: "entry_already_won" });
            }
        }
    }
    let (won_round, fee_at_draw) = match to {
        FirstWin => (Some(LotteryRound::First), Some(application.fee_at_draw.unwrap_or(plan.fee))),
        SecondWin => (Some(LotteryRound::Second), Some(application.fee_at_draw.unwrap_or(plan.fee))),
        Win => {
            let round = application.won_round.unwrap_or(if from == Applied {
                LotteryRound::First
            } else {
                LotteryRound::Second
            });
            (Some(round), Some(0))
        }
        Applied | FirstLost | SecondLost | Lost | Incorrect => (None, None),
        Decline | FirstWinUnpaid | SecondWinUnpaid | Paid => (application.won_round, application.fee_at_draw),
    };
    let mut active = application.into_active_model();
    active.lottery_status = Set(to);
    active.won_round = Set(won_round);
    active.fee_at_draw = Set(fee_at_draw);
    active.updated_at = Set(acted_at);
    active.update(txn).await?;
    Ok(())
}
