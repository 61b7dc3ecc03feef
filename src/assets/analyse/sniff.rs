//! The kind of a file from its bytes alone — never from its name or the client's content type.
//!
//! Magic numbers: GLB `glTF` + version 2 (a VRM is a GLB whose JSON has `extensions.VRM`, 0.x, or
//! `extensions.VRMC_vrm`, 1.0); glTF JSON is a JSON object with `asset.version` "2.x"; PNG, JPEG
//! (`FF D8 FF`), GIF (`GIF87a`/`GIF89a`), WebP (`RIFF….WEBP`); OGG (`OggS`), MP3 (an ID3 tag or an
//! MPEG audio frame sync), WAV (`RIFF….WAVE`), FLAC (`fLaC`); ZIP (`PK\3\4`, or `PK\5\6` for an
//! empty archive); MP4/MOV (an `ftyp` box at offset 4; brand `qt  ` is QuickTime), WebM/Matroska
//! (EBML `1A 45 DF A3`, told apart by the DocType).

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use super::glb;

/// A file kind the analysers know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Binary glTF 2.0 (not a VRM).
    Glb,
    /// glTF 2.0 JSON.
    Gltf,
    /// A VRM avatar (0.x or 1.0): a GLB with the VRM extension.
    Vrm,
    /// PNG image.
    Png,
    /// JPEG image.
    Jpeg,
    /// GIF image.
    Gif,
    /// WebP image.
    Webp,
    /// Ogg container (Vorbis, Opus, …).
    Ogg,
    /// MPEG audio layer III.
    Mp3,
    /// RIFF WAVE.
    Wav,
    /// FLAC.
    Flac,
    /// ZIP archive.
    Zip,
    /// MP4 (ISO base media).
    Mp4,
    /// QuickTime movie.
    Mov,
    /// WebM.
    Webm,
    /// Matroska other than WebM.
    Matroska,
}

impl Kind {
    /// The media type. A VRM is reported as `model/gltf-binary` (VRM has no registered type; it
    /// is a GLB, and the report's `asset.type` says `vrm`).
    pub fn mime_type(self) -> &'static str {
        match self {
            Self::Glb | Self::Vrm => "model/gltf-binary",
            Self::Gltf => "model/gltf+json",
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Gif => "image/gif",
            Self::Webp => "image/webp",
            Self::Ogg => "audio/ogg",
            Self::Mp3 => "audio/mpeg",
            Self::Wav => "audio/wav",
            Self::Flac => "audio/flac",
            Self::Zip => "application/zip",
            Self::Mp4 => "video/mp4",
            Self::Mov => "video/quicktime",
            Self::Webm => "video/webm",
            Self::Matroska => "video/x-matroska",
        }
    }

    /// The snake_case name, as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Glb => "glb",
            Self::Gltf => "gltf",
            Self::Vrm => "vrm",
            Self::Png => "png",
            Self::Jpeg => "jpeg",
            Self::Gif => "gif",
            Self::Webp => "webp",
            Self::Ogg => "ogg",
            Self::Mp3 => "mp3",
            Self::Wav => "wav",
            Self::Flac => "flac",
            Self::Zip => "zip",
            Self::Mp4 => "mp4",
            Self::Mov => "mov",
            Self::Webm => "webm",
            Self::Matroska => "matroska",
        }
    }

    /// A 3D model (glTF, GLB or VRM).
    pub fn is_model(self) -> bool {
        matches!(self, Self::Glb | Self::Gltf | Self::Vrm)
    }

    /// A still image.
    pub fn is_image(self) -> bool {
        matches!(self, Self::Png | Self::Jpeg | Self::Gif | Self::Webp)
    }

    /// A sound.
    pub fn is_audio(self) -> bool {
        matches!(self, Self::Ogg | Self::Mp3 | Self::Wav | Self::Flac)
    }

    /// A video (analysed by [`super::analysis::analyse_video`], which needs a file path).
    pub fn is_video(self) -> bool {
        matches!(self, Self::Mp4 | Self::Mov | Self::Webm | Self::Matroska)
    }
}

