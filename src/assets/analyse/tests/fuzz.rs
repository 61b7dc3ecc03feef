//! Fuzzing with proptest over mutated real samples: bytes flipped, inserted, deleted and the file
//! truncated, for a GLB, two VRMs, a PNG, a WAV and a ZIP. The property: no panic, and a report
//! is built. 256 cases per target by default (seconds in CI); a longer run:
//!
//! ```text
//! PROPTEST_CASES=100000 cargo test --release fuzz_
//! ```

use std::sync::OnceLock;

use proptest::prelude::*;

use super::super::samples::{self, ModelSpec, VrmSample, ZipSample};
use super::super::{Limits, ReportInput, analyse, build_report, defaults};

/// One change to the bytes.
#[derive(Debug, Clone)]
enum Mutation {
    /// XOR a byte.
    Flip(usize, u8),
    /// Set a byte (biased to the first 64 bytes, where headers live).
    SetHeader(usize, u8),
    /// Insert bytes.
    Insert(usize, Vec<u8>),
    /// Delete a range.
    Delete(usize, usize),
    /// Keep a prefix.
    Truncate(usize),
    /// Overwrite four bytes with a 32-bit value (lengths, counts).
    Word(usize, u32),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1..=255u8).prop_map(|(at, x)| Mutation::Flip(at, x)),
        3 => (0..64usize, any::<u8>()).prop_map(|(at, v)| Mutation::SetHeader(at, v)),
        1 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16)).prop_map(|(at, b)| Mutation::Insert(at, b)),
        1 => (any::<usize>(), 1..64usize).prop_map(|(at, n)| Mutation::Delete(at, n)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        2 => (any::<usize>(), prop_oneof![Just(0u32), Just(u32::MAX), Just(0x8000_0000), any::<u32>()])
            .prop_map(|(at, v)| Mutation::Word(at, v)),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let len = bytes.len().max(1);
    match mutation {
        Mutation::Flip(at, x) => {
            if let Some(b) = bytes.get_mut(at % len) {
                *b ^= x;
            }
        }
        Mutation::SetHeader(at, v) => {
            if let Some(b) = bytes.get_mut(*at) {
                *b = *v;
            }
        }
        Mutation::Insert(at, inserted) => {
            let at = at % (bytes.len() + 1);
            bytes.splice(at..at, inserted.iter().copied());
        }
        Mutation::Delete(at, n) => {
            let at = at % len;
            let end = (at + n).min(bytes.len());
            if at < end {
                bytes.drain(at..end);
            }
        }
        Mutation::Truncate(at) => bytes.truncate(at % len),
        Mutation::Word(at, v) => {
            let at = at % len;
            if let Some(slot) = bytes.get_mut(at..at + 4) {
                slot.copy_from_slice(&v.to_le_bytes());
            }
        }
    }
}

struct Seeds {
    glb: Vec<u8>,
    vrm0: Vec<u8>,
    vrm1: Vec<u8>,
    png: Vec<u8>,
    wav: Vec<u8>,
    zip: Vec<u8>,
}

fn seeds() -> &'static Seeds {
    static SEEDS: OnceLock<Seeds> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let small =
            ModelSpec { triangles: 24, materials: 2, texture: Some((8, 8)), skinned: true, ..ModelSpec::default() };
        Seeds {
            glb: samples::glb(&small),
            vrm0: samples::glb(&ModelSpec { vrm: Some(VrmSample::V0), ..small.clone() }),
            vrm1: samples::glb(&ModelSpec { vrm: Some(VrmSample::V1), ..small }),
            png: samples::png(8, 8),
            wav: samples::wav(800, 8000),
            zip: samples::zip(&[
                ZipSample::dir("Booth/"),
                ZipSample::file("Booth/a.mat", b"material"),
                ZipSample::file("Booth/big.bin", &[0; 64]).declaring(50_000_000),
            ]),
        }
    })
}

/// Mutates `seed`, analyses it and builds a report against every built-in rule set.
fn survives(seed: &[u8], mutations: &[Mutation]) {
    let mut bytes = seed.to_vec();
    for mutation in mutations {
        apply(&mut bytes, mutation);
    }
    let analysis = analyse(&bytes, &Limits::default());
    let input = ReportInput {
        asset_id: 1,
        version: 1,
        mime_type: None,
        byte_length: bytes.len() as u64,
        sha256: String::new(),
        validated_at: "2026-01-01T00:00:00Z".into(),
    };
    for rules in defaults::all() {
        let report = build_report(&input, &analysis, &rules);
        assert!(serde_json::to_vec(&report).is_ok());
    }
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..6)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_glb(m in mutations()) { survives(&seeds().glb, &m) }

    #[test]
    fn fuzz_vrm0(m in mutations()) { survives(&seeds().vrm0, &m) }

    #[test]
    fn fuzz_vrm1(m in mutations()) { survives(&seeds().vrm1, &m) }

    #[test]
    fn fuzz_png(m in mutations()) { survives(&seeds().png, &m) }

    #[test]
    fn fuzz_wav(m in mutations()) { survives(&seeds().wav, &m) }

    #[test]
    fn fuzz_zip(m in mutations()) { survives(&seeds().zip, &m) }
}
