//! The built-in rule sets, with the source of every number (ASSETS.md "Rule sets"; change a
//! number only with a source).
//!
//! - Vket's web submission rules for items: <https://mall.v-market.work/en/web_rules> (table
//!   "List of Limits by Item Category": space width × depth × height, polygons, materials, file
//!   size; textures 512×512, 1024×1024 or 2048×2048), and for VRM avatars
//!   <https://winter2022.vket.com/en/docs/submission_rules_cloud> ("VRM created with
//!   VRM-1.0Beta cannot be submitted").
//! - Unity booth packages: VitDeck's Vket rule sets (<https://github.com/VitDeck/VitDeck>), as
//!   ASSETS.md records them: booth box 4×5×4 m, ≤ 50 MB, ≤ 20 materials, lightmaps ≤ 1 at ≤ 512.
//! - ZIP listings: ASSETS.md "Analysers" (blocked kinds, path ≤ 184 characters, names
//!   `[A-Za-z0-9 _.()-]`); accepted kinds per asset setting: ASSETS.md "Asset settings".
//!
//! Sizes: Vket writes "15.00MB". It is read as MiB (15 × 1,048,576 bytes), what Windows Explorer
//! shows as "MB" where creators check their files; a decimal reading would refuse files Explorer
//! shows under the limit. Space sizes are width × depth × height, so a `1m×1m×2m` space is
//! `x 1, y 2, z 1` in glTF axes (+Y up).

use super::finding::Severity::{self, Error, Warning};
use super::limits::MIB;
use super::rules::{BoxLimit, Limit, Rule, RuleSet};
use super::sniff::Kind;

const VKET_ITEMS: &str = "https://mall.v-market.work/en/web_rules";
const VKET_VRM: &str = "https://winter2022.vket.com/en/docs/submission_rules_cloud";
const VITDECK: &str = "VitDeck Vket rule sets, https://github.com/VitDeck/VitDeck (ASSETS.md)";
const ASSETS_MD: &str = "ASSETS.md, The asset uploader";

fn rule(rule_id: &str, severity: Severity, limit: Limit, source: &str) -> Rule {
    Rule { rule_id: rule_id.to_string(), severity, limit, source: Some(source.to_string()) }
}

/// One Vket web item category: kinds, space (x width, y height, z depth), polygons, materials,
/// MiB.
fn vket_item(id: &str, kinds: &[Kind], space: [f64; 3], triangles: u64, materials: u64, mib: u64) -> RuleSet {
    let [x, y, z] = space;
    let mut rules = vec![
        rule("kinds", Error, Limit::AllowedKinds(kinds.to_vec()), ASSETS_MD),
        rule("file_size", Error, Limit::MaxBytes(mib * MIB), VKET_ITEMS),
        rule("space", Error, Limit::BoundingBox(BoxLimit { x, y, z }), VKET_ITEMS),
        rule("polygons", Error, Limit::MaxTriangles(triangles), VKET_ITEMS),
        rule("materials", Error, Limit::MaxMaterials(materials), VKET_ITEMS),
        // "The size of the texture to be used should be 512x512, 1024x1024, or 2048x2048."
        rule("texture_size", Error, Limit::TextureSizes(vec![[512, 512], [1024, 1024], [2048, 2048]]), VKET_ITEMS),
    ];
    if kinds.contains(&Kind::Vrm) {
        // "VRM created with VRM-1.0Beta cannot be submitted."
        rules.push(rule("vrm_version", Error, Limit::RefusedVrmSpecVersions(vec!["1.0-beta".into()]), VKET_VRM));
    }
    RuleSet { id: id.to_string(), version: 1, rules }
}

/// The ZIP listing rules of ASSETS.md.
fn zip_rules() -> Vec<Rule> {
    let blocked = [".blend", ".ma", ".mb", ".max", ".c4d"].map(String::from).to_vec();
    vec![
        rule("blocked_kinds", Error, Limit::ZipBlockedExtensions(blocked), ASSETS_MD),
        rule("path_length", Error, Limit::ZipMaxPathLength(184), ASSETS_MD),
        rule("file_names", Error, Limit::ZipNameCharset("A-Za-z0-9 _.()-".into()), ASSETS_MD),
    ]
}

/// Vket avatar (VRM): 2m×2m×2m, 20,000 polygons, 4 materials, 15.00 MB; VRM 1.0-beta refused.
pub fn vket_avatar() -> RuleSet {
    vket_item("vket_avatar", &[Kind::Vrm], [2.0, 2.0, 2.0], 20_000, 4, 15)
}

/// Vket accessories (category A): 0.5m×0.5m×0.5m, 10,000 polygons, 2 materials, 5.00 MB.
pub fn vket_accessory_a() -> RuleSet {
    vket_item("vket_accessory_a", &[Kind::Glb, Kind::Vrm], [0.5, 0.5, 0.5], 10_000, 2, 5)
}

