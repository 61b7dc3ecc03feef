//! [`Tail`]: following a table by its id as rows commit, without missing a row that commits out
//! of id order. On PostgreSQL two writers take ids 7 and 8 from the sequence and 8 may commit
//! first: a reader that only asked for "ids above the highest seen" would never see 7. A tail
//! keeps a floor (every id at or below it is settled) and the ids above it it has already passed
//! on; it asks for everything above the floor and passes on what it has not seen. The floor
//! rises over ids seen in a row, and over a gap once the id above the gap has waited `grace` (a
//! rolled-back insert leaves a gap for good; a writer slower than `grace` is not waited for).
//! Pure: the hub feeds it the ids a query answered and the time.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Where a follower of a table stands.
#[derive(Debug, Clone)]
pub struct Tail {
    floor: i32,
    /// Ids above the floor already passed on, with when they were first seen.
    seen: BTreeMap<i32, Instant>,
    grace: Duration,
}

impl Tail {
    /// A tail at `floor` that has seen `seen` above it (at `now`), waiting `grace` over gaps.
    pub fn new(floor: i32, seen: impl IntoIterator<Item = i32>, grace: Duration, now: Instant) -> Self {
        let mut tail =
            Self { floor, seen: seen.into_iter().filter(|id| *id > floor).map(|id| (id, now)).collect(), grace };
        tail.settle(now);
        tail
    }

    /// Every id at or below this is settled: ask for ids above it.
    pub fn floor(&self) -> i32 {
        self.floor
    }

    /// The ids above the floor already passed on (a query may leave them out).
    pub fn seen(&self) -> impl Iterator<Item = i32> + '_ {
        self.seen.keys().copied()
    }

    /// Of `ids` (what a query for ids above the floor answered), the ones not passed on before,
    /// in id order; they count as passed on from now.
    pub fn fresh(&mut self, ids: impl IntoIterator<Item = i32>, now: Instant) -> Vec<i32> {
        let mut fresh: Vec<i32> =
            ids.into_iter().filter(|id| *id > self.floor && !self.seen.contains_key(id)).collect();
        fresh.sort_unstable();
        fresh.dedup();
        for id in &fresh {
            self.seen.insert(*id, now);
        }
        self.settle(now);
        fresh
    }

    /// Raises the floor over ids seen in a row, and over gaps whose next id has waited `grace`.
    fn settle(&mut self, now: Instant) {
        while let Some((&id, &at)) = self.seen.first_key_value() {
            if id == self.floor + 1 || now.duration_since(at) >= self.grace {
                self.floor = id;
                self.seen.pop_first();
            } else {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const GRACE: Duration = Duration::from_secs(3);

    #[test]
    fn ids_in_a_row_raise_the_floor_and_pass_once() {
        let t0 = Instant::now();
        let mut tail = Tail::new(10, [], GRACE, t0);
        assert_eq!(tail.fresh([11, 12, 13], t0), vec![11, 12, 13]);
        assert_eq!(tail.floor(), 13);
        assert_eq!(tail.fresh([13, 14], t0), vec![14]);
        assert_eq!(tail.seen().count(), 0);
    }

    #[test]
    fn an_id_that_commits_late_is_still_passed_on() {
        let t0 = Instant::now();
        let mut tail = Tail::new(10, [], GRACE, t0);
        // 12 commits before 11.
        assert_eq!(tail.fresh([12], t0), vec![12]);
        assert_eq!(tail.floor(), 10, "the floor waits below the gap");
        assert_eq!(tail.fresh([12], t0 + Duration::from_secs(1)), Vec::<i32>::new(), "12 is not passed twice");
        assert_eq!(tail.fresh([11, 12], t0 + Duration::from_secs(2)), vec![11]);
        assert_eq!(tail.floor(), 12);
    }

    #[test]
    fn a_gap_that_never_fills_is_passed_after_the_grace() {
        let t0 = Instant::now();
        let mut tail = Tail::new(10, [], GRACE, t0);
        tail.fresh([12, 13], t0);
        assert_eq!(tail.floor(), 10);
        tail.fresh([12, 13], t0 + GRACE);
        assert_eq!(tail.floor(), 13, "11 rolled back: the floor moves on");
        assert_eq!(tail.fresh([11], t0 + GRACE), Vec::<i32>::new(), "below the floor: settled");
    }

    #[test]
    fn a_tail_started_over_recent_rows_passes_on_only_what_commits_later() {
        let t0 = Instant::now();
        // At start the table holds 1..=5 and 7 (6 is in flight); the hub starts below them.
        let mut tail = Tail::new(0, [1, 2, 3, 4, 5, 7], GRACE, t0);
        assert_eq!(tail.floor(), 5);
        assert_eq!(tail.fresh([7, 6, 8], t0), vec![6, 8]);
        assert_eq!(tail.floor(), 8);
    }

    proptest! {
        /// Whatever order rows commit in, each is passed on exactly once, none is lost, as long
        /// as it commits within the grace of the ids above it.
        #[test]
        fn every_row_passes_exactly_once(order in Just((1..=40).collect::<Vec<i32>>()).prop_shuffle(),
            batches in proptest::collection::vec(1usize..6, 1..40)) {
            let t0 = Instant::now();
            let mut tail = Tail::new(0, [], GRACE, t0);
            let mut committed: Vec<i32> = Vec::new();
            let mut passed: Vec<i32> = Vec::new();
            let mut rest = order.as_slice();
            let mut step = 0;
            let mut sizes = batches.iter().cycle();
            while !rest.is_empty() {
                let n = (*sizes.next().unwrap()).min(rest.len());
                committed.extend_from_slice(&rest[..n]);
                rest = &rest[n..];
                step += 1;
                let now = t0 + Duration::from_millis(step);
                let above: Vec<i32> = committed.iter().copied().filter(|id| *id > tail.floor()).collect();
                passed.extend(tail.fresh(above, now));
            }
            passed.sort_unstable();
            prop_assert_eq!(passed, (1..=40).collect::<Vec<i32>>());
        }
    }
}
