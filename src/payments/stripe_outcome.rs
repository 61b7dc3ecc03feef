//! Applying what Stripe says about a PaymentIntent to its attempt ([`finish`]): settled (with
//! the receipt), closed, or still open and why. The payer's capture, the webhook and the
//! reconcile all end here.

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, TransactionTrait};

use crate::db::entities::{order, payment_history};
use crate::error::Result;
use crate::model::payment::OrderState;
use crate::model::settlement::Settlement;
use crate::payments::outbox::Outbox;
use crate::payments::stripe::Intent;

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
                order::Model::flag_for_refund(db, found.id, crate::model::settlement::AMOUNT_MISMATCH, now).await?;
                return Ok(Finished::Closed);
            }
            match outbox.settle(db, found.id, &intent.id, now).await? {
                Settlement::Settled(p) | Settlement::AlreadySettled(p) => Ok(Finished::Settled(p)),
                Settlement::Duplicate(_) | Settlement::Suspended => Ok(Finished::Closed),
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
