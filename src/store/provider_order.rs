//! What the store orders of the redirect providers (PayPal, GMO) share: where the payer comes
//! back to ([`order_page`]) and settling a payment the provider took ([`settle_taken`]); used by
//! `crate::store::paypal` and `crate::store::gmo`.

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;

use crate::db::entities::{store_order, store_purchase};
use crate::error::Result;
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::Providers;
use crate::store::model::order::{self, Settled};
use crate::types::Lang;

/// The order `uuid`'s page in `lang`, as an absolute link for the provider.
pub fn order_page(providers: &Providers, lang: Lang, uuid: &str) -> String {
    providers.site_link(lang, &format!("/store/orders/{uuid}"))
}

/// Settles `found`, whose provider took `taken` yen (`None`: not in yen, or unreadable): at the
/// order's amount it makes the purchase — or, for an item the buyer held already, the payment is
/// given back with `give_back` at once (a failure is logged for staff); another amount closes the
/// order for staff and is never settled. The purchase, if one was made.
pub async fn settle_taken(
    db: &DatabaseConnection,
    found: &store_order::Model,
    taken: Option<i64>,
    now: DateTime<Utc>,
    give_back: impl AsyncFnOnce() -> std::result::Result<(), ProviderError>,
) -> Result<Option<store_purchase::Model>> {
    if taken != Some(i64::from(found.amount)) {
        tracing::error!(
            store_order_id = found.id,
            "the provider's amount differs from the order: not settled, for staff"
        );
        order::close(db, found.id, "amount_mismatch", now).await?;
        return Ok(None);
    }
    match order::settle(db, found, now).await? {
        Settled::Purchase(p) => Ok(Some(p)),
        Settled::Duplicate => {
            if let Err(e) = give_back().await {
                tracing::error!(store_order_id = found.id, error = ?e, "giving a duplicate payment back failed: for staff");
            }
            Ok(None)
        }
    }
}
