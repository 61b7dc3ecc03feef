//! One file through the analysers: [`analyse`] (bytes in memory), [`analyse_zip`] (any
//! `Read + Seek`) and [`analyse_video`] (a path, through `ffprobe`), each giving an [`Analysis`].

use std::io::{Cursor, Read, Seek};
use std::path::Path;

use super::finding::{Code, Finding, Findings};
use super::limits::Limits;
use super::sniff::Kind;
use super::stats::Stats;
use super::vrm::VrmMeta;
use super::{archive, audio, model, raster, sniff, video};

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
