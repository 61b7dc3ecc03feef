//! Paying for a store item through PayPal (issue 31), with the PayPal client the application
//! payments use (`crate::payments::paypal`):
//!
//! - [`start`] gives the buyer's open PayPal order (opened by `crate::store::checkout::open_redirect`
//!   at the price in force) its PayPal order for exactly that amount — created under a request
//!   id derived from the order's UUID, so a repeat or a race makes one — and answers the approval
//!   link (followed only into the configured provider origins). The payer comes back to the
//!   order's page, `/store/orders/{uuid}`.
//! - [`check`] asks PayPal what became of a pending order — the payer's return, a reload, the
//!   purchases page — and settles it once: an approved order inside its lifetime is captured
//!   under a key derived from the order and its declined attempts (never twice; after a decline
//!   the payer approves again and the next key is new), a completed one is settled at the amount
//!   PayPal took; a payment for an item the buyer held already is refunded at PayPal at once. An
//!   answer PayPal did not give leaves the order pending; the next look asks again.
//! - [`retire`] looks at an order closed on the way (past its lifetime, or replaced by another
//!   checkout): a payment PayPal took on it is settled, not lost.
//! - [`refund`] gives the money of a captured order back (staff's refund of its purchase).

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;
use url::Url;

use crate::db::entities::store_order::{self, StoreOrderState};
use crate::db::entities::store_purchase;
use crate::error::{Error, Result};
use crate::payments::paypal::{Order, PayPal};
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::{Providers, provider_error};
use crate::payments::redirect::{Next, vetted};
use crate::store::model::order::{self, Opening};
use crate::store::provider_order::{order_page, settle_taken};
use crate::types::Lang;

