//! Property tests of the pure lottery draw (`src/lottery`): the rules of DOMAIN.md "The
//! lottery" hold for arbitrary plans, entries and seeds, and a published draw verifies from its
//! seed and inputs alone — and no longer does once anything of it is changed.

use std::collections::HashMap;

use proptest::prelude::*;
use vmarket::lottery::{
    ApplicationInput, Draw, EntryInput, Inputs, PlanInput, Published, Seed, VerifyError, draw, verify,
};

/// Up to 8 plans with 0–4 slots, up to 40 entries (a quarter of them multiple-win), each with 1–3
/// wishes for distinct plans in a random rank order.
fn inputs() -> impl Strategy<Value = Inputs> {
    (1usize..=8)
        .prop_flat_map(|plan_count| {
            let plan_ids: Vec<i64> = (0..plan_count as i64).map(|i| 100 + 3 * i).collect();
            let capacities = prop::collection::vec(0u32..5, plan_count);
            let wishes = prop::sample::subsequence(plan_ids.clone(), 1..=plan_count.min(3)).prop_shuffle();
            let entries = prop::collection::vec((prop::bool::weighted(0.25), wishes), 0..40);
            (Just(plan_ids), capacities, entries)
        })
        .prop_map(|(plan_ids, capacities, entries)| {
            let plans = plan_ids.iter().zip(capacities).map(|(&id, capacity)| PlanInput { id, capacity }).collect();
            let mut next_application = 5000;
            let entries = entries
                .into_iter()
                .enumerate()
                .map(|(i, (multiple_win, wishes))| EntryInput {
                    // Ids in another order than the generation order, so canonical ordering matters.
                    id: 1 + ((i as i64 * 37) % 101),
                    multiple_win,
                    applications: wishes
                        .into_iter()
                        .enumerate()
                        .map(|(rank, plan_id)| {
                            next_application += 1;
                            ApplicationInput { id: next_application, choice: rank as u8 + 1, plan_id }
                        })
                        .collect(),
                })
                .collect();
            Inputs::new(plans, entries).expect("generated inputs are valid")
        })
}

fn seed() -> impl Strategy<Value = Seed> {
    any::<[u8; 32]>().prop_map(Seed::from_bytes)
}

/// Winners per plan id.
fn winners_per_plan(draw: &Draw) -> HashMap<i64, u32> {
    let mut counts = HashMap::new();
    for o in draw.winners() {
        *counts.entry(o.plan_id).or_default() += 1;
    }
    counts
}

fn capacity_of(inputs: &Inputs) -> HashMap<i64, u32> {
    inputs.plans().iter().map(|p| (p.id, p.capacity)).collect()
}

