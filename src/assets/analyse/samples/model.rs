//! Sample glTF models: a box-shaped mesh (its POSITION bounds are the box asked for, standing on
//! the floor: x and z centred, y from 0), drawn with exactly the triangles asked for, split over
//! one primitive per material.

use serde_json::{Value, json};

use super::media::png;

/// How the primitives are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimitiveMode {
    /// TRIANGLES: 3 indices per triangle.
    Triangles,
    /// TRIANGLE_STRIP: triangles + 2 indices.
    Strip,
    /// TRIANGLE_FAN: triangles + 2 indices.
    Fan,
}

/// Which VRM extension to add.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VrmSample {
    /// `extensions.VRM`, specVersion 0.0.
    V0,
    /// `extensions.VRMC_vrm`, specVersion 1.0.
    V1,
    /// `extensions.VRMC_vrm`, specVersion 1.0-beta.
    V1Beta,
}

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSpec {
    /// Triangles drawn (at least one per primitive).
    pub triangles: u32,
    /// Materials (one primitive each; at least one primitive).
    pub materials: u32,
    /// An embedded PNG texture of this width and height, on material 0.
    pub texture: Option<(u32, u32)>,
    /// The box: width (x), height (y), depth (z), in metres.
    pub size: [f32; 3],
    /// Primitive mode.
    pub mode: PrimitiveMode,
    /// A parent node with this uniform scale above the mesh node.
    pub parent_scale: Option<f32>,
    /// Skin the mesh to two joints.
    pub skinned: bool,
    /// Add a VRM extension.
    pub vrm: Option<VrmSample>,
    /// Unused bytes at the end of the buffer: a larger file with the same geometry (uploads in
    /// parts).
    pub padding: usize,
}

impl Default for ModelSpec {
    fn default() -> Self {
        Self {
            triangles: 12,
            materials: 1,
            texture: None,
            size: [1.0, 1.0, 1.0],
            mode: PrimitiveMode::Triangles,
            parent_scale: None,
            skinned: false,
            vrm: None,
            padding: 0,
        }
    }
}

/// The twelve triangles of a box over corners numbered by bits (x, y, z).
const BOX: [u32; 36] =
    [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3];

struct Bin {
    bytes: Vec<u8>,
    views: Vec<Value>,
}

impl Bin {
    /// Appends `data` 4-byte aligned as a new buffer view; returns its index.
    fn view(&mut self, data: &[u8], target: Option<u32>) -> usize {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        let mut view = json!({"buffer": 0, "byteOffset": self.bytes.len(), "byteLength": data.len()});
        if let Some(target) = target {
            view["target"] = json!(target);
        }
        self.bytes.extend_from_slice(data);
        self.views.push(view);
        self.views.len() - 1
    }
}

