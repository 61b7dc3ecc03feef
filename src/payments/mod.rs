//! Paying for a won application (issue 13, DOMAIN.md "Payments"): the provider calls around the
//! rules and the settle of [`crate::model::payment`], shared by the API, the pages and the jobs.
//!
//! - [`pre_order`] opens (or reuses) the attempt and the provider's payment object, created with
//!   an idempotency key derived from the attempt's UUID, so a repeated call never opens a second
//!   payment at the provider.
//! - [`capture`] confirms the payment at the provider (or reads it, when the browser confirmed it
//!   with the provider's script) and settles it. An outcome the provider did not tell us (network
//!   error, timeout, 5xx) leaves the attempt `pending` and enqueues [`ReconcilePayment`], which
//!   asks the provider later: a capture is never repeated blindly.
//! - [`stripe_webhook`] verifies and applies Stripe's events once each (stored event ids), in any
//!   order: a settle is idempotent, and a cancel or failure never undoes a settled payment.
//!
//! Providers implemented: Stripe (PaymentIntents, confirmed in the page), and the redirect
//! providers PayPal (Orders v2) and GMO Payment Gateway (link type Plus), whose payer comes back to
//! the public `/checkout` ([`checkout`]). A provider without keys is never shown.

pub mod checkout;
pub mod gmo;
pub mod paypal;
pub mod reconcile;
pub mod stripe;

pub use reconcile::{Reconciled, reconcile, sweep};

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, DatabaseConnection, TransactionTrait};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::config::Config;
use crate::db::entities::{order, payment_history};
use crate::error::{Error, Result};
use crate::jobs::{Queue, ReconcilePayment, SendMail};
use crate::mail::Mailer;
use crate::model::payment::{self, OrderState, Payable, PaymentType, Settlement};
use crate::types::{Lang, TransactionUuid};
use stripe::{Intent, Stripe};

/// What a provider call ended with, when it did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderError {
    /// No answer we can trust (network, timeout, 5xx, 409 in flight, 429): the provider may or
    /// may not have acted. Never repeated blindly; the provider is asked later.
    Unknown,
    /// The provider refused the request (a declined card, a bad request), with its code.
    Refused {
        /// The provider's error code.
        code: String,
    },
}

/// The configured providers (managed state, so PayPal's access token is shared by the whole
/// process; jobs build their own from the configuration).
#[derive(Clone, Debug, Default)]
pub struct Providers {
    /// Stripe, when `stripe_secret_key` is set.
    pub stripe: Option<Stripe>,
    /// PayPal, when `paypal_client_id` and `paypal_client_secret` are set.
    pub paypal: Option<paypal::PayPal>,
    /// GMO Payment Gateway, when `gmo_shop_id` and `gmo_shop_pass` are set.
    pub gmo: Option<gmo::Gmo>,
    /// This site's origin (`site_url`): where redirect providers send the payer back.
    pub site_url: String,
    /// The providers are the demo's local fakes (`payment_demo_providers`).
    pub demo: bool,
}

impl Providers {
    /// The providers that have keys in `config`.
    pub fn from_config(config: &Config) -> Self {
        Self {
            stripe: Stripe::from_config(config),
            paypal: paypal::PayPal::from_config(config),
            gmo: gmo::Gmo::from_config(config),
            site_url: config.site_url.clone(),
            demo: config.payment_demo_providers,
        }
    }

    /// The payment types offered to payers, in display order.
    pub fn available(&self) -> Vec<PaymentType> {
        let mut types = Vec::new();
        if self.paypal.is_some() {
            types.push(PaymentType::Paypal);
        }
        if self.stripe.is_some() {
            types.push(PaymentType::Stripe);
        }
        if self.gmo.is_some() {
            types.push(PaymentType::SmbcGmo);
        }
        types
    }

    /// Whether `payment_type` sends the payer to the provider's page (PayPal, GMO) rather than
    /// confirming in ours (Stripe).
    pub fn is_redirect(payment_type: PaymentType) -> bool {
        matches!(payment_type, PaymentType::Paypal | PaymentType::SmbcGmo)
    }

    fn stripe(&self) -> Result<&Stripe> {
        self.stripe.as_ref().ok_or_else(unavailable)
    }
}

