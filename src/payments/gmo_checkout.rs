//! GMO's steps of the redirect flow (`crate::payments::checkout`): opening its payment page
//! (link type Plus) and asking about the trade with `SearchTrade`.

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;

use crate::db::entities::order;
use crate::error::Result;
use crate::model::payment::{OrderState, Payable};
use crate::payments::gmo;
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::{Providers, provider_error};
use crate::payments::redirect::{Next, Remote, Step, vetted};
use crate::types::Lang;

/// Opens GMO's payment page for `found` (or reuses the one it has), or says the attempt is
/// over and a fresh one is needed.
pub(crate) async fn open(
    db: &DatabaseConnection,
    providers: &Providers,
    payable: &Payable,
    found: order::Model,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<Step> {
    let g = providers.gmo()?;
    let order_id = gmo::order_id(&found.transaction_uuid);
    // The order id is ours: stored before the call, so that a lost answer is still reconciled.
    let found = match found.provider_order_id {
        Some(_) => found,
        None => order::Model::set_provider_id(db, found.id, &order_id, now).await?,
    };
    if let Some(url) = found.provider_url.clone() {
        let next = vetted(providers, Some(&url))?;
        return Ok(Step::Ready(Box::new((found, next))));
    }
    let ret = providers.checkout_url(lang, &found.transaction_uuid, false);
    let cancel = providers.checkout_url(lang, &found.transaction_uuid, true);
    match g.link_url(&order_id, found.amount, &ret, &cancel, payable.deadline).await {
        Ok(url) => {
            let next = vetted(providers, Some(&url))?;
            let stored = order::Model::set_provider_url(db, found.id, &url, now).await?;
            let next = match stored.provider_url.as_deref() {
                Some(kept) if kept != url => vetted(providers, Some(kept))?,
                _ => next,
            };
            Ok(Step::Ready(Box::new((stored, next))))
        }
        Err(ProviderError::Refused { code }) if code == gmo::ORDER_ID_TAKEN => {
            // An earlier call got the URL and its answer was lost: nobody holds that page, so
            // nobody can pay it — unless the trade says otherwise.
            match g.search_trade(&order_id).await.map_err(provider_error)? {
                Some(trade) if trade.is_paid() => Ok(Step::Ready(Box::new((found, Next::Checkout)))),
                _ => {
                    order::Model::close(db, found.id, OrderState::Failed, "link_lost", now).await?;
                    Ok(Step::Again)
                }
            }
        }
        Err(e) => Err(provider_error(e)),
    }
}

/// Asks GMO about the trade `id` of a pending attempt (`SearchTrade`).
pub async fn ask(providers: &Providers, id: &str) -> std::result::Result<Remote, ProviderError> {
    let Some(g) = providers.gmo.as_ref() else { return Err(ProviderError::Unknown) };
    g.search_trade(id).await.map(|trade| match trade {
        None => Remote::Open("payment_not_completed"),
        Some(t) if t.is_paid() => Remote::Paid { amount: t.amount + t.tax, currency: "JPY".into() },
        Some(t) => match t.status.as_str() {
            "AUTH" | "SAUTH" => Remote::Processing,
            "VOID" | "RETURN" | "RETURNX" | "CANCEL" => Remote::Gone("canceled"),
            _ => Remote::Open("payment_not_completed"),
        },
    })
}
