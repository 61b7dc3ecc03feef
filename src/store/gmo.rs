//! Paying for a store item through GMO Payment Gateway's payment page (issue 31), with the GMO
//! client the application payments use (`crate::payments::gmo`):
//!
//! - [`start`] gives the buyer's open GMO order (opened by `crate::store::checkout::open_redirect` at
//!   the price in force) its payment link for exactly that amount, payable until the order's
//!   lifetime ends. GMO issues a link once per order id, and the id is derived from the order's
//!   UUID, so the link is kept on the order and a repeat (another tab) answers it. The link is
//!   followed only into the configured provider origins; the payer comes back to the order's
//!   page, `/store/orders/{uuid}` (GMO POSTs there; the page sends them on to its `GET`).
//! - [`check`] asks GMO's trade search what became of a pending order — the payer's return, a
//!   reload, the purchases page — and settles it once when the trade is charged at the order's
//!   amount in yen; a charge for an item the buyer held already is given back at once. GMO's
//!   return and notification carry nothing we can verify: only the trade search is believed. A
//!   declined card leaves the trade unpaid and the payer tries another on GMO's page.
//! - [`retire`] looks at an order closed on the way: a charge GMO took on it is settled, not lost.
//! - [`refund`] gives the money of a charged order back (staff's refund of its purchase).

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;
use url::Url;

use crate::db::entities::store_order::{self, PaymentType, StoreOrderState};
use crate::db::entities::store_purchase;
use crate::error::{Error, Result};
use crate::payments::gmo::{self, Gmo, ORDER_ID_TAKEN, Trade};
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::{Providers, provider_error};
use crate::payments::redirect::{Next, vetted};
use crate::store::model::order::{self, Opening};
use crate::store::provider_order::{order_page, settle_taken};
use crate::types::Lang;

/// Where the payer pays `opening`'s order at GMO; see the module comment. 502 when GMO cannot be
/// reached or refuses (nothing charged).
pub async fn start(
    db: &DatabaseConnection,
    providers: &Providers,
    opening: &Opening,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<Url> {
    let g = providers.gmo()?;
    let found = &opening.order;
    let url = match found.provider_url.as_deref() {
        Some(url) => url.to_string(),
        None => {
            let id = gmo::order_id(&found.uuid);
            let back = order_page(providers, lang, &found.uuid);
            match g.link_url(&id, found.amount, &back, &format!("{back}?cancelled=1"), found.expires_at).await {
                Ok(url) => {
                    order::set_provider_id(db, found.id, &id, Some(&url), now).await?.provider_url.unwrap_or(url)
                }
                // Another tab's first call got the link; it is on the order once stored.
                Err(ProviderError::Refused { code }) if code == ORDER_ID_TAKEN => {
                    order::of_buyer(db, found.buyer_id, &found.uuid)
                        .await?
                        .provider_url
                        .ok_or(Error::BadGateway { code: "payment_pending" })?
                }
                Err(e) => return Err(provider_error(e)),
            }
        }
    };
    match vetted(providers, Some(&url))? {
        Next::Provider(url) => Ok(url),
        Next::Checkout => Err(Error::BadGateway { code: "provider_refused" }),
    }
}

/// Asks GMO about `found` (the buyer's pending GMO order) and settles it when charged; the
/// purchase it made, if any. 502 `payment_pending` when GMO's answer is unknown.
pub async fn check(
    db: &DatabaseConnection,
    providers: &Providers,
    found: &store_order::Model,
    now: DateTime<Utc>,
) -> Result<Option<store_purchase::Model>> {
    let Some(id) = found.provider_order_id.as_deref() else { return Ok(None) };
    let g = providers.gmo().map_err(|_| Error::BadGateway { code: "payment_pending" })?;
    match g.search_trade(id).await.map_err(|_| Error::BadGateway { code: "payment_pending" })? {
        Some(trade) if trade.is_paid() => apply(db, g, found, &trade, now).await,
        _ => {
            if found.state == StoreOrderState::Pending && found.expires_at <= now {
                order::close(db, found.id, "expired", now).await?;
            }
            Ok(None)
        }
    }
}

/// Settles `found` after GMO's charged `trade`: at the order's amount it makes the purchase (or,
/// for an item the buyer held already, is given back); another amount closes the order for
/// staff and is never settled.
async fn apply(
    db: &DatabaseConnection,
    g: &Gmo,
    found: &store_order::Model,
    trade: &Trade,
    now: DateTime<Utc>,
) -> Result<Option<store_purchase::Model>> {
    let id = found.provider_order_id.as_deref().unwrap_or_default();
    settle_taken(db, found, Some(trade.amount + trade.tax), now, async || g.refund(id, now).await.map(|_| ())).await
}

/// Looks at `old`, an order closed on the way: when GMO charged it meanwhile, settles it
/// (`true`: the buyer now holds the item).
pub async fn retire(
    db: &DatabaseConnection,
    providers: &Providers,
    old: &store_order::Model,
    now: DateTime<Utc>,
) -> Result<bool> {
    let (Some(id), Some(g)) = (old.provider_order_id.as_deref(), providers.gmo.as_ref()) else {
        return Ok(false);
    };
    match g.search_trade(id).await {
        Ok(Some(trade)) if trade.is_paid() => Ok(apply(db, g, old, &trade, now).await?.is_some()),
        _ => Ok(false),
    }
}

/// GMO's result notification named `order_id` (nothing in it believed): when it is a store
/// order not settled yet, its trade is read and a charge settled — also on an order closed
/// meanwhile, so a payment on a page the buyer left open is not lost. `true` when that made a
/// purchase; 502 `provider_unavailable` when GMO cannot be asked (GMO sends it again).
pub async fn on_notification(
    db: &DatabaseConnection,
    providers: &Providers,
    order_id: &str,
    now: DateTime<Utc>,
) -> Result<bool> {
    let Some(found) = order::by_provider_id(db, PaymentType::SmbcGmo, order_id).await? else { return Ok(false) };
    if found.state == StoreOrderState::Captured {
        return Ok(false);
    }
    let g = providers.gmo().map_err(|_| Error::BadGateway { code: "provider_unavailable" })?;
    match g.search_trade(order_id).await.map_err(|_| Error::BadGateway { code: "provider_unavailable" })? {
        Some(trade) if trade.is_paid() => Ok(apply(db, g, &found, &trade, now).await?.is_some()),
        _ => Ok(false),
    }
}

/// Gives the money of `paid`, a charged GMO order, back (a trade given back already counts as
/// done). 502 `provider_unavailable` when GMO cannot be reached or refuses.
pub async fn refund(providers: &Providers, paid: &store_order::Model, now: DateTime<Utc>) -> Result<()> {
    let unavailable = || Error::BadGateway { code: "provider_unavailable" };
    let g = providers.gmo().map_err(|_| unavailable())?;
    let id =
        paid.provider_order_id.as_deref().ok_or_else(|| Error::Internal("a charged order without its id".into()))?;
    match g.refund(id, now).await {
        Ok(_) => Ok(()),
        Err(e) => {
            tracing::warn!(store_order_id = paid.id, error = ?e, "a store refund failed at GMO");
            Err(unavailable())
        }
    }
}
