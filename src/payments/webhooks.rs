//! The providers' notifications, each verified and applied once (stored event ids): Stripe's
//! webhook, PayPal's webhook and GMO's result notification. Nothing a notification claims is
//! believed beyond what its signature (Stripe) or the provider itself (PayPal, GMO) confirms.

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use crate::config::Config;
use crate::db::entities::order;
use crate::error::{Error, Result};
use crate::model::payment::{OrderState, PaymentType};
use crate::model::settlement::{event_seen, record_event};
use crate::payments::checkout::finish;
use crate::payments::jobs::reconcile_payment::reconcile_later;
use crate::payments::outbox::Outbox;
use crate::payments::outcomes::WebhookOutcome;
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::Providers;
use crate::payments::redirect::Outcome;
use crate::payments::stripe::{self, Intent};
use crate::payments::{gmo, paypal, stripe_outcome};

#[derive(Deserialize)]
struct StripeEvent {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: StripeEventData,
}

#[derive(Deserialize)]
struct StripeEventData {
    object: serde_json::Value,
}

/// A notification as it came: the raw body and its signature header, if any.
#[derive(Debug, Clone, Copy)]
pub struct Signed<'a> {
    /// The raw body.
    pub payload: &'a [u8],
    /// Stripe's `Stripe-Signature`.
    pub signature: Option<&'a str>,
}

/// Verifies a Stripe webhook (`Stripe-Signature` over the raw `payload`, against every
/// configured secret, at unix time `real_now`) and applies it once. 400 `invalid_signature`
/// for a bad or stale signature, 400 `bad_request` for a body that is not an event.
///
/// A PaymentIntent no application attempt owns is offered to `others` (the store's orders:
/// this module knows no feature above it) with the event's type; `true` when it owned it.
pub async fn stripe_webhook<F>(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    config: &Config,
    Signed { payload, signature }: Signed<'_>,
    real_now: DateTime<Utc>,
    now: DateTime<Utc>,
    others: F,
) -> Result<WebhookOutcome>
where
    F: AsyncFnOnce(&Intent, &str) -> Result<bool>,
{
    if config.stripe_webhook_secrets.iter().all(|s| s.is_empty()) {
        return Err(Error::NotFound { code: "not_found" });
    }
    let header = signature.ok_or(Error::BadRequest { code: "invalid_signature" })?;
    if let Err(e) = stripe::verify_signature(payload, header, &config.stripe_webhook_secrets, real_now.timestamp()) {
        tracing::warn!(reason = ?e, "stripe webhook refused");
        return Err(Error::BadRequest { code: "invalid_signature" });
    }
    let event: StripeEvent = serde_json::from_slice(payload).map_err(|_| Error::BadRequest { code: "bad_request" })?;
    if event_seen(db, PaymentType::Stripe, &event.id).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    let outcome = apply_stripe_event(db, outbox, &event, now, others).await?;
    if !record_event(db, PaymentType::Stripe, &event.id, &event.kind, now).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    Ok(outcome)
}

async fn apply_stripe_event<F>(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    event: &StripeEvent,
    now: DateTime<Utc>,
    others: F,
) -> Result<WebhookOutcome>
where
    F: AsyncFnOnce(&Intent, &str) -> Result<bool>,
{
    if !event.kind.starts_with("payment_intent.") {
        return Ok(WebhookOutcome::Ignored);
    }
    let Ok(intent) = serde_json::from_value::<Intent>(event.data.object.clone()) else {
        return Ok(WebhookOutcome::Ignored);
    };
    let Some(found) = order::Model::by_provider_id(db, PaymentType::Stripe, &intent.id).await? else {
        return Ok(if others(&intent, &event.kind).await? {
            WebhookOutcome::Processed
        } else {
            WebhookOutcome::Ignored
        });
    };
    match event.kind.as_str() {
        "payment_intent.succeeded" | "payment_intent.canceled" => {
            stripe_outcome::finish(db, outbox, &found, &intent, now).await?;
            Ok(WebhookOutcome::Processed)
        }
        _ => Ok(WebhookOutcome::Ignored),
    }
}

/// How far a PayPal webhook's `PAYPAL-TRANSMISSION-TIME` may be from now.
pub const PAYPAL_TOLERANCE_SECS: i64 = 300;