/// The approval link of `opening`'s order at PayPal, its PayPal order created the first time;
/// see the module comment. 502 when PayPal cannot be reached (nothing charged); 409
/// `already_purchased` when it turns out to be paid already.
pub async fn start(
    db: &DatabaseConnection,
    providers: &Providers,
    opening: &Opening,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<Url> {
    let pp = providers.paypal()?;
    let found = &opening.order;
    let remote = match found.provider_order_id.as_deref() {
        Some(id) => pp.order(id).await.map_err(provider_error)?,
        None => {
            let back = order_page(providers, lang, &found.uuid);
            let name = if lang == Lang::En && !opening.item.name_en.is_empty() {
                &opening.item.name_en
            } else {
                &opening.item.name
            };
            let created = pp
                .create_order(&found.uuid, found.amount, name, &back, &format!("{back}?cancelled=1"), lang)
                .await
                .map_err(provider_error)?;
            let stored = order::set_provider_id(db, found.id, &created.id, None, now).await?;
            match stored.provider_order_id.as_deref() {
                // Two first calls raced; the request id made them one order anyway.
                Some(id) if id != created.id => pp.order(id).await.map_err(provider_error)?,
                _ => Some(created),
            }
        }
    };
    match remote {
        Some(remote) if matches!(remote.status.as_str(), "CREATED" | "PAYER_ACTION_REQUIRED") => {
            match vetted(providers, remote.approve_url())? {
                Next::Provider(url) => Ok(url),
                Next::Checkout => Err(Error::BadGateway { code: "provider_refused" }),
            }
        }
        // Approved or paid in another tab: the order's page captures and tells.
        Some(_) => Err(Error::Conflict { code: "order_open" }),
        None => {
            order::close(db, found.id, "expired", now).await?;
            Err(Error::Conflict { code: "order_expired" })
        }
    }
}

/// Asks PayPal about `found` (the buyer's pending PayPal order) and settles it when paid; the
/// purchase it made, if any. 422 `payment_declined` when PayPal declined the capture (the payer
/// may approve again); 502 `payment_pending` when PayPal's answer is unknown.
pub async fn check(
    db: &DatabaseConnection,
    providers: &Providers,
    found: &store_order::Model,
    now: DateTime<Utc>,
) -> Result<Option<store_purchase::Model>> {
    let Some(id) = found.provider_order_id.as_deref() else { return Ok(None) };
    let pp = providers.paypal().map_err(|_| Error::BadGateway { code: "payment_pending" })?;
    let remote = pp.order(id).await.map_err(|_| Error::BadGateway { code: "payment_pending" })?;
    let open = found.state == StoreOrderState::Pending && found.expires_at > now;
    let done = match remote {
        Some(remote) if remote.status == "COMPLETED" => remote,
        Some(remote) if remote.status == "APPROVED" && open => {
            match pp.capture(id, &format!("capture-{}-{}", found.uuid, found.provider_attempt)).await {
                Ok(captured) => captured,
                Err(ProviderError::Refused { code }) if code == "INSTRUMENT_DECLINED" => {
                    tracing::info!(store_order_id = found.id, "store payment declined at PayPal");
                    order::count_declined(db, found, now).await?;
                    return Err(Error::Refused { code: "payment_declined" });
                }
                Err(_) => return Err(Error::BadGateway { code: "payment_pending" }),
            }
        }
        _ => {
            if found.state == StoreOrderState::Pending && !open {
                order::close(db, found.id, "expired", now).await?;
            }
            return Ok(None);
        }
    };
    apply(db, pp, found, &done, now).await
}

/// Settles `found` after PayPal's captured order `done`: a completed capture of the order's
/// amount in yen makes the purchase (or, for an item the buyer held already, is refunded); a
/// capture of another amount closes the order for staff and is never settled; a pending one
/// waits.
async fn apply(
    db: &DatabaseConnection,
    pp: &PayPal,
    found: &store_order::Model,
    done: &Order,
    now: DateTime<Utc>,
) -> Result<Option<store_purchase::Model>> {
    let Some(capture) = done.capture() else { return Ok(None) };
    if capture.status != "COMPLETED" {
        return Ok(None);
    }
    let amount = capture.amount.as_ref().filter(|m| m.currency_code == "JPY").and_then(|m| m.whole());
    let key = format!("refund-{}", found.uuid);
    settle_taken(db, found, amount, now, async || pp.refund(&capture.id, &key).await.map(|_| ())).await
}

/// Looks at `old`, an order closed on the way: when PayPal took its payment meanwhile, settles
/// it (`true`: the buyer now holds the item). An approval never captured takes no money and
/// lapses at PayPal.
pub async fn retire(
    db: &DatabaseConnection,
    providers: &Providers,
    old: &store_order::Model,
    now: DateTime<Utc>,
) -> Result<bool> {
    let (Some(id), Some(pp)) = (old.provider_order_id.as_deref(), providers.paypal.as_ref()) else {
        return Ok(false);
    };
    match pp.order(id).await {
        Ok(Some(remote)) if remote.status == "COMPLETED" => Ok(apply(db, pp, old, &remote, now).await?.is_some()),
        _ => Ok(false),
    }
}

/// Gives the money of `paid`, a captured PayPal order, back (the order's key makes a repeat one
/// refund; a capture refunded already counts as done). 502 `provider_unavailable` when PayPal
/// cannot be reached or refuses.
pub async fn refund(providers: &Providers, paid: &store_order::Model) -> Result<()> {
    let unavailable = || Error::BadGateway { code: "provider_unavailable" };
    let pp = providers.paypal().map_err(|_| unavailable())?;
    let id =
        paid.provider_order_id.as_deref().ok_or_else(|| Error::Internal("a captured order without its id".into()))?;
    let remote = pp.order(id).await.map_err(|_| unavailable())?.ok_or_else(unavailable)?;
    let capture = remote.capture().ok_or_else(unavailable)?;
    match pp.refund(&capture.id, &format!("refund-{}", paid.uuid)).await {
        Ok(_) => Ok(()),
        Err(ProviderError::Refused { code }) if code == "CAPTURE_FULLY_REFUNDED" => Ok(()),
        Err(e) => {
            tracing::warn!(store_order_id = paid.id, error = ?e, "a store refund failed at PayPal");
            Err(unavailable())
        }
    }
}