/// What settling needs besides the database: the mailer, which renders the payer's receipt
/// inside the settle transaction, and the queue that delivers it after the commit (and runs the
/// reconciles). The web process has both as managed state; jobs have them in their context.
#[derive(Clone, Copy, Debug)]
pub struct Outbox<'a> {
    /// Renders and stores the receipt mail.
    pub mailer: &'a Mailer,
    /// Background jobs: the receipt's delivery, reconciles.
    pub queue: &'a Queue,
}

impl Outbox<'_> {
    /// Settles attempt `order_id` (see [`payment::settle`]) and sends the receipt it queued.
    pub async fn settle(
        &self,
        db: &(impl ConnectionTrait + TransactionTrait),
        order_id: i32,
        reference: &str,
        now: DateTime<Utc>,
    ) -> Result<Settlement> {
        let done = payment::settle(db, self.mailer, order_id, reference, now).await?;
        if let Some(receipt) = done.receipt {
            SendMail::push(self.queue, receipt).await;
        }
        Ok(done.outcome)
    }
}

/// 422 on `payment_type`: the provider is not offered.
fn unavailable() -> Error {
    Error::invalid("payment_type", "payments.validation.provider_unavailable")
}

/// An opened attempt, as the payer's browser needs it (spec §7: `order_id` and
/// `transaction_uuid`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PreOrder {
    /// The provider's id of the payment object (Stripe: the PaymentIntent `pi_…`).
    pub order_id: String,
    /// The attempt (UUID v4): send it to `capture`; the receipt lives under it.
    pub transaction_uuid: String,
    /// The provider.
    pub payment_type: PaymentType,
    /// JPY.
    pub amount: i32,
    /// `JPY`.
    pub currency: String,
    /// Stripe: the PaymentIntent's client secret, for Stripe.js in the payer's browser.
    pub client_secret: Option<String>,
}

/// What a payer asks to pay.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PreOrderInput {
    /// The won application.
    pub application_id: Option<i32>,
    /// `stripe` (the providers offered: see the payment page).
    pub payment_type: Option<PaymentType>,
}

/// What a payer asks to capture.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct CaptureInput {
    /// The attempt from `pre_order`.
    pub transaction_uuid: Option<String>,
    /// Stripe: the card's PaymentMethod id (`pm_…`, tokenized by Stripe.js), to confirm with;
    /// absent when the browser confirmed the PaymentIntent itself.
    pub payment_method: Option<String>,
}

fn provider_error(e: ProviderError) -> Error {
    match e {
        ProviderError::Unknown => Error::BadGateway { code: "provider_unavailable" },
        ProviderError::Refused { code } => {
            tracing::warn!(%code, "provider refused to open a payment");
            Error::BadGateway { code: "provider_refused" }
        }
    }
}

