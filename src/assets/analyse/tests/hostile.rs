//! Hostile and broken inputs: each gives findings that say why, never a panic.

use serde_json::{Value, json};

use super::super::finding::Location;
use super::super::samples::{self, ModelSpec};
use super::super::{Code, Kind, Limits, Stats, analyse, glb};
use super::{codes, model, run};

/// A generated GLB with its JSON edited (the BIN chunk kept as is).
fn edited(spec: &ModelSpec, edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    samples::glb_with(spec, edit)
}

fn pointers(bytes: &[u8], code: Code) -> Vec<String> {
    let analysis = run(bytes);
    let at = |f: &super::super::Finding| match &f.location {
        Some(Location::Pointer(p)) => p.clone(),
        Some(Location::Offset(o)) => format!("@{o}"),
        None => String::new(),
    };
    analysis.findings.list.iter().filter(|f| f.code == code).map(at).collect()
}

#[test]
fn an_accessor_reaching_past_its_buffer_view_is_reported() {
    let bytes = edited(&ModelSpec::default(), |json| json["accessors"][0]["count"] = json!(1000));
    assert_eq!(pointers(&bytes, Code::AccessorOutOfRange), ["/accessors/0"]);
    // Counts still come from the accessor, without reading it.
    assert_eq!(model(&run(&bytes)).vertices, 1000);
    let huge = edited(&ModelSpec::default(), |json| json["accessors"][1]["count"] = json!(1u64 << 62));
    assert_eq!(pointers(&huge, Code::AccessorOutOfRange), ["/accessors/1"]);
    assert_eq!(model(&run(&huge)).triangles, (1u64 << 62) / 3);
}

#[test]
fn a_buffer_view_past_its_buffer_and_a_buffer_past_the_bin_chunk_are_reported() {
    let view = edited(&ModelSpec::default(), |json| json["bufferViews"][0]["byteOffset"] = json!(1_000_000));
    assert_eq!(pointers(&view, Code::BufferViewOutOfRange), ["/bufferViews/0"]);
    let buffer = edited(&ModelSpec::default(), |json| {
        let length = json["buffers"][0]["byteLength"].as_u64().unwrap();
        json["buffers"][0]["byteLength"] = json!(length + 100);
    });
    assert_eq!(pointers(&buffer, Code::BufferOutOfRange), ["/buffers/0"]);
}

