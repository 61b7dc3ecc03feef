//! `PaymentSweep { minute }`: once a minute, reconciles the payment attempts left pending
//! ([`crate::payments::reconcile::sweep()`]) by the site's clock, time travel included: a payer who paid at
//! the provider and closed the tab, with no webhook, is settled within minutes, and an attempt
//! left unpaid expires once its payment window has closed. Scheduled like the lottery's minute
//! clock: each tick first enqueues the next one under the minute's key, so every worker that
//! schedules the same minute schedules one task, and workers start it when they start.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::payments::outbox::Outbox;
use crate::payments::outcomes::Reconciled;
use crate::payments::providers::Providers;
use crate::payments::reconcile::sweep;
use crate::queue::{Job, JobContext, next_minute};

/// The sweep due at the start of minute `minute` (Unix minutes, real time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentSweep {
    /// The minute it is due (its idempotency key).
    pub minute: i64,
}

impl PaymentSweep {
    /// The work of one tick at the clock's `now`: what each reconciled attempt came to.
    pub async fn tick(ctx: &JobContext) -> crate::error::Result<Vec<(i32, Reconciled)>> {
        let providers = Providers::from_config(&ctx.config);
        let outbox = Outbox { mailer: &ctx.mailer, queue: &ctx.queue };
        sweep(&ctx.db, outbox, &providers, ctx.clock.now()).await
    }

    fn key(minute: i64) -> String {
        format!("payment_sweep:{minute}")
    }
}

impl Job for PaymentSweep {
    const QUEUE: &'static str = "payment_sweep";

    async fn run(self, ctx: &JobContext) -> Result<String, sea_orm::DbErr> {
        // The next tick first: an error below must not stop the sweep.
        let (minute, delay) = next_minute(ctx);
        ctx.queue.push(Self { minute }, delay, &Self::key(minute)).await?;
        let swept = Self::tick(ctx).await.map_err(|e| sea_orm::DbErr::Custom(format!("payment sweep: {e}")))?;
        let settled = swept.iter().filter(|(_, r)| *r == Reconciled::Done("settled")).count();
        let expired = swept.iter().filter(|(_, r)| *r == Reconciled::Done("expired")).count();
        Ok(format!("payment sweep: {} pending attempts asked, {settled} settled, {expired} expired", swept.len()))
    }

    /// Runs a tick now (and so keeps the sweep going) when workers start.
    async fn resume(ctx: &JobContext) -> Result<(), sea_orm::DbErr> {
        let minute = ctx.clock.real_now().timestamp().div_euclid(60);
        ctx.queue.push(Self { minute }, Duration::ZERO, &Self::key(minute)).await
    }
}
