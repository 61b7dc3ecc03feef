//! What the analysers measured: serialisable (snake_case) and stored as the report's `stats`.
//!
//! [`Stats::version_detail`] gives the fields the product spec lists as an asset version's
//! detail (spec §3 "Asset version"): `polygon_count` (avatar, furniture), the image `width` and
//! `height` (scene detail), the number of ZIP entries.

use serde::{Deserialize, Serialize};

/// The measurements of one file, by what it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Stats {
    /// Nothing measured (unknown kind, unreadable file, or a video analysed in memory).
    None,
    /// A glTF, GLB or VRM.
    Model(ModelStats),
    /// A still image.
    Image(ImageStats),
    /// A sound.
    Audio(AudioStats),
    /// A ZIP archive's listing.
    Zip(ZipStats),
    /// A video (from ffprobe).
    Video(VideoStats),
}

/// A 3D model's counts. Counts follow the scene: a mesh instantiated by two nodes counts twice
/// in `triangles`, `vertices`, `draw_calls` and `mesh_instances`; a mesh no node uses counts in
/// `meshes` only. Nothing here reads vertex data: counts come from accessor `count`s.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelStats {
    /// Triangles drawn: per primitive, TRIANGLES `count / 3`, TRIANGLE_STRIP and TRIANGLE_FAN
    /// `count - 2` (count of indices, or of positions when not indexed); points and lines 0.
    /// This is the rule sets' "polygons".
    pub triangles: u64,
    /// Vertices drawn (POSITION counts).
    pub vertices: u64,
    /// Primitives drawn (one draw call, one material slot each).
    pub draw_calls: u64,
    /// Materials in the document.
    pub materials: u64,
    /// Meshes in the document.
    pub meshes: u64,
    /// Nodes of the scene that draw a mesh.
    pub mesh_instances: u64,
    /// Nodes of the scene that draw a skinned mesh.
    pub skinned_meshes: u64,
    /// Distinct joint nodes of the skins the scene uses.
    pub joints: u64,
    /// Morph targets of the meshes the scene draws (per instance).
    pub morph_targets: u64,
    /// Animations.
    pub animations: u64,
    /// Nodes in the document.
    pub nodes: u64,
    /// One entry per image of the document.
    pub textures: Vec<TextureStats>,
    /// Sum of the textures' estimated GPU bytes.
    pub texture_gpu_bytes: u64,
    /// The scene's axis-aligned bounding box, if any primitive has POSITION bounds.
    pub bounding_box: Option<BoundingBox>,
    /// `extensionsUsed`.
    pub extensions_used: Vec<String>,
    /// `extensionsRequired`.
    pub extensions_required: Vec<String>,
}

/// One image of a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextureStats {
    /// Its index in the glTF `images` array.
    pub image: usize,
    /// Its format from the header, when readable.
    pub format: Option<ImageFormat>,
    /// Width in pixels, when readable.
    pub width: Option<u32>,
    /// Height in pixels, when readable.
    pub height: Option<u32>,
    /// Bytes of the encoded image in the file.
    pub byte_size: u64,
    /// Estimated GPU memory: see [`gpu_bytes`].
    pub gpu_bytes: u64,
}

/// An image format the header probe recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
    /// GIF.
    Gif,
    /// WebP.
    Webp,
    /// KTX 2.0 (KHR_texture_basisu).
    Ktx2,
}

/// Estimated GPU bytes of a `width` × `height` texture: RGBA8 with a full mip chain,
/// `w · h · 4 · 4/3`. An upper bound for block-compressed formats, which engines often use.
pub fn gpu_bytes(width: u32, height: u32) -> u64 {
    u64::from(width) * u64::from(height) * 4 * 4 / 3
}

/// An axis-aligned box in metres, in glTF axes (+Y up; width is X, height Y, depth Z).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BoundingBox {
    /// Smallest corner.
    pub min: [f64; 3],
    /// Largest corner.
    pub max: [f64; 3],
    /// `max - min`.
    pub size: [f64; 3],
}

/// A still image, from its header only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImageStats {
    /// Format.
    pub format: ImageFormat,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Channels and bit depth as the decoder reports them, e.g. `rgba8`, `l16`.
    pub color_type: Option<String>,
    /// Estimated GPU bytes, see [`gpu_bytes`].
    pub gpu_bytes: u64,
}

/// A sound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AudioStats {
    /// Container: `ogg`, `mp3`, `wav`, `flac`.
    pub container: String,
    /// Codec of the default track, e.g. `vorbis`, `mp3`, `pcm_s16le`.
    pub codec: String,
    /// Channels.
    pub channels: Option<u32>,
    /// Sample rate in Hz.
    pub sample_rate: Option<u32>,
    /// Duration in seconds.
    pub duration_seconds: Option<f64>,
}

/// A ZIP archive's central directory (nothing is extracted).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ZipStats {
    /// Entries (files and directories).
    pub entry_count: u64,
    /// File entries.
    pub file_count: u64,
    /// Directory entries.
    pub directory_count: u64,
    /// Sum of compressed sizes.
    pub total_compressed: u64,
    /// Sum of declared uncompressed sizes.
    pub total_uncompressed: u64,
    /// The entries; the report keeps the first [`super::report::MAX_REPORT_ENTRIES`].
    pub entries: Vec<ZipEntry>,
    /// Whether `entries` was shortened (in the report).
    pub entries_truncated: bool,
}

/// One ZIP entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ZipEntry {
    /// The path as stored (CP437 or UTF-8 decoded).
    pub path: String,
    /// Compressed size.
    pub compressed_size: u64,
    /// Declared uncompressed size.
    pub uncompressed_size: u64,
    /// A directory entry.
    pub is_dir: bool,
}

/// A video, as ffprobe reports it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VideoStats {
    /// ffprobe's `format_name`, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`.
    pub container: Option<String>,
    /// Duration in seconds.
    pub duration_seconds: Option<f64>,
    /// Codec of the first video stream.
    pub video_codec: Option<String>,
    /// Width in pixels.
    pub width: Option<u32>,
    /// Height in pixels.
    pub height: Option<u32>,
    /// Frames per second (from `avg_frame_rate`, else `r_frame_rate`).
    pub frame_rate: Option<f64>,
    /// Bits per second of the whole file.
    pub bit_rate: Option<u64>,
    /// Codec of the first audio stream.
    pub audio_codec: Option<String>,
}

/// The detail fields of an asset version that come from the file (product spec §3).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VersionDetail {
    /// Avatar and furniture `polygon_count`: the triangles drawn.
    pub polygon_count: Option<u64>,
    /// Scene detail image width.
    pub width: Option<u32>,
    /// Scene detail image height.
    pub height: Option<u32>,
    /// ZIP entries.
    pub zip_entries: Option<u64>,
}

impl Stats {
    /// The version detail fields these stats give.
    pub fn version_detail(&self) -> VersionDetail {
        match self {
            Self::Model(model) => VersionDetail { polygon_count: Some(model.triangles), ..VersionDetail::default() },
            Self::Image(image) => {
                VersionDetail { width: Some(image.width), height: Some(image.height), ..VersionDetail::default() }
            }
            Self::Video(video) => {
                VersionDetail { width: video.width, height: video.height, ..VersionDetail::default() }
            }
            Self::Zip(zip) => VersionDetail { zip_entries: Some(zip.entry_count), ..VersionDetail::default() },
            Self::None | Self::Audio(_) => VersionDetail::default(),
        }
    }
}
