//! The glTF JSON: counted against the ceilings before it is built, then parsed into
//! `gltf::json::Root` and checked against the glTF 2.0 schema by the `gltf` crate's validation
//! (every index in range, every required field present, every enum value known).

use gltf::json::mesh::Semantic;
use gltf::json::validation::{Checked, Error as SchemaError, Validate};
use gltf::json::{Path, Root};
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::super::finding::{Code, Finding};
use super::super::limits::Limits;

/// Most schema findings kept from one file (the first ones say enough).
const MAX_SCHEMA_FINDINGS: usize = 100;

/// The arrays' lengths, read without building their elements (`IgnoredAny` is zero-sized, so
/// the vectors allocate nothing whatever their length).
#[derive(Deserialize)]
struct Counts {
    #[serde(default)]
    meshes: Vec<MeshCount>,
    #[serde(default)]
    accessors: Vec<IgnoredAny>,
    #[serde(default, rename = "bufferViews")]
    buffer_views: Vec<IgnoredAny>,
    #[serde(default)]
    buffers: Vec<IgnoredAny>,
    #[serde(default)]
    images: Vec<IgnoredAny>,
    #[serde(default)]
    nodes: Vec<IgnoredAny>,
    #[serde(default)]
    materials: Vec<IgnoredAny>,
}

#[derive(Deserialize)]
struct MeshCount {
    #[serde(default)]
    primitives: Vec<IgnoredAny>,
}

fn unreadable(error: &serde_json::Error) -> Finding {
    Finding::error(Code::Unreadable).actual(format!("JSON line {} column {}", error.line(), error.column()))
}

/// Parses and validates the JSON, or returns the findings that stop the analysis.
pub fn load(json: &[u8], limits: &Limits) -> Result<Root, Vec<Finding>> {
    if json.len() as u64 > limits.max_json_bytes {
        let finding = Finding::error(Code::JsonChunkOverLimit).values(limits.max_json_bytes, json.len());
        return Err(vec![finding]);
    }
    let counts: Counts = serde_json::from_slice(json).map_err(|e| vec![unreadable(&e)])?;
    let primitives: usize = counts.meshes.iter().map(|mesh| mesh.primitives.len()).sum();
    let ceilings = [
        ("/meshes", counts.meshes.len(), limits.max_meshes),
        // All primitives together; the pointer names the meshes array that holds them.
        ("/meshes", primitives, limits.max_primitives),
        ("/accessors", counts.accessors.len(), limits.max_accessors),
        ("/bufferViews", counts.buffer_views.len(), limits.max_buffer_views),
        ("/buffers", counts.buffers.len(), limits.max_buffers),
        ("/images", counts.images.len(), limits.max_images),
        ("/nodes", counts.nodes.len(), limits.max_nodes),
        ("/materials", counts.materials.len(), limits.max_materials),
    ];
    let over: Vec<Finding> = ceilings
        .into_iter()
        .filter(|(_, count, limit)| *count as u64 > *limit)
        .map(|(pointer, count, limit)| Finding::error(Code::GltfTooComplex).at(pointer).values(limit, count))
        .collect();
    if !over.is_empty() {
        return Err(over);
    }
    let root: Root = serde_json::from_slice(json).map_err(|e| vec![unreadable(&e)])?;
    let unchecked = positions_out_of_range(&root);
    if !unchecked.is_empty() {
        return Err(unchecked);
    }
    let mut findings = Vec::new();
    root.validate(&root, Path::new, &mut |path: &dyn Fn() -> Path, error| {
        let path = path();
        // The crate refuses extensions it does not implement; counting does not need them, and
        // `extensionsRequired` is reported in the stats.
        let unsupported_extension =
            error == SchemaError::Unsupported && path.as_str().starts_with("extensionsRequired");
        if !unsupported_extension && findings.len() < MAX_SCHEMA_FINDINGS {
            findings.push(Finding::error(Code::GltfInvalid).at(pointer(path.as_str())).actual(format!("{error:?}")));
        }
    });
    if findings.is_empty() { Ok(root) } else { Err(findings) }
}

/// POSITION indices out of range: gltf-json 1.4's primitive validation indexes the accessors
/// with them before its own range check (a panic), so they are checked first.
fn positions_out_of_range(root: &Root) -> Vec<Finding> {
    let mut out = Vec::new();
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let position = primitive.attributes.get(&Checked::Valid(Semantic::Positions));
            if position.is_some_and(|index| index.value() >= root.accessors.len()) && out.len() < MAX_SCHEMA_FINDINGS {
                let pointer = format!("/meshes/{m}/primitives/{p}/attributes/POSITION");
                out.push(Finding::error(Code::GltfInvalid).at(pointer).actual("IndexOutOfBounds"));
            }
        }
    }
    out
}

/// A `gltf` crate path (`meshes[0].primitives[1].attributes["POSITION"]`, `x[0] = "v"`) as a
/// JSON pointer (`/meshes/0/primitives/1/attributes/POSITION`).
pub fn pointer(path: &str) -> String {
    let path = path.split(" = ").next().unwrap_or_default();
    let mut out = String::with_capacity(path.len() + 1);
    let mut chars = path.chars().peekable();
    if !path.is_empty() {
        out.push('/');
    }
    while let Some(c) = chars.next() {
        match c {
            '.' => out.push('/'),
            '[' => {
                out.push('/');
                let quoted = chars.peek() == Some(&'"');
                if quoted {
                    chars.next();
                }
                for inner in chars.by_ref() {
                    if inner == ']' || (quoted && inner == '"') {
                        break;
                    }
                    match inner {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        _ => out.push(inner),
                    }
                }
                if quoted {
                    chars.next(); // the closing ']'
                }
            }
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::pointer;

    #[test]
    fn paths_become_json_pointers() {
        assert_eq!(pointer("accessors[3].bufferView"), "/accessors/3/bufferView");
        assert_eq!(
            pointer(r#"meshes[0].primitives[1].attributes["POSITION"]"#),
            "/meshes/0/primitives/1/attributes/POSITION"
        );
        assert_eq!(pointer(r#"extensionsRequired[0] = "KHR_x""#), "/extensionsRequired/0");
        assert_eq!(pointer(""), "");
    }
}
