//! `AvatarOrderSweep { minute }`: once a minute, asks the providers about the VRChat avatar
//! orders still open ([`crate::store::vrchat::order_pay::check`], by the site's clock, time travel
//! included): a payer who paid at PayPal or GMO and closed the tab has their order settled and
//! their avatar queued for conversion within minutes, without coming back; an order past its
//! closing date expires (after the provider was asked, so money taken before then is never
//! dropped). Scheduled like the payment sweep: each tick first enqueues the next one under the
//! minute's key, and workers start it when they start.

use std::time::Duration;

use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::{Deserialize, Serialize};

use crate::db::entities::vrchat_avatar_order::{self, AvatarOrderState};
use crate::payments::providers::Providers;
use crate::queue::{Job, JobContext, next_minute};
use crate::store::vrchat::order_pay::check;

/// The most orders one tick asks about (the longest untouched first; the rest wait a minute).
pub const BATCH: u64 = 50;

/// The sweep due at the start of minute `minute` (Unix minutes, real time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AvatarOrderSweep {
    /// The minute it is due (its idempotency key).
    pub minute: i64,
}

/// What one tick did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Open orders asked about.
    pub asked: usize,
    /// Found paid and settled.
    pub settled: usize,
    /// Closed past their closing date.
    pub expired: usize,
}

impl AvatarOrderSweep {
    /// The work of one tick at the clock's `now`: open orders that went to a provider, or whose
    /// closing date has passed.
    pub async fn tick(ctx: &JobContext) -> crate::error::Result<Swept> {
        let now = ctx.clock.now();
        let providers = Providers::from_config(&ctx.config);
        let due = vrchat_avatar_order::Entity::find()
            .filter(vrchat_avatar_order::Column::State.eq(AvatarOrderState::Open))
            .filter(
                Condition::any()
                    .add(vrchat_avatar_order::Column::PaypalOrderId.is_not_null())
                    .add(vrchat_avatar_order::Column::GmoPaymentOrderId.is_not_null())
                    .add(vrchat_avatar_order::Column::ClosingDate.lte(now)),
            )
            .order_by_asc(vrchat_avatar_order::Column::UpdatedAt)
            .limit(BATCH)
            .all(&ctx.db)
            .await?;
        let mut swept = Swept { asked: due.len(), ..Swept::default() };
        for row in &due {
            match check(&ctx.db, &providers, row, now).await {
                Ok(after) if after.state == AvatarOrderState::Paid => swept.settled += 1,
                Ok(after) if after.state == AvatarOrderState::Expired => swept.expired += 1,
                Ok(_) => {}
                // One order's trouble (a refused amount, the database) must not stop the others.
                Err(e) => {
                    tracing::warn!(order = %row.uuid, error = %e, "the avatar order sweep could not check an order")
                }
            }
        }
        Ok(swept)
    }

    fn key(minute: i64) -> String {
        format!("avatar_order_sweep:{minute}")
    }
}

impl Job for AvatarOrderSweep {
    const QUEUE: &'static str = "avatar_order_sweep";

    async fn run(self, ctx: &JobContext) -> Result<String, sea_orm::DbErr> {
        // The next tick first: an error below must not stop the sweep.
        let (minute, delay) = next_minute(ctx);
        ctx.queue.push(Self { minute }, delay, &Self::key(minute)).await?;
        let swept = Self::tick(ctx).await.map_err(|e| sea_orm::DbErr::Custom(format!("avatar order sweep: {e}")))?;
        Ok(format!(
            "avatar order sweep: {} open orders asked, {} settled, {} expired",
            swept.asked, swept.settled, swept.expired
        ))
    }

    /// Runs a tick now (and so keeps the sweep going) when workers start.
    async fn resume(ctx: &JobContext) -> Result<(), sea_orm::DbErr> {
        let minute = ctx.clock.real_now().timestamp().div_euclid(60);
        ctx.queue.push(Self { minute }, Duration::ZERO, &Self::key(minute)).await
    }
}
