//! The glTF 2.0 analyser (GLB, `.gltf` JSON, VRM).
//!
//! Steps, each bounded before it allocates: the GLB container is split by hand ([`super::glb`]);
//! the JSON is counted against the [`Limits`] ceilings, then parsed into `gltf::json::Root` and
//! validated as `gltf::Document::from_json` validates it ([`json`]); byte ranges of buffers,
//! views and accessors are checked ([`ranges`]); the scene is walked for counts and the bounding
//! box ([`scene`]); image headers are probed ([`textures`]); the VRM meta is read
//! ([`super::vrm`]).
//!
//! The walk reads the validated JSON layer with bounds-checked `get`s rather than through
//! `gltf::Document`'s wrappers, because some wrappers unwrap fields the validation does not
//! check (an image with a `bufferView` but no `mimeType` would panic in `Image::source`).
//! No vertex, index or pixel is read, and the BIN chunk is never copied: a 50 MB GLB costs its
//! JSON, not its size.

pub mod buffers;
pub mod json;
pub mod math;
pub mod ranges;
pub mod scene;
pub mod textures;

use super::finding::Findings;
use super::glb;
use super::limits::Limits;
use super::stats::{BoundingBox, ModelStats};
use super::vrm::{self, VrmMeta};

/// What the model analyser found.
#[derive(Debug, Default)]
pub struct ModelAnalysis {
    /// The stats, unless the file could not be read as glTF at all.
    pub stats: Option<ModelStats>,
    /// The VRM meta, if the file has the VRM extension.
    pub vrm: Option<VrmMeta>,
    /// Findings.
    pub findings: Findings,
}

/// Analyses a GLB (`is_glb`) or a glTF JSON file.
pub fn analyse(bytes: &[u8], is_glb: bool, limits: &Limits) -> ModelAnalysis {
    let (json, bin) = if is_glb {
        match glb::split(bytes) {
            Ok(container) => (container.json, container.bin),
            Err(finding) => return ModelAnalysis { findings: vec![finding].into(), ..ModelAnalysis::default() },
        }
    } else {
        (bytes, None)
    };
    let root = match json::load(json, limits) {
        Ok(root) => root,
        Err(findings) => return ModelAnalysis { findings: findings.into(), ..ModelAnalysis::default() },
    };
    let mut findings = Findings::default();
    let buffers = buffers::resolve(&root, bin);
    ranges::check(&root, &buffers, &mut findings);
    let walk = scene::walk(&root, &mut findings);
    let textures = textures::probe(&root, &buffers, limits, &mut findings);
    let vrm = vrm::read(root.extensions.as_ref().map(|e| &e.others));
    let names = |list: &[String]| list.iter().take(100).map(|n| n.chars().take(100).collect()).collect();
    let stats = ModelStats {
        triangles: walk.triangles,
        vertices: walk.vertices,
        draw_calls: walk.draw_calls,
        materials: root.materials.len() as u64,
        meshes: root.meshes.len() as u64,
        mesh_instances: walk.mesh_instances,
        skinned_meshes: walk.skinned_meshes,
        joints: walk.joints,
        morph_targets: walk.morph_targets,
        animations: root.animations.len() as u64,
        nodes: root.nodes.len() as u64,
        texture_gpu_bytes: textures.iter().map(|t| t.gpu_bytes).sum(),
        textures,
        bounding_box: walk.bounds.map(|b| BoundingBox {
            min: b.min,
            max: b.max,
            size: [0, 1, 2].map(|axis| b.max[axis] - b.min[axis]),
        }),
        extensions_used: names(&root.extensions_used),
        extensions_required: names(&root.extensions_required),
    };
    ModelAnalysis { stats: Some(stats), vrm, findings }
}
