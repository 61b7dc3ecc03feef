//! Asking a redirect provider (PayPal, GMO) about a pending attempt ([`ask`]) and applying its
//! answer ([`apply`]); the reconcile of a redirect attempt ([`reconcile`]). The flow of
//! `checkout.rs` and the reconcile job both end here.

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;

use crate::db::entities::order;
use crate::error::Result;
use crate::model::payment::{OrderState, PaymentType};
use crate::model::settlement::Settlement;
use crate::payments::outbox::Outbox;
use crate::payments::outcomes::Reconciled;
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::Providers;
use crate::payments::redirect::{Outcome, PROVIDER_EXPIRED, Remote, payable_now};
use crate::payments::{gmo_checkout, paypal_checkout};

/// Asks the provider about pending attempt `found`; captures an approved PayPal order when the
/// application may still be paid.
pub async fn ask(
    db: &DatabaseConnection,
    providers: &Providers,
    found: &order::Model,
    now: DateTime<Utc>,
) -> Result<std::result::Result<Remote, ProviderError>> {
    let Some(id) = found.provider_order_id.clone() else { return Ok(Ok(Remote::Open("payment_not_completed"))) };
    match found.provider {
        PaymentType::Paypal => paypal_checkout::ask(db, providers, found, &id, now).await,
        PaymentType::SmbcGmo => Ok(gmo_checkout::ask(providers, &id).await),
        PaymentType::Stripe => Ok(Err(ProviderError::Refused { code: "not_a_redirect_provider".into() })),
    }
}

/// Applies what the provider said about pending attempt `found`.
pub async fn apply(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    found: &order::Model,
    remote: Remote,
    now: DateTime<Utc>,
) -> Result<Outcome> {
    match remote {
        Remote::Paid { amount, currency } => {
            if amount != i64::from(found.amount) || !currency.eq_ignore_ascii_case(&found.currency) {
                tracing::error!(
                    order_id = found.id,
                    "provider amount differs from the attempt: not settled, for staff"
                );
                order::Model::flag_for_refund(db, found.id, crate::model::settlement::AMOUNT_MISMATCH, now).await?;
                return Ok(Outcome::Closed);
            }
            let reference = found.provider_order_id.clone().unwrap_or_default();
            match outbox.settle(db, found.id, &reference, now).await? {
                Settlement::Settled(p) | Settlement::AlreadySettled(p) => Ok(Outcome::Paid(p)),
                Settlement::Duplicate(_) | Settlement::Suspended => Ok(Outcome::Closed),
            }
        }
        Remote::Open(code) => Ok(Outcome::NotPaid(code)),
        Remote::Processing => Ok(Outcome::Processing),
        Remote::Declined => Ok(Outcome::Declined),
        Remote::Gone(reason) => {
            order::Model::close(db, found.id, OrderState::Failed, reason, now).await?;
            Ok(Outcome::Closed)
        }
        Remote::Expired => {
            tracing::info!(order_id = found.id, "the provider no longer knows the attempt's payment: expired");
            order::Model::close(db, found.id, OrderState::Expired, PROVIDER_EXPIRED, now).await?;
            Ok(Outcome::Closed)
        }
    }
}

/// The reconcile of a redirect provider's pending attempt (see [`crate::payments::reconcile::reconcile()`]).
pub async fn reconcile(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    found: &order::Model,
    now: DateTime<Utc>,
) -> Result<Reconciled> {
    let remote = match ask(db, providers, found, now).await? {
        Ok(remote) => remote,
        Err(_) => return Ok(Reconciled::Retry),
    };
    match apply(db, outbox, found, remote, now).await? {
        Outcome::Paid(_) => Ok(Reconciled::Done("settled")),
        Outcome::Closed => Ok(Reconciled::Done("closed")),
        Outcome::Processing | Outcome::Unknown => Ok(Reconciled::Retry),
        Outcome::NotPaid(_) | Outcome::Declined => {
            if payable_now(db, found, now).await? {
                Ok(Reconciled::Waiting)
            } else {
                order::Model::close(db, found.id, OrderState::Expired, "window_closed", now).await?;
                Ok(Reconciled::Done("expired"))
            }
        }
    }
}