/// Verifies a PayPal webhook (`transmission` headers, the raw `payload`) with PayPal, at unix
/// time `real_now`, and applies it once: the order it names is finished by asking PayPal (and
/// captured once approved). 404 without a configured webhook id; 400 `invalid_signature` (bad,
/// stale or unverifiable), 400 `bad_request` (not an event); 502 `provider_unavailable` when
/// PayPal cannot be asked (PayPal delivers it again).
pub async fn paypal_webhook(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    transmission: Option<paypal::Transmission>,
    payload: &[u8],
    real_now: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<WebhookOutcome> {
    let Some(pp) = providers.paypal.as_ref().filter(|p| !p.webhook_id.is_empty()) else {
        return Err(Error::NotFound { code: "not_found" });
    };
    let transmission = transmission.ok_or(Error::BadRequest { code: "invalid_signature" })?;
    let sent = DateTime::parse_from_rfc3339(transmission.time.trim()).map_err(|_| {
        tracing::warn!("paypal webhook refused: transmission time unreadable");
        Error::BadRequest { code: "invalid_signature" }
    })?;
    if (real_now.timestamp() - sent.timestamp()).abs() > PAYPAL_TOLERANCE_SECS {
        tracing::warn!("paypal webhook refused: stale transmission");
        return Err(Error::BadRequest { code: "invalid_signature" });
    }
    let text = std::str::from_utf8(payload).map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let event: serde_json::Value = serde_json::from_str(text).map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let (Some(event_id), Some(kind)) = (event["id"].as_str(), event["event_type"].as_str()) else {
        return Err(Error::BadRequest { code: "bad_request" });
    };
    match pp.verify_webhook(&transmission, text).await {
        Ok(true) => {}
        Ok(false) | Err(ProviderError::Refused { .. }) => {
            tracing::warn!("paypal webhook refused: paypal did not verify its signature");
            return Err(Error::BadRequest { code: "invalid_signature" });
        }
        Err(ProviderError::Unknown) => return Err(Error::BadGateway { code: "provider_unavailable" }),
    }
    if event_seen(db, PaymentType::Paypal, event_id).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    let resource = &event["resource"];
    let order_id = match kind {
        "CHECKOUT.ORDER.APPROVED" | "CHECKOUT.ORDER.COMPLETED" => resource["id"].as_str(),
        "PAYMENT.CAPTURE.COMPLETED"
        | "PAYMENT.CAPTURE.PENDING"
        | "PAYMENT.CAPTURE.DENIED"
        | "PAYMENT.CAPTURE.DECLINED" => resource["supplementary_data"]["related_ids"]["order_id"].as_str(),
        _ => None,
    };
    let found = match order_id.filter(|id| paypal::is_order_id(id)) {
        Some(id) => order::Model::by_provider_id(db, PaymentType::Paypal, id).await?,
        None => None,
    };
    let outcome = match found {
        None => WebhookOutcome::Ignored,
        Some(found) => match finish(db, outbox, providers, &found, now).await? {
            Outcome::Unknown => return Err(Error::BadGateway { code: "provider_unavailable" }),
            _ => WebhookOutcome::Processed,
        },
    };
    if !record_event(db, PaymentType::Paypal, event_id, kind, now).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    Ok(outcome)
}

/// Handles GMO's result notification (the raw form `payload`): for our shop and one of our
/// attempts, the trade is asked with `SearchTrade` and applied; nothing in the notification is
/// believed. 404 without GMO; 400 `invalid_signature` for another shop, 400 `bad_request`
/// without an order id; 502 `provider_unavailable` when GMO cannot be asked (GMO sends it again).
/// An order id no application attempt owns is offered to `others` (the store's orders: this
/// module knows no feature above it); `true` when that settled something.
pub async fn gmo_notification<F>(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    payload: &[u8],
    now: DateTime<Utc>,
    others: F,
) -> Result<WebhookOutcome>
where
    F: AsyncFnOnce(&str) -> Result<bool>,
{
    let Some(g) = providers.gmo.as_ref() else { return Err(Error::NotFound { code: "not_found" }) };
    let pairs = gmo::parse_pairs(payload);
    let shop = gmo::field(&pairs, "ShopID").unwrap_or_default();
    if shop != g.shop_id {
        tracing::warn!("gmo notification refused: not for this shop");
        return Err(Error::BadRequest { code: "invalid_signature" });
    }
    let Some(order_id) = gmo::field(&pairs, "OrderID").filter(|id| gmo::is_order_id(id)) else {
        return Err(Error::BadRequest { code: "bad_request" });
    };
    let claimed = gmo::field(&pairs, "Status").unwrap_or_default();
    let pay_type = gmo::field(&pairs, "PayType").unwrap_or("0");
    let event_id: String = format!("{order_id}:{claimed}:{}", gmo::field(&pairs, "TranID").unwrap_or_default())
        .chars()
        .filter(|c| c.is_ascii_graphic())
        .take(200)
        .collect();
    if event_seen(db, PaymentType::SmbcGmo, &event_id).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    let found = order::Model::by_provider_id(db, PaymentType::SmbcGmo, order_id).await?;
    let claims_paid = matches!(claimed, "CAPTURE" | "SALES" | "AUTH");
    let outcome = match found {
        Some(found) if pay_type == "0" => match finish(db, outbox, providers, &found, now).await? {
            Outcome::Unknown => return Err(Error::BadGateway { code: "provider_unavailable" }),
            Outcome::Paid(_) => WebhookOutcome::Processed,
            other => {
                if claims_paid {
                    // Forged, or GMO's search not caught up yet: GMO will not send it again
                    // once answered, so the reconcile job asks a few more times.
                    tracing::warn!(order_id = found.id, outcome = ?other, "gmo notification claims a payment its trade does not show");
                    if found.state == OrderState::Pending {
                        reconcile_later(outbox.queue, found.id, found.reconcile_attempts + 1).await;
                    }
                }
                WebhookOutcome::Ignored
            }
        },
        // Not an application's trade: offered to `others` (the store's orders), which ask
        // GMO's trade search themselves.
        None if others(order_id).await? => WebhookOutcome::Processed,
        _ => WebhookOutcome::Ignored,
    };
    // Only a notification that settled something is remembered: anyone can post one, so one
    // that changed nothing must not keep GMO's genuine notification out later.
    if outcome == WebhookOutcome::Processed {
        let kind = format!(
            "notification:{}",
            claimed.chars().filter(|c| c.is_ascii_alphanumeric()).take(32).collect::<String>()
        );
        if !record_event(db, PaymentType::SmbcGmo, &event_id, &kind, now).await? {
            return Ok(WebhookOutcome::Duplicate);
        }
    }
    Ok(outcome)
}
