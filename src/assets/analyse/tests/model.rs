//! The glTF/GLB/VRM analyser over generated samples: exact counts, boxes, textures, VRM meta.

use super::super::samples::{self, ModelSpec, PrimitiveMode, VrmSample};
use super::super::stats::ImageFormat;
use super::super::{Kind, sniff};
use super::{codes, model, run};

fn close(a: [f64; 3], b: [f64; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

#[test]
fn triangles_materials_and_draw_calls_are_exact() {
    for (triangles, materials) in [(1, 1), (12, 1), (1000, 3), (20_001, 4), (7, 0)] {
        let bytes = samples::glb(&ModelSpec { triangles, materials, ..ModelSpec::default() });
        let analysis = run(&bytes);
        assert_eq!(analysis.kind, Some(Kind::Glb));
        assert!(analysis.findings.list.is_empty(), "{:?}", analysis.findings);
        let stats = model(&analysis);
        assert_eq!(stats.triangles, u64::from(triangles));
        assert_eq!(stats.materials, u64::from(materials));
        assert_eq!(stats.draw_calls, u64::from(materials.max(1)));
        assert_eq!((stats.meshes, stats.mesh_instances, stats.vertices), (1, 1, 8 * u64::from(materials.max(1))));
        assert_eq!(analysis.stats.version_detail().polygon_count, Some(u64::from(triangles)));
    }
}

#[test]
fn strips_and_fans_count_indices_minus_two() {
    for mode in [PrimitiveMode::Strip, PrimitiveMode::Fan] {
        let bytes = samples::glb(&ModelSpec { triangles: 500, materials: 2, mode, ..ModelSpec::default() });
        assert_eq!(model(&run(&bytes)).triangles, 500, "{mode:?}");
    }
}

#[test]
fn the_bounding_box_follows_the_node_hierarchy() {
    let bytes = samples::glb(&ModelSpec { size: [2.0, 1.5, 0.5], ..ModelSpec::default() });
    let b = model(&run(&bytes)).bounding_box.expect("a box");
    assert!(close(b.min, [-1.0, 0.0, -0.25]) && close(b.max, [1.0, 1.5, 0.25]), "{b:?}");
    assert!(close(b.size, [2.0, 1.5, 0.5]));

    let scaled = samples::glb(&ModelSpec { size: [2.0, 1.5, 0.5], parent_scale: Some(2.0), ..ModelSpec::default() });
    let b = model(&run(&scaled)).bounding_box.expect("a box");
    assert!(close(b.size, [4.0, 3.0, 1.0]), "{b:?}");
}

#[test]
fn a_skinned_mesh_counts_its_joints_and_keeps_its_bind_pose_box() {
    let spec = ModelSpec { skinned: true, parent_scale: Some(10.0), size: [0.5, 1.7, 0.3], ..ModelSpec::default() };
    let stats = model(&run(&samples::glb(&spec))).clone();
    assert_eq!((stats.skinned_meshes, stats.joints, stats.nodes), (1, 2, 4));
    // The skinned node's transforms (its parent's scale included) are ignored, as glTF says.
    assert!(close(stats.bounding_box.expect("a box").size, [0.5, 1.7, 0.3]));
}

#[test]
fn textures_give_size_format_and_gpu_bytes_from_the_header() {
    let bytes = samples::glb(&ModelSpec { texture: Some((1024, 512)), ..ModelSpec::default() });
    let analysis = run(&bytes);
    let texture = &model(&analysis).textures[0];
    assert_eq!((texture.width, texture.height, texture.format), (Some(1024), Some(512), Some(ImageFormat::Png)));
    assert_eq!(texture.gpu_bytes, 1024 * 512 * 4 * 4 / 3);
    assert!(texture.byte_size > 0);
    assert_eq!(model(&analysis).texture_gpu_bytes, texture.gpu_bytes);
}

#[test]
fn gltf_json_with_a_data_uri_is_read_like_the_glb() {
    let spec = ModelSpec { triangles: 300, materials: 2, texture: Some((64, 64)), ..ModelSpec::default() };
    let bytes = samples::gltf_json(&spec);
    assert_eq!(sniff(&bytes), Some(Kind::Gltf));
    let analysis = run(&bytes);
    assert!(analysis.findings.list.is_empty(), "{:?}", analysis.findings);
    let stats = model(&analysis);
    assert_eq!((stats.triangles, stats.materials), (300, 2));
    assert_eq!((stats.textures[0].width, stats.textures[0].height), (Some(64), Some(64)));
}

#[test]
fn vrm_0_meta_is_normalised() {
    let bytes = samples::glb(&ModelSpec { vrm: Some(VrmSample::V0), ..ModelSpec::default() });
    let analysis = run(&bytes);
    assert_eq!(analysis.kind, Some(Kind::Vrm));
    let vrm = analysis.vrm.expect("VRM meta");
    assert_eq!(vrm.spec_version, "0.0");
    assert_eq!(vrm.title.as_deref(), Some("Sample avatar"));
    assert_eq!(vrm.authors, ["vmarket"]);
    assert_eq!(vrm.avatar_permission.as_deref(), Some("everyone"));
    assert_eq!(vrm.commercial_use.as_deref(), Some("allow"));
    assert_eq!(vrm.license.as_deref(), Some("CC_BY"));
    assert_eq!(vrm.raw["violentUssageName"], "Disallow");
    assert!(!vrm.is_beta());
}

#[test]
fn vrm_1_meta_is_normalised_and_the_beta_is_told_apart() {
    let analysis = run(&samples::glb(&ModelSpec { vrm: Some(VrmSample::V1), ..ModelSpec::default() }));
    assert_eq!(analysis.kind, Some(Kind::Vrm));
    let vrm = analysis.vrm.expect("VRM meta");
    assert_eq!((vrm.spec_version.as_str(), vrm.major()), ("1.0", 1));
    assert_eq!(vrm.title.as_deref(), Some("Sample avatar"));
    assert_eq!(vrm.authors, ["vmarket", "samples"]);
    assert_eq!(vrm.avatar_permission.as_deref(), Some("only_author"));
    assert_eq!(vrm.commercial_use.as_deref(), Some("personal_non_profit"));
    assert_eq!(vrm.license.as_deref(), Some("https://vrm.dev/licenses/1.0/"));
    assert!(!vrm.is_beta());

    let beta = run(&samples::glb(&ModelSpec { vrm: Some(VrmSample::V1Beta), ..ModelSpec::default() }));
    assert!(beta.vrm.expect("VRM meta").is_beta());
}

#[test]
fn extensions_used_and_required_are_listed() {
    let bytes = samples::gltf_json(&ModelSpec::default());
    let mut json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    json["extensionsUsed"] = serde_json::json!(["KHR_materials_unlit", "KHR_draco_mesh_compression"]);
    json["extensionsRequired"] = serde_json::json!(["KHR_draco_mesh_compression"]);
    let analysis = run(&serde_json::to_vec(&json).unwrap());
    // The gltf crate does not implement Draco; counting does not need it.
    assert!(codes(&analysis).is_empty(), "{:?}", analysis.findings);
    assert_eq!(model(&analysis).extensions_required, ["KHR_draco_mesh_compression"]);
    assert_eq!(model(&analysis).extensions_used.len(), 2);
}
