//! The one clock that answers "now" everywhere, so that a time-travel offset moves phases,
//! deadlines and jobs together. Tests use a manual clock they can set.

use std::sync::{Arc, RwLock};

use chrono::{DateTime, Duration, Utc};

/// A cheap, cloneable handle to the application's notion of "now".
#[derive(Clone, Debug)]
pub struct Clock(Arc<Source>);

#[derive(Debug)]
enum Source {
    /// Wall-clock time plus an offset (zero unless time travel is on).
    System(RwLock<Duration>),
    /// A fixed instant that only moves when told to.
    Manual(RwLock<DateTime<Utc>>),
}

impl Clock {
    /// The real clock.
    pub fn system() -> Self {
        Self(Arc::new(Source::System(RwLock::new(Duration::zero()))))
    }

    /// A clock stopped at `at`; move it with [`Clock::set`].
    pub fn manual(at: DateTime<Utc>) -> Self {
        Self(Arc::new(Source::Manual(RwLock::new(at))))
    }

    /// The current instant, in UTC.
    pub fn now(&self) -> DateTime<Utc> {
        match &*self.0 {
            Source::System(offset) => Utc::now() + *offset.read().unwrap_or_else(|e| e.into_inner()),
            Source::Manual(at) => *at.read().unwrap_or_else(|e| e.into_inner()),
        }
    }

    /// Moves the clock to `at`: a manual clock jumps there, the system clock gains an offset.
    pub fn set(&self, at: DateTime<Utc>) {
        match &*self.0 {
            Source::System(offset) => {
                *offset.write().unwrap_or_else(|e| e.into_inner()) = at - Utc::now();
            }
            Source::Manual(now) => *now.write().unwrap_or_else(|e| e.into_inner()) = at,
        }
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
}