fn floats(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// The JSON document and its binary buffer.
fn build(spec: &ModelSpec) -> (Value, Vec<u8>) {
    let [w, h, d] = spec.size;
    let corners: Vec<[f32; 3]> = (0..8)
        .map(|c| {
            [
                if c & 1 == 0 { -w / 2.0 } else { w / 2.0 },
                if c & 2 == 0 { 0.0 } else { h },
                if c & 4 == 0 { -d / 2.0 } else { d / 2.0 },
            ]
        })
        .collect();
    let mut bin = Bin { bytes: Vec::new(), views: Vec::new() };
    let position_view = bin.view(&floats(corners.iter().flatten().copied()), Some(34962));
    let mut accessors = vec![json!({
        "bufferView": position_view, "componentType": 5126, "count": 8, "type": "VEC3",
        "min": [-w / 2.0, 0.0, -d / 2.0], "max": [w / 2.0, h, d / 2.0],
    })];
    let mut attributes = json!({"POSITION": 0});
    if spec.skinned {
        let joints = bin.view(&[0, 1, 0, 0].repeat(8), Some(34962));
        let weights = bin.view(&floats([0.5, 0.5, 0.0, 0.0].repeat(8)), Some(34962));
        accessors.push(json!({"bufferView": joints, "componentType": 5121, "count": 8, "type": "VEC4"}));
        accessors.push(json!({"bufferView": weights, "componentType": 5126, "count": 8, "type": "VEC4"}));
        attributes["JOINTS_0"] = json!(1);
        attributes["WEIGHTS_0"] = json!(2);
    }
    let primitive_count = spec.materials.clamp(1, spec.triangles.max(1));
    let mut primitives = Vec::new();
    for p in 0..primitive_count {
        let triangles = spec.triangles / primitive_count + u32::from(p < spec.triangles % primitive_count);
        let indices: Vec<u32> = match spec.mode {
            // The box once; every further triangle is degenerate (one corner three times): it
            // counts as drawn, as in a real mesh, but covers no pixel, so that a browser draws a
            // 25,000-triangle sample as fast as a real model (25,000 stacked boxes would cost it
            // seconds per frame in software rendering).
            PrimitiveMode::Triangles => (0..triangles * 3)
                .map(|i| if i < 36 { BOX[i as usize] } else { BOX[(i - i % 3) as usize % 36] })
                .collect(),
            PrimitiveMode::Strip | PrimitiveMode::Fan => (0..triangles + 2).map(|i| i % 8).collect(),
        };
        let view = bin.view(&indices.iter().flat_map(|i| i.to_le_bytes()).collect::<Vec<_>>(), Some(34963));
        accessors.push(json!({"bufferView": view, "componentType": 5125, "count": indices.len(), "type": "SCALAR"}));
        let mode = match spec.mode {
            PrimitiveMode::Triangles => 4,
            PrimitiveMode::Strip => 5,
            PrimitiveMode::Fan => 6,
        };
        let mut primitive = json!({"attributes": attributes, "indices": accessors.len() - 1, "mode": mode});
        if spec.materials > 0 {
            primitive["material"] = json!(p);
        }
        primitives.push(primitive);
    }
    let mut materials: Vec<Value> = (0..spec.materials)
        .map(|m| json!({"name": format!("material {m}"), "pbrMetallicRoughness": {"baseColorFactor": [1.0, 1.0, 1.0, 1.0]}}))
        .collect();
    let mut root = json!({
        "asset": {"version": "2.0", "generator": "vmarket samples"},
        "scene": 0,
        "meshes": [{"name": "box", "primitives": primitives}],
        "accessors": accessors,
    });
    if let Some((width, height)) = spec.texture {
        let image = bin.view(&png(width, height), None);
        root["images"] = json!([{"bufferView": image, "mimeType": "image/png"}]);
        root["samplers"] = json!([{}]);
        root["textures"] = json!([{"source": 0, "sampler": 0}]);
        if let Some(first) = materials.first_mut() {
            first["pbrMetallicRoughness"]["baseColorTexture"] = json!({"index": 0});
        }
    }
    root["materials"] = json!(materials);
    let mut nodes = vec![json!({"name": "body", "mesh": 0})];
    let mut scene = vec![0];
    if spec.skinned {
        nodes[0]["skin"] = json!(0);
        nodes.push(json!({"name": "hips", "children": [2], "translation": [0.0, h / 2.0, 0.0]}));
        nodes.push(json!({"name": "spine", "translation": [0.0, h / 4.0, 0.0]}));
        root["skins"] = json!([{"joints": [1, 2]}]);
        scene.push(1);
    }
    if let Some(scale) = spec.parent_scale {
        nodes.push(json!({"name": "parent", "children": [0], "scale": [scale, scale, scale]}));
        scene[0] = nodes.len() - 1;
    }
    root["nodes"] = json!(nodes);
    root["scenes"] = json!([{"nodes": scene}]);
    root["bufferViews"] = json!(bin.views);
    bin.bytes.resize(bin.bytes.len() + spec.padding, 0);
    root["buffers"] = json!([{"byteLength": bin.bytes.len()}]);
    if let Some(vrm) = spec.vrm {
        add_vrm(&mut root, vrm);
    }
    (root, bin.bytes)
}

fn add_vrm(root: &mut Value, vrm: VrmSample) {
    let (name, extension) = match vrm {
        VrmSample::V0 => (
            "VRM",
            json!({
                "exporterVersion": "vmarket samples", "specVersion": "0.0",
                "meta": {
                    "title": "Sample avatar", "version": "1.0", "author": "vmarket",
                    "contactInformation": "", "reference": "", "allowedUserName": "Everyone",
                    "violentUssageName": "Disallow", "sexualUssageName": "Disallow",
                    "commercialUssageName": "Allow", "licenseName": "CC_BY", "otherLicenseUrl": "",
                },
                "humanoid": {"humanBones": [{"bone": "hips", "node": 0}]},
            }),
        ),
        VrmSample::V1 | VrmSample::V1Beta => (
            "VRMC_vrm",
            json!({
                "specVersion": if vrm == VrmSample::V1 { "1.0" } else { "1.0-beta" },
                "meta": {
                    "name": "Sample avatar", "version": "1.0", "authors": ["vmarket", "samples"],
                    "licenseUrl": "https://vrm.dev/licenses/1.0/", "avatarPermission": "onlyAuthor",
                    "commercialUsage": "personalNonProfit", "allowRedistribution": false,
                },
                "humanoid": {"humanBones": {"hips": {"node": 0}}},
            }),
        ),
    };
    root["extensionsUsed"] = json!([name]);
    root["extensions"] = json!({ name: extension });
}

/// A GLB.
pub fn glb(spec: &ModelSpec) -> Vec<u8> {
    glb_with(spec, |_| {})
}

/// A GLB whose JSON `edit` changed after it was built (the BIN chunk kept as is): hostile
/// samples — an accessor past its buffer, a missing field.
pub fn glb_with(spec: &ModelSpec, edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let (mut root, mut bin) = build(spec);
    edit(&mut root);
    let mut json = serde_json::to_vec(&root).unwrap_or_default();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

/// A `.gltf` JSON file with its buffer embedded as a base64 `data:` URI.
pub fn gltf_json(spec: &ModelSpec) -> Vec<u8> {
    let (mut root, bin) = build(spec);
    root["buffers"][0]["uri"] = json!(format!("data:application/octet-stream;base64,{}", base64(&bin)));
    serde_json::to_vec_pretty(&root).unwrap_or_default()
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |w, (i, b)| w | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            let c = if i <= chunk.len() { ALPHABET[(word >> (18 - 6 * i) & 63) as usize] as char } else { '=' };
            out.push(c);
        }
    }
    out
}
