//! The scene walk: which nodes draw which meshes, with their world transforms, giving the counts
//! that follow instances (triangles, vertices, draw calls, skinned meshes, joints, morph targets)
//! and the bounding box.
//!
//! **The bounding box** is the union, over every primitive drawn, of its POSITION accessor's
//! `min`/`max` box with its eight corners transformed by the node's world transform (so rotated
//! parts give a conservative box). For a skinned mesh the node's own transform is ignored, as
//! glTF 2.0 §3.7.3.3 says: the positions are taken in scene space, i.e. the bind pose. Morph
//! targets and animations do not grow the box. No vertex is read.
//!
//! The scene is the default one (`scene`), else the first; a file without scenes draws the nodes
//! that no node has as a child. A node reached twice (a cycle, or two parents, which glTF
//! forbids) is reported and not walked again.

use std::collections::BTreeSet;

use gltf::json::mesh::{Mode, Semantic};
use gltf::json::validation::Checked;
use gltf::json::{Accessor, Node, Root};

use super::super::finding::{Code, Finding, Findings};
use super::math::{Aabb, IDENTITY, Mat4, from_trs, mul};

/// What the walk counted.
#[derive(Debug, Default)]
pub struct Walk {
    /// Triangles drawn.
    pub triangles: u64,
    /// Vertices drawn.
    pub vertices: u64,
    /// Primitives drawn.
    pub draw_calls: u64,
    /// Nodes drawing a mesh.
    pub mesh_instances: u64,
    /// Nodes drawing a skinned mesh.
    pub skinned_meshes: u64,
    /// Distinct joints of the skins used.
    pub joints: u64,
    /// Morph targets of the meshes drawn.
    pub morph_targets: u64,
    /// The box, if any primitive had POSITION bounds.
    pub bounds: Option<Aabb>,
}

fn local(node: &Node) -> Mat4 {
    if let Some(m) = node.matrix {
        return m.map(f64::from);
    }
    let t = node.translation.unwrap_or([0.; 3]);
    let r = node.rotation.map_or([0., 0., 0., 1.], |q| q.0);
    let s = node.scale.unwrap_or([1.; 3]);
    from_trs(t, r, s)
}

fn roots(root: &Root) -> Vec<usize> {
    let scene = root.scene.map(|s| s.value()).unwrap_or(0);
    if let Some(scene) = root.scenes.get(scene) {
        return scene.nodes.iter().map(|n| n.value()).collect();
    }
    let mut is_child = vec![false; root.nodes.len()];
    for child in root.nodes.iter().flat_map(|n| n.children.iter().flatten()) {
        if let Some(flag) = is_child.get_mut(child.value()) {
            *flag = true;
        }
    }
    (0..root.nodes.len()).filter(|i| !is_child[*i]).collect()
}

/// Walks the scene. Node indices are known valid (the schema check ran), yet every lookup is a
/// bounds-checked `get`.
pub fn walk(root: &Root, findings: &mut Findings) -> Walk {
    let mut out = Walk::default();
    let mut seen = vec![false; root.nodes.len()];
    let mut joints = BTreeSet::new();
    let mut stack: Vec<(usize, Mat4)> = roots(root).into_iter().rev().map(|n| (n, IDENTITY)).collect();
    while let Some((index, parent)) = stack.pop() {
        let Some(node) = root.nodes.get(index) else { continue };
        if std::mem::replace(&mut seen[index], true) {
            findings.push(Finding::error(Code::NodeHierarchyInvalid).at(format!("/nodes/{index}")));
            continue;
        }
        let world = mul(&parent, &local(node));
        if let Some(mesh) = node.mesh.and_then(|m| root.meshes.get(m.value())) {
            let skin = node.skin.and_then(|s| root.skins.get(s.value()));
            out.mesh_instances += 1;
            if let Some(skin) = skin {
                out.skinned_meshes += 1;
                joints.extend(skin.joints.iter().map(|j| j.value()));
            }
            let placement = if skin.is_some() { IDENTITY } else { world };
            let mut targets = 0;
            for primitive in &mesh.primitives {
                out.draw_calls += 1;
                targets = targets.max(primitive.targets.as_ref().map_or(0, Vec::len) as u64);
                let position = primitive.attributes.get(&Checked::Valid(Semantic::Positions));
                let position = position.and_then(|a| root.accessors.get(a.value()));
                let vertices = position.map_or(0, |a| a.count.0);
                let indices = primitive.indices.and_then(|i| root.accessors.get(i.value()));
                let drawn = indices.map_or(vertices, |a| a.count.0);
                out.vertices = out.vertices.saturating_add(vertices);
                out.triangles = out.triangles.saturating_add(triangles(&primitive.mode, drawn));
                // The schema check guarantees `min`/`max` (three numbers) on every POSITION.
                if let Some((min, max)) = position.and_then(bounds) {
                    let b = Aabb::transformed(&placement, min, max);
                    out.bounds.get_or_insert(b).union(&b);
                }
            }
            out.morph_targets += targets;
        }
        for child in node.children.iter().flatten().rev() {
            stack.push((child.value(), world));
        }
    }
    out.joints = joints.len() as u64;
    out
}

/// Triangles of `count` indices (or vertices) drawn in `mode`.
pub fn triangles(mode: &Checked<Mode>, count: u64) -> u64 {
    match mode {
        Checked::Valid(Mode::Triangles) => count / 3,
        Checked::Valid(Mode::TriangleStrip | Mode::TriangleFan) => count.saturating_sub(2),
        _ => 0,
    }
}

/// A POSITION accessor's `min` and `max`, when both are three finite numbers.
fn bounds(accessor: &Accessor) -> Option<([f64; 3], [f64; 3])> {
    let three = |value: &Option<serde_json::Value>| -> Option<[f64; 3]> {
        let array = value.as_ref()?.as_array()?;
        let mut out = [0.0; 3];
        for (slot, v) in out.iter_mut().zip(array) {
            *slot = v.as_f64().filter(|f| f.is_finite())?;
        }
        (array.len() == 3).then_some(out)
    };
    Some((three(&accessor.min)?, three(&accessor.max)?))
}
