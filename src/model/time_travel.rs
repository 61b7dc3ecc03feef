//! Time travel: one offset kept in the database, so that every node and every worker moves its
//! [`Clock`] by the same amount within a second of a change. Staff set and clear it through
//! `/api/v1/admin/time_travel`; production never follows it.

use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseConnection, EntityTrait, Set};
use tokio::task::JoinHandle;

use crate::clock::Clock;
use crate::config::{Config, Environment};
use crate::db::entities::time_travel;
use crate::error::Result;

/// The one row's id.
const ROW: i32 = 1;

/// How often every node reads the offset.
pub const POLL: StdDuration = StdDuration::from_secs(1);

/// How far from the real clock staff may travel, either way: ten years (3,653 days). Every
/// instant in that range renders everywhere (four-digit years, RFC 3339, the browsers' dates);
/// beyond it a page's dates could not be written (year 10000 is `+10000-…`).
pub fn max_offset() -> Duration {
    Duration::days(3653)
}

/// Whether the clock may be moved by `offset`.
pub fn in_range(offset: Duration) -> bool {
    offset.abs() <= max_offset()
}

/// The stored offset (zero when nobody travelled). An offset outside [`in_range`] — stored before
/// the range existed, or by hand — is ignored, so no page meets an instant it cannot render.
pub async fn offset(db: &impl ConnectionTrait) -> Result<Duration> {
    let stored = time_travel::Entity::find_by_id(ROW)
        .one(db)
        .await?
        .map_or(Duration::zero(), |r| Duration::milliseconds(r.offset_ms));
    if in_range(stored) {
        Ok(stored)
    } else {
        tracing::warn!(offset_ms = stored.num_milliseconds(), "stored time-travel offset out of range; ignored");
        Ok(Duration::zero())
    }
}

/// Stores `offset` (set by user `by` at real time `at`); zero clears it.
pub async fn store(db: &impl ConnectionTrait, offset: Duration, by: i32, at: DateTime<Utc>) -> Result<()> {
    let existing = time_travel::Entity::find_by_id(ROW).one(db).await?;
    if offset.is_zero() {
        if existing.is_some() {
            time_travel::Entity::delete_by_id(ROW).exec(db).await?;
        }
        return Ok(());
    }
    let row = time_travel::ActiveModel {
        id: Set(ROW),
        offset_ms: Set(offset.num_milliseconds()),
        set_by: Set(by),
        set_at: Set(at),
    };
    match existing {
        Some(_) => row.update(db).await?,
        None => row.insert(db).await?,
    };
    Ok(())
}

/// Keeps `clock` in step with the stored offset, reading it every [`POLL`], until the runtime
/// stops. Outside production only: production never travels, whatever the table says. A failed
/// read keeps the last offset.
pub fn follow(clock: Clock, db: DatabaseConnection, config: &Config) -> Option<JoinHandle<()>> {
    if config.environment == Environment::Production {
        return None;
    }
    Some(tokio::spawn(async move {
        let mut tick = tokio::time::interval(POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match offset(&db).await {
                Ok(found) => clock.set_travel(found),
                Err(e) => tracing::warn!(error = %e, "time travel offset not read; keeping the last one"),
            }
        }
    }))
}
