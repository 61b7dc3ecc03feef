//! PayPal's steps of the redirect flow (`crate::payments::checkout`): opening its order, asking
//! about it, and capturing it once the payer approved it — always with the attempt's
//! `PayPal-Request-Id`, and never for an order PayPal does not report `APPROVED`.

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;

use crate::db::entities::order;
use crate::error::Result;
use crate::model::payment::{OrderState, Payable};
use crate::payments::paypal::{self, PayPal};
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::{Providers, provider_error};
use crate::payments::redirect::{Next, PROVIDER_EXPIRED, Remote, Step, description, payable_now, vetted};
use crate::types::Lang;

/// Opens PayPal's order for `found` (or reuses the one it has), or says the attempt is over
/// and a fresh one is needed.
pub(crate) async fn open(
    db: &DatabaseConnection,
    providers: &Providers,
    payable: &Payable,
    found: order::Model,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<Step> {
    let pp = providers.paypal()?;
    let Some(id) = found.provider_order_id.clone() else {
        let created = pp
            .create_order(
                &found.transaction_uuid,
                found.amount,
                &description(payable, lang),
                &providers.checkout_url(lang, &found.transaction_uuid, false),
                &providers.checkout_url(lang, &found.transaction_uuid, true),
                lang,
            )
            .await
            .map_err(provider_error)?;
        let stored = order::Model::set_provider_id(db, found.id, &created.id, now).await?;
        if stored.provider_order_id.as_deref() != Some(created.id.as_str()) {
            // Two first calls raced; the request id made them one order anyway.
            return Box::pin(open(db, providers, payable, stored, lang, now)).await;
        }
        let next = vetted(providers, created.approve_url())?;
        let stored = match &next {
            Next::Provider(url) => order::Model::set_provider_url(db, stored.id, url.as_str(), now).await?,
            Next::Checkout => stored,
        };
        return Ok(Step::Ready(Box::new((stored, next))));
    };
    let Some(remote) = pp.order(&id).await.map_err(provider_error)? else {
        // PayPal forgot the order (left unapproved for hours, or voided): nobody can pay it any
        // more, so the attempt is over and the next round opens a fresh one.
        order::Model::close(db, found.id, OrderState::Expired, PROVIDER_EXPIRED, now).await?;
        return Ok(Step::Again);
    };
    match remote.status.as_str() {
        "APPROVED" | "COMPLETED" => Ok(Step::Ready(Box::new((found, Next::Checkout)))),
        "VOIDED" => {
            order::Model::close(db, found.id, OrderState::Failed, "voided", now).await?;
            Ok(Step::Again)
        }
        _ => {
            let next = vetted(providers, remote.approve_url().or(found.provider_url.as_deref()))?;
            Ok(Step::Ready(Box::new((found, next))))
        }
    }
}

/// Asks PayPal about pending attempt `found` (PayPal order `id`); captures the order once the
/// payer approved it and the application may still be paid.
pub async fn ask(
    db: &DatabaseConnection,
    providers: &Providers,
    found: &order::Model,
    id: &str,
    now: DateTime<Utc>,
) -> Result<std::result::Result<Remote, ProviderError>> {
    let Some(pp) = providers.paypal.as_ref() else { return Ok(Err(ProviderError::Unknown)) };
    let order = match pp.order(id).await {
        Ok(Some(order)) => order,
        Ok(None) => return Ok(Ok(Remote::Expired)),
        Err(e) => return Ok(Err(e)),
    };
    match order.status.as_str() {
        "COMPLETED" => Ok(Ok(from_capture(&order))),
        "APPROVED" if payable_now(db, found, now).await? => Ok(capture_order(db, pp, found, id, now).await?),
        "APPROVED" => Ok(Ok(Remote::Open("payment_closed"))),
        "VOIDED" => Ok(Ok(Remote::Gone("voided"))),
        _ => Ok(Ok(Remote::Open("payment_not_completed"))),
    }
}

/// What a (captured) PayPal order says.
pub fn from_capture(order: &paypal::Order) -> Remote {
    let Some(capture) = order.capture() else { return Remote::Processing };
    match capture.status.as_str() {
        "COMPLETED" => {
            let money = capture.amount.as_ref().or_else(|| order.purchase_units.first()?.amount.as_ref());
            match money.and_then(|m| Some((m.whole()?, m.currency_code.clone()))) {
                Some((amount, currency)) => Remote::Paid { amount, currency },
                None => Remote::Paid { amount: -1, currency: String::new() },
            }
        }
        "PENDING" => Remote::Processing,
        "DECLINED" | "FAILED" => Remote::Declined,
        _ => Remote::Gone("refunded"),
    }
}

/// Captures PayPal order `id` of `found` with its current key.
async fn capture_order(
    db: &DatabaseConnection,
    pp: &PayPal,
    found: &order::Model,
    id: &str,
    now: DateTime<Utc>,
) -> Result<std::result::Result<Remote, ProviderError>> {
    let key = format!("capture-{}-{}", found.transaction_uuid, found.provider_attempt);
    let remote = match pp.capture(id, &key).await {
        Ok(order) => from_capture(&order),
        Err(ProviderError::Refused { code }) => match code.as_str() {
            "INSTRUMENT_DECLINED" | "TRANSACTION_REFUSED" | "PAYER_CANNOT_PAY" => Remote::Declined,
            "ORDER_NOT_APPROVED" | "PAYER_ACTION_REQUIRED" => Remote::Open("payment_not_completed"),
            _ => {
                // ORDER_ALREADY_CAPTURED (a capture under another key went through), or anything
                // else: what does the order say now?
                tracing::info!(order_id = found.id, %code, "paypal refused a capture; reading the order");
                match pp.order(id).await {
                    Ok(Some(order)) if order.status == "COMPLETED" => from_capture(&order),
                    Ok(Some(order)) if order.status == "VOIDED" => Remote::Gone("voided"),
                    Ok(Some(_)) => Remote::Open("payment_not_completed"),
                    Ok(None) => Remote::Expired,
                    Err(e) => return Ok(Err(e)),
                }
            }
        },
        Err(ProviderError::Unknown) => return Ok(Err(ProviderError::Unknown)),
    };
    if remote == Remote::Declined {
        order::Model::count_decline(db, found.id, found.provider_attempt, now).await?;
    }
    Ok(Ok(remote))
}
