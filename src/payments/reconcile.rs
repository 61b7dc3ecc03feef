//! Finding out what became of a pending attempt by asking its provider ([`reconcile()`]), and
//! the sweep that does it for every attempt left pending ([`sweep()`]).
//!
//! A reconcile never charges: it reads Stripe's PaymentIntent or GMO's trade, and captures a
//! PayPal order only once the payer approved it (see [`crate::payments::checkout`]). It settles, fails or
//! expires the attempt; an attempt nobody may pay any more (its window closed, or another attempt
//! paid the application) is closed only once the provider confirms there is no payment, and its
//! Stripe intent is cancelled first, so that the client secret the payer's browser holds can no
//! longer confirm it. A payment the provider confirms after the window closed is settled with
//! `is_late`, for staff, like any late payment.
//!
//! The `ReconcilePayment` job runs it after an unknown outcome (and for every pending attempt
//! when workers start); the `PaymentSweep` job runs [`sweep()`] once a minute, by the site's
//! clock (time travel included), so that a payer who approved at PayPal or passed 3-D Secure at
//! Stripe and closed the tab, with no webhook, is settled minutes later rather than at the next
//! restart, and an abandoned attempt expires once its window has closed.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::db::entities::order;
use crate::error::{Error, Result};
use crate::model::payment::{OrderState, Payable, PaymentType};
use crate::payments::outbox::Outbox;
use crate::payments::outcomes::Reconciled;
use crate::payments::provider_http::ProviderError;
use crate::payments::providers::Providers;
use crate::payments::redirect_outcome;
use crate::payments::stripe::{Intent, Stripe};
use crate::payments::stripe_outcome::{Finished, finish};

/// Asks the provider about pending attempt `order_id` and settles, fails or expires it. Every
/// run is counted on the attempt (`reconcile_attempts`, `updated_at`), which spaces the sweep's
/// questions.
pub async fn reconcile(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    order_id: i32,
    now: DateTime<Utc>,
) -> Result<Reconciled> {
    let Some(found) = order::Entity::find_by_id(order_id).one(db).await? else {
        return Ok(Reconciled::Done("gone"));
    };
    if found.state != OrderState::Pending {
        return Ok(Reconciled::Done("not_pending"));
    }
    order::Model::count_reconcile(db, found.id, now).await?;
    let Some(intent_id) = found.provider_order_id.clone() else {
        // Never opened at the provider: nobody was given anything to pay with.
        return Ok(match unpayable(db, &found, now).await? {
            None => Reconciled::Done("never_opened"),
            Some(reason) => close(db, &found, reason, now).await?,
        });
    };
    if Providers::is_redirect(found.provider) {
        return redirect_outcome::reconcile(db, outbox, providers, &found, now).await;
    }
    let stripe = match (found.provider, &providers.stripe) {
        (PaymentType::Stripe, Some(stripe)) => stripe,
        _ => return Ok(Reconciled::Retry),
    };
    let intent = match stripe.retrieve(&intent_id).await {
        Ok(intent) => intent,
        Err(_) => return Ok(Reconciled::Retry),
    };
    match finished(db, outbox, &found, &intent, now).await? {
        Some(done) => Ok(done),
        None => match unpayable(db, &found, now).await? {
            None => Ok(Reconciled::Waiting),
            Some(reason) => close_at_stripe(db, outbox, stripe, &found, &intent_id, reason, now).await,
        },
    }
}

/// What [`finish`] makes of `intent`, or `None` while the payer may still complete it.
async fn finished(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    found: &order::Model,
    intent: &Intent,
    now: DateTime<Utc>,
) -> Result<Option<Reconciled>> {
    Ok(match finish(db, outbox, found, intent, now).await? {
        Finished::Settled(_) => Some(Reconciled::Done("settled")),
        Finished::Closed => Some(Reconciled::Done("closed")),
        Finished::Open("payment_processing") => Some(Reconciled::Retry),
        Finished::Open(_) => None,
    })
}

/// Why the attempt's application can no longer be paid at `now` (`already_paid`,
/// `payment_closed`, `not_found`), or `None` while it can.
async fn unpayable(db: &DatabaseConnection, found: &order::Model, now: DateTime<Utc>) -> Result<Option<&'static str>> {
    match Payable::load(db, found.application_id, found.user_id, now).await {
        Ok(_) => Ok(None),
        Err(e @ (Error::Conflict { .. } | Error::NotFound { .. })) => {
            tracing::info!(order_id = found.id, reason = e.code(), "pending attempt no longer payable: closed");
            Ok(Some(e.code()))
        }
        Err(e) => Err(e),
    }
}