/// Vket clothing: 1m×1m×2m (width × depth × height), 15,000 polygons, 3 materials, 10.00 MB.
pub fn vket_clothing() -> RuleSet {
    vket_item("vket_clothing", &[Kind::Glb, Kind::Vrm], [1.0, 2.0, 1.0], 15_000, 3, 10)
}

/// Vket housing (prop): 4m×4m×2m, 15,000 polygons, 3 materials, 10.00 MB.
pub fn vket_housing_prop() -> RuleSet {
    vket_item("vket_housing_prop", &[Kind::Glb], [4.0, 2.0, 4.0], 15_000, 3, 10)
}

/// Vket housing (world miniature): 4m×4m×3m, 40,000 polygons, 15 materials, 25.00 MB.
pub fn vket_world_miniature() -> RuleSet {
    vket_item("vket_world_miniature", &[Kind::Glb], [4.0, 3.0, 4.0], 40_000, 15, 25)
}

/// A Unity booth package (ZIP) under VitDeck's Vket rules: box 4×5×4 m (not checkable from a
/// listing: reported as such), ≤ 50 MB, ≤ 20 materials (counted as `.mat` files, a warning
/// because unused ones count too), lightmaps ≤ 1 at ≤ 512, and the ZIP listing rules.
pub fn vitdeck_booth() -> RuleSet {
    let mut rules = vec![
        rule("kinds", Error, Limit::AllowedKinds(vec![Kind::Zip]), ASSETS_MD),
        rule("file_size", Error, Limit::MaxBytes(50 * MIB), VITDECK),
        // Width 4, height 5, depth 4 as ASSETS.md writes "4×5×4".
        rule("booth_space", Error, Limit::BoundingBox(BoxLimit { x: 4.0, y: 5.0, z: 4.0 }), VITDECK),
        rule("materials", Warning, Limit::MaxMaterials(20), VITDECK),
        rule("lightmaps", Error, Limit::UnityLightmaps { max_count: 1, max_size: 512 }, VITDECK),
    ];
    rules.extend(zip_rules());
    RuleSet { id: "vitdeck_booth".into(), version: 1, rules }
}

/// A booth made in the booth maker (a scene of placed furniture, ASSETS.md "The booth maker"):
/// the booth box 4×5×4 m, ≤ 50 MB and ≤ 20 materials as a Unity booth (VitDeck), and ≤ 40,000
/// polygons — the largest scene Vket's web rules list (the world miniature), the nearest sourced
/// figure for a whole space built from housing props. Checked on the scene's totals
/// (`crate::booth::totals`); the furniture itself was checked on upload.
pub fn booth_maker() -> RuleSet {
    RuleSet {
        id: "booth_maker".into(),
        version: 1,
        rules: vec![
            rule("booth_space", Error, Limit::BoundingBox(BoxLimit { x: 4.0, y: 5.0, z: 4.0 }), VITDECK),
            rule("polygons", Error, Limit::MaxTriangles(40_000), VKET_ITEMS),
            rule("materials", Error, Limit::MaxMaterials(20), VITDECK),
            rule("file_size", Error, Limit::MaxBytes(50 * MIB), VITDECK),
        ],
    }
}

/// An avatar-part bundle (ZIP): the ZIP listing rules only.
pub fn zip_bundle() -> RuleSet {
    let mut rules = vec![rule("kinds", Error, Limit::AllowedKinds(vec![Kind::Zip]), ASSETS_MD)];
    rules.extend(zip_rules());
    RuleSet { id: "zip_bundle".into(), version: 1, rules }
}

/// A scene asset: GLB, PNG/JPEG, OGG/MP3/WAV (ASSETS.md "Asset settings"); no sourced limits.
pub fn scene_asset() -> RuleSet {
    let kinds = vec![Kind::Glb, Kind::Png, Kind::Jpeg, Kind::Ogg, Kind::Mp3, Kind::Wav];
    RuleSet {
        id: "scene_asset".into(),
        version: 1,
        rules: vec![rule("kinds", Error, Limit::AllowedKinds(kinds), ASSETS_MD)],
    }
}

/// A housing video: MP4 or WebM (ASSETS.md "Asset settings"); no sourced limits.
pub fn housing_video() -> RuleSet {
    let kinds = vec![Kind::Mp4, Kind::Webm];
    RuleSet {
        id: "housing_video".into(),
        version: 1,
        rules: vec![rule("kinds", Error, Limit::AllowedKinds(kinds), ASSETS_MD)],
    }
}

/// Every built-in set.
pub fn all() -> Vec<RuleSet> {
    vec![
        vket_avatar(),
        vket_accessory_a(),
        vket_clothing(),
        vket_housing_prop(),
        vket_world_miniature(),
        vitdeck_booth(),
        booth_maker(),
        zip_bundle(),
        scene_asset(),
        housing_video(),
    ]
}
