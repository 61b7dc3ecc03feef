//! Tests of the analysers, the rules and the report over generated samples. The timing
//! measurements are `#[ignore]`d tests in `bench.rs` (run them with `--release -- --ignored`);
//! no unit test asserts a time.

mod bench;
mod fuzz;
mod hostile;
mod locales;
mod media;
mod model;
mod report;
mod video;
mod zip;

use super::stats::{ModelStats, ZipStats};
use super::{Analysis, Limits, Stats, analyse};

/// Analyses with the default limits.
fn run(bytes: &[u8]) -> Analysis {
    analyse(bytes, &Limits::default())
}

/// The model stats of an analysis, or a panic naming what it was.
fn model(analysis: &Analysis) -> &ModelStats {
    match &analysis.stats {
        Stats::Model(model) => model,
        other => panic!("not a model: {other:?}, findings {:?}", analysis.findings),
    }
}

/// The ZIP stats of an analysis.
fn listing(analysis: &Analysis) -> &ZipStats {
    match &analysis.stats {
        Stats::Zip(zip) => zip,
        other => panic!("not a zip: {other:?}, findings {:?}", analysis.findings),
    }
}

/// The codes of the analyser's findings.
fn codes(analysis: &Analysis) -> Vec<super::Code> {
    analysis.findings.list.iter().map(|f| f.code).collect()
}
