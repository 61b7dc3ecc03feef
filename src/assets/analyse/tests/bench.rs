//! Measurements, not assertions: run with
//! `cargo test --release -- --ignored --nocapture bench_` and read the figures printed.

use std::io::Cursor;
use std::time::Instant;

use super::super::samples::{self, ModelSpec, ZipSample};
use super::super::{Limits, analyse, analyse_zip};
use super::{listing, model};

#[test]
#[ignore = "a measurement; run in a release build"]
fn bench_a_50_mb_glb() {
    // 4.2 million triangles over 2,000 materials and primitives (a JSON chunk of about 0.5 MB),
    // 32-bit indices, a 2048² texture: about 50 MB.
    let spec =
        ModelSpec { triangles: 4_200_000, materials: 2_000, texture: Some((2048, 2048)), ..ModelSpec::default() };
    let bytes = samples::glb(&spec);
    let mut times = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let analysis = analyse(&bytes, &Limits::default());
        times.push(started.elapsed());
        assert_eq!(model(&analysis).triangles, 4_200_000);
    }
    times.sort();
    let json = super::super::glb::split(&bytes).map_or(0, |c| c.json.len());
    println!(
        "bench_a_50_mb_glb: {:.1} MB (JSON chunk {json} bytes) analysed in {:?} (best of 20), {:?} (median)",
        bytes.len() as f64 / 1e6,
        times[0],
        times[10]
    );
}

#[test]
#[ignore = "a measurement; run in a release build"]
fn bench_a_100000_entry_zip() {
    let entries: Vec<ZipSample> =
        (0..100_000).map(|i| ZipSample::file(&format!("Assets/d{}/f{i}.asset", i % 100), b"")).collect();
    let bytes = samples::zip(&entries);
    let mut times = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        let analysis = analyse_zip(Cursor::new(&bytes), &Limits::default());
        times.push(started.elapsed());
        assert_eq!(listing(&analysis).entry_count, 100_000);
    }
    times.sort();
    println!(
        "bench_a_100000_entry_zip: {:.1} MB listed in {:?} (best of 5), {:?} (median)",
        bytes.len() as f64 / 1e6,
        times[0],
        times[2]
    );
}
