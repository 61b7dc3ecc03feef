//! VRM meta, read from the raw extension JSON (`serde_json::Value`), not from typed extensions:
//! VRM 0.x keeps it in `extensions.VRM.meta`, VRM 1.0 in `extensions.VRMC_vrm.meta`.
//!
//! The normalised [`VrmMeta`] names the fields the uploader shows; the raw meta object is kept
//! beside it. Avatar permission maps one to one between the versions (0.x `OnlyAuthor`,
//! `ExplicitlyLicensedPerson`, `Everyone` are 1.0's `onlyAuthor`, `onlySeparatelyLicensedPerson`,
//! `everyone`). Commercial use does not (0.x has `Allow`/`Disallow`, 1.0 three levels), so each is
//! given as its file says, in snake_case.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Longest string kept in a normalised field, in characters.
const MAX_FIELD_CHARS: usize = 1_000;
/// Largest raw meta kept, serialised, in bytes (a larger one is replaced by `null`).
const MAX_RAW_BYTES: usize = 64 * 1024;

/// A VRM's version and licence meta.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VrmMeta {
    /// `specVersion`: 0.x files say `0.0` (or nothing, read as `0.0`); 1.0 files `1.0`, or
    /// `1.0-beta` for files of the beta (see [`VrmMeta::is_beta`]).
    pub spec_version: String,
    /// 0.x `title`, 1.0 `name`.
    pub title: Option<String>,
    /// The avatar's own version string (`version`).
    pub version: Option<String>,
    /// 0.x `author` (one), 1.0 `authors`.
    pub authors: Vec<String>,
    /// `only_author`, `only_separately_licensed_person` or `everyone`.
    pub avatar_permission: Option<String>,
    /// 0.x: `allow` or `disallow`; 1.0: `personal_non_profit`, `personal_profit` or `corporation`.
    pub commercial_use: Option<String>,
    /// 0.x `licenseName` (or `otherLicenseUrl` when it is `Other`); 1.0 `licenseUrl`.
    pub license: Option<String>,
    /// The meta object as found (`null` when over 64 KiB).
    pub raw: Value,
}

impl VrmMeta {
    /// Major version: 0 for `VRM`, 1 for `VRMC_vrm`.
    pub fn major(&self) -> u32 {
        if self.spec_version.starts_with('0') { 0 } else { 1 }
    }

    /// A file written against the VRM 1.0 beta (`specVersion` `1.0-beta…`).
    pub fn is_beta(&self) -> bool {
        self.spec_version.starts_with("1.0-beta")
    }
}

/// The meta of a glTF's root `extensions`, if it has one of the VRM extensions (1.0 wins).
pub fn read(extensions: Option<&Map<String, Value>>) -> Option<VrmMeta> {
    let extensions = extensions?;
    if let Some(vrm1) = extensions.get("VRMC_vrm") {
        return Some(read_1(vrm1));
    }
    extensions.get("VRM").map(read_0)
}

fn text(value: Option<&Value>) -> Option<String> {
    let text = value?.as_str()?.trim();
    (!text.is_empty()).then(|| text.chars().take(MAX_FIELD_CHARS).collect())
}

fn raw(meta: Option<&Value>) -> Value {
    let meta = meta.cloned().unwrap_or(Value::Null);
    let size = serde_json::to_vec(&meta).map_or(usize::MAX, |bytes| bytes.len());
    if size > MAX_RAW_BYTES { Value::Null } else { meta }
}

fn snake(word: &str) -> String {
    let mut out = String::with_capacity(word.len() + 4);
    for (i, c) in word.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 && !out.ends_with('_') {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn permission(value: Option<&Value>) -> Option<String> {
    let word = match value?.as_str()? {
        "OnlyAuthor" | "onlyAuthor" => "only_author",
        "ExplicitlyLicensedPerson" | "onlySeparatelyLicensedPerson" => "only_separately_licensed_person",
        "Everyone" | "everyone" => "everyone",
        _ => return None,
    };
    Some(word.to_string())
}

fn read_0(vrm: &Value) -> VrmMeta {
    let meta = vrm.get("meta");
    let field = |name: &str| text(meta.and_then(|m| m.get(name)));
    let license = match field("licenseName").as_deref() {
        Some("Other") => field("otherLicenseUrl").or_else(|| Some("Other".to_string())),
        _ => field("licenseName"),
    };
    VrmMeta {
        spec_version: text(vrm.get("specVersion")).unwrap_or_else(|| "0.0".to_string()),
        title: field("title"),
        version: field("version"),
        authors: field("author").into_iter().collect(),
        avatar_permission: permission(meta.and_then(|m| m.get("allowedUserName"))),
        commercial_use: field("commercialUssageName").map(|w| snake(&w)),
        license,
        raw: raw(meta),
    }
}

fn read_1(vrm: &Value) -> VrmMeta {
    let meta = vrm.get("meta");
    let field = |name: &str| text(meta.and_then(|m| m.get(name)));
    let authors = meta.and_then(|m| m.get("authors")).and_then(Value::as_array);
    let authors = authors.into_iter().flatten().take(100).filter_map(|a| text(Some(a))).collect();
    VrmMeta {
        spec_version: text(vrm.get("specVersion")).unwrap_or_else(|| "1.0".to_string()),
        title: field("name"),
        version: field("version"),
        authors,
        avatar_permission: permission(meta.and_then(|m| m.get("avatarPermission"))),
        commercial_use: field("commercialUsage").map(|w| snake(&w)),
        license: field("licenseUrl"),
        raw: raw(meta),
    }
}

#[cfg(test)]
mod tests {
    use super::snake;

    #[test]
    fn names_become_snake_case() {
        assert_eq!(snake("personalNonProfit"), "personal_non_profit");
        assert_eq!(snake("Disallow"), "disallow");
        assert_eq!(snake("corporation"), "corporation");
    }
}