/// The kind of `bytes`, or `None` when no analyser knows it.
///
/// For a GLB this reads the JSON chunk once without building it (to tell a VRM); a GLB whose
/// JSON chunk is unreadable is still a [`Kind::Glb`] (the analyser then says why).
pub fn sniff(bytes: &[u8]) -> Option<Kind> {
    let at = |range: std::ops::Range<usize>| bytes.get(range).unwrap_or_default();
    if at(0..4) == b"glTF" {
        return (at(4..8) == 2u32.to_le_bytes()).then(|| sniff_glb(bytes));
    }
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some(Kind::Png);
    }
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Some(Kind::Jpeg);
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return Some(Kind::Gif);
    }
    if at(0..4) == b"RIFF" {
        return match at(8..12) {
            b"WEBP" => Some(Kind::Webp),
            b"WAVE" => Some(Kind::Wav),
            _ => None,
        };
    }
    if bytes.starts_with(b"OggS") {
        return Some(Kind::Ogg);
    }
    if bytes.starts_with(b"fLaC") {
        return Some(Kind::Flac);
    }
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return Some(Kind::Zip);
    }
    if at(4..8) == b"ftyp" {
        return Some(if at(8..12) == b"qt  " { Kind::Mov } else { Kind::Mp4 });
    }
    if bytes.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]) {
        return Some(if is_webm(bytes) { Kind::Webm } else { Kind::Matroska });
    }
    if bytes.starts_with(b"ID3") || is_mpeg_audio_frame(bytes) {
        return Some(Kind::Mp3);
    }
    is_gltf_json(bytes).then_some(Kind::Gltf)
}

/// A GLB's JSON chunk names the VRM extension.
fn sniff_glb(bytes: &[u8]) -> Kind {
    match glb::split(bytes) {
        Ok(container) if has_vrm_extension(container.json) => Kind::Vrm,
        _ => Kind::Glb,
    }
}

#[derive(Deserialize)]
struct VrmProbe {
    #[serde(default)]
    extensions: Option<VrmProbeExtensions>,
}

#[derive(Deserialize)]
struct VrmProbeExtensions {
    #[serde(rename = "VRM")]
    vrm0: Option<IgnoredAny>,
    #[serde(rename = "VRMC_vrm")]
    vrm1: Option<IgnoredAny>,
}

fn has_vrm_extension(json: &[u8]) -> bool {
    serde_json::from_slice::<VrmProbe>(json)
        .ok()
        .and_then(|probe| probe.extensions)
        .is_some_and(|ext| ext.vrm0.is_some() || ext.vrm1.is_some())
}

#[derive(Deserialize)]
struct AssetProbe {
    asset: AssetVersion,
}

#[derive(Deserialize)]
struct AssetVersion {
    version: String,
}

fn is_gltf_json(bytes: &[u8]) -> bool {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    first == Some(&b'{')
        && serde_json::from_slice::<AssetProbe>(bytes).is_ok_and(|probe| probe.asset.version.starts_with("2."))
}

/// An MPEG audio frame header: 11 sync bits, a defined layer, a usable bitrate and sample rate.
/// Layer bits `00` (ADTS AAC) are refused.
fn is_mpeg_audio_frame(bytes: &[u8]) -> bool {
    let [b0, b1, b2, ..] = bytes else { return false };
    let layer = (b1 >> 1) & 0b11;
    let version = (b1 >> 3) & 0b11;
    let bitrate = b2 >> 4;
    let rate = (b2 >> 2) & 0b11;
    *b0 == 0xFF && b1 & 0xE0 == 0xE0 && layer != 0 && version != 1 && bitrate != 0xF && rate != 0b11
}

/// The EBML header's DocType (element `42 82`) within the first bytes says `webm`.
fn is_webm(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64)];
    head.windows(2).position(|w| w == [0x42, 0x82]).is_some_and(|at| {
        let size = head.get(at + 2).map_or(0, |s| usize::from(s & 0x7F));
        head.get(at + 3..at + 3 + size) == Some(b"webm".as_slice())
    })
}
