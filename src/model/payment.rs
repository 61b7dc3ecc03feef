//! Payments on the database (DOMAIN.md "Payments"): which application may be paid (this file),
//! the attempts (`orders`: `model::order`), settling (`model::settlement`), and the payment
//! history its payer sees (`model::payment_history`).
//!
//! - [`Payable::load`]: only the owner of the application's circle pays (anyone else: 404), only
//!   a `first_win` inside the first payment window or a `second_win` inside the second (by the
//!   application clock: 409 `payment_closed`), never twice (409 `already_paid`), never for a
//!   suspended circle (409 `circle_suspended`); the amount is the fee snapshotted at the draw.
//! - `model::order::open_order`: one pending attempt per application and provider (a partial
//!   unique index, and the application's row held while it looks), so a second tab or a double
//!   click reuses the attempt and the provider's payment object, and none opens once the
//!   application is paid.
//! - `model::settlement::settle`: one transaction inserts the `payment_histories` row, marks the order `captured`
//!   and the application `paid`, and queues the payer's receipt mail. Exactly one settled payment per application is held by the
//!   unique key on `payment_histories.application_id`, not by a check before the insert: a second
//!   settle of the same order is a no-op returning the first payment, and a settle of another
//!   order of an application already paid is reported as `Settlement::Duplicate` (money taken
//!   twice: flagged for staff, see [`crate::db::entities::order::Model::failure`]).
//! - A payment the provider confirms after the window closed is stored (money is never lost),
//!   marked `is_late` for staff, and does not change the application's status: staff refund it
//!   or accept it by hand. So is one whose win was declined while it was being paid. One for a
//!   circle suspended since the attempt opened settles nothing: the attempt is flagged
//!   `circle_suspended` for a refund.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

pub use crate::db::entities::order::{OrderState, PaymentType};
use crate::db::entities::{
    circle, event, event_entry, event_entry_application, event_entry_plan, payment_history, world,
};
use crate::error::{Error, Result};
use crate::model::entry_status::{LotteryStatus, effective_status};
use crate::model::event::{EventWithPhases, Window};
use crate::model::phase::PhaseType;

/// What an application's owner is about to pay for, checked at `now`.
#[derive(Debug, Clone)]
pub struct Payable {
    /// The application.
    pub application: event_entry_application::Model,
    /// Its circle.
    pub circle: circle::Model,
    /// Its event with phases.
    pub event: EventWithPhases,
    /// Its plan.
    pub plan: event_entry_plan::Model,
    /// The plan's world.
    pub world: Option<world::Model>,
    /// JPY: the fee at the draw.
    pub amount: i32,
    /// When the payment window closes.
    pub deadline: DateTime<Utc>,
}

/// The application `application_id` with its circle, entry and event, for `user_id`, who must own
/// the circle: 404 to anyone else (members included: paying is the owner's).
async fn owned_application(
    db: &impl ConnectionTrait,
    application_id: i32,
    user_id: i32,
) -> Result<(event_entry_application::Model, circle::Model, EventWithPhases)> {
    let application =
        event_entry_application::Entity::find_by_id(application_id).one(db).await?.ok_or_else(Error::not_found)?;
    let entry = event_entry::Entity::find_by_id(application.entry_id).one(db).await?.ok_or_else(Error::not_found)?;
    let c = circle::Entity::find_by_id(entry.circle_id).one(db).await?.ok_or_else(Error::not_found)?;
    if c.owner_user_id != Some(user_id) {
        return Err(Error::not_found());
    }
    let ev = event::Entity::find_by_id(entry.event_id).one(db).await?.ok_or_else(Error::not_found)?;
    Ok((application, c, EventWithPhases::load(db, ev).await?))
}

/// The payment window a status is paid in.
fn window_of(status: LotteryStatus) -> Option<Window> {
    match status {
        LotteryStatus::FirstWin => Some(Window::FirstPayment),
        LotteryStatus::SecondWin => Some(Window::SecondPayment),
        _ => None,
    }
}

impl Payable {
    /// Application `application_id` as `user_id` may pay it at `now`: 404 unless they own its
    /// circle; 409 `already_paid` once paid; 409 `circle_suspended` while staff suspend the
    /// circle; 409 `payment_closed` unless it is a win to pay whose payment window is open.
    /// Opening an attempt (`pre_order`) and capturing one both start here.
    pub async fn load(
        db: &impl ConnectionTrait,
        application_id: i32,
        user_id: i32,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let (application, circle, event) = owned_application(db, application_id, user_id).await?;
        if application.lottery_status == LotteryStatus::Paid {
            return Err(Error::Conflict { code: "already_paid" });
        }
        circle.ensure_writable()?;
        let status = effective_status(application.lottery_status, &event, now);
        let deadline = window_of(status)
            .and_then(|w| event.open_windows(now).into_iter().find(|(open, _)| *open == w).map(|(_, end)| end))
            .ok_or(Error::Conflict { code: "payment_closed" })?;
        let amount =
            application.fee_at_draw.filter(|fee| *fee > 0).ok_or(Error::Conflict { code: "payment_closed" })?;
        let plan =
            event_entry_plan::Entity::find_by_id(application.plan_id).one(db).await?.ok_or_else(Error::not_found)?;
        let world = world::Entity::find_by_id(plan.world_id).one(db).await?;
        Ok(Self { application, circle, event, plan, world, amount, deadline })
    }

    /// Whether the application's payment window is still open at `now` (for a provider's late
    /// confirmation).
    pub fn window_open(
        event: &EventWithPhases,
        application: &event_entry_application::Model,
        now: DateTime<Utc>,
    ) -> bool {
        let status = effective_status(application.lottery_status, event, now);
        window_of(status).is_some_and(|w| event.open_windows(now).iter().any(|(open, _)| *open == w))
    }
}

