//! The scene a booth is saved as (ASSETS.md "The booth maker" `scene_json`), and its one
//! structural check. Pure: no database, no clock.
//!
//! ```json
//! {"version": 1, "home": 3, "items": [{"asset_version_id": 12, "sub_type": "floor",
//!   "position": [0, 0, -1.2], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}]}
//! ```
//!
//! Positions are metres in the home's frame (+Y up, the floor at y = 0, the interior centred on
//! x = z = 0); an item's position is its origin, which must lie inside the home's interior.
//! Rotations are unit quaternions `[x, y, z, w]`. JSON has no NaN or infinity, and a number too
//! large for a double is refused by the parser, so every number read here is finite; the bounds
//! below keep them sensible. What the items name (the user's own uploaded furniture) is checked
//! by the model, which knows the database.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::entities::asset::SubType;
use crate::error::Invalid;

/// The only `version` of the scene's shape.
pub const SCENE_VERSION: u32 = 1;
/// Most items in one scene.
pub const MAX_ITEMS: usize = 200;
/// Smallest scale on any axis.
pub const MIN_SCALE: f64 = 0.1;
/// Largest scale on any axis.
pub const MAX_SCALE: f64 = 10.0;
/// How far (metres) an item's origin may stand outside the interior (rounding of a snap).
pub const BOUNDS_SLACK: f64 = 0.001;
/// How far a rotation's length may be from 1.
pub const UNIT_SLACK: f64 = 0.001;

/// A booth's scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SceneJson {
    /// [`SCENE_VERSION`].
    pub version: u32,
    /// The preset home's id.
    pub home: i32,
    /// The placed furniture.
    pub items: Vec<SceneItem>,
}

/// One placed piece of furniture.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SceneItem {
    /// One of the user's uploaded furniture versions.
    pub asset_version_id: i32,
    /// Where it attaches: its asset's sub type.
    #[schema(value_type = String)]
    pub sub_type: SubType,
    /// Its origin, metres.
    pub position: [f64; 3],
    /// A unit quaternion `[x, y, z, w]`.
    pub rotation: [f64; 4],
    /// Per axis.
    pub scale: [f64; 3],
}

/// A home's interior: `[width, height, depth]` metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interior(pub [f64; 3]);

impl Interior {
    /// Whether `p` lies inside (with [`BOUNDS_SLACK`]).
    pub fn contains(self, p: [f64; 3]) -> bool {
        let [w, h, d] = self.0;
        let s = BOUNDS_SLACK;
        p[0].abs() <= w / 2.0 + s && p[1] >= -s && p[1] <= h + s && p[2].abs() <= d / 2.0 + s
    }
}

impl SceneJson {
    /// An empty scene in home `home`.
    pub fn empty(home: i32) -> Self {
        Self { version: SCENE_VERSION, home, items: Vec::new() }
    }

    /// The one structural check, against the scene's home (`home_id`, `interior`): every problem,
    /// each at its field (`scene.items.3.position`), none when the scene is sound.
    pub fn problems(&self, home_id: i32, interior: Interior) -> Vec<Invalid> {
        let mut found = Vec::new();
        if self.version != SCENE_VERSION {
            found.push(Invalid::new("scene.version", "booth_maker.validation.version").with("version", SCENE_VERSION));
        }
        if self.home != home_id {
            found.push(Invalid::new("scene.home", "booth_maker.validation.home"));
        }
        if self.items.len() > MAX_ITEMS {
            // One message, not one per item: a scene of 100,000 items says so once.
            found.push(Invalid::new("scene.items", "validation.at_most").with("max", MAX_ITEMS));
            return found;
        }
        for (i, item) in self.items.iter().enumerate() {
            let at = |field: &str| format!("scene.items.{i}.{field}");
            if !item.position.iter().all(|v| v.is_finite()) || !interior.contains(item.position) {
                found.push(Invalid::new(at("position"), "booth_maker.validation.outside"));
            }
            let length = item.rotation.iter().map(|v| v * v).sum::<f64>().sqrt();
            if !length.is_finite() || (length - 1.0).abs() > UNIT_SLACK {
                found.push(Invalid::new(at("rotation"), "booth_maker.validation.rotation"));
            }
            if !item.scale.iter().all(|v| v.is_finite() && (MIN_SCALE..=MAX_SCALE).contains(v)) {
                found.push(
                    Invalid::new(at("scale"), "booth_maker.validation.scale")
                        .with("min", MIN_SCALE)
                        .with("max", MAX_SCALE),
                );
            }
        }
        found
    }

    /// The asset versions the scene places, each once, in the order first placed.
    pub fn version_ids(&self) -> Vec<i32> {
        let mut ids = Vec::new();
        for item in &self.items {
            if !ids.contains(&item.asset_version_id) {
                ids.push(item.asset_version_id);
            }
        }
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(position: [f64; 3]) -> SceneItem {
        SceneItem {
            asset_version_id: 7,
            sub_type: SubType::Floor,
            position,
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0, 1.0, 1.0],
        }
    }

    const ROOM: Interior = Interior([4.0, 3.0, 4.0]);

    fn attributes(scene: &SceneJson) -> Vec<String> {
        scene.problems(1, ROOM).into_iter().map(|i| i.attribute).collect()
    }

    #[test]
    fn a_sound_scene_has_no_problems() {
        let scene = SceneJson { items: vec![item([1.9, 0.0, -2.0]), item([0.0, 3.0, 0.0])], ..SceneJson::empty(1) };
        assert_eq!(attributes(&scene), Vec::<String>::new());
    }

    #[test]
    fn each_problem_is_named_at_its_field() {
        let mut bad_rotation = item([0.0, 0.0, 0.0]);
        bad_rotation.rotation = [0.0, 0.0, 0.0, 2.0];
        let mut bad_scale = item([0.0, 0.0, 0.0]);
        bad_scale.scale = [1.0, 0.0, 1.0];
        let scene = SceneJson {
            version: 2,
            home: 9,
            items: vec![
                item([2.5, 0.0, 0.0]),
                bad_rotation,
                bad_scale,
                item([0.0, -0.5, 0.0]),
                item([0.0, 0.0, 1e300]),
            ],
        };
        assert_eq!(
            attributes(&scene),
            [
                "scene.version",
                "scene.home",
                "scene.items.0.position",
                "scene.items.1.rotation",
                "scene.items.2.scale",
                "scene.items.3.position",
                "scene.items.4.position"
            ]
        );
    }

    #[test]
    fn too_many_items_is_one_problem() {
        let scene = SceneJson { items: vec![item([0.0, 0.0, 0.0]); 100_000], ..SceneJson::empty(1) };
        assert_eq!(attributes(&scene), ["scene.items"]);
        let at_limit = SceneJson { items: vec![item([0.0, 0.0, 0.0]); MAX_ITEMS], ..SceneJson::empty(1) };
        assert!(attributes(&at_limit).is_empty());
    }

    #[test]
    fn versions_are_listed_once() {
        let mut other = item([0.0, 0.0, 0.0]);
        other.asset_version_id = 3;
        let scene = SceneJson { items: vec![item([0.0; 3]), other, item([1.0, 0.0, 0.0])], ..SceneJson::empty(1) };
        assert_eq!(scene.version_ids(), [7, 3]);
    }
}
