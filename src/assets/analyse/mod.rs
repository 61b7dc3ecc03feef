//! The asset uploader's analysers, rule sets and validation report (ASSETS.md "The asset
//! uploader"), as pure functions over bytes: no database, no HTTP, no clock, nothing else of the
//! application. Only [`analyse_video`] touches the outside world: it runs `ffprobe` on a file.
//!
//! # Flow
//!
//! 1. [`analyse`] (bytes in memory), [`analyse_zip`] (any `Read + Seek`) or [`analyse_video`]
//!    (a path) → an [`Analysis`]: the [`Kind`] sniffed from the bytes ([`sniff`]), the
//!    [`Stats`], the VRM meta and the analyser's own [`Finding`]s. Every analyser checks its
//!    [`Limits`] before it allocates or walks; a broken file gives findings, never a panic or an
//!    error that loses the why.
//! 2. [`build_report`] applies a [`RuleSet`] ([`rules`], built-ins in [`defaults`]) to the
//!    analysis and shapes the report like Khronos glTF-Validator's ([`report`]), with the
//!    VRChat performance rank as information ([`rank`]). Messages are locale keys
//!    (`asset_report.<code>.message` / `.solution`), translated at the edge.
//!
//! # Purity
//!
//! This module uses only `self::`/`super::` paths and external crates, never `crate::`, so it
//! builds alone (a scratch crate including it by `#[path]`) as well as inside the application.
//!
//! # Fuzzing
//!
//! `tests/fuzz.rs` mutates generated samples ([`samples`]) with proptest, 256 cases per target
//! in CI. A longer run: `PROPTEST_CASES=100000 cargo test --release fuzz_`.

pub mod analysis;
pub mod archive;
pub mod audio;
pub mod defaults;
pub mod evaluate;
pub mod finding;
pub mod glb;
pub mod limits;
pub mod model;
pub mod rank;
pub mod raster;
pub mod report;
pub mod rules;
pub mod samples;
pub mod sniff;
pub mod stats;
pub mod video;
pub mod vrm;

#[cfg(test)]
mod tests;

pub use analysis::{Analysis, analyse, analyse_video, analyse_zip, sha256_hex};
pub use finding::{Code, Finding, Findings, Location, Severity};
pub use limits::Limits;
pub use report::{Report, ReportInput, build_report};
pub use rules::{Limit, Rule, RuleSet};
pub use sniff::{Kind, sniff};
pub use stats::Stats;
pub use vrm::VrmMeta;
