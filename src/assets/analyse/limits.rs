//! The analysers' own ceilings: checked before anything is allocated or walked, whatever the
//! asset setting's rule set says. A rule set's limits are lower and belong to the report
//! ([`super::rules`]); these keep a hostile file from costing memory or time.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Ceilings of the analysers. [`Limits::default`] suits every asset setting of ASSETS.md.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// Largest file analysed at all, in bytes.
    pub max_bytes: u64,
    /// Largest glTF JSON (the GLB's JSON chunk, or a `.gltf` file), in bytes.
    pub max_json_bytes: u64,
    /// Most meshes in a glTF.
    pub max_meshes: u64,
    /// Most primitives over all meshes.
    pub max_primitives: u64,
    /// Most accessors.
    pub max_accessors: u64,
    /// Most buffer views.
    pub max_buffer_views: u64,
    /// Most buffers.
    pub max_buffers: u64,
    /// Most images.
    pub max_images: u64,
    /// Most nodes.
    pub max_nodes: u64,
    /// Most materials.
    pub max_materials: u64,
    /// Largest image side in pixels (an image declaring more is refused before any decode).
    pub max_image_side: u32,
    /// Most entries in a ZIP archive.
    pub max_zip_entries: u64,
    /// Largest declared uncompressed total of a ZIP archive, in bytes (a zip bomb's tell).
    pub max_zip_uncompressed: u64,
    /// Largest uncompressed-to-compressed ratio of one ZIP entry …
    pub max_zip_ratio: u64,
    /// … counted only for entries of at least this many uncompressed bytes.
    pub zip_ratio_min_bytes: u64,
    /// Longest sound, in seconds.
    pub max_audio_seconds: f64,
    /// Most packets read to find a sound's duration when its header does not say it.
    pub max_audio_packets: u64,
    /// Longest wait for ffprobe (a video).
    #[serde(with = "seconds")]
    pub video_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 512 * MIB,
            max_json_bytes: 32 * MIB,
            max_meshes: 10_000,
            max_primitives: 50_000,
            max_accessors: 200_000,
            max_buffer_views: 200_000,
            max_buffers: 1_000,
            max_images: 2_000,
            max_nodes: 100_000,
            max_materials: 10_000,
            max_image_side: 16_384,
            max_zip_entries: 200_000,
            max_zip_uncompressed: 4 * 1024 * MIB,
            max_zip_ratio: 200,
            zip_ratio_min_bytes: MIB,
            max_audio_seconds: 3_600.0,
            max_audio_packets: 2_000_000,
            video_timeout: Duration::from_secs(30),
        }
    }
}

/// One mebibyte.
pub const MIB: u64 = 1024 * 1024;

mod seconds {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(value.as_secs_f64())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
        let seconds = f64::deserialize(deserializer)?;
        Duration::try_from_secs_f64(seconds).map_err(serde::de::Error::custom)
    }
}