/// Opens (or reuses) the attempt to pay application `application_id` through `payment_type`;
/// a redirect provider's payment object is opened in `lang` (PayPal's locale and item, the
/// return to `/checkout` in that language).
pub async fn pre_order(
    db: &DatabaseConnection,
    providers: &Providers,
    user_id: i32,
    input: PreOrderInput,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<PreOrder> {
    let application_id = input
        .application_id
        .filter(|id| *id > 0)
        .ok_or_else(|| Error::invalid("application_id", "validation.positive_integer"))?;
    let payment_type = input.payment_type.ok_or_else(unavailable)?;
    let payable = Payable::load(db, application_id, user_id, now).await?;
    let stripe = match payment_type {
        PaymentType::Stripe => providers.stripe()?,
        PaymentType::Paypal | PaymentType::SmbcGmo => {
            return checkout::pre_order(db, providers, user_id, application_id, payment_type, lang, now).await;
        }
    };
    let opened = payment::open_order(db, &payable, user_id, payment_type, now).await?;
    let intent = match &opened.provider_order_id {
        Some(id) => stripe.retrieve(id).await.map_err(provider_error)?,
        None => {
            let intent = stripe
                .create_intent(&opened.transaction_uuid, application_id, opened.amount)
                .await
                .map_err(provider_error)?;
            let stored = order::Model::set_provider_id(db, opened.id, &intent.id, now).await?;
            if stored.provider_order_id.as_deref() != Some(intent.id.as_str()) {
                // Two first calls raced; the idempotency key made them one intent anyway.
                stripe
                    .retrieve(stored.provider_order_id.as_deref().unwrap_or_default())
                    .await
                    .map_err(provider_error)?
            } else {
                intent
            }
        }
    };
    Ok(PreOrder {
        order_id: intent.id,
        transaction_uuid: opened.transaction_uuid,
        payment_type,
        amount: opened.amount,
        currency: opened.currency,
        client_secret: intent.client_secret,
    })
}

/// Enqueues the reconcile of `order_id` (the provider is asked after a short delay).
async fn reconcile_later(queue: &Queue, order_id: i32, attempt: i32) {
    if let Err(e) = ReconcilePayment::enqueue(queue, order_id, attempt, std::time::Duration::from_secs(5)).await {
        tracing::error!(order_id, error = %e, "could not enqueue a payment reconcile; workers resume it on start");
    }
}

/// Confirms attempt `transaction_uuid` of `user_id` at its provider (with `payment_method` when
/// given) and settles it; a settled attempt answers its payment again (a double click, a
/// reload). Errors: 404 for someone else's attempt; 409 `already_paid`, `payment_closed`,
/// `order_closed`, `payment_not_completed`, `payment_requires_action`, `payment_processing`;
/// 422 `payment_declined`; 502 `payment_pending` when the provider's answer is unknown (the
/// attempt stays pending and is reconciled).
pub async fn capture(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    user_id: i32,
    input: CaptureInput,
    now: DateTime<Utc>,
) -> Result<payment_history::Model> {
    let uuid = input.transaction_uuid.ok_or_else(|| Error::invalid("transaction_uuid", "validation.required"))?;
    let uuid = TransactionUuid::parse(&uuid).map_err(|_| Error::not_found())?;
    let found = order::Model::of_user(db, &uuid, user_id).await?;
    if let Some(paid) = payment_history::Model::of_order(db, found.id).await? {
        return Ok(paid);
    }
    if found.state != OrderState::Pending {
        return Err(Error::Conflict { code: "order_closed" });
    }
    if let Err(e) = Payable::load(db, found.application_id, user_id, now).await {
        // A concurrent capture of this very attempt may have settled it since we looked.
        return match payment_history::Model::of_order(db, found.id).await? {
            Some(paid) => Ok(paid),
            None => Err(e),
        };
    }
    if Providers::is_redirect(found.provider) {
        return checkout::capture(db, outbox, providers, user_id, found, now).await;
    }
    let stripe = providers.stripe()?;
    let intent_id = found.provider_order_id.clone().ok_or(Error::Conflict { code: "payment_not_completed" })?;
    let answer = match input.payment_method.as_deref().filter(|pm| !pm.is_empty()) {
        Some(pm) if pm.len() <= 255 && pm.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            stripe.confirm(&intent_id, pm, &found.transaction_uuid).await
        }
        Some(_) => return Err(Error::invalid("payment_method", "payments.validation.payment_method")),
        None => stripe.retrieve(&intent_id).await,
    };
    let intent = match answer {
        Ok(intent) => intent,
        // A refusal of the confirm may be a concurrent confirm that went through: ask.
        Err(ProviderError::Refused { code }) => match stripe.retrieve(&intent_id).await {
            Ok(intent) if intent.status == "succeeded" => intent,
            Ok(_) => {
                tracing::info!(order_id = found.id, %code, "payment declined");
                return Err(Error::Refused { code: "payment_declined" });
            }
            Err(_) => {
                reconcile_later(outbox.queue, found.id, found.reconcile_attempts + 1).await;
                return Err(Error::BadGateway { code: "payment_pending" });
            }
        },
        Err(ProviderError::Unknown) => {
            reconcile_later(outbox.queue, found.id, found.reconcile_attempts + 1).await;
            return Err(Error::BadGateway { code: "payment_pending" });
        }
    };
    match finish(db, outbox, &found, &intent, now).await? {
        Finished::Settled(paid) => Ok(paid),
        Finished::Open(code) => {
            if code == "payment_processing" {
                reconcile_later(outbox.queue, found.id, found.reconcile_attempts + 1).await;
            }
            Err(Error::Conflict { code })
        }
        Finished::Closed => Err(Error::Conflict { code: "order_closed" }),
    }
}

