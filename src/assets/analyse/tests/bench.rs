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
    // 4.2 million triangles, 32-bit indices: about 50 MB of BIN chunk.
    let bytes = samples::glb(&ModelSpec {
        triangles: 4_200_000,
        materials: 8,
        texture: Some((2048, 2048)),
        ..ModelSpec::default()
    });
    let runs = 20;
    let started = Instant::now();
    for _ in 0..runs {
        let analysis = analyse(&bytes, &Limits::default());
        assert_eq!(model(&analysis).triangles, 4_200_000);
    }
    let each = started.elapsed() / runs;
    println!("bench_a_50_mb_glb: {:.1} MB analysed in {each:?} per run", bytes.len() as f64 / 1e6);
}

#[test]
#[ignore = "a measurement; run in a release build"]
fn bench_a_100000_entry_zip() {
    let entries: Vec<ZipSample> =
        (0..100_000).map(|i| ZipSample::file(&format!("Assets/d{}/f{i}.asset", i % 100), b"")).collect();
    let bytes = samples::zip(&entries);
    let started = Instant::now();
    let analysis = analyse_zip(Cursor::new(&bytes), &Limits::default());
    let elapsed = started.elapsed();
    assert_eq!(listing(&analysis).entry_count, 100_000);
    println!("bench_a_100000_entry_zip: {:.1} MB listed in {elapsed:?}", bytes.len() as f64 / 1e6);
}
