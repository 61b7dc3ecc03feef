//! `payments`: every payment attempt (`orders`, DOMAIN.md "Payments") with the settled payment it
//! made, if any (`payment_histories`: the provider's reference, when, and `is_late` when the
//! provider confirmed it after the window closed), its application, circle, event and payer.
//! Staff read them — admin, director and uc_staff; qa_tester sees nothing — and an admin
//! **reconciles** a stuck one: `POST /admin/api/payments/{id}/reconcile` asks its provider where
//! it stands and settles, fails or expires it through [`payments::reconcile`], the very code the
//! `ReconcilePayment` job runs (it only reads the provider's payment: it never charges). Only a
//! pending attempt is reconciled (409 `payment_not_pending` otherwise); a silent provider
//! answers 502 `provider_unavailable`. Each reconcile is audited with the outcome.
//!
//! Nothing here knows a provider: which one to ask is `payments::reconcile`'s business.
//!
//! Filters: `state`, `provider`, `application_id`, `user_id`, `amount`, `created_at` (a range:
//! `created_at_lte` finds attempts pending for a while); `event_id` and `circle_id` through the
//! application's entry; `is_late` (settled after the window), `is_duplicate` (money taken a
//! second time for an application already paid: failed with `duplicate_payment`, to refund) and
//! `needs_refund` (money taken and not settled: a duplicate, an amount other than the fee,
//! `amount_mismatch`, or a payment for a circle suspended since, `circle_suspended`; see
//! [`MONEY_TAKEN_UNSETTLED`]); `q` finds a transaction UUID or a
//! provider's id.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter};
use serde::Serialize;
use serde_json::Value;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::NoInput;
use crate::admin::api::resource::Reconciliation;
use crate::admin::api::resource::Resource;
use crate::admin::api::resources::applications::{circles_of, entries_where, id_value};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::order::{OrderState, PaymentType};
use crate::db::entities::{event_entry, event_entry_application, order, payment_history, user};
use crate::error::{Error, Result};
use crate::model::settlement::MONEY_TAKEN_UNSETTLED;
use crate::payments::{self, Reconciled};

/// The resource.
pub struct Payments;

/// What `failure` says of an attempt that took money a second time.
pub const DUPLICATE: &str = crate::model::settlement::DUPLICATE_PAYMENT;

/// A payment attempt as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct PaymentRecord {
    /// Attempt id.
    pub id: i32,
    /// The application paid for.
    pub application_id: i32,
    /// Its entry.
    pub entry_id: Option<i32>,
    /// The entry's event.
    pub event_id: Option<i32>,
    /// The entry's circle.
    pub circle_id: Option<i32>,
    /// The circle's Japanese name.
    pub circle_name_ja: String,
    /// The circle's English name.
    pub circle_name_en: String,
    /// Who pays.
    pub user_id: i32,
    /// Their handle.
    pub user_vmarket_id: Option<String>,
    /// The provider.
    pub provider: PaymentType,
    /// The attempt's UUID (idempotency keys, the receipt's address).
    pub transaction_uuid: String,
    /// The provider's id of its payment object.
    pub provider_order_id: Option<String>,
    /// JPY.
    pub amount: i32,
    /// `JPY`.
    pub currency: String,
    /// Pending, captured, failed or expired.
    pub state: OrderState,
    /// Why it failed or expired.
    pub failure: Option<String>,
    /// It took money for an application already paid: to refund.
    pub is_duplicate: bool,
    /// The provider took money that no payment settled (paid twice, or another amount than the
    /// fee): staff refund it.
    pub needs_refund: bool,
    /// How often the provider was asked about it.
    pub reconcile_attempts: i32,
    /// When it was opened.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
    /// When it was settled.
    pub settled_at: Option<DateTime<Utc>>,
    /// The settled payment, if any.
    pub payment_id: Option<i32>,
    /// The provider's reference of the settled payment.
    pub order_reference: Option<String>,
    /// When the settled payment was made.
    pub paid_at: Option<DateTime<Utc>>,
    /// Settled after its payment window had closed: staff refund or accept it.
    pub is_late: bool,
}

/// Attempts whose application's entry matches `condition`.
fn through_entries(condition: Condition) -> Condition {
    let applications = Query::select()
        .column(event_entry_application::Column::Id)
        .from(event_entry_application::Entity)
        .and_where(event_entry_application::Column::EntryId.in_subquery(entries_where(condition)))
        .to_owned();
    Condition::all().add(order::Column::ApplicationId.in_subquery(applications))
}

fn of_event(value: &Value) -> Option<Condition> {
    Some(through_entries(Condition::all().add(event_entry::Column::EventId.eq(id_value(value)?))))
}

fn of_circle(value: &Value) -> Option<Condition> {
    Some(through_entries(Condition::all().add(event_entry::Column::CircleId.eq(id_value(value)?))))
}

fn flag(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "true" || s == "false" => Some(s == "true"),
        _ => None,
    }
}

fn late(value: &Value) -> Option<Condition> {
    let late = Query::select()
        .column(payment_history::Column::OrderId)
        .from(payment_history::Entity)
        .and_where(payment_history::Column::IsLate.eq(true))
        .to_owned();
    Some(Condition::all().add(if flag(value)? {
        order::Column::Id.in_subquery(late)
    } else {
        order::Column::Id.not_in_subquery(late)
    }))
}

