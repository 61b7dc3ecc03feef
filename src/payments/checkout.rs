//! The redirect providers, PayPal and GMO (the contract of `README.md` "Payments"): the payer is
//! sent to the provider's page and comes back to the public `/checkout`, where the attempt is
//! finished by asking the provider server to server. Nothing the browser brings back is believed.
//!
//! - [`open`] opens (or reuses) the attempt and the provider's payment object and says where the
//!   browser goes: the provider's page — vetted against the configured provider origins by
//!   [`crate::http::redirect::provider_url`] — or straight to `/checkout` when the provider
//!   already has the payment (an approved PayPal order, a paid GMO trade).
//! - [`finish`] asks the provider ([`ask`]) and applies the answer ([`apply`]): settled through
//!   [`crate::model::settlement::settle`] (one payment per application, the receipt with it),
//!   still open, declined, processing, or closed. An answer the provider did not give (timeout,
//!   5xx) leaves the attempt `pending` and enqueues `ReconcilePayment`.
//!
//! The providers' own steps live beside their clients (`paypal_checkout.rs`, `gmo_checkout.rs`),
//! what they share in `redirect.rs`, the PayPal buttons' calls in `paypal_buttons.rs` and the
//! providers' notifications in `webhooks.rs`.
//!
//! - PayPal only moves money at *capture*, which we ask for once the payer approved: at the
//!   return, from the JavaScript buttons' call, from the `CHECKOUT.ORDER.APPROVED` webhook or from
//!   the reconcile job — always with the attempt's `PayPal-Request-Id`, and never for an order
//!   PayPal does not report `APPROVED` (PayPal captures an order at most once). This departs from
//!   Stripe's reconcile, which only reads: an approved PayPal order is the payer's consent that
//!   we have not acted on yet, and leaving it would lose the payment when the payer closed the
//!   tab before returning. Outside the payment window nothing is captured.
//! - GMO takes the money on its own page; the return and the result notification only tell us to
//!   look, with `SearchTrade`.

use chrono::{DateTime, Utc};
use sea_orm::{DatabaseConnection, EntityTrait};

use crate::db::entities::{order, payment_history};
use crate::error::{Error, Result};
use crate::model::order::open_order;
use crate::model::payment::{OrderState, Payable, PaymentType};
use crate::payments::jobs::reconcile_payment::reconcile_later;
use crate::payments::outbox::Outbox;
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::{Providers, unavailable};
use crate::payments::redirect::Step;
pub use crate::payments::redirect::{Next, Outcome, PROVIDER_EXPIRED, Remote};
use crate::payments::redirect_outcome::{apply, ask};
use crate::payments::requests::{PreOrder, RedirectInput, RedirectTo};
use crate::payments::{gmo_checkout, paypal_checkout};

pub use crate::payments::redirect_outcome::reconcile;
use crate::types::{Lang, TransactionUuid};

/// The application of `input`, as a positive id.
pub(crate) fn application_id(id: Option<i32>) -> Result<i32> {
    id.filter(|id| *id > 0).ok_or_else(|| Error::invalid("application_id", "validation.positive_integer"))
}