fn published<'a>(draw: &'a Draw, seed_hex: &'a str, inputs_text: &'a str) -> Published<'a> {
    Published {
        seed: seed_hex,
        seed_hash: &draw.seed_hash,
        inputs: inputs_text,
        inputs_digest: &draw.inputs_digest,
        result_digest: &draw.digest,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn a_plan_never_gets_more_winners_than_its_capacity(inputs in inputs(), seed in seed()) {
        let draw = draw(&seed, &inputs);
        let capacity = capacity_of(&inputs);
        for (plan, winners) in winners_per_plan(&draw) {
            prop_assert!(winners <= capacity[&plan], "plan {plan}: {winners} winners > {}", capacity[&plan]);
        }
        prop_assert_eq!(draw.outcomes.len(), inputs.application_count());
    }

    #[test]
    fn an_entry_wins_at_most_once_unless_multiple_win(inputs in inputs(), seed in seed()) {
        let draw = draw(&seed, &inputs);
        for entry in inputs.entries().iter().filter(|e| !e.multiple_win) {
            let wins = draw.winners().filter(|o| o.entry_id == entry.id).count();
            prop_assert!(wins <= 1, "entry {} won {wins} times", entry.id);
        }
    }

    #[test]
    fn a_later_wish_wins_only_when_every_earlier_one_could_not(inputs in inputs(), seed in seed()) {
        let draw = draw(&seed, &inputs);
        let capacity = capacity_of(&inputs);
        let full = winners_per_plan(&draw);
        let is_full = |plan: i64| full.get(&plan).copied().unwrap_or(0) == capacity[&plan];
        for win in draw.winners() {
            for earlier in draw.outcomes.iter().filter(|o| o.entry_id == win.entry_id && o.choice < win.choice) {
                prop_assert!(
                    earlier.won || is_full(earlier.plan_id),
                    "entry {} won wish {} while wish {} (plan {}) lost with a slot free",
                    win.entry_id, win.choice, earlier.choice, earlier.plan_id
                );
            }
        }
    }

    #[test]
    fn a_free_slot_is_refused_only_to_entries_that_already_won(inputs in inputs(), seed in seed()) {
        let draw = draw(&seed, &inputs);
        let capacity = capacity_of(&inputs);
        let winners = winners_per_plan(&draw);
        let multiple: HashMap<i64, bool> = inputs.entries().iter().map(|e| (e.id, e.multiple_win)).collect();
        for lost in draw.outcomes.iter().filter(|o| !o.won) {
            if winners.get(&lost.plan_id).copied().unwrap_or(0) < capacity[&lost.plan_id] {
                let won_earlier = draw.winners().any(|w| w.entry_id == lost.entry_id && w.choice < lost.choice);
                prop_assert!(
                    won_earlier && !multiple[&lost.entry_id],
                    "application {} lost although plan {} kept a free slot", lost.application_id, lost.plan_id
                );
            }
        }
    }

    #[test]
    fn the_same_seed_and_inputs_give_the_same_result(inputs in inputs(), seed in seed()) {
        let first = draw(&seed, &inputs);
        // Through the published text, as `vmarket lottery verify` reads it.
        let again = draw(&Seed::from_hex(&seed.to_hex()).unwrap(), &Inputs::parse(&inputs.canonical()).unwrap());
        prop_assert_eq!(&first, &again);
        let seed_hex = seed.to_hex();
        let text = inputs.canonical();
        prop_assert_eq!(verify(&published(&first, &seed_hex, &text)), Ok(first.clone()));
    }

    #[test]
    fn a_different_seed_gives_a_different_result(a in seed(), b in seed()) {
        prop_assume!(a != b);
        // 64 entries for 32 slots: C(64, 32) ≈ 1.8·10¹⁸ possible winner sets.
        let inputs = Inputs::new(
            vec![PlanInput { id: 1, capacity: 32 }],
            (1..=64).map(|id| EntryInput {
                id,
                multiple_win: false,
                applications: vec![ApplicationInput { id: 100 + id, choice: 1, plan_id: 1 }],
            }).collect(),
        ).unwrap();
        let (x, y) = (draw(&a, &inputs), draw(&b, &inputs));
        prop_assert_eq!(x.winners().count(), 32);
        prop_assert_ne!(&x.outcomes, &y.outcomes);
        prop_assert_ne!(&x.digest, &y.digest);
    }

    #[test]
    fn a_tampered_input_list_or_seed_does_not_verify(inputs in inputs(), seed in seed(), other in seed()) {
        prop_assume!(!inputs.entries().is_empty() && seed != other);
        let draw = draw(&seed, &inputs);
        let seed_hex = seed.to_hex();
        let text = inputs.canonical();
        let honest = published(&draw, &seed_hex, &text);

        // Flip one entry's multiple-win flag (the smallest change to the list).
        let mut entries = inputs.entries().to_vec();
        entries[0].multiple_win = !entries[0].multiple_win;
        let tampered = Inputs::new(inputs.plans().to_vec(), entries).unwrap().canonical();
        let result = verify(&Published { inputs: &tampered, ..honest });
        prop_assert!(matches!(result, Err(VerifyError::InputsDigest { .. })), "{result:?}");

        // Drop an entry.
        let dropped = Inputs::new(inputs.plans().to_vec(), inputs.entries()[1..].to_vec()).unwrap().canonical();
        let result = verify(&Published { inputs: &dropped, ..honest });
        prop_assert!(matches!(result, Err(VerifyError::InputsDigest { .. })), "{result:?}");

        // Reveal another seed than the one committed to.
        let other_hex = other.to_hex();
        let result = verify(&Published { seed: &other_hex, ..honest });
        prop_assert!(matches!(result, Err(VerifyError::SeedHash { .. })), "{result:?}");

        // Claim another result.
        let claimed = "0".repeat(64);
        let result = verify(&Published { result_digest: &claimed, ..honest });
        prop_assert!(matches!(result, Err(VerifyError::Result { .. })), "{result:?}");
    }
}