/// Where a payer's application stands, as the payment pages show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayState {
    /// A win to pay now, until `deadline` (the window's end).
    Open {
        /// When the payment window closes.
        deadline: DateTime<Utc>,
    },
    /// A win whose payment window opens at `opens`.
    NotYet {
        /// When the payment window opens.
        opens: DateTime<Utc>,
    },
    /// Paid (or money received after the deadline, `late`, which staff accept or refund).
    Paid {
        /// The viewer's receipt (the payment's transaction UUID), when they made the payment.
        transaction_uuid: Option<String>,
        /// Confirmed after the window closed: not settled on the application.
        late: bool,
    },
    /// Nothing to pay: a free win, not (or no longer) a win, or the window closed unpaid.
    Closed,
}

/// What a payer is asked to pay and where it stands (the payment pages' summary): event, circle,
/// plan and world, the amount, the status at `now` and [`PayState`].
#[derive(Debug, Clone)]
pub struct Checkout {
    /// The application.
    pub application: event_entry_application::Model,
    /// Its circle.
    pub circle: circle::Model,
    /// Its event with phases.
    pub event: EventWithPhases,
    /// Its plan.
    pub plan: event_entry_plan::Model,
    /// The plan's world.
    pub world: Option<world::Model>,
    /// JPY: the fee at the draw (the plan's fee for an application not drawn).
    pub amount: i32,
    /// The status at `now` (time applied).
    pub status: LotteryStatus,
    /// Payable, not yet, paid or closed.
    pub state: PayState,
}

impl Checkout {
    /// Application `application_id` as its owner `user_id` sees it at `now`: 404 for anyone else
    /// (the same rule as [`Payable::load`], whose checks decide [`PayState::Open`]).
    pub async fn load(
        db: &impl ConnectionTrait,
        application_id: i32,
        user_id: i32,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let (application, circle, event) = owned_application(db, application_id, user_id).await?;
        let plan =
            event_entry_plan::Entity::find_by_id(application.plan_id).one(db).await?.ok_or_else(Error::not_found)?;
        let world = world::Entity::find_by_id(plan.world_id).one(db).await?;
        let status = effective_status(application.lottery_status, &event, now);
        let amount = application.fee_at_draw.unwrap_or(plan.fee);
        let paid = payment_history::Entity::find()
            .filter(payment_history::Column::ApplicationId.eq(application.id))
            .one(db)
            .await?;
        let state = if let Some(paid) = paid {
            let own = paid.user_id == user_id;
            PayState::Paid { transaction_uuid: own.then_some(paid.transaction_uuid), late: paid.is_late }
        } else if application.lottery_status == LotteryStatus::Paid {
            PayState::Paid { transaction_uuid: None, late: false }
        } else if circle.is_suspended {
            PayState::Closed
        } else {
            match (window_of(status), amount > 0) {
                (Some(w), true) => match event.open_windows(now).into_iter().find(|(open, _)| *open == w) {
                    Some((_, deadline)) => PayState::Open { deadline },
                    None => {
                        let start = match w {
                            Window::SecondPayment => PhaseType::SecondPaymentStart,
                            _ => PhaseType::FirstPaymentStart,
                        };
                        match event.at(start).filter(|opens| *opens > now) {
                            Some(opens) => PayState::NotYet { opens },
                            None => PayState::Closed,
                        }
                    }
                },
                _ => PayState::Closed,
            }
        };
        Ok(Self { application, circle, event, plan, world, amount, status, state })
    }
}

/// Every application `user_id` can pay at `now` (the circles they own, a win with a fee inside
/// its payment window), soonest deadline first: the dashboard's "to pay" list.
pub async fn due_for(db: &impl ConnectionTrait, user_id: i32, now: DateTime<Utc>) -> Result<Vec<Checkout>> {
    let owned = circle::Entity::find()
        .select_only()
        .column(circle::Column::Id)
        .filter(circle::Column::OwnerUserId.eq(user_id))
        .into_tuple::<i32>()
        .all(db)
        .await?;
    if owned.is_empty() {
        return Ok(Vec::new());
    }
    let entries = event_entry::Entity::find()
        .select_only()
        .column(event_entry::Column::Id)
        .filter(event_entry::Column::CircleId.is_in(owned))
        .into_tuple::<i32>()
        .all(db)
        .await?;
    let wins = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.is_in(entries))
        .filter(
            event_entry_application::Column::LotteryStatus.is_in([LotteryStatus::FirstWin, LotteryStatus::SecondWin]),
        )
        .filter(event_entry_application::Column::FeeAtDraw.gt(0))
        .order_by_asc(event_entry_application::Column::Id)
        .all(db)
        .await?;
    let mut due = Vec::new();
    for w in wins {
        let c = Checkout::load(db, w.id, user_id, now).await?;
        if matches!(c.state, PayState::Open { .. }) {
            due.push(c);
        }
    }
    due.sort_by_key(|c| match c.state {
        PayState::Open { deadline } => deadline,
        _ => now,
    });
    Ok(due)
}

/// Whether an application with `status` (time applied) can be paid in `event` at `now`: a
/// `first_win` / `second_win` inside its payment window (the fee is checked by [`Payable`]).
pub fn in_payment_window(status: LotteryStatus, event: &EventWithPhases, now: DateTime<Utc>) -> bool {
    window_of(status).is_some_and(|w| event.open_windows(now).iter().any(|(open, _)| *open == w))
}
