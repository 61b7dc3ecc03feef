//! Paying for a store item by card (Stripe PaymentIntents, issue 31), through the Stripe client
//! the application payments use (`crate::payments::stripe`):
//!
//! - [`start`] gives the buyer's open card order (opened by `crate::store::checkout::open_card`:
//!   the amount fixed from the price in force) its PaymentIntent for exactly that amount, created
//!   with an idempotency key derived from the order's UUID. [`retire`] cancels the intent of an
//!   order closed on the way (past its lifetime, or replaced), so a page left open cannot pay it.
//! - [`capture`] confirms the card on the server (or reads the intent, after 3-D Secure in the
//!   browser) and settles: the purchase is made at the order's amount. A payment for an item
//!   the buyer holds already is refunded at Stripe at once. An outcome Stripe did not tell us
//!   leaves the order pending: the next capture (the buyer's purchases page asks again) reads
//!   the intent before anything else, and nothing is confirmed twice (Stripe's idempotency keys).
//! - [`on_webhook`] applies Stripe's `payment_intent.succeeded` and `.canceled` to the order
//!   that owns the intent: a buyer whose browser closed after paying still gets the item.
//! - [`refund`] gives the money of a paid card order back at Stripe (staff's refund of its
//!   purchase, `crate::store::checkout::refund`).

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, DatabaseConnection, TransactionTrait};

use crate::db::entities::store_order::{self, PaymentType, StoreOrderState};
use crate::db::entities::{store_item, store_purchase};
use crate::error::{Error, Result};
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::{Providers, provider_error};
use crate::payments::stripe::{self, Intent, Stripe};
use crate::store::model::order::{self, Settled};

/// An open card order and what the payer's browser needs for it.
#[derive(Debug, Clone)]
pub struct CardOrder {
    /// The order.
    pub order: store_order::Model,
    /// Its item.
    pub item: store_item::Model,
    /// The PaymentIntent's client secret, for 3-D Secure in the browser.
    pub client_secret: Option<String>,
}

/// The PaymentIntent of `opening`'s order, created at its amount the first time; see the module
/// comment. 502 when Stripe cannot be reached (nothing charged).
pub async fn start(
    db: &DatabaseConnection,
    stripe: &Stripe,
    opening: order::Opening,
    now: DateTime<Utc>,
) -> Result<CardOrder> {
    let found = opening.order;
    let (order, intent) = match &found.provider_order_id {
        Some(id) => {
            let intent = stripe.retrieve(id).await.map_err(provider_error)?;
            (found, intent)
        }
        None => {
            let paid_for = [("store_order", found.uuid.clone()), ("store_item", opening.item.uuid.clone())];
            let intent = stripe.create_intent(&found.uuid, &paid_for, found.amount).await.map_err(provider_error)?;
            let stored = order::set_provider_id(db, found.id, &intent.id, None, now).await?;
            let intent = match stored.provider_order_id.as_deref() {
                // Two first calls raced; the idempotency key made them one intent anyway.
                Some(id) if id != intent.id => stripe.retrieve(id).await.map_err(provider_error)?,
                _ => intent,
            };
            (stored, intent)
        }
    };
    Ok(CardOrder { order, item: opening.item, client_secret: intent.client_secret })
}

/// Cancels the intent of `old`, an order [`order::open`] closed; when Stripe says it was paid
/// meanwhile, settles it instead (`true`: the buyer now holds the item).
pub async fn retire(
    db: &DatabaseConnection,
    stripe: &Stripe,
    old: &store_order::Model,
    now: DateTime<Utc>,
) -> Result<bool> {
    let Some(id) = old.provider_order_id.as_deref() else { return Ok(false) };
    match stripe.cancel(id, &old.uuid).await {
        Ok(_) => Ok(false),
        Err(_) => match stripe.retrieve(id).await {
            Ok(intent) if intent.status == "succeeded" => Ok(apply(db, stripe, old, &intent, now).await?.is_some()),
            // Not paid, or unknown: the order is closed here, so a later payment of it is
            // found by no capture; Stripe's dashboard shows it for staff.
            _ => Ok(false),
        },
    }
}

