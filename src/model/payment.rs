//! Payments on the database (DOMAIN.md "Payments"): which application may be paid, the attempts
//! (`orders`), settling, and the payment history its payer sees.
//!
//! - [`Payable::load`]: only the owner of the application's circle pays (anyone else: 404), only
//!   a `first_win` inside the first payment window or a `second_win` inside the second (by the
//!   application clock: 409 `payment_closed`), never twice (409 `already_paid`); the amount is
//!   the fee snapshotted at the draw.
//! - [`open_order`]: one pending attempt per application and provider (a partial unique index,
//!   and the application's row held while it looks), so a second tab or a double click reuses
//!   the attempt and the provider's payment object, and none opens once the application is paid.
//! - [`settle`]: one transaction inserts the `payment_histories` row, marks the order `captured`
//!   and the application `paid`, and queues the payer's receipt mail. Exactly one settled payment per application is held by the
//!   unique key on `payment_histories.application_id`, not by a check before the insert: a second
//!   settle of the same order is a no-op returning the first payment, and a settle of another
//!   order of an application already paid is reported as [`Settlement::Duplicate`] (money taken
//!   twice: flagged for staff, see [`crate::db::entities::order::Model::failure`]).
//! - A payment the provider confirms after the window closed is stored (money is never lost),
//!   marked `is_late` for staff, and does not change the application's status: staff refund it
//!   or accept it by hand. So is one whose win was declined while it was being paid.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect, Set, SqlErr, SqliteTransactionMode, TransactionOptions, TransactionSession, TransactionTrait,
};
use serde::Serialize;
use utoipa::ToSchema;

pub use crate::db::entities::order::{OrderState, PaymentType};
use crate::db::entities::{
    circle, event, event_entry, event_entry_application, event_entry_plan, order, payment_history,
    payment_webhook_event, user, world,
};
use crate::error::{Error, Result};
use crate::mail::{MailKind, Mailer, Outgoing, Queued};
use crate::model::entry_status::{LotteryStatus, effective_status};
use crate::model::event::{EventWithPhases, Window};
use crate::model::lottery_mails::yen;
use crate::model::pagination::PageRequest;
use crate::model::phase::PhaseType;
use crate::types::{Bilingual, Lang, TransactionUuid};

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
    /// circle; 409 `already_paid` once paid; 409 `payment_closed` unless it is a win to pay
    /// whose payment window is open.
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

/// Starts a transaction that holds the database's write lock from its first statement on SQLite
/// (an immediate transaction: no read-to-write upgrade that could fail under concurrency).
async fn begin<C: TransactionTrait>(db: &C) -> Result<C::Transaction> {
    let options = TransactionOptions {
        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        ..TransactionOptions::default()
    };
    Ok(db.begin_with_options(options).await?)
}