/// Opens (or reuses) `user_id`'s attempt to pay application `application_id` through the
/// redirect provider `payment_type`, and says where the browser goes.
pub async fn open(
    db: &DatabaseConnection,
    providers: &Providers,
    user_id: i32,
    application_id: i32,
    payment_type: PaymentType,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<(order::Model, Next)> {
    let payable = Payable::load(db, application_id, user_id, now).await?;
    match payment_type {
        PaymentType::Paypal => {
            providers.paypal()?;
        }
        PaymentType::SmbcGmo => {
            providers.gmo()?;
        }
        PaymentType::Stripe => return Err(Error::invalid("payment_type", "payments.validation.not_redirect")),
    }
    // Twice at most: an attempt the provider can no longer pay (a voided order, a lost page) is
    // closed, and the second round opens a fresh one.
    for _ in 0..2 {
        let found = open_order(db, &payable, user_id, payment_type, now).await?;
        let step = match payment_type {
            PaymentType::Paypal => paypal_checkout::open(db, providers, &payable, found, lang, now).await?,
            _ => gmo_checkout::open(db, providers, &payable, found, lang, now).await?,
        };
        if let Step::Ready(ready) = step {
            return Ok(*ready);
        }
    }
    Err(Error::BadGateway { code: "provider_refused" })
}

/// `POST /api/v1/user/payment/redirect`: opens the attempt and answers where to send the browser.
pub async fn redirect_to(
    db: &DatabaseConnection,
    providers: &Providers,
    user_id: i32,
    input: RedirectInput,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<RedirectTo> {
    let application_id = application_id(input.application_id)?;
    let payment_type = input.payment_type.ok_or_else(unavailable)?;
    let (found, next) = open(db, providers, user_id, application_id, payment_type, lang, now).await?;
    let redirect_url = match next {
        Next::Provider(url) => url.to_string(),
        Next::Checkout => providers.checkout_url(lang, &found.transaction_uuid, false),
    };
    Ok(RedirectTo { redirect_url, transaction_uuid: found.transaction_uuid, payment_type })
}

/// `pre_order` and `paypal/create_order_id` for a redirect provider: the attempt and the
/// provider's id of its payment object (PayPal's order id, GMO's `OrderID`).
pub async fn pre_order(
    db: &DatabaseConnection,
    providers: &Providers,
    user_id: i32,
    application_id: i32,
    payment_type: PaymentType,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<PreOrder> {
    let (found, _) = open(db, providers, user_id, application_id, payment_type, lang, now).await?;
    Ok(PreOrder {
        order_id: found.provider_order_id.clone().unwrap_or_default(),
        transaction_uuid: found.transaction_uuid,
        payment_type,
        amount: found.amount,
        currency: found.currency,
        client_secret: None,
    })
}

/// Finishes `user_id`'s redirect-provider attempt `found` on their request (`paypal/capture`, or
/// `payment/capture` with a PayPal or GMO attempt) and answers the payment, or why there is none.
pub async fn capture(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    user_id: i32,
    found: order::Model,
    now: DateTime<Utc>,
) -> Result<payment_history::Model> {
    if let Some(paid) = payment_history::Model::of_order(db, found.id).await? {
        return Ok(paid);
    }
    if found.state != OrderState::Pending {
        return Err(Error::Conflict { code: "order_closed" });
    }
    if let Err(e) = Payable::load(db, found.application_id, user_id, now).await {
        return match payment_history::Model::of_order(db, found.id).await? {
            Some(paid) => Ok(paid),
            None => Err(e),
        };
    }
    match finish(db, outbox, providers, &found, now).await? {
        Outcome::Paid(paid) => Ok(paid),
        Outcome::NotPaid(code) => Err(Error::Conflict { code }),
        Outcome::Processing => Err(Error::Conflict { code: "payment_processing" }),
        Outcome::Declined => Err(Error::Refused { code: "payment_declined" }),
        Outcome::Closed => Err(Error::Conflict { code: "order_closed" }),
        Outcome::Unknown => Err(Error::BadGateway { code: "payment_pending" }),
    }
}

/// Finishes attempt `found` by asking its provider (see the module docs): idempotent, so a
/// reload, a second return, a webhook and the reconcile can all run it.
pub async fn finish(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    found: &order::Model,
    now: DateTime<Utc>,
) -> Result<Outcome> {
    if let Some(paid) = payment_history::Model::of_order(db, found.id).await? {
        return Ok(Outcome::Paid(paid));
    }
    // Read again: a concurrent finish may have moved it.
    let Some(found) = order::Entity::find_by_id(found.id).one(db).await? else { return Err(Error::not_found()) };
    if found.state != OrderState::Pending {
        return Ok(match payment_history::Model::of_order(db, found.id).await? {
            Some(paid) => Outcome::Paid(paid),
            None => Outcome::Closed,
        });
    }
    let remote = match ask(db, providers, &found, now).await? {
        Ok(remote) => remote,
        Err(e) => {
            if let ProviderError::Refused { code } = &e {
                tracing::warn!(order_id = found.id, %code, "the provider refused to report on an attempt");
            }
            reconcile_later(outbox.queue, found.id, found.reconcile_attempts + 1).await;
            return Ok(Outcome::Unknown);
        }
    };
    let outcome = apply(db, outbox, &found, remote, now).await?;
    if !matches!(outcome, Outcome::Paid(_))
        && let Some(paid) = payment_history::Model::of_order(db, found.id).await?
    {
        // A concurrent finish settled the attempt while this one asked the provider (which
        // answered before that capture, or said the application was no longer payable because it
        // had just been paid): that payment is the answer.
        return Ok(Outcome::Paid(paid));
    }
    if matches!(outcome, Outcome::Processing) {
        reconcile_later(outbox.queue, found.id, found.reconcile_attempts + 1).await;
    }
    Ok(outcome)
}

/// The attempt a return to `/checkout` is about: `transaction` or, from GMO's POST,
/// the order id in a `result` whose hash checks out with the shop password.
pub async fn returning(
    db: &DatabaseConnection,
    providers: &Providers,
    transaction: Option<&TransactionUuid>,
    gmo_result: Option<&str>,
) -> Result<Option<(order::Model, Option<String>)>> {
    let hint = match (gmo_result, providers.gmo.as_ref()) {
        (Some(result), Some(g)) => g.return_result(result),
        _ => None,
    };
    if let Some(uuid) = transaction {
        let found = order::Model::by_transaction(db, uuid).await?;
        let result = hint.filter(|(id, _)| found.as_ref().and_then(|f| f.provider_order_id.as_deref()) == Some(id));
        return Ok(found.map(|f| (f, result.map(|(_, r)| r))));
    }
    match hint {
        Some((order_id, result)) => Ok(order::Model::by_provider_id(db, PaymentType::SmbcGmo, &order_id)
            .await?
            .map(|found| (found, Some(result)))),
        None => Ok(None),
    }
}
