//! A store order whichever provider pays it (issue 31): opening one by card ([`open_card`]),
//! through PayPal or on GMO's payment page ([`open_redirect`]), each at the price in force
//! (`crate::store::model::order::open`); looking at the orders that closed on the way, whatever
//! their provider, so that a payment taken on one is settled and an open card intent cancelled
//! ([`crate::store::card::retire`], [`crate::store::paypal::retire`],
//! [`crate::store::gmo::retire`]); asking the provider about a pending order ([`check`]); and
//! staff's refund of a purchase, its money given back through the provider that took it before
//! the purchase is marked refunded ([`refund`]).

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, DatabaseConnection, TransactionTrait};
use url::Url;

use crate::db::entities::store_order::{self, PaymentType};
use crate::db::entities::{store_item, store_purchase};
use crate::error::{Error, Result};
use crate::payments::providers::{Providers, unavailable};
use crate::store::card::{self, CardOrder};
use crate::store::model::order::{self, Opening};
use crate::store::model::purchase;
use crate::store::{gmo, paypal};
use crate::types::Lang;

/// Opens (or answers) `buyer_id`'s card order for item `uuid` and its PaymentIntent. 409 as
/// [`order::open`]; 502 when Stripe cannot be reached (nothing charged).
pub async fn open_card(
    db: &DatabaseConnection,
    providers: &Providers,
    buyer_id: i32,
    uuid: &str,
    now: DateTime<Utc>,
) -> Result<CardOrder> {
    let stripe = providers.stripe()?;
    let opening = order::open(db, buyer_id, uuid, PaymentType::Stripe, now).await?;
    retire_closed(db, providers, &opening, now).await?;
    card::start(db, stripe, opening, now).await
}

/// An open PayPal or GMO order and where its payer goes.
#[derive(Debug, Clone)]
pub struct ProviderOrder {
    /// The order.
    pub order: store_order::Model,
    /// Its item.
    pub item: store_item::Model,
    /// The provider's page where the payer approves (PayPal) or makes (GMO) the payment.
    pub url: Url,
}

/// Opens (or answers) `buyer_id`'s order for item `uuid` through `provider`, PayPal or GMO, and
/// its page at the provider. 409 as [`order::open`]; 422 on `payment_type` for a provider not
/// offered; 502 when the provider cannot be reached (nothing charged).
pub async fn open_redirect(
    db: &DatabaseConnection,
    providers: &Providers,
    buyer_id: i32,
    uuid: &str,
    provider: PaymentType,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<ProviderOrder> {
    if provider == PaymentType::Stripe || !providers.available().contains(&provider) {
        return Err(unavailable());
    }
    let opening = order::open(db, buyer_id, uuid, provider, now).await?;
    retire_closed(db, providers, &opening, now).await?;
    let url = match provider {
        PaymentType::Paypal => paypal::start(db, providers, &opening, lang, now).await?,
        _ => gmo::start(db, providers, &opening, lang, now).await?,
    };
    Ok(ProviderOrder { order: opening.order, item: opening.item, url })
}

/// Looks at the orders [`order::open`] closed for `opening`: when one was paid meanwhile, the
/// buyer holds the item, so the new order closes too (409 `already_purchased`).
async fn retire_closed(
    db: &DatabaseConnection,
    providers: &Providers,
    opening: &Opening,
    now: DateTime<Utc>,
) -> Result<()> {
    for old in &opening.closed {
        let paid = match old.provider {
            PaymentType::Stripe => match providers.stripe.as_ref() {
                Some(stripe) => card::retire(db, stripe, old, now).await?,
                None => false,
            },
            PaymentType::Paypal => paypal::retire(db, providers, old, now).await?,
            PaymentType::SmbcGmo => gmo::retire(db, providers, old, now).await?,
        };
        if paid {
            order::close(db, opening.order.id, "replaced", now).await?;
            return Err(Error::Conflict { code: "already_purchased" });
        }
    }
    Ok(())
}

/// Asks the provider about `buyer_id`'s pending order `found` (a page look): a card order reads
/// its intent (never charges), a PayPal order is captured once approved, a GMO order's trade is
/// read. An unknown answer changes nothing; the next look asks again.
pub async fn check(
    db: &DatabaseConnection,
    providers: &Providers,
    buyer_id: i32,
    found: &store_order::Model,
    now: DateTime<Utc>,
) -> Result<Option<store_purchase::Model>> {
    match found.provider {
        PaymentType::Paypal => paypal::check(db, providers, found, now).await,
        PaymentType::SmbcGmo => gmo::check(db, providers, found, now).await,
        PaymentType::Stripe => card::capture(db, providers, buyer_id, &found.uuid, None, now).await.map(Some),
    }
}

/// Staff refund `purchase` with `reason`: a purchase paid through a provider gets its money back
/// there first (502 `provider_unavailable` when the provider cannot be reached: nothing changes),
/// then it is marked refunded, which revokes its downloads. `false` when it was refunded already.
pub async fn refund(
    db: &(impl ConnectionTrait + TransactionTrait),
    providers: &Providers,
    purchase: &store_purchase::Model,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<bool> {
    if purchase.status == store_purchase::PurchaseStatus::Refunded {
        return Ok(false);
    }
    if let Some(paid) = order::of_purchase(db, purchase.id).await? {
        match paid.provider {
            PaymentType::Paypal => paypal::refund(providers, &paid).await?,
            PaymentType::SmbcGmo => gmo::refund(providers, &paid, now).await?,
            PaymentType::Stripe => card::refund(providers, &paid, purchase).await?,
        }
    }
    let txn = crate::db::begin_write(db).await?;
    let done = purchase::refund(&txn, purchase, reason, now).await?;
    sea_orm::TransactionSession::commit(txn).await?;
    Ok(done)
}
