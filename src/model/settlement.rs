//! Settling a payment (DOMAIN.md "Payments"): the one transaction that stores the payment, marks
//! the attempt `captured` and the application `paid` and queues the receipt ([`settle`]); the
//! attempts that took money no payment settled; the providers' notifications seen.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QuerySelect, Set, SqlErr,
    TransactionSession, TransactionTrait,
};

use crate::db::entities::order::{OrderState, PaymentType};
use crate::db::entities::{
    circle, event, event_entry, event_entry_application, event_entry_plan, order, payment_history,
    payment_webhook_event, user, world,
};
use crate::error::{Error, Result};
use crate::mail::{MailKind, Mailer, Outgoing, Queued};
use crate::model::entry_status::LotteryStatus;
use crate::model::event::EventWithPhases;
use crate::model::lottery_mails::yen;
use crate::model::payment::Payable;

/// `failure` of an attempt that took money a second time for an application already paid.
pub const DUPLICATE_PAYMENT: &str = "duplicate_payment";
/// `failure` of an attempt whose provider took another amount or currency than the attempt's.
pub const AMOUNT_MISMATCH: &str = "amount_mismatch";

/// `failure` of an attempt whose provider took the money after staff suspended the circle (the
/// payer opened it before): nothing is settled, staff refund it.
pub const CIRCLE_SUSPENDED: &str = "circle_suspended";

/// Why an attempt closed although the provider took money that no payment settled: paid a
/// second time for an application already paid ([`DUPLICATE_PAYMENT`]), an amount or currency
/// other than the attempt's ([`AMOUNT_MISMATCH`]), or for a circle suspended since the attempt
/// opened ([`CIRCLE_SUSPENDED`]). Staff refund them (the console's `needs_refund`
/// filter and the dashboard's "payments to refund" card); see [`order::Model::flag_for_refund`].
pub const MONEY_TAKEN_UNSETTLED: [&str; 3] = [DUPLICATE_PAYMENT, AMOUNT_MISMATCH, CIRCLE_SUSPENDED];

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
    /// The application's circle was suspended after the attempt opened: nothing settled, the
    /// order is `failed` with [`CIRCLE_SUSPENDED`] for staff to refund.
    Suspended,
}

impl Settlement {
    /// The settled payment of the application (none when its circle is suspended).
    pub fn payment(&self) -> Option<&payment_history::Model> {
        match self {
            Self::Settled(p) | Self::AlreadySettled(p) | Self::Duplicate(p) => Some(p),
            Self::Suspended => None,
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
/// application untouched), or staff suspended the circle (nothing stored, the order flagged for
/// a refund: [`Settlement::Suspended`]) — and queues the payer's receipt mail (in their language), so every
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
    let txn = crate::db::begin_write(db).await?;
    let application = event_entry_application::Entity::find_by_id(found.application_id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or_else(Error::not_found)?;
    let entry = event_entry::Entity::find_by_id(application.entry_id).one(&txn).await?.ok_or_else(Error::not_found)?;
    let ev = event::Entity::find_by_id(entry.event_id).one(&txn).await?.ok_or_else(Error::not_found)?;
    let ev = EventWithPhases::load(&txn, ev).await?;
    if application.lottery_status != LotteryStatus::Paid {
        let suspended = circle::Entity::find_by_id(entry.circle_id).one(&txn).await?.is_some_and(|c| c.is_suspended);
        if suspended {
            txn.rollback().await?;
            order::Model::flag_for_refund(db, found.id, CIRCLE_SUSPENDED, now).await?;
            tracing::warn!(
                order_id = found.id,
                "payment for a suspended circle: order flagged circle_suspended for a refund"
            );
            return unsettled(Settlement::Suspended);
        }
    }
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
    let Some((email, lang)) = payer.mail_to() else { return Ok(None) };
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

fn is_unique_violation(e: &sea_orm::DbErr) -> bool {
    matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}
