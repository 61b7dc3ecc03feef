//! Sample generators, pure and deterministic: a GLB (or `.gltf` JSON) with a chosen number of
//! triangles and materials, an optional embedded PNG texture and a chosen bounding box; its VRM
//! 0.x and 1.0 variants with meta; a ZIP with chosen entries (including hostile ones: declared
//! sizes that lie, 100,000 entries with ZIP64); a tiny WAV; a PNG. Used by the tests, the fuzz
//! targets and, later, the demo data. Demo-sized outputs are a few hundred KB at most.

mod media;
mod model;
mod zip;

pub use media::{crc32, png, png_header_only, wav};
pub use model::{ModelSpec, PrimitiveMode, VrmSample, glb, glb_with, gltf_json};
pub use zip::{ZipSample, zip};
