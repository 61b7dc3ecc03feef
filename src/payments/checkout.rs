//! The redirect providers, PayPal and GMO (the contract of `README.md` "Payments"): the payer is
//! sent to the provider's page and comes back to the public `/checkout`, where the attempt is
//! finished by asking the provider server to server. Nothing the browser brings back is believed.
//!
//! - [`open`] opens (or reuses) the attempt and the provider's payment object and says where the
//!   browser goes: the provider's page — vetted against the configured provider origins by
//!   [`crate::http::redirect::provider_url`] — or straight to `/checkout` when the provider
//!   already has the payment (an approved PayPal order, a paid GMO trade).
//! - [`finish`] asks the provider ([`ask`]) and applies the answer ([`apply`]): settled through
//!   [`crate::model::payment::settle`] (one payment per application, the receipt with it),
//!   still open, declined, processing, or closed. An answer the provider did not give (timeout,
//!   5xx) leaves the attempt `pending` and enqueues `ReconcilePayment`.
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
use serde::{Deserialize, Serialize};
use url::Url;
use utoipa::ToSchema;

use super::gmo::{self, Gmo};
use super::paypal::{self, PayPal};
use super::{Outbox, PreOrder, ProviderError, Providers, Reconciled, WebhookOutcome, provider_error, reconcile_later};
use crate::db::entities::{order, payment_history};
use crate::error::{Error, Result};
use crate::http::redirect;
use crate::model::payment::{self, OrderState, Payable, PaymentType, Settlement};
use crate::types::{Lang, TransactionUuid};

/// What a payer asks to pay through a redirect provider.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct RedirectInput {
    /// The won application.
    pub application_id: Option<i32>,
    /// `paypal` or `smbc_gmo` (Stripe is confirmed in the page, not by a redirect).
    pub payment_type: Option<PaymentType>,
}

/// Where the payer's browser goes to pay.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RedirectTo {
    /// The provider's page (on a configured provider origin), or this site's `/checkout` when the
    /// provider already has the payment.
    pub redirect_url: String,
    /// The attempt (UUID v4); the provider sends the payer back to `/checkout?transaction=` it.
    pub transaction_uuid: String,
    /// The provider.
    pub payment_type: PaymentType,
}

/// What the PayPal JavaScript buttons ask to create (spec §7 `paypal/create_order_id`).
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PayPalOrderInput {
    /// The won application.
    pub application_id: Option<i32>,
}

/// What the PayPal JavaScript buttons ask to capture once the payer approved (spec §7
/// `paypal/capture`): the PayPal order id the buttons hold, or the attempt's UUID.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PayPalCaptureInput {
    /// PayPal's order id (`create_order_id`'s `order_id`, the buttons' `data.orderID`).
    pub order_id: Option<String>,
    /// The attempt's UUID, instead of the order id.
    pub transaction_uuid: Option<String>,
}

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

/// Where an attempt stands after [`finish`].
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

impl Providers {
    fn paypal(&self) -> Result<&PayPal> {
        self.paypal.as_ref().ok_or_else(super::unavailable)
    }

    fn gmo(&self) -> Result<&Gmo> {
        self.gmo.as_ref().ok_or_else(super::unavailable)
    }

    /// The origins a payment redirect may send a browser to: the configured providers' pages.
    pub fn redirect_origins(&self) -> Vec<Url> {
        let paypal = self.paypal.as_ref().and_then(|p| p.web_origin.clone());
        let gmo = self.gmo.as_ref().and_then(|g| g.link_origin.clone());
        paypal.into_iter().chain(gmo).collect()
    }

    /// `/checkout?transaction=<uuid>` in `lang` on this site (absolute), where providers return.
    pub fn checkout_url(&self, lang: Lang, transaction_uuid: &str, cancel: bool) -> String {
        let cancel = if cancel { "&cancel=1" } else { "" };
        format!(
            "{}{}/checkout?transaction={transaction_uuid}{cancel}",
            self.site_url.trim_end_matches('/'),
            lang.prefix()
        )
    }

    /// Whether the providers are the local demo fakes (pages say so).
    pub fn is_demo(&self) -> bool {
        self.demo
    }
}

