//! The lottery at volume (issue 12 item 7, run by `bench/lottery`): 100,000 applications over
//! 500 plans. Prints one `BENCH step=… ms=…` line per step; the script compares them with the
//! target (≤ 2 s).

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vmarket::lottery::{ApplicationInput, EntryInput, Inputs, PlanInput, Published, Seed, draw, verify};

/// `applications` wishes over `plans` plans of 20 slots: entries of three wishes (the last one
/// shorter), plans picked with a skew so that the popular ones are oversubscribed many times and
/// the rest are not, as in a real event. Fixed generator seed: every run draws the same inputs.
pub fn volume_inputs(applications: usize, plans: usize) -> Inputs {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let plan_inputs = (1..=plans as i64).map(|id| PlanInput { id, capacity: 20 }).collect();
    let mut entries = Vec::new();
    let mut next_application = 0i64;
    let mut entry_id = 0i64;
    while (next_application as usize) < applications {
        entry_id += 1;
        let wishes = 3.min(applications - next_application as usize);
        let mut picked: Vec<i64> = Vec::with_capacity(wishes);
        while picked.len() < wishes {
            // Squaring a uniform number favours low plan ids (plan 1 is the most wished).
            let u: f64 = rng.random();
            let plan = 1 + ((u * u) * plans as f64) as i64;
            if !picked.contains(&plan) {
                picked.push(plan);
            }
        }
        let applications = picked
            .into_iter()
            .enumerate()
            .map(|(rank, plan_id)| {
                next_application += 1;
                ApplicationInput { id: next_application, choice: rank as u8 + 1, plan_id }
            })
            .collect();
        entries.push(EntryInput { id: entry_id, multiple_win: entry_id % 10 == 0, applications });
    }
    Inputs::new(plan_inputs, entries).expect("valid inputs")
}

fn report(step: &str, started: Instant) -> f64 {
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    println!("BENCH step={step} applications=100000 plans=500 ms={ms:.1}");
    ms
}

#[test]
#[ignore = "volume measurement; run by bench/lottery"]
fn lottery_draw_at_100k_applications() {
    let started = Instant::now();
    let inputs = volume_inputs(100_000, 500);
    report("build_inputs", started);
    assert_eq!(inputs.application_count(), 100_000);

    let seed = Seed::generate();
    let started = Instant::now();
    let result = draw(&seed, &inputs);
    report("draw", started);
    let winners = result.winners().count();
    println!("BENCH info winners={winners} entries={}", inputs.entries().len());
    assert!(winners <= 500 * 20);

    // What `vmarket lottery verify` does with the published text: parse, digest, draw, compare.
    let text = inputs.canonical();
    let seed_hex = seed.to_hex();
    let started = Instant::now();
    let verified = verify(&Published {
        seed: &seed_hex,
        seed_hash: &result.seed_hash,
        inputs: &text,
        inputs_digest: &result.inputs_digest,
        result_digest: &result.digest,
    })
    .expect("the draw verifies");
    report("verify", started);
    println!("BENCH info inputs_bytes={}", text.len());
    assert_eq!(verified, result);
}
