//! VRChat's avatar performance rank (information only), PC and mobile, computed from what the
//! model stats truly know.
//!
//! Limits: VRChat creator docs, "Performance Ranks", tables "PC Limits" and "Mobile Limits",
//! <https://creators.vrchat.com/avatars/avatar-performance-ranking-system/> (source file
//! `Docs/docs/avatars/avatar-performance-ranking-system.md` of github.com/vrchat-community/creator-docs).
//! A stat above a rank's maximum moves the avatar to the next rank; above Poor it is Very Poor.
//!
//! Used, as VRChat names them: triangles (the stats' `triangles`), bounds size (`bounding_box`),
//! texture memory (`texture_gpu_bytes`, MiB), skinned meshes (`skinned_meshes`), basic meshes
//! (`mesh_instances - skinned_meshes`), material slots (`draw_calls`), bones (`joints`). Not
//! known from a glTF and so not used: PhysBones, contacts, constraints, animators, lights,
//! particles, trail and line renderers, cloths, colliders, rigidbodies, audio sources — the
//! Unity components VRChat also ranks. The rank is therefore a best case. Texture memory is an
//! RGBA8 estimate; VRChat measures the compressed textures Unity builds, usually smaller.

use serde::{Deserialize, Serialize};

use super::limits::MIB;
use super::stats::ModelStats;

/// A VRChat performance rank, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rank {
    /// Excellent.
    Excellent,
    /// Good.
    Good,
    /// Medium.
    Medium,
    /// Poor.
    Poor,
    /// Very Poor.
    VeryPoor,
}

const RANKS: [Rank; 4] = [Rank::Excellent, Rank::Good, Rank::Medium, Rank::Poor];

/// The rank on one platform and the stats that set it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformRank {
    /// The worst rank over the stats used.
    pub rank: Rank,
    /// The stats that gave that rank.
    pub limited_by: Vec<String>,
    /// The stats used.
    pub used_stats: Vec<String>,
}

/// Both platforms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VrchatRank {
    /// VRChat on PC.
    pub pc: PlatformRank,
    /// VRChat on Android and iOS (phones, tablets, Meta Quest).
    pub mobile: PlatformRank,
}

/// Maximum per rank, Excellent to Poor.
struct Table {
    triangles: [u64; 4],
    bounds: [[f64; 3]; 4],
    texture_mib: [u64; 4],
    skinned_meshes: [u64; 4],
    basic_meshes: [u64; 4],
    material_slots: [u64; 4],
    bones: [u64; 4],
}

/// "PC Limits".
const PC: Table = Table {
    triangles: [32_000, 70_000, 70_000, 70_000],
    bounds: [[2.5, 2.5, 2.5], [4.0, 4.0, 4.0], [5.0, 6.0, 5.0], [5.0, 6.0, 5.0]],
    texture_mib: [40, 75, 110, 150],
    skinned_meshes: [1, 2, 8, 16],
    basic_meshes: [4, 8, 16, 24],
    material_slots: [4, 8, 16, 32],
    bones: [75, 150, 256, 400],
};

/// "Mobile Limits".
const MOBILE: Table = Table {
    triangles: [7_500, 10_000, 15_000, 20_000],
    bounds: [[2.5, 2.5, 2.5], [4.0, 4.0, 4.0], [5.0, 6.0, 5.0], [5.0, 6.0, 5.0]],
    texture_mib: [10, 18, 25, 40],
    skinned_meshes: [1, 1, 2, 2],
    basic_meshes: [1, 1, 2, 2],
    material_slots: [1, 1, 2, 4],
    bones: [75, 90, 150, 150],
};

fn rank_of(fits: impl Fn(usize) -> bool) -> Rank {
    (0..4).find(|i| fits(*i)).map_or(Rank::VeryPoor, |i| RANKS[i])
}

fn platform(stats: &ModelStats, table: &Table) -> PlatformRank {
    let count = |limits: [u64; 4], value: u64| rank_of(|i| value <= limits[i]);
    let mut ranks = vec![
        ("triangles", count(table.triangles, stats.triangles)),
        ("texture_memory", rank_of(|i| stats.texture_gpu_bytes <= table.texture_mib[i] * MIB)),
        ("skinned_meshes", count(table.skinned_meshes, stats.skinned_meshes)),
        ("basic_meshes", count(table.basic_meshes, stats.mesh_instances.saturating_sub(stats.skinned_meshes))),
        ("material_slots", count(table.material_slots, stats.draw_calls)),
        ("bones", count(table.bones, stats.joints)),
    ];
    if let Some(b) = &stats.bounding_box {
        ranks.push(("bounds_size", rank_of(|i| (0..3).all(|axis| b.size[axis] <= table.bounds[i][axis]))));
    }
    let rank = ranks.iter().map(|(_, r)| *r).max().unwrap_or(Rank::Excellent);
    PlatformRank {
        rank,
        limited_by: ranks
            .iter()
            .filter(|(_, r)| *r == rank && rank != Rank::Excellent)
            .map(|(n, _)| n.to_string())
            .collect(),
        used_stats: ranks.iter().map(|(n, _)| n.to_string()).collect(),
    }
}

/// The rank of a model's stats on PC and mobile.
pub fn rank(stats: &ModelStats) -> VrchatRank {
    VrchatRank { pc: platform(stats, &PC), mobile: platform(stats, &MOBILE) }
}
