//! Declining a win (DOMAIN.md "Application statuses": `first_win` / `second_win` ──declines──▶
//! `decline`, the slot freed for the second draw): the circle's owner gives up a won, unpaid
//! application while its payment window is open.
//!
//! Rules, each with its own code: only the owner (a member gets 403, anyone else — and an
//! application of another entry — 404); not for a suspended circle (409 `circle_suspended`);
//! not once paid (409 `already_paid`); only a `first_win` inside the first payment window or a
//! `second_win` inside the second, by the application clock (409 `decline_closed`: not a win to
//! pay, or its window is not open). A free win (`win`) has no payment window and no arrow to
//! `decline` in the diagram: it cannot be declined here.
//!
//! Against a payment in flight: the status changes by a conditional update (`first_win` /
//! `second_win` → `decline`) in the circle's write transaction, as a settled payment changes it
//! to `paid`, so exactly one of the two applies; a decline that comes second answers
//! `already_paid`, a payment that comes second is kept and flagged for staff
//! (`model::settlement::settle`). Attempts still pending for the application are closed as
//! `failed` (`declined`), so they cannot be captured.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set, TransactionSession, TransactionTrait,
};

use crate::db::entities::order::OrderState;
use crate::db::entities::{event, event_entry, event_entry_application, order};
use crate::error::{Error, Result};
use crate::model::circle::lock;
use crate::model::entry_status::{LotteryStatus, effective_status};
use crate::model::event::{EventWithPhases, Window};

/// The payment window a status may be declined in (the window it is paid in).
fn window_of(status: LotteryStatus) -> Option<Window> {
    match status {
        LotteryStatus::FirstWin => Some(Window::FirstPayment),
        LotteryStatus::SecondWin => Some(Window::SecondPayment),
        _ => None,
    }
}

/// Whether an application stored as `stored` may be declined in `event` at `now` (the circle's
/// standing aside).
pub fn declinable(stored: LotteryStatus, event: &EventWithPhases, now: DateTime<Utc>) -> bool {
    ensure_declinable(stored, event, now).is_ok()
}

/// `Ok` when an application stored as `stored` may be declined at `now`; otherwise 409
/// `already_paid` or `decline_closed`.
fn ensure_declinable(stored: LotteryStatus, event: &EventWithPhases, now: DateTime<Utc>) -> Result<()> {
    if stored == LotteryStatus::Paid {
        return Err(Error::Conflict { code: "already_paid" });
    }
    let open = window_of(effective_status(stored, event, now))
        .is_some_and(|w| event.open_windows(now).iter().any(|(open, _)| *open == w));
    if open { Ok(()) } else { Err(Error::Conflict { code: "decline_closed" }) }
}

impl event_entry::Model {
    /// The owner of entry `id`'s circle declines its won application `application_id` at `now`
    /// (module doc); returns the entry.
    pub async fn decline(
        db: &(impl ConnectionTrait + TransactionTrait),
        id: i32,
        application_id: i32,
        owner_id: i32,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let circle_id = Self::for_owner(db, id, owner_id).await?.circle_id;
        let (txn, c) = lock(db, circle_id).await?;
        let found = event_entry::Entity::find_by_id(id).one(&txn).await?.ok_or_else(Error::not_found)?;
        let application = event_entry_application::Entity::find_by_id(application_id)
            .filter(event_entry_application::Column::EntryId.eq(found.id))
            .one(&txn)
            .await?
            .ok_or_else(Error::not_found)?;
        c.ensure_writable()?;
        let ev = event::Entity::find_by_id(found.event_id).one(&txn).await?.ok_or_else(Error::not_found)?;
        let ev = EventWithPhases::load(&txn, ev).await?;
        ensure_declinable(application.lottery_status, &ev, now)?;
        let declined = event_entry_application::Entity::update_many()
            .col_expr(event_entry_application::Column::LotteryStatus, Expr::value(LotteryStatus::Decline))
            .col_expr(event_entry_application::Column::UpdatedAt, Expr::value(now))
            .filter(event_entry_application::Column::Id.eq(application.id))
            .filter(event_entry_application::Column::LotteryStatus.eq(application.lottery_status))
            .exec(&txn)
            .await?;
        if declined.rows_affected != 1 {
            // A payment settled since it was read (PostgreSQL: it committed first).
            let now_stored = event_entry_application::Entity::find_by_id(application.id)
                .one(&txn)
                .await?
                .map_or(LotteryStatus::Paid, |a| a.lottery_status);
            ensure_declinable(now_stored, &ev, now)?;
            return Err(Error::Conflict { code: "decline_closed" });
        }
        order::Entity::update_many()
            .col_expr(order::Column::State, Expr::value(OrderState::Failed))
            .col_expr(order::Column::Failure, Expr::value("declined"))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::ApplicationId.eq(application.id))
            .filter(order::Column::State.eq(OrderState::Pending))
            .exec(&txn)
            .await?;
        let mut row: event_entry::ActiveModel = found.into();
        row.updated_at = Set(now);
        let updated = row.update(&txn).await?;
        txn.commit().await?;
        Ok(updated)
    }
}
