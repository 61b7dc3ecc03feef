//! A booth's totals and its rule check (ASSETS.md "Live rule check"): the sums the editor shows
//! as you drag, computed the same way here, where they are the authority. Pure.
//!
//! - `triangles`: every placed item counts (two of one table draw twice);
//! - `materials`, `texture_memory`, `bytes`: each asset version once, however often placed (its
//!   instances share them);
//! - `box`: the size of the axis-aligned union of every item's own box (its report's bounding
//!   box) scaled, rotated and moved as placed; `[0, 0, 0]` for an empty scene.
//!
//! The rules are the booth's rule set's limits that concern a whole scene (box, triangles,
//! materials, texture memory, bytes); a rule is over when the total is larger than its limit (a
//! box: on any axis, beyond 1e-6 m). `widgets/src/islands/booth-maker/totals.ts` is the same
//! code for the browser; `tests/it/booth` checks that the two agree on a real scene.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::scene::SceneJson;
use crate::assets::analyse::finding::Severity;
use crate::assets::analyse::stats::{BoundingBox, ModelStats};
use crate::assets::analyse::{Limit, RuleSet};

/// How much larger than a box limit a box may be (rounding).
pub const BOX_SLACK: f64 = 1e-6;

/// What one placeable version weighs, from its report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ItemStats {
    /// Triangles drawn.
    pub triangles: u64,
    /// Materials.
    pub materials: u64,
    /// Estimated texture GPU bytes.
    pub texture_memory: u64,
    /// The file's bytes.
    pub bytes: u64,
    /// Its own box's smallest corner (metres, +Y up).
    pub box_min: [f64; 3],
    /// Its own box's largest corner.
    pub box_max: [f64; 3],
}

impl ItemStats {
    /// The stats of a model of `bytes` bytes measured as `model`.
    pub fn of_model(model: &ModelStats, bytes: u64) -> Self {
        let (box_min, box_max) = model.bounding_box.map_or(([0.0; 3], [0.0; 3]), |b| (b.min, b.max));
        Self {
            triangles: model.triangles,
            materials: model.materials,
            texture_memory: model.texture_gpu_bytes,
            bytes,
            box_min,
            box_max,
        }
    }
}

/// A scene's totals.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Totals {
    /// Items placed.
    pub items: u64,
    /// Triangles drawn.
    pub triangles: u64,
    /// Materials of the distinct versions.
    pub materials: u64,
    /// Texture GPU bytes of the distinct versions.
    pub texture_memory: u64,
    /// File bytes of the distinct versions.
    pub bytes: u64,
    /// The size of the union of the placed boxes, `[x, y, z]` metres.
    #[serde(rename = "box")]
    pub size: [f64; 3],
}

/// Which scene total a rule limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    /// The union box, per axis.
    BoundingBox,
    /// Triangles.
    MaxTriangles,
    /// Materials.
    MaxMaterials,
    /// Texture memory.
    MaxTextureMemory,
    /// Bytes.
    MaxBytes,
}

/// A limit: a box `[x, y, z]` or a number.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Amount {
    /// A box, metres.
    Box([f64; 3]),
    /// A count or bytes.
    Number(u64),
}

/// One rule of the booth's rule set, as the editor checks it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RuleView {
    /// The rule's id in its set.
    pub rule_id: String,
    /// `error` or `warning`.
    #[schema(value_type = String)]
    pub severity: Severity,
    /// What it limits.
    pub kind: RuleKind,
    /// The limit.
    pub limit: Amount,
}

/// A rule a scene is over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Breach {
    /// The rule's id.
    pub rule_id: String,
    /// What it limits.
    pub kind: RuleKind,
    /// `error` or `warning`.
    #[schema(value_type = String)]
    pub severity: Severity,
    /// The limit.
    pub limit: Amount,
    /// The scene's total.
    pub actual: Amount,
}

