//! The draw itself: a random priority order of the entries from ChaCha20, then rounds by choice
//! (the module doc of `lottery` explains and justifies the algorithm).
//!
//! The result's canonical text, whose SHA-256 is [`Draw::digest`]:
//!
//! ```text
//! vmarket lottery result v1
//! seed_hash <hex>
//! inputs <hex>
//! <application id> win|lose                                   (ascending application id)
//! ```

use std::fmt::Write as _;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::inputs::Inputs;
use super::seed::{Seed, sha256_hex};

/// What the draw decided for one application.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The application.
    pub application_id: i64,
    /// Its entry.
    pub entry_id: i64,
    /// The plan it asked for.
    pub plan_id: i64,
    /// Its rank in the entry, 1 = first wish.
    pub choice: u8,
    /// Whether it won a slot.
    pub won: bool,
}

/// The result of a draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// One outcome per application, by application id.
    pub outcomes: Vec<Outcome>,
    /// The entry ids in the priority order the generator gave.
    pub order: Vec<i64>,
    /// The seed's hash (the commitment).
    pub seed_hash: String,
    /// SHA-256 of the canonical inputs.
    pub inputs_digest: String,
    /// SHA-256 of the canonical result (module doc).
    pub digest: String,
}

impl Draw {
    /// The winning applications' outcomes.
    pub fn winners(&self) -> impl Iterator<Item = &Outcome> {
        self.outcomes.iter().filter(|o| o.won)
    }
}

/// Draws: the same seed and inputs give the same result, everywhere.
pub fn draw(seed: &Seed, inputs: &Inputs) -> Draw {
    let entries = inputs.entries();
    let order = priority(seed, inputs);
    let plan_index = inputs.plan_index();
    let mut left: Vec<u32> = inputs.plans().iter().map(|p| p.capacity).collect();
    // Per entry (canonical index): whether it has won, and where its applications start in
    // `won` (one flag per application, entries in canonical order, wishes by choice).
    let mut has_won = vec![false; entries.len()];
    let first: Vec<usize> = entries
        .iter()
        .scan(0, |next, e| {
            let start = *next;
            *next += e.applications.len();
            Some(start)
        })
        .collect();
    let mut won = vec![false; inputs.application_count()];
    let rounds = entries.iter().map(|e| e.applications.len()).max().unwrap_or(0);
    for round in 0..rounds {
        for &e in &order {
            let entry = &entries[e];
            let Some(application) = entry.applications.get(round) else { continue };
            if has_won[e] && !entry.multiple_win {
                continue;
            }
            // `Inputs::new` checked that every wished plan exists.
            let plan = plan_index[&application.plan_id];
            if left[plan] > 0 {
                left[plan] -= 1;
                has_won[e] = true;
                won[first[e] + round] = true;
            }
        }
    }
    let mut outcomes: Vec<Outcome> = entries
        .iter()
        .flat_map(|entry| entry.applications.iter().map(move |a| (entry, a)))
        .zip(won)
        .map(|((entry, a), won)| Outcome {
            application_id: a.id,
            entry_id: entry.id,
            plan_id: a.plan_id,
            choice: a.choice,
            won,
        })
        .collect();
    outcomes.sort_by_key(|o| o.application_id);
    let seed_hash = seed.hash();
    let inputs_digest = inputs.digest();
    let digest = result_digest(&seed_hash, &inputs_digest, &outcomes);
    Draw { outcomes, order: order.iter().map(|&e| entries[e].id).collect(), seed_hash, inputs_digest, digest }
}

/// The entries' canonical indexes in priority order: entry *i* (canonical order) takes the
/// *i*-th `u64` of the ChaCha20 stream as its key; lowest key first, ties by entry id.
fn priority(seed: &Seed, inputs: &Inputs) -> Vec<usize> {
    let mut rng = ChaCha20Rng::from_seed(seed.bytes());
    let entries = inputs.entries();
    let mut keyed: Vec<(u64, i64, usize)> =
        entries.iter().enumerate().map(|(i, e)| (rng.next_u64(), e.id, i)).collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, _, i)| i).collect()
}

/// SHA-256 of the canonical result text (module doc).
fn result_digest(seed_hash: &str, inputs_digest: &str, outcomes: &[Outcome]) -> String {
    let mut text = String::with_capacity(96 + outcomes.len() * 16);
    text.push_str("vmarket lottery result v1\n");
    // Writing to a String cannot fail.
    let _ = writeln!(text, "seed_hash {seed_hash}");
    let _ = writeln!(text, "inputs {inputs_digest}");
    for o in outcomes {
        let _ = writeln!(text, "{} {}", o.application_id, if o.won { "win" } else { "lose" });
    }
    sha256_hex(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lottery::inputs::{ApplicationInput, EntryInput, PlanInput};

    fn wish(id: i64, choice: u8, plan_id: i64) -> ApplicationInput {
        ApplicationInput { id, choice, plan_id }
    }

    #[test]
    fn a_first_wish_beats_an_earlier_entrys_second_wish() {
        // Plan 1 has one slot; plan 2 none. Entry 10 wishes 2 then 1, entry 20 wishes 1 first.
        // Whatever the priority, entry 20's first wish takes plan 1 in round 1.
        let inputs = Inputs::new(
            vec![PlanInput { id: 1, capacity: 1 }, PlanInput { id: 2, capacity: 0 }],
            vec![
                EntryInput { id: 10, multiple_win: false, applications: vec![wish(101, 1, 2), wish(102, 2, 1)] },
                EntryInput { id: 20, multiple_win: false, applications: vec![wish(201, 1, 1)] },
            ],
        )
        .unwrap();
        for byte in 0..=255 {
            let draw = draw(&Seed::from_bytes([byte; 32]), &inputs);
            let winners: Vec<i64> = draw.winners().map(|o| o.application_id).collect();
            assert_eq!(winners, [201]);
        }
    }

    #[test]
    fn the_stream_is_chacha20_as_published() {
        // RFC 8439 appendix A.1, test vector #1: the ChaCha20 keystream for a zero key, zero
        // nonce and block counter 0 starts `76 b8 e0 ad a0 f1 3d 90`; `next_u64` reads those 8
        // bytes little-endian. Pins the generator a third party must reimplement.
        let mut rng = ChaCha20Rng::from_seed([0; 32]);
        assert_eq!(rng.next_u64(), 0x903d_f1a0_ade0_b876);
    }

    #[test]
    fn the_result_digest_covers_seed_inputs_and_outcomes() {
        let inputs = Inputs::new(
            vec![PlanInput { id: 1, capacity: 1 }],
            vec![
                EntryInput { id: 1, multiple_win: false, applications: vec![wish(11, 1, 1)] },
                EntryInput { id: 2, multiple_win: false, applications: vec![wish(21, 1, 1)] },
            ],
        )
        .unwrap();
        let seed = Seed::from_bytes([1; 32]);
        let draw = draw(&seed, &inputs);
        let winner = draw.winners().next().unwrap().application_id;
        let text = format!(
            "vmarket lottery result v1\nseed_hash {}\ninputs {}\n11 {}\n21 {}\n",
            seed.hash(),
            inputs.digest(),
            if winner == 11 { "win" } else { "lose" },
            if winner == 21 { "win" } else { "lose" },
        );
        assert_eq!(draw.digest, sha256_hex(text.as_bytes()));
    }
}
