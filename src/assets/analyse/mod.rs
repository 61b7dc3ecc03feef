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

use std::io::{Cursor, Read, Seek};
use std::path::Path;

pub use finding::{Code, Finding, Findings, Location, Severity};
pub use limits::Limits;
pub use report::{Report, ReportInput, build_report};
pub use rules::{Limit, Rule, RuleSet};
pub use sniff::{Kind, sniff};
pub use stats::Stats;
pub use vrm::VrmMeta;

/// What the analysers found in one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The kind from the bytes, `None` when unknown (or empty).
    pub kind: Option<Kind>,
    /// The file's length in bytes.
    pub byte_length: u64,
    /// The measurements ([`Stats::None`] when the file could not be measured).
    pub stats: Stats,
    /// The VRM meta, for a VRM.
    pub vrm: Option<VrmMeta>,
    /// The analyser's findings (not the rule set's).
    pub findings: Findings,
}

impl Analysis {
    fn new(kind: Option<Kind>, byte_length: u64) -> Self {
        Self { kind, byte_length, stats: Stats::None, vrm: None, findings: Findings::default() }
    }

    fn refused(mut self, finding: Finding) -> Self {
        self.findings.push(finding);
        self
    }
}

/// Analyses a file held in memory. ZIPs are listed through [`analyse_zip`]; a video's kind is
/// sniffed but its stats need [`analyse_video`] (ffprobe reads a file), so here they stay
/// [`Stats::None`].
pub fn analyse(bytes: &[u8], limits: &Limits) -> Analysis {
    let length = bytes.len() as u64;
    if bytes.is_empty() {
        return Analysis::new(None, 0).refused(Finding::error(Code::EmptyFile));
    }
    if length > limits.max_bytes {
        let kind = sniff::sniff(bytes.get(..64).unwrap_or(bytes));
        return Analysis::new(kind, length)
            .refused(Finding::error(Code::BytesOverLimit).values(limits.max_bytes, length));
    }
    let Some(kind) = sniff::sniff(bytes) else {
        return Analysis::new(None, length).refused(Finding::error(Code::UnknownKind));
    };
    let mut analysis = Analysis::new(Some(kind), length);
    match kind {
        Kind::Glb | Kind::Vrm | Kind::Gltf => {
            let model = model::analyse(bytes, kind != Kind::Gltf, limits);
            analysis.stats = model.stats.map_or(Stats::None, Stats::Model);
            analysis.vrm = model.vrm;
            analysis.findings = model.findings;
        }
        Kind::Png | Kind::Jpeg | Kind::Gif | Kind::Webp => match raster::analyse(bytes, limits) {
            Ok(image) => analysis.stats = Stats::Image(image),
            Err(finding) => analysis.findings.push(finding),
        },
        Kind::Ogg | Kind::Mp3 | Kind::Wav | Kind::Flac => match audio::analyse(bytes, kind, limits) {
            Ok(sound) => analysis.stats = Stats::Audio(sound),
            Err(finding) => analysis.findings.push(finding),
        },
        Kind::Zip => return analyse_zip(Cursor::new(bytes), limits),
        Kind::Mp4 | Kind::Mov | Kind::Webm | Kind::Matroska => {}
    }
    analysis
}

/// Lists a ZIP archive from any seekable reader (a file, an object-store download), reading its
/// central directory only.
pub fn analyse_zip<R: Read + Seek>(mut reader: R, limits: &Limits) -> Analysis {
    let mut head = [0u8; 4];
    let length = reader.seek(std::io::SeekFrom::End(0)).unwrap_or(0);
    let read_head = reader.rewind().and_then(|()| reader.read_exact(&mut head));
    let kind = read_head.ok().and_then(|()| sniff::sniff(&head)).filter(|k| *k == Kind::Zip);
    if length == 0 {
        return Analysis::new(None, 0).refused(Finding::error(Code::EmptyFile));
    }
    let Some(kind) = kind else {
        return Analysis::new(None, length).refused(Finding::error(Code::Unreadable).actual("not a ZIP archive"));
    };
    let (stats, findings) = archive::analyse(reader, limits);
    Analysis { stats: stats.map_or(Stats::None, Stats::Zip), findings, ..Analysis::new(Some(kind), length) }
}

/// Analyses a video file with ffprobe (the one analyser that runs a process), killing it after
/// [`Limits::video_timeout`].
pub fn analyse_video(path: &Path, limits: &Limits) -> Analysis {
    let mut head = [0u8; 64];
    let opened = std::fs::File::open(path).and_then(|mut file| {
        let length = file.metadata()?.len();
        let read = file.read(&mut head)?;
        Ok((length, read))
    });
    let Ok((length, read)) = opened else {
        return Analysis::new(None, 0).refused(Finding::error(Code::Unreadable).actual("file"));
    };
    if length == 0 {
        return Analysis::new(None, 0).refused(Finding::error(Code::EmptyFile));
    }
    let kind = sniff::sniff(&head[..read]);
    let analysis = Analysis::new(kind, length);
    if length > limits.max_bytes {
        return analysis.refused(Finding::error(Code::BytesOverLimit).values(limits.max_bytes, length));
    }
    if !kind.is_some_and(Kind::is_video) {
        return analysis.refused(Finding::error(Code::Unreadable).actual("not a video"));
    }
    match video::probe(path, limits.video_timeout) {
        Ok(stats) if stats.video_codec.is_none() => {
            Analysis { stats: Stats::Video(stats), ..analysis }.refused(Finding::error(Code::VideoStreamMissing))
        }
        Ok(stats) => Analysis { stats: Stats::Video(stats), ..analysis },
        Err(finding) => analysis.refused(finding),
    }
}

/// SHA-256 of `bytes`, lower-case hex (the report's `asset.sha256`, when the caller has the bytes
/// in memory rather than a digest computed while streaming).
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(bytes))
}
