//! Keyed rate limits every node shares: every limiter of the site — sign-in per client and per
//! account, inquiries, link previews, downloads, member search, the in-game codes and chat — is
//! a [`Limiter`] whose state lives in the database (`rate_limits`), so that a client spreading its
//! requests over the nodes behind a load balancer meets the same limit as on one node. Keys come
//! from things a client cannot forge (see [`crate::http::client_ip`]); the table holds a digest
//! of the limiter's name and the key, never the address or email itself.
//!
//! The algorithm is the generic cell rate algorithm (as governor, which kept these limits in
//! memory before): `n` events per period as a burst of `n`, refilled one every period ÷ `n`. Each
//! key keeps one number, its theoretical arrival time (TAT); an event passes when
//! `max(TAT, now) + interval − now ≤ period`, and then moves the TAT by one interval. One
//! conditional upsert does both, atomically on either database, so concurrent requests on
//! several nodes never pass more than the limit. A refused event changes nothing, and says how
//! long to wait. Rows whose TAT has passed are pruned as the limiter is used. Limits run on the
//! real clock: moving the site's clock never lifts them.

use std::fmt::Display;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection, DbErr, Statement, Value};
use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::error::{Error, Result};

/// Prune quiet keys once every this many checks (per limiter).
const PRUNE_EVERY: u64 = 512;

/// A keyed rate limiter whose state lives in the database.
pub struct Limiter<K: Display> {
    db: DatabaseConnection,
    name: &'static str,
    limit: i64,
    period_ms: i64,
    checks: AtomicU64,
    key: PhantomData<fn(&K)>,
}

impl<K: Display> Limiter<K> {
    /// `n` events per key and minute; `name` tells this limiter's keys from the others'.
    pub fn per_minute(db: &DatabaseConnection, name: &'static str, n: u32) -> Self {
        Self::new(db, name, n, Duration::from_secs(60))
    }

    /// `n` events per key and hour.
    pub fn per_hour(db: &DatabaseConnection, name: &'static str, n: u32) -> Self {
        Self::new(db, name, n, Duration::from_secs(3600))
    }

    fn new(db: &DatabaseConnection, name: &'static str, n: u32, period: Duration) -> Self {
        Self {
            db: db.clone(),
            name,
            limit: i64::from(n.max(1)),
            period_ms: i64::try_from(period.as_millis()).unwrap_or(i64::MAX / 4).max(1),
            checks: AtomicU64::new(0),
            key: PhantomData,
        }
    }

    /// Milliseconds between two events at the steady rate.
    fn interval(&self) -> i64 {
        (self.period_ms / self.limit).max(1)
    }

    /// Counts one event for `key` now; `RateLimited` with the seconds to wait when over the
    /// limit.
    pub async fn check(&self, key: &K) -> Result<()> {
        self.check_at(key, chrono::Utc::now().timestamp_millis()).await
    }

    /// Counts one event for `key` at `now_ms` (Unix milliseconds).
    pub async fn check_at(&self, key: &K, now_ms: i64) -> Result<()> {
        self.prune_now_and_then(now_ms).await;
        let bucket = self.bucket(key);
        let interval = self.interval();
        let burst = interval * self.limit;
        let backend = self.db.get_database_backend();
        let greatest = if backend == DatabaseBackend::Sqlite { "max" } else { "GREATEST" };
        // A new key starts at now + interval; a known one passes only within the burst.
        let sql = format!(
            "INSERT INTO rate_limits (bucket, tat) VALUES ($1, $2 + $3) \
             ON CONFLICT (bucket) DO UPDATE SET tat = {greatest}(rate_limits.tat, $2) + $3 \
             WHERE {greatest}(rate_limits.tat, $2) + $3 - $2 <= $4 RETURNING tat"
        );
        let values: Vec<Value> = vec![bucket.clone().into(), now_ms.into(), interval.into(), burst.into()];
        if self.tat(&sql, values).await?.is_some() {
            return Ok(());
        }
        let sql = "SELECT tat FROM rate_limits WHERE bucket = $1";
        let tat = self.tat(sql, vec![bucket.into()]).await?.unwrap_or(now_ms);
        Err(Error::RateLimited { retry_after: wait_secs(tat, now_ms, interval, burst) })
    }

    /// The row of `key` under this limiter's name.
    fn bucket(&self, key: &K) -> String {
        let digest = Sha256::digest(format!("{}\0{key}", self.name).as_bytes());
        hex::encode(&digest[..20])
    }

    /// Runs `sql` (written with `$n` placeholders) and reads the TAT it returns, if any.
    async fn tat(&self, sql: &str, values: Vec<Value>) -> Result<Option<i64>> {
        let statement =
            Statement::from_sql_and_values(self.db.get_database_backend(), placeholders(&self.db, sql), values);
        let row = self.db.query_one_raw(statement).await.map_err(db_error)?;
        row.map(|r| r.try_get_by_index::<i64>(0)).transpose().map_err(db_error)
    }

    async fn prune_now_and_then(&self, now_ms: i64) {
        if !self.checks.fetch_add(1, Ordering::Relaxed).is_multiple_of(PRUNE_EVERY) {
            return;
        }
        let sql = placeholders(&self.db, "DELETE FROM rate_limits WHERE tat < $1");
        let statement = Statement::from_sql_and_values(self.db.get_database_backend(), sql, [now_ms.into()]);
        if let Err(e) = self.db.execute_raw(statement).await {
            tracing::warn!(error = %e, "quiet rate-limit keys not pruned");
        }
    }
}

/// Whole seconds (at least one) until a key at `tat` may pass again: until
/// `tat + interval − now ≤ burst`.
fn wait_secs(tat: i64, now_ms: i64, interval: i64, burst: i64) -> u64 {
    let ms = (tat + interval - now_ms - burst).max(0);
    (ms as u64).div_ceil(1000).max(1)
}

/// `sql` with PostgreSQL's `$n` placeholders in the database's own spelling (`?n` on SQLite).
fn placeholders(db: &DatabaseConnection, sql: &str) -> String {
    match db.get_database_backend() {
        DatabaseBackend::Sqlite => sql.replace('$', "?"),
        _ => sql.to_string(),
    }
}

fn db_error(e: DbErr) -> Error {
    Error::Internal(format!("rate limit: {e}"))
}

/// How many member searches each signed-in user may make per minute (API and page together),
/// keyed on the user id: a client cannot spread them over addresses or accounts it does not
/// have.
pub struct UserSearchLimiter(Limiter<i32>);

impl UserSearchLimiter {
    /// The limit of `config` (`circle_user_search_per_minute`).
    pub fn new(config: &Config, db: &DatabaseConnection) -> Self {
        Self(Limiter::per_minute(db, "member_search", config.circle_user_search_per_minute))
    }

    /// Counts one search by `user_id`; `RateLimited` beyond the limit.
    pub async fn check(&self, user_id: i32) -> Result<()> {
        self.0.check(&user_id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_is_until_one_interval_has_refilled() {
        // Three a minute (one every 20 s), three just spent at t = 0: the TAT is 60 s ahead.
        assert_eq!(wait_secs(60_000, 0, 20_000, 60_000), 20);
        assert_eq!(wait_secs(60_000, 15_500, 20_000, 60_000), 5, "rounded up");
        assert_eq!(wait_secs(60_000, 40_000, 20_000, 60_000), 1, "at least a second");
    }
}