#[test]
fn capacity_is_filled_when_demand_exceeds_it() {
    // Three plans, 2 + 3 + 1 slots, 30 single-wish entries spread over them: every slot is taken.
    let plans =
        vec![PlanInput { id: 1, capacity: 2 }, PlanInput { id: 2, capacity: 3 }, PlanInput { id: 3, capacity: 1 }];
    let entries = (1..=30)
        .map(|id| EntryInput {
            id,
            multiple_win: false,
            applications: vec![ApplicationInput { id: 100 + id, choice: 1, plan_id: 1 + id % 3 }],
        })
        .collect();
    let inputs = Inputs::new(plans, entries).unwrap();
    for byte in 0..64u8 {
        let draw = draw(&Seed::from_bytes([byte; 32]), &inputs);
        let per_plan = winners_per_plan(&draw);
        assert_eq!((per_plan[&1], per_plan[&2], per_plan[&3]), (2, 3, 1), "seed byte {byte}");
    }
}

#[test]
fn every_entry_has_the_same_chance() {
    // Four entries, one slot, 4,000 fixed seeds (so the test is reproducible): each entry wins
    // about 1,000 times; a biased order (e.g. by id) would give one of them ~4,000 or 0.
    let inputs = Inputs::new(
        vec![PlanInput { id: 1, capacity: 1 }],
        (1..=4)
            .map(|id| EntryInput {
                id,
                multiple_win: false,
                applications: vec![ApplicationInput { id: 10 + id, choice: 1, plan_id: 1 }],
            })
            .collect(),
    )
    .unwrap();
    let mut wins: HashMap<i64, u32> = HashMap::new();
    for n in 0..4000u32 {
        let mut bytes = [0u8; 32];
        bytes[..4].copy_from_slice(&n.to_le_bytes());
        let draw = draw(&Seed::from_bytes(bytes), &inputs);
        *wins.entry(draw.winners().next().unwrap().entry_id).or_default() += 1;
    }
    for entry in 1..=4 {
        // ±5 standard deviations (σ ≈ 27).
        assert!((865..=1135).contains(&wins[&entry]), "entry {entry} won {} of 4000: {wins:?}", wins[&entry]);
    }
}

/// `vmarket lottery verify` with the published material only (no configuration, no database):
/// the honest draw verifies and prints its outcomes; one changed capacity in the file does not.
#[test]
fn the_command_line_verifies_a_published_draw_and_rejects_a_tampered_file() {
    let inputs = Inputs::new(
        vec![PlanInput { id: 1, capacity: 1 }, PlanInput { id: 2, capacity: 2 }],
        (1..=6)
            .map(|id| EntryInput {
                id,
                multiple_win: false,
                applications: vec![
                    ApplicationInput { id: 10 * id, choice: 1, plan_id: 1 + id % 2 },
                    ApplicationInput { id: 10 * id + 1, choice: 2, plan_id: 2 - id % 2 },
                ],
            })
            .collect(),
    )
    .unwrap();
    let seed = Seed::generate();
    let result = draw(&seed, &inputs);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("inputs.txt");
    let run = |text: &str| {
        std::fs::write(&file, text).unwrap();
        std::process::Command::new(env!("CARGO_BIN_EXE_vmarket"))
            .args(["lottery", "verify", "--list", "--seed", &seed.to_hex(), "--seed-hash", &result.seed_hash])
            .args(["--inputs-digest", &result.inputs_digest, "--result-digest", &result.digest, "--inputs"])
            .arg(&file)
            .env("ROCKET_DATABASE_URL", "sqlite:///nonexistent/dir/never-opened.db")
            .output()
            .unwrap()
    };

    let honest = run(&inputs.canonical());
    let stdout = String::from_utf8_lossy(&honest.stdout);
    assert!(honest.status.success(), "{stdout}{}", String::from_utf8_lossy(&honest.stderr));
    let listed: Vec<String> = stdout.lines().filter(|l| l.ends_with(" win")).map(str::to_string).collect();
    let expected: Vec<String> = result.winners().map(|o| format!("{} win", o.application_id)).collect();
    assert_eq!(listed, expected);
    assert!(stdout.contains("verified") && stdout.contains("3 winners of 12 applications"), "{stdout}");

    let tampered = run(&inputs.canonical().replace("plan 1 1\n", "plan 1 2\n"));
    assert!(!tampered.status.success());
    let stderr = String::from_utf8_lossy(&tampered.stderr);
    assert!(stderr.contains("does not verify") && stderr.contains(&result.inputs_digest), "{stderr}");
}
