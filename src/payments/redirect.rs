//! What the redirect providers' steps share: what a provider says about an attempt
//! ([`Remote`]), where an attempt stands ([`Outcome`]), where the payer goes next ([`Next`]), and
//! the checks of a provider page and of a payable application.

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;
use url::Url;

use crate::db::entities::{order, payment_history};
use crate::error::{Error, Result};
use crate::http::redirect;
use crate::model::payment::Payable;
use crate::payments::providers::Providers;
use crate::types::Lang;

/// What the provider says about an attempt, whichever provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remote {
    /// The money was taken: this much, in this currency.
    Paid {
        /// In the currency's smallest unit.
        amount: i64,
        /// ISO 4217.
        currency: String,
    },
    /// The payer has not paid (yet): the error code that says so.
    Open(&'static str),
    /// Taken but not final yet (a pending capture): asked again later.
    Processing,
    /// The payer's funding was refused; the attempt stays open for another try.
    Declined,
    /// Over at the provider (voided, cancelled, refunded): closed with this reason.
    Gone(&'static str),
    /// The provider no longer knows the payment object (PayPal forgets an order left unapproved
    /// for about three hours, or voided): nothing was taken on it, and nothing can be. Closed as
    /// `expired`; the payer starts a fresh attempt.
    Expired,
}

/// Why an attempt whose payment object the provider no longer knows was closed.
pub const PROVIDER_EXPIRED: &str = "provider_expired";

/// Where an attempt stands after [`crate::payments::checkout::finish`].
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Settled, now or before.
    Paid(payment_history::Model),
    /// The payer has not paid; the code says why (`payment_not_completed`, `payment_closed`).
    NotPaid(&'static str),
    /// The provider is still processing it.
    Processing,
    /// Declined: pay again at the provider.
    Declined,
    /// Closed (failed, expired, money taken twice and flagged): start again from the payment page.
    Closed,
    /// The provider did not answer: reconciled later, never charged twice.
    Unknown,
}

/// The provider's page or our `/checkout`.
#[derive(Debug, Clone)]
pub enum Next {
    /// The provider's page (vetted).
    Provider(Url),
    /// `/checkout?transaction=` (the provider already has the payment).
    Checkout,
}

/// What the provider shows the payer as the item (the event and plan, in `lang`).
pub(crate) fn description(payable: &Payable, lang: Lang) -> String {
    let event = lang.pick(&payable.event.event.name_ja, &payable.event.event.name_en);
    let plan = lang.pick(&payable.plan.name_ja, &payable.plan.name_en);
    format!("{event} / {plan}")
}

/// One try at opening: done, or the attempt was closed and a fresh one is needed.
pub(crate) enum Step {
    /// The attempt and where the payer goes.
    Ready(Box<(order::Model, Next)>),
    /// Closed at the provider: open a fresh one.
    Again,
}

/// The provider page `raw`, when it is on a configured provider origin (else a 502: a provider
/// answering with a link elsewhere is not followed).
pub(crate) fn vetted(providers: &Providers, raw: Option<&str>) -> Result<Next> {
    let origins = providers.redirect_origins();
    match raw.and_then(|raw| redirect::provider_url(raw, &origins)) {
        Some(url) => Ok(Next::Provider(url)),
        None => {
            tracing::error!(
                "a payment provider sent a payer link outside the configured provider origins: not followed"
            );
            Err(Error::BadGateway { code: "provider_refused" })
        }
    }
}

/// Whether the attempt's application may still be paid at `now` (its payer, its window).
pub(crate) async fn payable_now(db: &DatabaseConnection, found: &order::Model, now: DateTime<Utc>) -> Result<bool> {
    match Payable::load(db, found.application_id, found.user_id, now).await {
        Ok(_) => Ok(true),
        Err(Error::Conflict { .. }) | Err(Error::NotFound { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}