/// Closes an attempt nobody may pay any more, for `reason` (see [`unpayable`]): `superseded`
/// when another attempt paid the application, else `expired` (`window_closed`).
async fn close(db: &DatabaseConnection, found: &order::Model, reason: &str, now: DateTime<Utc>) -> Result<Reconciled> {
    if reason == "already_paid" {
        order::Model::close(db, found.id, OrderState::Failed, "superseded", now).await?;
        Ok(Reconciled::Done("superseded"))
    } else {
        order::Model::close(db, found.id, OrderState::Expired, "window_closed", now).await?;
        Ok(Reconciled::Done("expired"))
    }
}

/// Cancels the open intent `intent_id` of `found` at Stripe, then closes the attempt (see
/// [`close`]). When Stripe refuses the cancel because the intent moved on (a payment made in
/// the meantime), what it says now is applied instead: a payment is settled (`is_late` outside
/// the window), never lost. Stripe silent: asked again later.
async fn close_at_stripe(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    stripe: &Stripe,
    found: &order::Model,
    intent_id: &str,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Reconciled> {
    let intent = match stripe.cancel(intent_id, &found.transaction_uuid).await {
        Ok(intent) => intent,
        Err(ProviderError::Unknown) => return Ok(Reconciled::Retry),
        Err(ProviderError::Refused { code }) => {
            tracing::info!(order_id = found.id, %code, "stripe refused to cancel an intent; reading it");
            match stripe.retrieve(intent_id).await {
                Ok(intent) => intent,
                Err(_) => return Ok(Reconciled::Retry),
            }
        }
    };
    if intent.status != "canceled" {
        return Ok(finished(db, outbox, found, &intent, now).await?.unwrap_or(Reconciled::Retry));
    }
    close(db, found, reason, now).await
}

/// A pending attempt is first looked at this long after it last changed (a payer takes a minute
/// or two at the provider).
pub const SWEEP_QUIET_MINUTES: i64 = 5;
/// The longest wait between two looks at an attempt still pending.
pub const SWEEP_MAX_INTERVAL_MINUTES: i64 = 60;
/// At most this many attempts are reconciled per sweep (each may wait for its provider).
pub const SWEEP_BATCH: usize = 20;

/// How long after its last change an attempt already looked at `asked` times is looked at
/// again: 5 minutes, doubled with each look, at most an hour.
pub fn sweep_interval(asked: i32) -> Duration {
    let doubled = SWEEP_QUIET_MINUTES << asked.clamp(0, 8);
    Duration::minutes(doubled.min(SWEEP_MAX_INTERVAL_MINUTES))
}

/// Reconciles the pending attempts due at `now` (by [`sweep_interval`] since each last changed),
/// the longest-quiet first, at most [`SWEEP_BATCH`]; what each run found. Idempotent: a
/// reconcile of an attempt no longer pending changes nothing, and each run dates the attempt's
/// next look. An attempt whose reconcile fails is logged and left for the next sweep.
pub async fn sweep(
    db: &DatabaseConnection,
    outbox: Outbox<'_>,
    providers: &Providers,
    now: DateTime<Utc>,
) -> Result<Vec<(i32, Reconciled)>> {
    let quiet = order::Entity::find()
        .filter(order::Column::State.eq(OrderState::Pending))
        .filter(order::Column::UpdatedAt.lte(now - Duration::minutes(SWEEP_QUIET_MINUTES)))
        .order_by_asc(order::Column::UpdatedAt)
        .order_by_asc(order::Column::Id)
        .limit(10 * SWEEP_BATCH as u64)
        .all(db)
        .await?;
    let due = quiet.into_iter().filter(|o| o.updated_at + sweep_interval(o.reconcile_attempts) <= now);
    let mut found = Vec::new();
    for attempt in due.take(SWEEP_BATCH) {
        match reconcile(db, outbox, providers, attempt.id, now).await {
            Ok(outcome) => found.push((attempt.id, outcome)),
            Err(e) => tracing::error!(order_id = attempt.id, error = %e, "the sweep could not reconcile an attempt"),
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_are_spaced_from_five_minutes_to_an_hour() {
        let minutes: Vec<i64> = [0, 1, 2, 3, 4, 5, 12, 1000, -1].map(|n| sweep_interval(n).num_minutes()).to_vec();
        assert_eq!(minutes, [5, 10, 20, 40, 60, 60, 60, 60, 5]);
    }
}
