//! What a payer's `pre_order` and `capture` do, whichever provider: the checks every provider
//! shares, then Stripe's flow ([`crate::payments::stripe_checkout`]) or the redirect providers'
//! ([`crate::payments::checkout`]).

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;

use crate::db::entities::{order, payment_history};
use crate::error::{Error, Result};
use crate::model::payment::{OrderState, Payable, PaymentType};
use crate::payments::outbox::Outbox;
use crate::payments::providers::{Providers, unavailable};
use crate::payments::requests::{CaptureInput, PreOrder, PreOrderInput};
use crate::payments::{checkout, stripe_checkout};
use crate::types::{Lang, TransactionUuid};

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
    match payment_type {
        PaymentType::Stripe => {
            providers.stripe()?;
        }
        PaymentType::Paypal | PaymentType::SmbcGmo => {
            return checkout::pre_order(db, providers, user_id, application_id, payment_type, lang, now).await;
        }
    }
    stripe_checkout::open(db, providers, &payable, user_id, application_id, now).await
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
    stripe_checkout::capture(db, outbox, providers, found, input.payment_method, now).await
}