/// Where an attempt stands after reading its provider object.
#[derive(Debug)]
pub enum Finished {
    /// Settled (now or before).
    Settled(payment_history::Model),
    /// Still open, for this reason (an error code).
    Open(&'static str),
    /// Failed or cancelled at the provider (now closed here too), or paid twice.
    Closed,
}

/// Applies what the provider says about `found` (`intent`): settles a succeeded payment whose
/// amount and currency match the attempt (sending the receipt), closes a cancelled one.
pub async fn finish(
    db: &(impl ConnectionTrait + TransactionTrait),
    outbox: Outbox<'_>,
    found: &order::Model,
    intent: &Intent,
    now: DateTime<Utc>,
) -> Result<Finished> {
    match intent.status.as_str() {
        "succeeded" => {
            if intent.amount != i64::from(found.amount) || !intent.currency.eq_ignore_ascii_case(&found.currency) {
                tracing::error!(
                    order_id = found.id,
                    "provider amount differs from the attempt: not settled, for staff"
                );
                order::Model::flag_for_refund(db, found.id, crate::model::payment::AMOUNT_MISMATCH, now).await?;
                return Ok(Finished::Closed);
            }
            match outbox.settle(db, found.id, &intent.id, now).await? {
                Settlement::Settled(p) | Settlement::AlreadySettled(p) => Ok(Finished::Settled(p)),
                Settlement::Duplicate(_) => Ok(Finished::Closed),
            }
        }
        "canceled" => {
            order::Model::close(db, found.id, OrderState::Failed, "canceled", now).await?;
            Ok(Finished::Closed)
        }
        "processing" | "requires_capture" => Ok(Finished::Open("payment_processing")),
        "requires_action" => Ok(Finished::Open("payment_requires_action")),
        _ => Ok(Finished::Open("payment_not_completed")),
    }
}

/// What a webhook did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookOutcome {
    /// Applied (a payment settled or an attempt closed).
    Processed,
    /// Already processed before (a replay): nothing changed.
    Duplicate,
    /// Verified but of no concern (another event type, an unknown payment).
    Ignored,
}

#[derive(Deserialize)]
struct StripeEvent {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: StripeEventData,
}

#[derive(Deserialize)]
struct StripeEventData {
    object: serde_json::Value,
}

/// Verifies a Stripe webhook (`Stripe-Signature` over the raw `payload`, against every
/// configured secret, at unix time `real_now`) and applies it once. 400 `invalid_signature`
/// for a bad or stale signature, 400 `bad_request` for a body that is not an event.
pub async fn stripe_webhook(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    config: &Config,
    payload: &[u8],
    signature: Option<&str>,
    real_now: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<WebhookOutcome> {
    if config.stripe_webhook_secrets.iter().all(|s| s.is_empty()) {
        return Err(Error::NotFound { code: "not_found" });
    }
    let header = signature.ok_or(Error::BadRequest { code: "invalid_signature" })?;
    if let Err(e) = stripe::verify_signature(payload, header, &config.stripe_webhook_secrets, real_now.timestamp()) {
        tracing::warn!(reason = ?e, "stripe webhook refused");
        return Err(Error::BadRequest { code: "invalid_signature" });
    }
    let event: StripeEvent = serde_json::from_slice(payload).map_err(|_| Error::BadRequest { code: "bad_request" })?;
    if payment::event_seen(db, PaymentType::Stripe, &event.id).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    let outcome = apply_stripe_event(db, outbox, &event, now).await?;
    if !payment::record_event(db, PaymentType::Stripe, &event.id, &event.kind, now).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    Ok(outcome)
}

async fn apply_stripe_event(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    event: &StripeEvent,
    now: DateTime<Utc>,
) -> Result<WebhookOutcome> {
    if !event.kind.starts_with("payment_intent.") {
        return Ok(WebhookOutcome::Ignored);
    }
    let Ok(intent) = serde_json::from_value::<Intent>(event.data.object.clone()) else {
        return Ok(WebhookOutcome::Ignored);
    };
    let Some(found) = order::Model::by_provider_id(db, PaymentType::Stripe, &intent.id).await? else {
        return Ok(WebhookOutcome::Ignored);
    };
    match event.kind.as_str() {
        "payment_intent.succeeded" | "payment_intent.canceled" => {
            finish(db, outbox, &found, &intent, now).await?;
            Ok(WebhookOutcome::Processed)
        }
        _ => Ok(WebhookOutcome::Ignored),
    }
}