/// The application of `input`, as a positive id.
fn application_id(id: Option<i32>) -> Result<i32> {
    id.filter(|id| *id > 0).ok_or_else(|| Error::invalid("application_id", "validation.positive_integer"))
}

/// What the provider shows the payer as the item (the event and plan, in `lang`).
fn description(payable: &Payable, lang: Lang) -> String {
    let event = lang.pick(&payable.event.event.name_ja, &payable.event.event.name_en);
    let plan = lang.pick(&payable.plan.name_ja, &payable.plan.name_en);
    format!("{event} / {plan}")
}

/// One try at opening: done, or the attempt was closed and a fresh one is needed.
enum Step {
    Ready(Box<(order::Model, Next)>),
    Again,
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
        let found = payment::open_order(db, &payable, user_id, payment_type, now).await?;
        let step = match payment_type {
            PaymentType::Paypal => open_paypal(db, providers, &payable, found, lang, now).await?,
            _ => open_gmo(db, providers, &payable, found, lang, now).await?,
        };
        if let Step::Ready(ready) = step {
            return Ok(*ready);
        }
    }
    Err(Error::BadGateway { code: "provider_refused" })
}

/// The provider page `raw`, when it is on a configured provider origin (else a 502: a provider
/// answering with a link elsewhere is not followed).
fn vetted(providers: &Providers, raw: Option<&str>) -> Result<Next> {
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

async fn open_paypal(
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
            return Box::pin(open_paypal(db, providers, payable, stored, lang, now)).await;
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

async fn open_gmo(
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
    let payment_type = input.payment_type.ok_or_else(super::unavailable)?;
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

/// `POST /api/v1/user/payment/paypal/create_order_id`.
pub async fn paypal_create_order(
    db: &DatabaseConnection,
    providers: &Providers,
    user_id: i32,
    input: PayPalOrderInput,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<PreOrder> {
    let application_id = application_id(input.application_id)?;
    pre_order(db, providers, user_id, application_id, PaymentType::Paypal, lang, now).await
}

/// `POST /api/v1/user/payment/paypal/capture`: captures `user_id`'s approved PayPal order and
/// settles it; a settled one answers its payment again. Errors: 404 for someone else's or no
/// order; 409 `already_paid`, `payment_closed`, `order_closed`, `payment_not_completed`,
/// `payment_processing`; 422 `payment_declined`; 502 `payment_pending` (reconciled).
pub async fn paypal_capture(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    user_id: i32,
    input: PayPalCaptureInput,
    now: DateTime<Utc>,
) -> Result<payment_history::Model> {
    let found = match (input.order_id.as_deref().map(str::trim), input.transaction_uuid.as_deref()) {
        (Some(id), _) if !id.is_empty() => {
            if !paypal::is_order_id(id) {
                return Err(Error::not_found());
            }
            order::Model::of_user_at(db, PaymentType::Paypal, id, user_id).await?
        }
        (_, Some(uuid)) => {
            let uuid = TransactionUuid::parse(uuid).map_err(|_| Error::not_found())?;
            order::Model::of_user(db, &uuid, user_id).await?
        }
        _ => return Err(Error::invalid("order_id", "validation.required")),
    };
    if found.provider != PaymentType::Paypal {
        return Err(Error::not_found());
    }
    capture(db, outbox, providers, user_id, found, now).await
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

/// Whether the attempt's application may still be paid at `now` (its payer, its window).
async fn payable_now(db: &DatabaseConnection, found: &order::Model, now: DateTime<Utc>) -> Result<bool> {
    match Payable::load(db, found.application_id, found.user_id, now).await {
        Ok(_) => Ok(true),
        Err(Error::Conflict { .. }) | Err(Error::NotFound { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

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
        PaymentType::Paypal => {
            let Some(pp) = providers.paypal.as_ref() else { return Ok(Err(ProviderError::Unknown)) };
            let order = match pp.order(&id).await {
                Ok(Some(order)) => order,
                Ok(None) => return Ok(Ok(Remote::Expired)),
                Err(e) => return Ok(Err(e)),
            };
            match order.status.as_str() {
                "COMPLETED" => Ok(Ok(from_capture(&order))),
                "APPROVED" if payable_now(db, found, now).await? => Ok(capture_order(db, pp, found, &id, now).await?),
                "APPROVED" => Ok(Ok(Remote::Open("payment_closed"))),
                "VOIDED" => Ok(Ok(Remote::Gone("voided"))),
                _ => Ok(Ok(Remote::Open("payment_not_completed"))),
            }
        }
        PaymentType::SmbcGmo => {
            let Some(g) = providers.gmo.as_ref() else { return Ok(Err(ProviderError::Unknown)) };
            Ok(g.search_trade(&id).await.map(|trade| match trade {
                None => Remote::Open("payment_not_completed"),
                Some(t) if t.is_paid() => Remote::Paid { amount: t.amount + t.tax, currency: "JPY".into() },
                Some(t) => match t.status.as_str() {
                    "AUTH" | "SAUTH" => Remote::Processing,
                    "VOID" | "RETURN" | "RETURNX" | "CANCEL" => Remote::Gone("canceled"),
                    _ => Remote::Open("payment_not_completed"),
                },
            }))
        }
        PaymentType::Stripe => Ok(Err(ProviderError::Refused { code: "not_a_redirect_provider".into() })),
    }
}

/// What a (captured) PayPal order says.
fn from_capture(order: &paypal::Order) -> Remote {
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
                order::Model::flag_for_refund(db, found.id, crate::model::payment::AMOUNT_MISMATCH, now).await?;
                return Ok(Outcome::Closed);
            }
            let reference = found.provider_order_id.clone().unwrap_or_default();
            match outbox.settle(db, found.id, &reference, now).await? {
                Settlement::Settled(p) | Settlement::AlreadySettled(p) => Ok(Outcome::Paid(p)),
                Settlement::Duplicate(_) => Ok(Outcome::Closed),
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

/// The reconcile of a redirect provider's pending attempt (see [`super::reconcile()`]).
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

/// How far a PayPal webhook's `PAYPAL-TRANSMISSION-TIME` may be from now.
pub const PAYPAL_TOLERANCE_SECS: i64 = 300;

/// Verifies a PayPal webhook (`transmission` headers, the raw `payload`) with PayPal, at unix
/// time `real_now`, and applies it once: the order it names is finished by asking PayPal (and
/// captured once approved). 404 without a configured webhook id; 400 `invalid_signature` (bad,
/// stale or unverifiable), 400 `bad_request` (not an event); 502 `provider_unavailable` when
/// PayPal cannot be asked (PayPal delivers it again).
pub async fn paypal_webhook(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    transmission: Option<paypal::Transmission>,
    payload: &[u8],
    real_now: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<WebhookOutcome> {
    let Some(pp) = providers.paypal.as_ref().filter(|p| !p.webhook_id.is_empty()) else {
        return Err(Error::NotFound { code: "not_found" });
    };
    let transmission = transmission.ok_or(Error::BadRequest { code: "invalid_signature" })?;
    let sent = DateTime::parse_from_rfc3339(transmission.time.trim()).map_err(|_| {
        tracing::warn!("paypal webhook refused: transmission time unreadable");
        Error::BadRequest { code: "invalid_signature" }
    })?;
    if (real_now.timestamp() - sent.timestamp()).abs() > PAYPAL_TOLERANCE_SECS {
        tracing::warn!("paypal webhook refused: stale transmission");
        return Err(Error::BadRequest { code: "invalid_signature" });
    }
    let text = std::str::from_utf8(payload).map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let event: serde_json::Value = serde_json::from_str(text).map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let (Some(event_id), Some(kind)) = (event["id"].as_str(), event["event_type"].as_str()) else {
        return Err(Error::BadRequest { code: "bad_request" });
    };
    match pp.verify_webhook(&transmission, text).await {
        Ok(true) => {}
        Ok(false) | Err(ProviderError::Refused { .. }) => {
            tracing::warn!("paypal webhook refused: paypal did not verify its signature");
            return Err(Error::BadRequest { code: "invalid_signature" });
        }
        Err(ProviderError::Unknown) => return Err(Error::BadGateway { code: "provider_unavailable" }),
    }
    if payment::event_seen(db, PaymentType::Paypal, event_id).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    let resource = &event["resource"];
    let order_id = match kind {
        "CHECKOUT.ORDER.APPROVED" | "CHECKOUT.ORDER.COMPLETED" => resource["id"].as_str(),
        "PAYMENT.CAPTURE.COMPLETED"
        | "PAYMENT.CAPTURE.PENDING"
        | "PAYMENT.CAPTURE.DENIED"
        | "PAYMENT.CAPTURE.DECLINED" => resource["supplementary_data"]["related_ids"]["order_id"].as_str(),
        _ => None,
    };
    let found = match order_id.filter(|id| paypal::is_order_id(id)) {
        Some(id) => order::Model::by_provider_id(db, PaymentType::Paypal, id).await?,
        None => None,
    };
    let outcome = match found {
        None => WebhookOutcome::Ignored,
        Some(found) => match finish(db, outbox, providers, &found, now).await? {
            Outcome::Unknown => return Err(Error::BadGateway { code: "provider_unavailable" }),
            _ => WebhookOutcome::Processed,
        },
    };
    if !payment::record_event(db, PaymentType::Paypal, event_id, kind, now).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    Ok(outcome)
}

/// Handles GMO's result notification (the raw form `payload`): for our shop and one of our
/// attempts, the trade is asked with `SearchTrade` and applied; nothing in the notification is
/// believed. 404 without GMO; 400 `invalid_signature` for another shop, 400 `bad_request`
/// without an order id; 502 `provider_unavailable` when GMO cannot be asked (GMO sends it again).
pub async fn gmo_notification(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    payload: &[u8],
    now: DateTime<Utc>,
) -> Result<WebhookOutcome> {
    let Some(g) = providers.gmo.as_ref() else { return Err(Error::NotFound { code: "not_found" }) };
    let pairs = gmo::parse_pairs(payload);
    let shop = gmo::field(&pairs, "ShopID").unwrap_or_default();
    if shop != g.shop_id {
        tracing::warn!("gmo notification refused: not for this shop");
        return Err(Error::BadRequest { code: "invalid_signature" });
    }
    let Some(order_id) = gmo::field(&pairs, "OrderID").filter(|id| gmo::is_order_id(id)) else {
        return Err(Error::BadRequest { code: "bad_request" });
    };
    let claimed = gmo::field(&pairs, "Status").unwrap_or_default();
    let pay_type = gmo::field(&pairs, "PayType").unwrap_or("0");
    let event_id: String = format!("{order_id}:{claimed}:{}", gmo::field(&pairs, "TranID").unwrap_or_default())
        .chars()
        .filter(|c| c.is_ascii_graphic())
        .take(200)
        .collect();
    if payment::event_seen(db, PaymentType::SmbcGmo, &event_id).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    let found = order::Model::by_provider_id(db, PaymentType::SmbcGmo, order_id).await?;
    let claims_paid = matches!(claimed, "CAPTURE" | "SALES" | "AUTH");
    let outcome = match found {
        Some(found) if pay_type == "0" => match finish(db, outbox, providers, &found, now).await? {
            Outcome::Unknown => return Err(Error::BadGateway { code: "provider_unavailable" }),
            Outcome::Paid(_) => WebhookOutcome::Processed,
            other => {
                if claims_paid {
                    // Forged, or GMO's search not caught up yet: GMO will not send it again
                    // once answered, so the reconcile job asks a few more times.
                    tracing::warn!(order_id = found.id, outcome = ?other, "gmo notification claims a payment its trade does not show");
                    if found.state == OrderState::Pending {
                        reconcile_later(outbox.queue, found.id, found.reconcile_attempts + 1).await;
                    }
                }
                WebhookOutcome::Ignored
            }
        },
        _ => WebhookOutcome::Ignored,
    };
    // Only a notification that settled something is remembered: anyone can post one, so one
    // that changed nothing must not keep GMO's genuine notification out later.
    if outcome == WebhookOutcome::Processed {
        let kind = format!(
            "notification:{}",
            claimed.chars().filter(|c| c.is_ascii_alphanumeric()).take(32).collect::<String>()
        );
        if !payment::record_event(db, PaymentType::SmbcGmo, &event_id, &kind, now).await? {
            return Ok(WebhookOutcome::Duplicate);
        }
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
