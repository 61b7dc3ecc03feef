//! Keyed rate limits (governor) with bounded memory: every limiter of the site — sign-in per
//! client and per account, inquiries, link previews — is a [`Limiter`]. Keys come from things a
//! client cannot forge (see [`crate::http::client_ip`]); state for keys that have gone quiet is
//! pruned as the limiter is used, so a flood of distinct keys cannot grow it without bound.

use std::hash::Hash;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::config::Config;
use crate::error::{Error, Result};

/// Prune quiet keys at least once every this many checks.
const PRUNE_EVERY: u64 = 1024;
/// Prune at once when more keys than this are held (the bar then rises to twice what a prune
/// leaves, so a flood of live keys costs amortised constant time per check, not a scan each).
const PRUNE_ABOVE: usize = 10_000;

/// A keyed rate limiter that forgets keys which have gone quiet.
pub struct Limiter<K: Hash + Eq + Clone, C: Clock = DefaultClock> {
    inner: RateLimiter<K, DefaultKeyedStateStore<K>, C, NoOpMiddleware<C::Instant>>,
    clock: C,
    checks: AtomicU64,
    prune_above: AtomicUsize,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    /// `n` events per key and minute, as a burst of `n` refilled over the minute.
    pub fn per_minute(n: u32) -> Self {
        Self::with_clock(Quota::per_minute(nonzero(n)), DefaultClock::default())
    }

    /// `n` events per key and hour, as a burst of `n` refilled over the hour.
    pub fn per_hour(n: u32) -> Self {
        Self::with_clock(Quota::per_hour(nonzero(n)), DefaultClock::default())
    }
}

impl<K: Hash + Eq + Clone, C: Clock + Clone> Limiter<K, C> {
    /// A limiter with `quota` on `clock` (tests pass a fake clock).
    pub fn with_clock(quota: Quota, clock: C) -> Self {
        Self {
            inner: RateLimiter::new(quota, DefaultKeyedStateStore::default(), clock.clone()),
            clock,
            checks: 0.into(),
            prune_above: PRUNE_ABOVE.into(),
        }
    }

    /// Counts one event for `key`; `RateLimited` with the seconds to wait when over the limit.
    pub fn check(&self, key: &K) -> Result<(), Error> {
        self.prune_now_and_then();
        self.inner.check_key(key).map_err(|not_until| {
            let wait: Duration = not_until.wait_time_from(self.clock.now());
            Error::RateLimited { retry_after: wait.as_secs().max(1) }
        })
    }

    /// How many keys the limiter holds state for.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether the limiter holds no state.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    fn prune_now_and_then(&self) {
        let n = self.checks.fetch_add(1, Ordering::Relaxed);
        if n.is_multiple_of(PRUNE_EVERY) || self.inner.len() > self.prune_above.load(Ordering::Relaxed) {
            self.inner.retain_recent();
            self.inner.shrink_to_fit();
            self.prune_above.store(PRUNE_ABOVE.max(2 * self.inner.len()), Ordering::Relaxed);
        }
    }
}

fn nonzero(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN)
}

/// How many member searches each signed-in user may make per minute (API and page together),
/// keyed on the user id: a client cannot spread them over addresses or accounts it does not
/// have.
pub struct UserSearchLimiter(Limiter<i32>);

impl UserSearchLimiter {
    /// The limit of `config` (`circle_user_search_per_minute`).
    pub fn new(config: &Config) -> Self {
        Self(Limiter::per_minute(config.circle_user_search_per_minute))
    }

    /// Counts one search by `user_id`; `RateLimited` beyond the limit.
    pub fn check(&self, user_id: i32) -> Result<()> {
        self.0.check(&user_id)
    }
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

    #[test]
    fn limits_per_key_and_says_when_to_retry() {
        let clock = FakeRelativeClock::default();
        let limiter = Limiter::with_clock(Quota::per_minute(nonzero(2)), clock.clone());
        assert!(limiter.check(&"a").is_ok());
        assert!(limiter.check(&"a").is_ok());
        match limiter.check(&"a") {
            Err(Error::RateLimited { retry_after }) => assert!((1..=30).contains(&retry_after), "{retry_after}"),
            other => panic!("expected a rate limit, got {other:?}"),
        }
        assert!(limiter.check(&"b").is_ok(), "limits are per key");
        clock.advance(Duration::from_secs(31));
        assert!(limiter.check(&"a").is_ok(), "the bucket refills");
    }

    #[test]
    fn quiet_keys_are_forgotten() {
        let clock = FakeRelativeClock::default();
        let limiter = Limiter::with_clock(Quota::per_minute(nonzero(5)), clock.clone());
        for i in 0..(PRUNE_ABOVE as u32 + 500) {
            let _ = limiter.check(&i);
        }
        assert!(limiter.len() > PRUNE_ABOVE / 2, "recent keys are kept");
        clock.advance(Duration::from_secs(61));
        for _ in 0..PRUNE_EVERY {
            let _ = limiter.check(&u32::MAX);
        }
        assert!(limiter.len() <= 1, "{} keys left after a quiet minute", limiter.len());
    }
}
