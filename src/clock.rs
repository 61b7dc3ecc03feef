//! The one clock that answers "now" everywhere, so that a time-travel offset moves phases,
//! deadlines and jobs together. Tests use a manual clock they can set.
//!
//! "Now" is a base instant (the system clock, or a manual one in tests) plus the time-travel
//! offset. The offset lives in the database (`crate::model::time_travel`); every node copies it
//! into its clock with [`Clock::set_travel`] once a second. Sign-in (tokens, sessions, codes)
//! runs on [`Clock::real_now`], so that travelling signs nobody out.

use std::sync::{Arc, RwLock};

use chrono::{DateTime, Duration, Utc};

/// A cheap, cloneable handle to the application's notion of "now".
#[derive(Clone, Debug)]
pub struct Clock(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    base: Base,
    /// The time-travel offset (zero unless time travel is on).
    travel: RwLock<Duration>,
}

#[derive(Debug)]
enum Base {
    /// Wall-clock time plus an adjustment ([`Clock::set`] on a system clock).
    System(RwLock<Duration>),
    /// A fixed instant that only moves when told to.
    Manual(RwLock<DateTime<Utc>>),
}

impl Clock {
    fn with(base: Base) -> Self {
        Self(Arc::new(Inner { base, travel: RwLock::new(Duration::zero()) }))
    }

    /// The real clock.
    pub fn system() -> Self {
        Self::with(Base::System(RwLock::new(Duration::zero())))
    }

    /// A clock stopped at `at`; move it with [`Clock::set`].
    pub fn manual(at: DateTime<Utc>) -> Self {
        Self::with(Base::Manual(RwLock::new(at)))
    }

    /// The current instant, in UTC, time travel included.
    pub fn now(&self) -> DateTime<Utc> {
        self.real_now() + self.travel()
    }

    /// The current instant without time travel (the system clock, or the manual one in tests).
    pub fn real_now(&self) -> DateTime<Utc> {
        match &self.0.base {
            Base::System(adjust) => Utc::now() + *adjust.read().unwrap_or_else(|e| e.into_inner()),
            Base::Manual(at) => *at.read().unwrap_or_else(|e| e.into_inner()),
        }
    }

    /// Moves the clock to `at`: a manual clock jumps there, the system clock gains an offset.
    /// Time travel stays on top of it.
    pub fn set(&self, at: DateTime<Utc>) {
        match &self.0.base {
            Base::System(adjust) => {
                *adjust.write().unwrap_or_else(|e| e.into_inner()) = at - Utc::now();
            }
            Base::Manual(now) => *now.write().unwrap_or_else(|e| e.into_inner()) = at,
        }
    }

    /// The time-travel offset (zero when not travelling).
    pub fn travel(&self) -> Duration {
        *self.0.travel.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the time-travel offset; zero travels back to real time.
    pub fn set_travel(&self, offset: Duration) {
        *self.0.travel.write().unwrap_or_else(|e| e.into_inner()) = offset;
    }

    /// The travelled "now" while time travel is on, for banners; `None` in real time.
    pub fn travelled_now(&self) -> Option<DateTime<Utc>> {
        (!self.travel().is_zero()).then(|| self.now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_when_set() {
        let start = DateTime::parse_from_rfc3339("2026-11-21T00:00:00Z").unwrap().to_utc();
        let clock = Clock::manual(start);
        assert_eq!(clock.now(), start);
        let later = start + Duration::days(3);
        clock.clone().set(later);
        assert_eq!(clock.now(), later, "clones share the same clock");
    }

    #[test]
    fn system_clock_travels_by_offset() {
        let clock = Clock::system();
        let target = Utc::now() + Duration::days(30);
        clock.set(target);
        let drift = (clock.now() - target).num_seconds().abs();
        assert!(drift < 5, "travelled clock is near the target, drift {drift}s");
    }

    #[test]
    fn time_travel_adds_to_the_base_and_is_reported() {
        let start = DateTime::parse_from_rfc3339("2026-11-21T00:00:00Z").unwrap().to_utc();
        let clock = Clock::manual(start);
        assert_eq!(clock.travelled_now(), None);
        clock.set_travel(Duration::days(21));
        assert_eq!(clock.now(), start + Duration::days(21));
        assert_eq!(clock.real_now(), start);
        assert_eq!(clock.travelled_now(), Some(start + Duration::days(21)));
        clock.set(start + Duration::hours(1));
        assert_eq!(clock.now(), start + Duration::days(21) + Duration::hours(1), "the base still moves");
        clock.set_travel(Duration::zero());
        assert_eq!(clock.now(), start + Duration::hours(1));
        assert_eq!(clock.travelled_now(), None);
    }
}