/// Pays `buyer_id`'s order `uuid` with the card `payment_method` (tokenized by Stripe.js), or,
/// without one, reads what Stripe says of it (after 3-D Secure, or when an earlier answer was
/// lost). 404 for anyone else's order; 409 `order_closed`, `order_expired`, `already_purchased`,
/// `payment_requires_action`, `payment_processing`, `payment_not_completed`; 422
/// `payment_declined`; 502 `payment_pending` when Stripe's answer is unknown.
pub async fn capture(
    db: &DatabaseConnection,
    providers: &Providers,
    buyer_id: i32,
    uuid: &str,
    payment_method: Option<&str>,
    now: DateTime<Utc>,
) -> Result<store_purchase::Model> {
    let stripe = providers.stripe()?;
    let found = order::of_buyer(db, buyer_id, uuid).await?;
    match found.state {
        StoreOrderState::Captured => {
            if let Settled::Purchase(p) = order::settle(db, &found, now).await? {
                return Ok(p);
            }
            return Err(Error::Conflict { code: "already_purchased" });
        }
        StoreOrderState::Duplicate => return Err(Error::Conflict { code: "already_purchased" }),
        StoreOrderState::Failed | StoreOrderState::Pending => {}
    }
    let intent_id = found.provider_order_id.clone().ok_or(Error::Conflict { code: "payment_not_completed" })?;
    // What Stripe has first: a payment already taken is settled, whatever this call carries.
    let known = stripe.retrieve(&intent_id).await.map_err(|_| Error::BadGateway { code: "payment_pending" })?;
    let closed = found.state == StoreOrderState::Failed;
    let expired = found.expires_at <= now;
    let intent = if known.status == "succeeded" || closed || known.status == "canceled" {
        known
    } else if expired {
        let _ = stripe.cancel(&intent_id, &found.uuid).await;
        let now_known = stripe.retrieve(&intent_id).await.map_err(|_| Error::BadGateway { code: "payment_pending" })?;
        if now_known.status != "succeeded" {
            order::close(db, found.id, "expired", now).await?;
            return Err(Error::Conflict { code: "order_expired" });
        }
        now_known
    } else {
        match stripe::payment_method(payment_method)? {
            Some(pm) => match stripe.confirm_card(&intent_id, pm, &found.uuid).await {
                Ok(intent) => intent,
                Err(ProviderError::Refused { code }) => {
                    tracing::info!(store_order_id = found.id, %code, "store payment declined");
                    return Err(Error::Refused { code: "payment_declined" });
                }
                Err(ProviderError::Unknown) => return Err(Error::BadGateway { code: "payment_pending" }),
            },
            None => known,
        }
    };
    match apply(db, stripe, &found, &intent, now).await? {
        Some(purchase) => Ok(purchase),
        None => Err(Error::Conflict { code: open_code(&intent, closed) }),
    }
}

/// Why an intent that made no purchase did not.
fn open_code(intent: &Intent, closed: bool) -> &'static str {
    match intent.status.as_str() {
        "succeeded" => "already_purchased",
        "canceled" => "order_closed",
        _ if closed => "order_closed",
        "processing" | "requires_capture" => "payment_processing",
        "requires_action" => "payment_requires_action",
        _ => "payment_not_completed",
    }
}

/// Applies what Stripe says of `found`'s intent: a succeeded payment of the order's amount is
/// settled (`Some` purchase), or refunded when the buyer held the item already; a cancelled one
/// closes the order; a succeeded payment of another amount is closed for staff and never
/// settled.
async fn apply(
    db: &(impl ConnectionTrait + TransactionTrait),
    stripe: &Stripe,
    found: &store_order::Model,
    intent: &Intent,
    now: DateTime<Utc>,
) -> Result<Option<store_purchase::Model>> {
    match intent.status.as_str() {
        "succeeded" => {
            if intent.amount != i64::from(found.amount) || !intent.currency.eq_ignore_ascii_case("jpy") {
                tracing::error!(
                    store_order_id = found.id,
                    "Stripe's amount differs from the order: not settled, for staff"
                );
                order::close(db, found.id, "amount_mismatch", now).await?;
                return Ok(None);
            }
            match order::settle(db, found, now).await? {
                Settled::Purchase(p) => Ok(Some(p)),
                Settled::Duplicate => {
                    if let Err(e) = stripe.refund(&intent.id, &found.uuid).await {
                        tracing::error!(store_order_id = found.id, error = ?e, "refunding a duplicate payment failed: for staff");
                    }
                    Ok(None)
                }
            }
        }
        "canceled" => {
            order::close(db, found.id, "canceled", now).await?;
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// Applies Stripe's webhook event `kind` about `intent` when a store order owns it (`false`
/// otherwise): a payment that succeeded is settled (or refunded, for an item the buyer held
/// already) even when the buyer's browser never came back; a cancelled one closes the order.
pub async fn on_webhook(
    db: &DatabaseConnection,
    providers: &Providers,
    intent: &Intent,
    kind: &str,
    now: DateTime<Utc>,
) -> Result<bool> {
    let Some(found) = order::by_provider_id(db, PaymentType::Stripe, &intent.id).await? else { return Ok(false) };
    if matches!(kind, "payment_intent.succeeded" | "payment_intent.canceled") {
        apply(db, providers.stripe()?, &found, intent, now).await?;
    }
    Ok(true)
}

/// Gives the money of `paid`, a captured card order, back at Stripe (the purchase's key makes a
/// repeat one refund). 502 `provider_unavailable` when Stripe cannot be reached or refuses.
pub async fn refund(providers: &Providers, paid: &store_order::Model, purchase: &store_purchase::Model) -> Result<()> {
    let intent = paid
        .provider_order_id
        .as_deref()
        .ok_or_else(|| Error::Internal("a captured order without its intent".into()))?;
    let stripe = providers.stripe().map_err(|_| Error::BadGateway { code: "provider_unavailable" })?;
    stripe.refund(intent, &purchase.uuid).await.map_err(|e| {
        tracing::warn!(purchase_id = purchase.id, error = ?e, "a store refund failed at Stripe");
        Error::BadGateway { code: "provider_unavailable" }
    })?;
    Ok(())
}