fn is_unique_violation(e: &sea_orm::DbErr) -> bool {
    matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

/// The pending attempt of `payable` through `provider`, or a new one (a fresh UUID v4, the fee at
/// the draw, `pending`) for `user_id`. Two concurrent calls end with the same attempt.
///
/// It holds the application's row (SQLite: an immediate transaction; PostgreSQL: `FOR UPDATE`)
/// and looks at its status again inside: `payable` was read before, and a settle of another
/// attempt (a reconcile, a webhook, another tab) may have marked it `paid` since, in which case
/// no new attempt is opened (409 `already_paid`) — rather than one nobody may ever capture.
pub async fn open_order(
    db: &(impl ConnectionTrait + TransactionTrait),
    payable: &Payable,
    user_id: i32,
    provider: PaymentType,
    now: DateTime<Utc>,
) -> Result<order::Model> {
    let txn = begin(db).await?;
    let application = event_entry_application::Entity::find_by_id(payable.application.id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or_else(Error::not_found)?;
    if application.lottery_status == LotteryStatus::Paid {
        return Err(Error::Conflict { code: "already_paid" });
    }
    let pending = || {
        order::Entity::find()
            .filter(order::Column::ApplicationId.eq(payable.application.id))
            .filter(order::Column::Provider.eq(provider))
            .filter(order::Column::State.eq(OrderState::Pending))
    };
    if let Some(found) = pending().one(&txn).await? {
        txn.commit().await?;
        return Ok(found);
    }
    let created = order::ActiveModel {
        application_id: Set(payable.application.id),
        user_id: Set(user_id),
        provider: Set(provider),
        transaction_uuid: Set(uuid::Uuid::new_v4().to_string()),
        provider_order_id: Set(None),
        amount: Set(payable.amount),
        currency: Set("JPY".into()),
        state: Set(OrderState::Pending),
        failure: Set(None),
        reconcile_attempts: Set(0),
        created_at: Set(now),
        updated_at: Set(now),
        settled_at: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(created)
}

impl order::Model {
    /// The attempt `transaction_uuid` of `user_id`: 404 for anyone else's.
    pub async fn of_user(db: &impl ConnectionTrait, transaction_uuid: &TransactionUuid, user_id: i32) -> Result<Self> {
        order::Entity::find()
            .filter(order::Column::TransactionUuid.eq(transaction_uuid.as_str()))
            .filter(order::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// The attempt whose provider object is `provider_order_id`.
    pub async fn by_provider_id(
        db: &impl ConnectionTrait,
        provider: PaymentType,
        provider_order_id: &str,
    ) -> Result<Option<Self>> {
        Ok(order::Entity::find()
            .filter(order::Column::Provider.eq(provider))
            .filter(order::Column::ProviderOrderId.eq(provider_order_id))
            .one(db)
            .await?)
    }

    /// Records the provider's id of the attempt's payment object (first one wins).
    pub async fn set_provider_id(
        db: &impl ConnectionTrait,
        id: i32,
        provider_order_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        order::Entity::update_many()
            .col_expr(order::Column::ProviderOrderId, Expr::value(provider_order_id))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::ProviderOrderId.is_null())
            .exec(db)
            .await?;
        order::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// Ends a pending attempt as `state` (`failed` / `expired`) with `reason`; a settled one stays
    /// settled. Returns whether it changed.
    pub async fn close(
        db: &impl ConnectionTrait,
        id: i32,
        state: OrderState,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = order::Entity::update_many()
            .col_expr(order::Column::State, Expr::value(state))
            .col_expr(order::Column::Failure, Expr::value(reason))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::State.eq(OrderState::Pending))
            .exec(db)
            .await?;
        Ok(done.rows_affected == 1)
    }

    /// Flags attempt `id` for a refund: the provider took money that no payment settles,
    /// `reason` one of [`MONEY_TAKEN_UNSETTLED`]. Unlike [`Self::close`] it also applies to an
    /// attempt already closed here (expired, superseded, cancelled: the money arrived after we
    /// gave up on it) — staff must see every such payment; a settled attempt stays settled.
    /// Returns whether it changed.
    pub async fn flag_for_refund(
        db: &impl ConnectionTrait,
        id: i32,
        reason: &'static str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        debug_assert!(MONEY_TAKEN_UNSETTLED.contains(&reason));
        let done = order::Entity::update_many()
            .col_expr(order::Column::State, Expr::value(OrderState::Failed))
            .col_expr(order::Column::Failure, Expr::value(reason))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::State.ne(OrderState::Captured))
            .filter(
                Condition::any()
                    .add(order::Column::Failure.is_null())
                    .add(order::Column::Failure.is_not_in(MONEY_TAKEN_UNSETTLED)),
            )
            .exec(db)
            .await?;
        Ok(done.rows_affected == 1)
    }

    /// Counts one more question to the provider about the attempt.
    pub async fn count_reconcile(db: &impl ConnectionTrait, id: i32, now: DateTime<Utc>) -> Result<()> {
        order::Entity::update_many()
            .col_expr(order::Column::ReconcileAttempts, Expr::col(order::Column::ReconcileAttempts).add(1))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .exec(db)
            .await?;
        Ok(())
    }

    /// Every pending attempt that has a payment object at its provider (what the reconcile job
    /// asks about).
    pub async fn pending_at_provider(db: &impl ConnectionTrait) -> Result<Vec<Self>> {
        Ok(order::Entity::find()
            .filter(order::Column::State.eq(OrderState::Pending))
            .filter(order::Column::ProviderOrderId.is_not_null())
            .order_by_asc(order::Column::Id)
            .all(db)
            .await?)
    }
}

/// `failure` of an attempt that took money a second time for an application already paid.
pub const DUPLICATE_PAYMENT: &str = "duplicate_payment";
/// `failure` of an attempt whose provider took another amount or currency than the attempt's.
pub const AMOUNT_MISMATCH: &str = "amount_mismatch";

/// Why an attempt closed although the provider took money that no payment settled: paid a
/// second time for an application already paid ([`DUPLICATE_PAYMENT`]), or an amount or currency
/// other than the attempt's ([`AMOUNT_MISMATCH`]). Staff refund them (the console's `needs_refund`
/// filter and the dashboard's "payments to refund" card); see [`order::Model::flag_for_refund`].
pub const MONEY_TAKEN_UNSETTLED: [&str; 2] = [DUPLICATE_PAYMENT, AMOUNT_MISMATCH];

/// How a settle ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settlement {
    /// This call settled the order.
    Settled(payment_history::Model),
    /// The order had been settled already (a replay, a second tab, a webhook after the capture).
    AlreadySettled(payment_history::Model),
    /// The application was already paid through another order: this one took money a second
    /// time. The order is `failed` with `duplicate_payment` for staff to refund.
    Duplicate(payment_history::Model),
}

impl Settlement {
    /// The settled payment of the application.
    pub fn payment(&self) -> &payment_history::Model {
        match self {
            Self::Settled(p) | Self::AlreadySettled(p) | Self::Duplicate(p) => p,
        }
    }
}

/// What [`settle`] did, and the receipt mail it queued in its transaction (only the call that
/// settled queues one: push it, `jobs::SendMail::push`, now that it committed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// How the settle ended.
    pub outcome: Settlement,
    /// The payer's receipt mail, when this call settled the payment and the payer has an address.
    pub receipt: Option<Queued>,
}

/// The provider took the money of attempt `order_id` (its payment object `reference`): one
/// transaction inserts the settled payment, marks the order `captured` and the application
/// `paid` — unless the payment window had closed at `now` (`is_late`: stored and flagged, the
/// application untouched) — and queues the payer's receipt mail (in their language), so every
/// path that settles (capture, webhook, reconcile, a provider's return) sends exactly one receipt
/// per payment, and none when nothing was settled. Idempotent (see [`Settlement`]); the unique
/// keys of `payment_histories` are what make it so under concurrency.
pub async fn settle(
    db: &(impl ConnectionTrait + TransactionTrait),
    mailer: &Mailer,
    order_id: i32,
    reference: &str,
    now: DateTime<Utc>,
) -> Result<Settled> {
    let found = order::Entity::find_by_id(order_id).one(db).await?.ok_or_else(Error::not_found)?;
    let unsettled = |outcome| Ok(Settled { outcome, receipt: None });

    // The application's row first, as `open_order` and a decline take it before the order's: two
    // transactions that take the same rows in opposite orders deadlock on PostgreSQL.
    let txn = begin(db).await?;
    let application = event_entry_application::Entity::find_by_id(found.application_id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or_else(Error::not_found)?;
    let entry = event_entry::Entity::find_by_id(application.entry_id).one(&txn).await?.ok_or_else(Error::not_found)?;
    let ev = event::Entity::find_by_id(entry.event_id).one(&txn).await?.ok_or_else(Error::not_found)?;
    let ev = EventWithPhases::load(&txn, ev).await?;
    let is_late = application.lottery_status != LotteryStatus::Paid && !Payable::window_open(&ev, &application, now);

    let inserted = payment_history::ActiveModel {
        user_id: Set(found.user_id),
        application_id: Set(found.application_id),
        order_id: Set(found.id),
        transaction_uuid: Set(found.transaction_uuid.clone()),
        payment_type: Set(found.provider),
        order_reference: Set(reference.to_string()),
        amount: Set(found.amount),
        is_late: Set(is_late),
        paid_at: Set(now),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await;
    let payment = match inserted {
        Ok(payment) => payment,
        Err(e) if is_unique_violation(&e) => {
            txn.rollback().await?;
            let existing = payment_history::Entity::find()
                .filter(payment_history::Column::ApplicationId.eq(found.application_id))
                .one(db)
                .await?
                .ok_or_else(|| Error::Internal("settled payment vanished".into()))?;
            if existing.order_id == found.id {
                return unsettled(Settlement::AlreadySettled(existing));
            }
            order::Model::flag_for_refund(db, found.id, DUPLICATE_PAYMENT, now).await?;
            tracing::error!(
                order_id = found.id,
                application_id = found.application_id,
                "payment taken twice for one application: order flagged duplicate_payment for a refund"
            );
            return unsettled(Settlement::Duplicate(existing));
        }
        Err(e) => return Err(e.into()),
    };
    order::Entity::update_many()
        .col_expr(order::Column::State, Expr::value(OrderState::Captured))
        .col_expr(order::Column::ProviderOrderId, Expr::value(reference))
        .col_expr(order::Column::Failure, Expr::value(Option::<String>::None))
        .col_expr(order::Column::SettledAt, Expr::value(now))
        .col_expr(order::Column::UpdatedAt, Expr::value(now))
        .filter(order::Column::Id.eq(found.id))
        .exec(&txn)
        .await?;
    if !is_late {
        let paid = event_entry_application::Entity::update_many()
            .col_expr(event_entry_application::Column::LotteryStatus, Expr::value(LotteryStatus::Paid))
            .col_expr(event_entry_application::Column::UpdatedAt, Expr::value(now))
            .filter(event_entry_application::Column::Id.eq(found.application_id))
            .filter(
                event_entry_application::Column::LotteryStatus
                    .is_in([LotteryStatus::FirstWin, LotteryStatus::SecondWin]),
            )
            .exec(&txn)
            .await?;
        if paid.rows_affected == 0 {
            // The application is not a win to pay (it was marked paid without this table, say):
            // the money is kept and flagged for staff, like a late payment.
            payment_history::Entity::update_many()
                .col_expr(payment_history::Column::IsLate, Expr::value(true))
                .filter(payment_history::Column::Id.eq(payment.id))
                .exec(&txn)
                .await?;
            tracing::warn!(order_id = found.id, "payment for a win no longer payable: flagged is_late for staff");
            let flagged = payment_history::Model { is_late: true, ..payment };
            // Its receipt says, like a late payment's, that staff will accept or refund it.
            let receipt = queue_receipt(&txn, mailer, &flagged, &application, &entry, &ev, now).await?;
            txn.commit().await?;
            return Ok(Settled { outcome: Settlement::Settled(flagged), receipt });
        }
    } else {
        tracing::warn!(order_id = found.id, "payment confirmed after its window closed: flagged is_late for staff");
    }
    let receipt = queue_receipt(&txn, mailer, &payment, &application, &entry, &ev, now).await?;
    txn.commit().await?;
    Ok(Settled { outcome: Settlement::Settled(payment), receipt })
}

/// Queues inside `txn` the receipt of `payment` to its payer, in their language: event, circle,
/// plan and world, amount, provider, transaction, when it was paid (Japan time) and a link to
/// the printable receipt; a late payment says that staff will refund or accept it. A payer
/// without a (valid) address gets none; the payment stands.
async fn queue_receipt(
    txn: &impl ConnectionTrait,
    mailer: &Mailer,
    payment: &payment_history::Model,
    application: &event_entry_application::Model,
    entry: &event_entry::Model,
    ev: &EventWithPhases,
    now: DateTime<Utc>,
) -> Result<Option<Queued>> {
    let Some(payer) = user::Entity::find_by_id(payment.user_id).one(txn).await? else { return Ok(None) };
    let Some(email) = payer.email.as_deref().filter(|e| !e.trim().is_empty()) else { return Ok(None) };
    let lang = Lang::parse(&payer.lang).unwrap_or_default();
    let c = circle::Entity::find_by_id(entry.circle_id).one(txn).await?;
    let plan = event_entry_plan::Entity::find_by_id(application.plan_id).one(txn).await?;
    let w = match &plan {
        Some(plan) => world::Entity::find_by_id(plan.world_id).one(txn).await?,
        None => None,
    };
    let context = serde_json::json!({
        "recipient_name": payer.name(lang),
        "event_name": lang.pick(&ev.event.name_ja, &ev.event.name_en),
        "circle_name": c.as_ref().map(|c| c.name(lang)).unwrap_or_default(),
        "plan_name": plan.as_ref().map(|p| lang.pick(&p.name_ja, &p.name_en)).unwrap_or_default(),
        "world_name": w.as_ref().map(|w| lang.pick(&w.name_ja, &w.name_en)),
        "amount": yen(payment.amount),
        "provider": payment.payment_type.as_str(),
        "transaction": payment.transaction_uuid,
        "paid_at": payment.paid_at.to_rfc3339(),
        "is_late": payment.is_late,
        "path": format!("{}/mypage/payment_history/{}", lang.prefix(), payment.transaction_uuid),
    });
    let outgoing = Outgoing { to: email.to_string(), lang, kind: MailKind::PaymentReceipt, context };
    match mailer.queue(txn, &outgoing, now).await {
        Ok(queued) => Ok(Some(queued)),
        Err(Error::Validation(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Records that the provider event `event_id` was processed; `false` when it had been already.
pub async fn record_event(
    db: &impl ConnectionTrait,
    provider: PaymentType,
    event_id: &str,
    event_type: &str,
    now: DateTime<Utc>,
) -> Result<bool> {
    let inserted = payment_webhook_event::ActiveModel {
        provider: Set(provider),
        event_id: Set(event_id.to_string()),
        event_type: Set(event_type.chars().take(128).collect()),
        received_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await;
    match inserted {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Whether the provider event `event_id` was processed already.
pub async fn event_seen(db: &impl ConnectionTrait, provider: PaymentType, event_id: &str) -> Result<bool> {
    Ok(payment_webhook_event::Entity::find()
        .filter(payment_webhook_event::Column::Provider.eq(provider))
        .filter(payment_webhook_event::Column::EventId.eq(event_id))
        .count(db)
        .await?
        > 0)
}

/// A settled payment as its payer sees it (spec §3 "Payment history", with what it paid for).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PaymentView {
    /// Id.
    pub id: i32,
    /// The payer.
    pub user_id: i32,
    /// The attempt's UUID (the receipt's address).
    pub transaction_uuid: String,
    /// `smbc_gmo`, `paypal` or `stripe`.
    pub payment_type: PaymentType,
    /// The provider's id of the payment.
    pub order_reference: String,
    /// When it was settled.
    pub paid_at: DateTime<Utc>,
    /// JPY.
    pub amount: i32,
    /// The application paid for.
    pub application_id: i32,
    /// The event's id, permalink and name.
    pub event_id: i32,
    /// The event's permalink.
    pub event_permalink: String,
    /// The event's name in the request's language.
    pub event_name: String,
    /// The circle's name in the request's language.
    pub circle_name: String,
    /// The plan's name in the request's language.
    pub plan_name: String,
    /// The plan's world's name in the request's language.
    pub world_name: Option<String>,
    /// Confirmed after the payment window closed: staff refund or accept it.
    pub is_late: bool,
}

impl PaymentView {
    /// Views of `rows` in `lang`.
    pub async fn load(db: &impl ConnectionTrait, rows: Vec<payment_history::Model>, lang: Lang) -> Result<Vec<Self>> {
        let mut views = Vec::with_capacity(rows.len());
        for p in rows {
            let Some(application) = event_entry_application::Entity::find_by_id(p.application_id).one(db).await? else {
                continue;
            };
            let Some(entry) = event_entry::Entity::find_by_id(application.entry_id).one(db).await? else { continue };
            let Some(ev) = event::Entity::find_by_id(entry.event_id).one(db).await? else { continue };
            let c = circle::Entity::find_by_id(entry.circle_id).one(db).await?;
            let plan = event_entry_plan::Entity::find_by_id(application.plan_id).one(db).await?;
            let w = match &plan {
                Some(plan) => world::Entity::find_by_id(plan.world_id).one(db).await?,
                None => None,
            };
            let name = |ja: &str, en: &str| Bilingual::new(ja.to_string(), en.to_string()).pick(lang).clone();
            views.push(Self {
                id: p.id,
                user_id: p.user_id,
                transaction_uuid: p.transaction_uuid,
                payment_type: p.payment_type,
                order_reference: p.order_reference,
                paid_at: p.paid_at,
                amount: p.amount,
                application_id: p.application_id,
                event_id: ev.id,
                event_name: name(&ev.name_ja, &ev.name_en),
                event_permalink: ev.permalink,
                circle_name: c.map(|c| name(&c.name_ja, &c.name_en)).unwrap_or_default(),
                plan_name: plan.map(|p| name(&p.name_ja, &p.name_en)).unwrap_or_default(),
                world_name: w.map(|w| name(&w.name_ja, &w.name_en)),
                is_late: p.is_late,
            });
        }
        Ok(views)
    }
}

impl payment_history::Model {
    /// A page of `user_id`'s settled payments, newest first, and how many there are.
    pub async fn page_of(db: &impl ConnectionTrait, user_id: i32, req: PageRequest) -> Result<(Vec<Self>, u64)> {
        let query = payment_history::Entity::find().filter(payment_history::Column::UserId.eq(user_id));
        let count = query.clone().count(db).await?;
        let rows = query
            .order_by_desc(payment_history::Column::PaidAt)
            .order_by_desc(payment_history::Column::Id)
            .offset(req.offset())
            .limit(req.limit)
            .all(db)
            .await?;
        Ok((rows, count))
    }

    /// `user_id`'s settled payment `id`: 404 for anyone else's.
    pub async fn of_user(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<Self> {
        payment_history::Entity::find_by_id(id)
            .filter(payment_history::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// `user_id`'s settled payment of attempt `transaction_uuid`: 404 otherwise.
    pub async fn by_transaction(
        db: &impl ConnectionTrait,
        transaction_uuid: &TransactionUuid,
        user_id: i32,
    ) -> Result<Self> {
        payment_history::Entity::find()
            .filter(payment_history::Column::TransactionUuid.eq(transaction_uuid.as_str()))
            .filter(payment_history::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// `user_id`'s settled payments of the applications `application_ids`: application id →
    /// transaction UUID (the receipt's address).
    pub async fn receipts_of(
        db: &impl ConnectionTrait,
        user_id: i32,
        application_ids: Vec<i32>,
    ) -> Result<std::collections::HashMap<i32, String>> {
        if application_ids.is_empty() {
            return Ok(std::collections::HashMap::new());
        }
        Ok(payment_history::Entity::find()
            .filter(payment_history::Column::UserId.eq(user_id))
            .filter(payment_history::Column::ApplicationId.is_in(application_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|p| (p.application_id, p.transaction_uuid))
            .collect())
    }

    /// The settled payment of order `order_id`, if any.
    pub async fn of_order(db: &impl ConnectionTrait, order_id: i32) -> Result<Option<Self>> {
        Ok(payment_history::Entity::find().filter(payment_history::Column::OrderId.eq(order_id)).one(db).await?)
    }
}
