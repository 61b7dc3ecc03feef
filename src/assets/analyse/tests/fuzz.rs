//! Fuzzing with proptest over mutated real samples: bytes flipped, inserted, deleted and the file
//! truncated, for a GLB, two VRMs, a PNG, a WAV and a ZIP; and, for the GLB, its JSON's numbers
//! replaced by extreme values and its keys removed while the JSON stays valid (so the mutations
//! reach the analyser past the parser). The property: no panic, and a report is built. 256 cases per target by default (seconds in CI); a longer run:
//!
//! ```text
//! PROPTEST_CASES=100000 cargo test --release fuzz_
//! ```

use std::sync::OnceLock;

use proptest::prelude::*;
use serde_json::Value;

use super::super::samples::{self, ModelSpec, VrmSample, ZipSample};
use super::super::{Limits, ReportInput, analyse, build_report, defaults, glb};

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

/// Every number and every object key of a JSON document, as paths.
fn paths(value: &Value, path: &mut Vec<String>, numbers: &mut Vec<Vec<String>>, keys: &mut Vec<Vec<String>>) {
    match value {
        Value::Number(_) => numbers.push(path.clone()),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                paths(item, path, numbers, keys);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                path.push(k.clone());
                keys.push(path.clone());
                paths(item, path, numbers, keys);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(root: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(root, |node, step| match node {
        Value::Array(items) => items.get_mut(step.parse::<usize>().ok()?),
        Value::Object(map) => map.get_mut(step),
        _ => None,
    })
}

/// The seed GLB with `edits` applied to its JSON: `(true, i, v)` sets the i-th number to the
/// v-th extreme value, `(false, i, _)` removes the i-th key.
fn json_edited(edits: &[(bool, usize, usize)]) -> Vec<u8> {
    const EXTREMES: [f64; 9] =
        [0.0, -1.0, 1.0, 255.0, 65_536.0, 4_294_967_295.0, 9.007_199_254_740_992e15, 1e300, -1e300];
    let seed = &seeds().glb;
    let Ok(container) = glb::split(seed) else { return seed.clone() };
    let Ok(mut json) = serde_json::from_slice::<Value>(container.json) else { return seed.clone() };
    for (number, index, value) in edits {
        let (mut numbers, mut keys) = (Vec::new(), Vec::new());
        paths(&json, &mut Vec::new(), &mut numbers, &mut keys);
        if *number && !numbers.is_empty() {
            if let Some(slot) = at(&mut json, &numbers[index % numbers.len()]) {
                *slot = serde_json::json!(EXTREMES[value % EXTREMES.len()]);
            }
        } else if let Some((last, parent)) = keys.get(index % keys.len().max(1)).and_then(|p| p.split_last())
            && let Some(Value::Object(map)) = at(&mut json, parent)
        {
            map.remove(last);
        }
    }
    let mut text = serde_json::to_vec(&json).unwrap_or_default();
    text.resize(text.len().next_multiple_of(4), b' ');
    let bin = container.bin.unwrap_or_default();
    let mut out = b"glTF".to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((28 + text.len() + bin.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..6)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_glb(m in mutations()) { survives(&seeds().glb, &m) }

    #[test]
    fn fuzz_glb_json(edits in prop::collection::vec((any::<bool>(), any::<usize>(), any::<usize>()), 1..6)) {
        survives(&json_edited(&edits), &[])
    }

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
