//! Stripe's side of paying (PaymentIntents, confirmed in the payer's browser by Stripe.js or
//! with the card's PaymentMethod): opening the intent and confirming it; what Stripe then says is
//! applied by `stripe_outcome.rs`.

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;

use crate::db::entities::{order, payment_history};
use crate::error::{Error, Result};
use crate::model::order::open_order;
use crate::model::payment::{Payable, PaymentType};
use crate::payments::jobs::reconcile_payment::reconcile_later;
use crate::payments::outbox::Outbox;
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::{Providers, provider_error};
use crate::payments::requests::PreOrder;
use crate::payments::stripe_outcome::{Finished, finish};

/// Opens (or reuses) the attempt to pay `payable` by card and its PaymentIntent (created with
/// an idempotency key derived from the attempt's UUID).
pub async fn open(
    db: &DatabaseConnection,
    providers: &Providers,
    payable: &Payable,
    user_id: i32,
    application_id: i32,
    now: DateTime<Utc>,
) -> Result<PreOrder> {
    let stripe = providers.stripe()?;
    let opened = open_order(db, payable, user_id, PaymentType::Stripe, now).await?;
    let intent = match &opened.provider_order_id {
        Some(id) => stripe.retrieve(id).await.map_err(provider_error)?,
        None => {
            let intent = stripe
                .create_intent(
                    &opened.transaction_uuid,
                    &[("application_id", application_id.to_string())],
                    opened.amount,
                )
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
        payment_type: PaymentType::Stripe,
        amount: opened.amount,
        currency: opened.currency,
        client_secret: intent.client_secret,
    })
}

/// Confirms the card attempt `found` of `user_id` at Stripe (with `payment_method` when given)
/// and settles it (see [`crate::payments::pay::capture`]).
pub async fn capture(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    found: order::Model,
    payment_method: Option<String>,
    now: DateTime<Utc>,
) -> Result<payment_history::Model> {
    let stripe = providers.stripe()?;
    let intent_id = found.provider_order_id.clone().ok_or(Error::Conflict { code: "payment_not_completed" })?;
    let answer = match crate::payments::stripe::payment_method(payment_method.as_deref())? {
        Some(pm) => stripe.confirm_card(&intent_id, pm, &found.transaction_uuid).await,
        None => stripe.retrieve(&intent_id).await,
    };
    let intent = match answer {
        Ok(intent) => intent,
        Err(ProviderError::Refused { code }) => {
            tracing::info!(order_id = found.id, %code, "payment declined");
            return Err(Error::Refused { code: "payment_declined" });
        }
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
