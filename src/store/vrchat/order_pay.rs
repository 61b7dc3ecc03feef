//! Paying a VRChat avatar order like an application (spec §3: `paypal` or `gmo_payment`), through
//! the clients the application payments use (`crate::payments::paypal`, `crate::payments::gmo`):
//!
//! - [`pay`] opens the provider's payment for the order's `total_price` (or reuses the one it
//!   has) and answers where the payer goes: PayPal's order is created with the order's UUID as
//!   its `PayPal-Request-Id`, invoice and custom id; GMO's link is for the order's GMO order id
//!   (its UUID in base32) and ends with the order's closing date. The link is followed only into
//!   the configured provider origins.
//! - [`check`] asks the provider what became of the order — the payer's return, or a reload of
//!   the order page — and settles it once ([`crate::store::vrchat::order::settle`]): PayPal's
//!   approved order is captured under a key derived from the order (never twice), GMO's trade is
//!   read. An answer the provider did not give (network, 5xx) leaves the order open; the next
//!   look asks again.
//! - [`cancel`] asks first, so an order paid at the provider meanwhile is settled, not
//!   cancelled.

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;
use url::Url;

use crate::db::entities::vrchat_avatar_order::{self, AvatarOrderState, AvatarPaymentType};
use crate::error::{Error, Result};
use crate::payments::gmo;
use crate::payments::paypal_checkout::from_capture;
use crate::payments::providers::{Providers, provider_error};
use crate::payments::redirect::{Next, Remote, vetted};
use crate::store::vrchat::order::{self, close, payable, set_provider, settle};
use crate::types::Lang;

/// Where the payer comes back to: the order's page (in `lang`).
pub fn order_page(providers: &Providers, lang: Lang, uuid: &str) -> String {
    providers.site_link(lang, &format!("/mypage/vrchat/orders/{uuid}"))
}

/// Opens (or reuses) the provider's payment for `row` and answers where the payer goes. 409
/// `order_closed` past its closing date or once paid; 502 when the provider cannot be reached
/// (nothing charged).
pub async fn pay(
    db: &DatabaseConnection,
    providers: &Providers,
    row: &vrchat_avatar_order::Model,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<Url> {
    let row = &check(db, providers, row, now).await?;
    if !payable(row, now) {
        return Err(Error::Conflict { code: "order_closed" });
    }
    let back = order_page(providers, lang, &row.uuid);
    let url = match row.payment_type {
        AvatarPaymentType::Paypal => {
            let pp = providers.paypal()?;
            match (&row.paypal_order_id, &row.provider_url) {
                (Some(_), Some(url)) => url.clone(),
                _ => {
                    let description = format!("VRChat avatar: {}", row.avatar_name);
                    let created = pp
                        .create_order(
                            &row.uuid,
                            row.total_price,
                            &description,
                            &back,
                            &format!("{back}?cancelled=1"),
                            lang,
                        )
                        .await
                        .map_err(provider_error)?;
                    let url = link(providers, created.approve_url())?;
                    set_provider(db, row, Some(&created.id), None, url.as_str(), now).await?;
                    url.to_string()
                }
            }
        }
        AvatarPaymentType::GmoPayment => {
            let g = providers.gmo()?;
            match (&row.gmo_payment_order_id, &row.provider_url) {
                (Some(_), Some(url)) => url.clone(),
                _ => {
                    let id = gmo::order_id(&row.uuid);
                    let raw = g
                        .link_url(&id, row.total_price, &back, &format!("{back}?cancelled=1"), row.closing_date)
                        .await
                        .map_err(provider_error)?;
                    let url = link(providers, Some(&raw))?;
                    set_provider(db, row, None, Some(&id), url.as_str(), now).await?;
                    url.to_string()
                }
            }
        }
    };
    Url::parse(&url).map_err(|_| Error::BadGateway { code: "provider_refused" })
}

/// A payer link of a provider, only into the configured provider origins.
fn link(providers: &Providers, raw: Option<&str>) -> Result<Url> {
    match vetted(providers, raw)? {
        Next::Provider(url) => Ok(url),
        Next::Checkout => Err(Error::BadGateway { code: "provider_refused" }),
    }
}

/// Asks the provider about open order `row` and settles it when it was paid; answers the order
/// as it is now. A provider that does not answer leaves it as it was.
pub async fn check(
    db: &DatabaseConnection,
    providers: &Providers,
    row: &vrchat_avatar_order::Model,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar_order::Model> {
    if row.state != AvatarOrderState::Open {
        return Ok(row.clone());
    }
    let remote = match row.payment_type {
        AvatarPaymentType::Paypal => match (&row.paypal_order_id, providers.paypal.as_ref()) {
            (Some(id), Some(pp)) => match pp.order(id).await {
                Ok(Some(found)) if found.status == "COMPLETED" => Some(from_capture(&found)),
                Ok(Some(found)) if found.status == "APPROVED" && payable(row, now) => {
                    match pp.capture(id, &format!("capture-{}", row.uuid)).await {
                        Ok(captured) => Some(from_capture(&captured)),
                        Err(e) => {
                            tracing::info!(order = %row.uuid, error = ?e, "paypal did not capture a VRChat avatar order");
                            None
                        }
                    }
                }
                _ => None,
            },
            _ => None,
        },
        AvatarPaymentType::GmoPayment => match (&row.gmo_payment_order_id, providers.gmo.as_ref()) {
            (Some(id), Some(g)) => match g.search_trade(id).await {
                Ok(Some(trade)) if trade.is_paid() => {
                    Some(Remote::Paid { amount: trade.amount + trade.tax, currency: "JPY".into() })
                }
                _ => None,
            },
            _ => None,
        },
    };
    if let Some(Remote::Paid { amount, currency }) = remote {
        let amount = if currency == "JPY" { amount } else { -1 };
        return settle(db, row.id, amount, now).await;
    }
    if row.closing_date <= now {
        return match close(db, row, AvatarOrderState::Expired, now).await {
            Ok(closed) => Ok(closed),
            Err(Error::Conflict { .. }) => order::reload(db, row.id).await,
            Err(e) => Err(e),
        };
    }
    Ok(row.clone())
}

/// Withdraws open order `row` — unless the provider says it was paid meanwhile (then it is
/// settled, and 409 `order_paid`).
pub async fn cancel(
    db: &DatabaseConnection,
    providers: &Providers,
    row: &vrchat_avatar_order::Model,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar_order::Model> {
    let now_row = check(db, providers, row, now).await?;
    match now_row.state {
        AvatarOrderState::Open => close(db, &now_row, AvatarOrderState::Cancelled, now).await,
        AvatarOrderState::Paid => Err(Error::Conflict { code: "order_paid" }),
        _ => Err(Error::Conflict { code: "order_closed" }),
    }
}
