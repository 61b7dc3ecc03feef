//! The calls of PayPal's JavaScript buttons (spec §7 `paypal/create_order_id`,
//! `paypal/capture`), over the redirect flow (`crate::payments::checkout`).

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;

use crate::db::entities::{order, payment_history};
use crate::error::{Error, Result};
use crate::model::payment::PaymentType;
use crate::payments::checkout::{application_id, capture, pre_order};
use crate::payments::outbox::Outbox;
use crate::payments::paypal;
use crate::payments::providers::Providers;
use crate::payments::requests::{PayPalCaptureInput, PayPalOrderInput, PreOrder};
use crate::types::{Lang, TransactionUuid};

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