/// The rules of `set` that a scene's totals can break, in order (the others, e.g. allowed kinds
/// or texture sizes, concern single files and are checked on upload).
pub fn scene_rules(set: &RuleSet) -> Vec<RuleView> {
    set.rules
        .iter()
        .filter_map(|rule| {
            let (kind, limit) = match &rule.limit {
                Limit::BoundingBox(b) => (RuleKind::BoundingBox, Amount::Box([b.x, b.y, b.z])),
                Limit::MaxTriangles(n) => (RuleKind::MaxTriangles, Amount::Number(*n)),
                Limit::MaxMaterials(n) => (RuleKind::MaxMaterials, Amount::Number(*n)),
                Limit::MaxTextureMemory(n) => (RuleKind::MaxTextureMemory, Amount::Number(*n)),
                Limit::MaxBytes(n) => (RuleKind::MaxBytes, Amount::Number(*n)),
                _ => return None,
            };
            // Bytes are always an error (as on upload).
            let severity = if kind == RuleKind::MaxBytes { Severity::Error } else { rule.severity };
            Some(RuleView { rule_id: rule.rule_id.clone(), severity, kind, limit })
        })
        .collect()
}

/// `v` rotated by the unit quaternion `q` (`[x, y, z, w]`).
pub fn rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let [x, y, z, w] = q;
    // t = 2 (q × v); v' = v + w t + q × t
    let t = [2.0 * (y * v[2] - z * v[1]), 2.0 * (z * v[0] - x * v[2]), 2.0 * (x * v[1] - y * v[0])];
    [
        v[0] + w * t[0] + (y * t[2] - z * t[1]),
        v[1] + w * t[1] + (z * t[0] - x * t[2]),
        v[2] + w * t[2] + (x * t[1] - y * t[0]),
    ]
}

/// The totals of `scene`, with each version's stats from `stats` (a version missing there
/// weighs nothing: the model refuses such a scene before it gets here).
pub fn totals(scene: &SceneJson, stats: &HashMap<i32, ItemStats>) -> Totals {
    let mut out = Totals { items: scene.items.len() as u64, ..Totals::default() };
    for id in scene.version_ids() {
        if let Some(s) = stats.get(&id) {
            out.materials += s.materials;
            out.texture_memory += s.texture_memory;
            out.bytes += s.bytes;
        }
    }
    let mut min = [f64::INFINITY; 3];
    let mut max = [f64::NEG_INFINITY; 3];
    for item in &scene.items {
        let Some(s) = stats.get(&item.asset_version_id) else { continue };
        out.triangles += s.triangles;
        for corner in 0..8 {
            let local = [
                if corner & 1 == 0 { s.box_min[0] } else { s.box_max[0] },
                if corner & 2 == 0 { s.box_min[1] } else { s.box_max[1] },
                if corner & 4 == 0 { s.box_min[2] } else { s.box_max[2] },
            ];
            let scaled = [local[0] * item.scale[0], local[1] * item.scale[1], local[2] * item.scale[2]];
            let turned = rotate(item.rotation, scaled);
            for axis in 0..3 {
                let at = turned[axis] + item.position[axis];
                min[axis] = min[axis].min(at);
                max[axis] = max[axis].max(at);
            }
        }
    }
    if min[0].is_finite() {
        out.size = [max[0] - min[0], max[1] - min[1], max[2] - min[2]];
    }
    out
}

/// The rules `totals` are over, in the rules' order.
pub fn breaches(totals: &Totals, rules: &[RuleView]) -> Vec<Breach> {
    rules
        .iter()
        .filter_map(|rule| {
            let actual = match rule.kind {
                RuleKind::BoundingBox => Amount::Box(totals.size),
                RuleKind::MaxTriangles => Amount::Number(totals.triangles),
                RuleKind::MaxMaterials => Amount::Number(totals.materials),
                RuleKind::MaxTextureMemory => Amount::Number(totals.texture_memory),
                RuleKind::MaxBytes => Amount::Number(totals.bytes),
            };
            let over = match (rule.limit, actual) {
                (Amount::Box(limit), Amount::Box(size)) => (0..3).any(|i| size[i] > limit[i] + BOX_SLACK),
                (Amount::Number(limit), Amount::Number(n)) => n > limit,
                _ => false,
            };
            over.then(|| Breach {
                rule_id: rule.rule_id.clone(),
                kind: rule.kind,
                severity: rule.severity,
                limit: rule.limit,
                actual,
            })
        })
        .collect()
}

