//! Rule sets as data (JSON, edited by staff): an `id`, a `version` and rules, each with a
//! `rule_id`, a `severity` and one `limit`.
//!
//! ```json
//! {"id": "vket_avatar", "version": 1, "rules": [
//!   {"rule_id": "max_bytes", "severity": "error", "limit": {"max_bytes": 15728640}},
//!   {"rule_id": "box", "severity": "error", "limit": {"bounding_box": {"x": 2, "y": 2, "z": 2}}}
//! ]}
//! ```
//!
//! What each limit checks, and on which kinds, is on [`Limit`]'s variants; the checking is
//! [`super::evaluate`]. A rule that applies to the file's kind but cannot be decided from its
//! bytes gives an info message `rule_not_checkable` rather than a guess; a rule for another kind
//! (a bounding box on a PNG) is skipped. The built-in sets are [`super::defaults`].

use serde::{Deserialize, Serialize};

use super::finding::Severity;
use super::sniff::Kind;

/// A named, versioned list of rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleSet {
    /// Stable id, e.g. `vket_avatar`.
    pub id: String,
    /// Bumped on every change of the rules.
    pub version: u32,
    /// The rules.
    pub rules: Vec<Rule>,
}

/// One rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    /// Stable id within the set, copied to the report's messages.
    pub rule_id: String,
    /// Severity of a breach ([`Limit::MaxBytes`] is always an error, whatever this says).
    pub severity: Severity,
    /// What is limited.
    pub limit: Limit,
    /// Where the number comes from (a URL or document).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A box in metres, glTF axes: `x` width, `y` height (+Y up), `z` depth.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BoxLimit {
    /// Width.
    pub x: f64,
    /// Height.
    pub y: f64,
    /// Depth.
    pub z: f64,
}

/// What a rule limits. Serialised externally tagged: `{"max_triangles": 20000}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// File size in bytes; every kind; always an error (`bytes_over_limit`).
    MaxBytes(u64),
    /// The kinds the asset setting accepts, by content; every kind; always an error
    /// (`kind_mismatch`, also for bytes of no known kind).
    AllowedKinds(Vec<Kind>),
    /// The model's bounding box must fit, axis by axis, without rotation
    /// (`bounding_box_over_limit`). Models; not checkable for a ZIP (a Unity package's meshes
    /// are not read).
    BoundingBox(BoxLimit),
    /// Triangles drawn, the "polygons" of the rules (`triangles_over_limit`). Models; not
    /// checkable for a ZIP.
    MaxTriangles(u64),
    /// Materials (`materials_over_limit`). Models: the document's materials. ZIP: the `.mat`
    /// files of the package — every material it brings, used by the booth or not, an upper
    /// bound of what VitDeck counts in the scene.
    MaxMaterials(u64),
    /// Allowed `[width, height]` of every texture (models) and of an image file
    /// (`texture_size_not_allowed`). An unreadable texture is reported by the analyser.
    TextureSizes(Vec<[u32; 2]>),
    /// Images of a model (`textures_over_limit`).
    MaxTextures(u64),
    /// Estimated texture GPU bytes of a model, RGBA8 with mips (`texture_memory_over_limit`).
    MaxTextureMemory(u64),
    /// Refused VRM `specVersion` prefixes, e.g. `1.0-beta` (`vrm_spec_refused`). VRM only.
    RefusedVrmSpecVersions(Vec<String>),
    /// Blocked file extensions in a ZIP, case-insensitive, with the dot (`zip_blocked_kind`).
    ZipBlockedExtensions(Vec<String>),
    /// Longest entry path in a ZIP, in characters (`zip_path_too_long`).
    ZipMaxPathLength(u64),
    /// The characters allowed in each path segment of a ZIP entry, written like a regex class
    /// body: `A-Za-z0-9 _.()-` (ranges `a-b`, a `-` first or last is literal) (`zip_name_invalid`).
    ZipNameCharset(String),
    /// Baked lightmaps of a Unity package (`lightmaps_over_limit`). The count is the entries
    /// named `Lightmap-<n>_comp_light.*` (Unity's names); their size is inside the EXR files,
    /// which are not extracted, so `max_size` is reported as `rule_not_checkable`.
    UnityLightmaps {
        /// Most lightmaps.
        max_count: u64,
        /// Largest side in pixels (not checkable from a listing).
        max_size: u32,
    },
}

/// Whether `c` is in a charset written like a regex class body (`A-Za-z0-9 _.()-`).
pub fn charset_contains(charset: &str, c: char) -> bool {
    let chars: Vec<char> = charset.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len() && chars[i + 1] == '-' {
            if (chars[i]..=chars[i + 2]).contains(&c) {
                return true;
            }
            i += 3;
        } else {
            if chars[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::charset_contains;

    #[test]
    fn charsets_read_like_regex_classes() {
        let set = "A-Za-z0-9 _.()-";
        for c in ['a', 'Z', '5', ' ', '_', '.', '(', ')', '-'] {
            assert!(charset_contains(set, c), "{c}");
        }
        for c in ['é', '/', '\\', '+', '日', '~'] {
            assert!(!charset_contains(set, c), "{c}");
        }
    }
}