/// Attempts closed with money taken and not settled (or, `false`, every other attempt).
pub fn needs_refund(value: &Value) -> Option<Condition> {
    Some(if flag(value)? {
        Condition::all().add(order::Column::Failure.is_in(MONEY_TAKEN_UNSETTLED))
    } else {
        Condition::any()
            .add(order::Column::Failure.is_null())
            .add(order::Column::Failure.is_not_in(MONEY_TAKEN_UNSETTLED))
    })
}

fn duplicate(value: &Value) -> Option<Condition> {
    Some(if flag(value)? {
        Condition::all().add(order::Column::Failure.eq(DUPLICATE))
    } else {
        Condition::any().add(order::Column::Failure.is_null()).add(order::Column::Failure.ne(DUPLICATE))
    })
}

/// `rows` with what they refer to, loaded in a fixed number of queries.
async fn payment_records<C: ConnectionTrait>(db: &C, rows: Vec<order::Model>) -> Result<Vec<PaymentRecord>> {
    let application_ids: Vec<i32> = rows.iter().map(|o| o.application_id).collect();
    let applications: HashMap<i32, event_entry_application::Model> = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::Id.is_in(application_ids))
        .all(db)
        .await?
        .into_iter()
        .map(|a| (a.id, a))
        .collect();
    let entries: HashMap<i32, event_entry::Model> = event_entry::Entity::find()
        .filter(event_entry::Column::Id.is_in(applications.values().map(|a| a.entry_id).collect::<Vec<_>>()))
        .all(db)
        .await?
        .into_iter()
        .map(|e| (e.id, e))
        .collect();
    let circles = circles_of(db, entries.values().map(|e| e.circle_id).collect()).await?;
    let handles: HashMap<i32, String> = user::Entity::find()
        .filter(user::Column::Id.is_in(rows.iter().map(|o| o.user_id).collect::<Vec<_>>()))
        .all(db)
        .await?
        .into_iter()
        .map(|u| (u.id, u.vmarket_id))
        .collect();
    let settled: HashMap<i32, payment_history::Model> = payment_history::Entity::find()
        .filter(payment_history::Column::OrderId.is_in(rows.iter().map(|o| o.id).collect::<Vec<_>>()))
        .all(db)
        .await?
        .into_iter()
        .map(|p| (p.order_id, p))
        .collect();
    Ok(rows
        .into_iter()
        .map(|o| {
            let entry = applications.get(&o.application_id).and_then(|a| entries.get(&a.entry_id));
            let circle = entry.and_then(|e| circles.get(&e.circle_id));
            let paid = settled.get(&o.id);
            PaymentRecord {
                id: o.id,
                application_id: o.application_id,
                entry_id: entry.map(|e| e.id),
                event_id: entry.map(|e| e.event_id),
                circle_id: entry.map(|e| e.circle_id),
                circle_name_ja: circle.map(|c| c.name_ja.clone()).unwrap_or_default(),
                circle_name_en: circle.map(|c| c.name_en.clone()).unwrap_or_default(),
                user_id: o.user_id,
                user_vmarket_id: handles.get(&o.user_id).cloned(),
                provider: o.provider,
                is_duplicate: o.failure.as_deref() == Some(DUPLICATE),
                needs_refund: o.failure.as_deref().is_some_and(|f| MONEY_TAKEN_UNSETTLED.contains(&f)),
                transaction_uuid: o.transaction_uuid,
                provider_order_id: o.provider_order_id,
                amount: o.amount,
                currency: o.currency,
                state: o.state,
                failure: o.failure,
                reconcile_attempts: o.reconcile_attempts,
                created_at: o.created_at,
                updated_at: o.updated_at,
                settled_at: o.settled_at,
                payment_id: paid.map(|p| p.id),
                order_reference: paid.map(|p| p.order_reference.clone()),
                paid_at: paid.map(|p| p.paid_at),
                is_late: paid.is_some_and(|p| p.is_late),
            }
        })
        .collect())
}

impl Resource for Payments {
    type Entity = order::Entity;
    type Record = PaymentRecord;
    type Input = NoInput;

    const NAME: &'static str = "payments";
    const AREA: Area = Area::Payments;
    const ACTIONS: &'static [Action] = &[Action::List, Action::Show, Action::Reconcile];
    const COLUMNS: Columns = Columns {
        sort: &["application_id", "provider", "amount", "state", "created_at", "updated_at", "settled_at"],
        filter: &["application_id", "user_id", "provider", "amount", "state", "created_at", "settled_at"],
        search: &["transaction_uuid", "provider_order_id"],
        computed: &[
            ("event_id", of_event),
            ("circle_id", of_circle),
            ("is_late", late),
            ("is_duplicate", duplicate),
            ("needs_refund", needs_refund),
        ],
    };

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<order::Model>) -> Result<Vec<PaymentRecord>> {
        payment_records(db, rows).await
    }

    async fn reconcile(row: order::Model, cx: &Cx<'_>) -> Result<Reconciliation> {
        if row.state != OrderState::Pending {
            return Err(Error::Conflict { code: "payment_not_pending" });
        }
        Ok(
            match payments::reconcile(
                cx.db,
                payments::Outbox { mailer: cx.mailer, queue: cx.queue },
                cx.providers,
                row.id,
                cx.now,
            )
            .await?
            {
                Reconciled::Done(outcome) => Reconciliation { outcome, error: None },
                Reconciled::Waiting => Reconciliation { outcome: "waiting", error: None },
                Reconciled::Retry => Reconciliation {
                    outcome: "provider_unavailable",
                    error: Some(Error::BadGateway { code: "provider_unavailable" }),
                },
            },
        )
    }
}