/// The totals as a model's measurements, for the frozen scene's report (the asset analysers'
/// evaluation then names the same breaches in the report every upload has).
pub fn as_model_stats(totals: &Totals) -> ModelStats {
    ModelStats {
        triangles: totals.triangles,
        materials: totals.materials,
        mesh_instances: totals.items,
        texture_gpu_bytes: totals.texture_memory,
        bounding_box: Some(BoundingBox { min: [0.0; 3], max: totals.size, size: totals.size }),
        ..ModelStats::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booth::scene::SceneItem;
    use crate::db::entities::asset::SubType;

    fn stats() -> HashMap<i32, ItemStats> {
        let table = ItemStats {
            triangles: 600,
            materials: 1,
            texture_memory: 1_000,
            bytes: 5_000,
            box_min: [-0.6, 0.0, -0.4],
            box_max: [0.6, 0.75, 0.4],
        };
        let lamp = ItemStats {
            triangles: 14_000,
            materials: 3,
            texture_memory: 0,
            bytes: 90_000,
            box_min: [-0.1, 0.0, -0.1],
            box_max: [0.1, 2.0, 0.1],
        };
        HashMap::from([(1, table), (2, lamp)])
    }

    fn at(id: i32, position: [f64; 3], rotation: [f64; 4]) -> SceneItem {
        SceneItem { asset_version_id: id, sub_type: SubType::Floor, position, rotation, scale: [1.0; 3] }
    }

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        (0..3).all(|i| (a[i] - b[i]).abs() < 1e-9)
    }

    const IDENTITY: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

    #[test]
    fn instances_count_triangles_but_share_materials_and_bytes() {
        let scene = SceneJson {
            items: vec![at(1, [-1.0, 0.0, 0.0], IDENTITY), at(1, [1.0, 0.0, 0.0], IDENTITY)],
            ..SceneJson::empty(1)
        };
        let t = totals(&scene, &stats());
        assert_eq!((t.items, t.triangles, t.materials, t.texture_memory, t.bytes), (2, 1_200, 1, 1_000, 5_000));
        // From x -1.6 to 1.6; height 0.75; depth 0.8.
        assert!(close(t.size, [3.2, 0.75, 0.8]), "{:?}", t.size);
    }

    #[test]
    fn a_turned_item_turns_its_box() {
        // A quarter turn about Y swaps width and depth.
        let half = std::f64::consts::FRAC_1_SQRT_2;
        let scene = SceneJson { items: vec![at(1, [0.0, 0.0, 0.0], [0.0, half, 0.0, half])], ..SceneJson::empty(1) };
        assert!(close(totals(&scene, &stats()).size, [0.8, 0.75, 1.2]));
    }

    #[test]
    fn scale_scales_the_box() {
        let mut item = at(2, [0.0, 0.0, 0.0], IDENTITY);
        item.scale = [2.0, 1.5, 1.0];
        let scene = SceneJson { items: vec![item], ..SceneJson::empty(1) };
        assert!(close(totals(&scene, &stats()).size, [0.4, 3.0, 0.2]));
    }

    #[test]
    fn an_empty_scene_weighs_nothing() {
        assert_eq!(totals(&SceneJson::empty(1), &stats()), Totals::default());
    }

    #[test]
    fn rules_over_are_named_in_order() {
        let rules = vec![
            RuleView {
                rule_id: "space".into(),
                severity: Severity::Error,
                kind: RuleKind::BoundingBox,
                limit: Amount::Box([4.0, 5.0, 4.0]),
            },
            RuleView {
                rule_id: "polygons".into(),
                severity: Severity::Error,
                kind: RuleKind::MaxTriangles,
                limit: Amount::Number(20_000),
            },
            RuleView {
                rule_id: "materials".into(),
                severity: Severity::Warning,
                kind: RuleKind::MaxMaterials,
                limit: Amount::Number(4),
            },
        ];
        let fits = SceneJson {
            items: vec![at(1, [0.0; 3], IDENTITY), at(2, [1.0, 0.0, 0.0], IDENTITY)],
            ..SceneJson::empty(1)
        };
        assert!(breaches(&totals(&fits, &stats()), &rules).is_empty());
        let heavy = SceneJson {
            items: vec![at(2, [-1.9, 0.0, 0.0], IDENTITY), at(2, [1.9, 0.0, 0.0], IDENTITY), at(1, [0.0; 3], IDENTITY)],
            ..SceneJson::empty(1)
        };
        let found = breaches(&totals(&heavy, &stats()), &rules);
        let names: Vec<&str> = found.iter().map(|b| b.rule_id.as_str()).collect();
        // 4.0 wide (not over), 28,600 triangles (over), 4 materials (not over).
        assert_eq!(names, ["polygons"]);
        assert_eq!(found[0].actual, Amount::Number(28_600));
    }
}
