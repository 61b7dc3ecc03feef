//! Reads the Vite manifest of the widgets build so pages can emit script, preload and style
//! tags for island entries. A missing build is not an error: pages work without JavaScript.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The widgets entry loaded on every page (build check, island mounting).
pub const COMMON_ENTRY: &str = "src/entries/common.ts";
/// Where the widgets build lives, as a URL.
const WIDGETS_BASE: &str = "/static/dist/widgets/";

#[derive(Debug, Clone, Deserialize)]
struct Chunk {
    file: String,
    #[serde(default)]
    css: Vec<String>,
    #[serde(default)]
    imports: Vec<String>,
}

/// The tags a page needs for its entries.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct AssetTags {
    /// Module scripts to run.
    pub scripts: Vec<String>,
    /// Modules to preload.
    pub preloads: Vec<String>,
    /// Stylesheets.
    pub css: Vec<String>,
}

/// The parsed manifest and the build id derived from it.
#[derive(Debug, Clone, Default)]
pub struct ViteAssets {
    manifest: HashMap<String, Chunk>,
    /// Identifies this build of the front end; changes whenever the manifest changes.
    pub build_id: String,
}

impl ViteAssets {
    /// Loads `{dist_dir}/widgets/.vite/manifest.json`; without it, no tags and a build id
    /// derived from the crate version only.
    pub fn load(dist_dir: &Path) -> Self {
        let path = dist_dir.join("widgets/.vite/manifest.json");
        match std::fs::read(&path) {
            Ok(bytes) => match serde_json::from_slice(&bytes) {
                Ok(manifest) => Self { manifest, build_id: build_id(&bytes) },
                Err(e) => {
                    tracing::warn!(path = %path.display(), error = %e, "unreadable Vite manifest; pages get no scripts");
                    Self { manifest: HashMap::new(), build_id: build_id(b"") }
                }
            },
            Err(_) => {
                tracing::warn!(path = %path.display(), "no Vite manifest; run `npm run build` for the front end");
                Self { manifest: HashMap::new(), build_id: build_id(b"") }
            }
        }
    }

    /// Parses a manifest from JSON text (for tests).
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        Ok(Self { manifest: serde_json::from_str(text)?, build_id: build_id(text.as_bytes()) })
    }

    /// Whether a front-end build was found.
    pub fn is_built(&self) -> bool {
        !self.manifest.is_empty()
    }

    /// Script, preload and style tags for `entries`, each file once.
    pub fn tags(&self, entries: &[&str]) -> AssetTags {
        let mut tags = AssetTags::default();
        let mut seen = BTreeSet::new();
        for entry in entries {
            let Some(chunk) = self.manifest.get(*entry) else { continue };
            tags.scripts.push(format!("{WIDGETS_BASE}{}", chunk.file));
            self.collect(chunk, &mut tags, &mut seen);
        }
        tags
    }

    fn collect(&self, chunk: &Chunk, tags: &mut AssetTags, seen: &mut BTreeSet<String>) {
        for css in &chunk.css {
            if seen.insert(css.clone()) {
                tags.css.push(format!("{WIDGETS_BASE}{css}"));
            }
        }
        for import in &chunk.imports {
            if let Some(dep) = self.manifest.get(import)
                && seen.insert(dep.file.clone())
            {
                tags.preloads.push(format!("{WIDGETS_BASE}{}", dep.file));
                self.collect(dep, tags, seen);
            }
        }
    }
}

fn build_id(manifest: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
    hasher.update(manifest);
    hex::encode(&hasher.finalize()[..8])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_follow_imports_once() {
        let assets = ViteAssets::from_json(
            r#"{
              "src/entries/common.ts": {"file": "assets/common-1.js", "isEntry": true, "imports": ["_shared-2.js"], "css": ["assets/common.css"]},
              "_shared-2.js": {"file": "assets/shared-2.js", "css": ["assets/common.css", "assets/shared.css"]}
            }"#,
        )
        .unwrap();
        let tags = assets.tags(&[COMMON_ENTRY, "missing.ts"]);
        assert_eq!(tags.scripts, ["/static/dist/widgets/assets/common-1.js"]);
        assert_eq!(tags.preloads, ["/static/dist/widgets/assets/shared-2.js"]);
        assert_eq!(tags.css, ["/static/dist/widgets/assets/common.css", "/static/dist/widgets/assets/shared.css"]);
    }

    #[test]
    fn build_id_changes_with_the_manifest() {
        assert_ne!(build_id(b"a"), build_id(b"b"));
        assert_eq!(build_id(b"a").len(), 16);
    }
}