#[test]
fn chunk_lengths_past_the_end_of_the_file_are_reported_with_their_offset() {
    let good = samples::glb(&ModelSpec::default());
    let mut json_past_end = good.clone();
    json_past_end[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(pointers(&json_past_end, Code::GlbInvalid), ["@12"]);

    let mut truncated = good.clone();
    truncated.truncate(good.len() - 10);
    assert_eq!(pointers(&truncated, Code::GlbInvalid), ["@8"]);

    let mut bin_past_end = truncated.clone();
    bin_past_end[8..12].copy_from_slice(&(truncated.len() as u32).to_le_bytes());
    let json_length = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    assert_eq!(pointers(&bin_past_end, Code::GlbInvalid), [format!("@{}", 20 + json_length)]);

    let mut tiny_length = good;
    tiny_length[8..12].copy_from_slice(&5u32.to_le_bytes());
    assert_eq!(pointers(&tiny_length, Code::GlbInvalid), ["@12"]);
}

#[test]
fn schema_errors_point_at_the_field() {
    let bytes = edited(&ModelSpec::default(), |json| json["meshes"][0]["primitives"][0]["indices"] = json!(99));
    assert_eq!(pointers(&bytes, Code::GltfInvalid), ["/meshes/0/primitives/0/indices"]);
    let mode = edited(&ModelSpec::default(), |json| json["meshes"][0]["primitives"][0]["mode"] = json!(99));
    assert_eq!(run(&mode).findings.list[0].code, Code::GltfInvalid);
    assert!(matches!(run(&mode).stats, Stats::None));
}

#[test]
fn a_node_cycle_is_reported_and_not_followed() {
    let bytes = edited(&ModelSpec::default(), |json| json["nodes"][0]["children"] = json!([0]));
    assert_eq!(pointers(&bytes, Code::NodeHierarchyInvalid), ["/nodes/0"]);
    assert_eq!(model(&run(&bytes)).triangles, 12);
}

#[test]
fn images_without_mime_type_or_with_external_uris_do_not_panic() {
    let spec = ModelSpec { texture: Some((16, 16)), ..ModelSpec::default() };
    let no_mime =
        edited(&spec, |json| json["images"][0].as_object_mut().unwrap().remove("mimeType").map(drop).unwrap());
    assert_eq!(model(&run(&no_mime)).textures[0].width, Some(16));
    let external = edited(&spec, |json| json["images"][0] = json!({"uri": "texture.png"}));
    assert_eq!(pointers(&external, Code::ExternalUri), ["/images/0"]);
    let nothing = edited(&spec, |json| json["images"][0] = json!({}));
    assert_eq!(pointers(&nothing, Code::TextureUnreadable), ["/images/0"]);
}

#[test]
fn a_position_index_out_of_range_does_not_reach_the_crates_validation() {
    // gltf-json 1.4 would index the accessors with it and panic (found by the fuzz targets).
    let bytes =
        edited(&ModelSpec::default(), |json| json["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(99));
    assert_eq!(pointers(&bytes, Code::GltfInvalid), ["/meshes/0/primitives/0/attributes/POSITION"]);
}

#[test]
fn positions_without_bounds_break_the_schema() {
    let bytes = edited(&ModelSpec::default(), |json| {
        json["accessors"][0].as_object_mut().unwrap().remove("min");
    });
    assert_eq!(pointers(&bytes, Code::GltfInvalid), ["/meshes/0/primitives/0/attributes/POSITION/min"]);
}

#[test]
fn ceilings_are_checked_before_the_document_is_built() {
    let bytes = samples::glb(&ModelSpec { skinned: true, ..ModelSpec::default() });
    let limits = Limits { max_nodes: 2, ..Limits::default() };
    let analysis = analyse(&bytes, &limits);
    assert_eq!(codes(&analysis), [Code::GltfTooComplex]);
    assert_eq!(analysis.findings.list[0].actual, Some(json!(3)));
    let limits = Limits { max_json_bytes: 100, ..Limits::default() };
    assert_eq!(codes(&analyse(&bytes, &limits)), [Code::JsonChunkOverLimit]);
    let limits = Limits { max_bytes: 100, ..Limits::default() };
    assert_eq!(codes(&analyse(&bytes, &limits)), [Code::BytesOverLimit]);
}

#[test]
fn a_png_declaring_100000_by_100000_is_refused_from_its_header() {
    let png = samples::png_header_only(100_000, 100_000);
    let analysis = run(&png);
    assert_eq!(analysis.kind, Some(Kind::Png));
    assert_eq!(codes(&analysis), [Code::ImageDimensionsOverLimit]);
    assert_eq!(analysis.findings.list[0].actual, Some(json!("100000×100000")));

    // The same header as a GLB's texture.
    let spec = ModelSpec { texture: Some((4, 4)), ..ModelSpec::default() };
    let good = samples::glb(&spec);
    let container = glb::split(&good).unwrap();
    let json: Value = serde_json::from_slice(container.json).unwrap();
    let view = &json["bufferViews"][json["images"][0]["bufferView"].as_u64().unwrap() as usize];
    let offset = container.bin_offset + view["byteOffset"].as_u64().unwrap() as usize;
    let mut hostile = good.clone();
    hostile[offset..offset + png.len()].copy_from_slice(&png);
    assert_eq!(pointers(&hostile, Code::ImageDimensionsOverLimit), ["/images/0"]);
}

#[test]
fn empty_and_unknown_bytes_say_so() {
    assert_eq!(codes(&run(b"")), [Code::EmptyFile]);
    let analysis = run(b"just some text, no magic");
    assert_eq!((analysis.kind, codes(&analysis)), (None, vec![Code::UnknownKind]));
    assert_eq!(codes(&run(b"glTF\x02\0\0\0")), [Code::GlbInvalid]);
    assert_eq!(codes(&run(b"\x89PNG\r\n\x1a\n")), [Code::Unreadable]);
    assert_eq!(codes(&run(b"RIFF\0\0\0\0WAVEjunk")), [Code::Unreadable]);
    assert_eq!(codes(&run(b"PK\x03\x04 not really")), [Code::Unreadable]);
    assert_eq!(codes(&run(b"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": 5}")), [Code::Unreadable]);
}
