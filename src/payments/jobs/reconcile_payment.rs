//! `ReconcilePayment { order_id }`: asks the provider about a pending payment attempt whose
//! outcome we do not know (a capture that timed out or met a 5xx, a payment still processing)
//! and settles, fails or expires it ([`crate::payments::reconcile::reconcile()`]). Never charges: it only
//! reads the provider's payment object.
//!
//! When the provider does not answer, the next run is scheduled with exponential backoff, at
//! most `RECONCILE_MAX_ATTEMPTS` runs; the attempt then stays pending for staff. On start, every
//! pending attempt with a provider object is looked at once ([`Job::resume`]), so a crash
//! between a timeout and its reconcile loses nothing; the `PaymentSweep` job then keeps looking
//! at whatever stays pending ([`crate::payments::reconcile::sweep()`]).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::db::entities::order;
use crate::payments::outbox::Outbox;
use crate::payments::outcomes::Reconciled;
use crate::payments::providers::Providers;
use crate::payments::reconcile::reconcile;
use crate::queue::{Job, JobContext, Queue};

/// Runs after which a silent provider is left to staff.
const RECONCILE_MAX_ATTEMPTS: i32 = 12;

/// Reconcile the attempt `order_id` with its provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReconcilePayment {
    /// The attempt (`orders.id`).
    pub order_id: i32,
    /// Which run this is (1-based).
    pub attempt: i32,
}

impl Job for ReconcilePayment {
    const QUEUE: &'static str = "reconcile_payment";

    async fn run(self, ctx: &JobContext) -> Result<String, sea_orm::DbErr> {
        let providers = Providers::from_config(&ctx.config);
        let now = ctx.clock.now();
        let outbox = Outbox { mailer: &ctx.mailer, queue: &ctx.queue };
        let outcome = reconcile(&ctx.db, outbox, &providers, self.order_id, now)
            .await
            .map_err(|e| sea_orm::DbErr::Custom(format!("reconcile order {}: {e}", self.order_id)))?;
        match outcome {
            Reconciled::Retry if self.attempt < RECONCILE_MAX_ATTEMPTS => {
                let delay = ctx.backoff(self.attempt as u32);
                Self::enqueue(&ctx.queue, self.order_id, self.attempt + 1, delay).await?;
                Ok(format!("order {}: provider silent, run {} scheduled", self.order_id, self.attempt + 1))
            }
            Reconciled::Retry => {
                tracing::error!(order_id = self.order_id, "payment still unknown after every reconcile: for staff");
                Ok(format!("order {}: left to staff", self.order_id))
            }
            Reconciled::Waiting => Ok(format!("order {}: the payer has not paid yet", self.order_id)),
            Reconciled::Done(what) => Ok(format!("order {}: {what}", self.order_id)),
        }
    }

    async fn resume(ctx: &JobContext) -> Result<(), sea_orm::DbErr> {
        let pending = order::Model::pending_at_provider(&ctx.db)
            .await
            .map_err(|e| sea_orm::DbErr::Custom(format!("pending orders: {e}")))?;
        for o in pending {
            Self::enqueue(&ctx.queue, o.id, o.reconcile_attempts + 1, Duration::ZERO).await?;
        }
        Ok(())
    }
}

impl ReconcilePayment {
    /// The idempotency key of run `attempt` for `order_id`.
    pub fn key(order_id: i32, attempt: i32) -> String {
        format!("order:{order_id}:reconcile:{attempt}")
    }

    /// Enqueues run `attempt` of the reconcile of `order_id` after `delay`.
    pub async fn enqueue(queue: &Queue, order_id: i32, attempt: i32, delay: Duration) -> Result<(), sea_orm::DbErr> {
        queue.push(Self { order_id, attempt }, delay, &Self::key(order_id, attempt)).await
    }
}

/// Enqueues the reconcile of `order_id` (the provider is asked after a short delay).
pub async fn reconcile_later(queue: &Queue, order_id: i32, attempt: i32) {
    if let Err(e) = ReconcilePayment::enqueue(queue, order_id, attempt, std::time::Duration::from_secs(5)).await {
        tracing::error!(order_id, error = %e, "could not enqueue a payment reconcile; workers resume it on start");
    }
}
