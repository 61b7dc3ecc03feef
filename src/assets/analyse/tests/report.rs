//! Rule sets applied, and the report's shape.

use serde_json::{Value, json};

use super::super::rank::Rank;
use super::super::report::{MAX_MESSAGES, Status};
use super::super::rules::{Limit, Rule};
use super::super::samples::{self, ModelSpec, VrmSample, ZipSample};
use super::super::{Analysis, Code, RuleSet, Severity, build_report, defaults, sha256_hex};
use super::run;

fn report(analysis: &Analysis, rules: &RuleSet) -> super::super::Report {
    let input = super::super::ReportInput {
        asset_id: 42,
        version: 3,
        mime_type: Some("application/octet-stream".into()),
        byte_length: analysis.byte_length,
        sha256: "00".repeat(32),
        validated_at: "2026-12-01T09:00:00Z".into(),
    };
    build_report(&input, analysis, rules)
}

fn message_codes(report: &super::super::Report) -> Vec<(Code, Option<String>)> {
    report.issues.messages.iter().map(|m| (m.code, m.rule_id.clone())).collect()
}

#[test]
fn a_vrm_within_the_avatar_rules_passes_with_the_reports_shape() {
    let spec = ModelSpec {
        triangles: 19_000,
        materials: 4,
        texture: Some((1024, 1024)),
        vrm: Some(VrmSample::V1),
        size: [0.6, 1.6, 0.3],
        skinned: true,
        ..ModelSpec::default()
    };
    let bytes = samples::glb(&spec);
    let report = report(&run(&bytes), &defaults::vket_avatar());
    assert_eq!(report.status, Status::Passed, "{:?}", report.issues);
    let json = serde_json::to_value(&report).unwrap();
    for key in [
        "report_version",
        "validator",
        "asset",
        "rule_set",
        "validated_at",
        "status",
        "issues",
        "stats",
        "vrm",
        "vrchat_rank",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(
        json["asset"],
        json!({"id": 42, "version": 3, "type": "vrm", "mime_type": "model/gltf-binary", "byte_length": bytes.len(), "sha256": "00".repeat(32)})
    );
    assert_eq!(json["rule_set"], json!({"id": "vket_avatar", "version": 1}));
    assert_eq!(json["status"], "passed");
    assert_eq!(json["stats"]["type"], "model");
    assert_eq!(json["stats"]["triangles"], 19_000);
    assert_eq!(json["vrm"]["spec_version"], "1.0");
    assert_eq!(json["vrm"]["meta"]["authors"], json!(["vmarket", "samples"]));
    assert_eq!(json["vrchat_rank"]["pc"]["rank"], "excellent");
    // 19,000 triangles: Poor on mobile (≤ 20,000), set by the triangles and the material slots.
    assert_eq!(report.vrchat_rank.as_ref().unwrap().mobile.rank, Rank::Poor);
    // The report reads back.
    let back: super::super::Report = serde_json::from_value(json).unwrap();
    assert_eq!(back, report);
    assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

#[test]
fn every_avatar_rule_is_checked() {
    let spec = ModelSpec {
        triangles: 20_001,
        materials: 5,
        texture: Some((1000, 1000)),
        vrm: Some(VrmSample::V1Beta),
        size: [2.5, 1.0, 1.0],
        ..ModelSpec::default()
    };
    let report = report(&run(&samples::glb(&spec)), &defaults::vket_avatar());
    assert_eq!(report.status, Status::Failed);
    let codes = message_codes(&report);
    for (code, rule) in [
        (Code::BoundingBoxOverLimit, "space"),
        (Code::TrianglesOverLimit, "polygons"),
        (Code::MaterialsOverLimit, "materials"),
        (Code::TextureSizeNotAllowed, "texture_size"),
        (Code::VrmSpecRefused, "vrm_version"),
    ] {
        assert!(codes.contains(&(code, Some(rule.to_string()))), "{code:?} in {codes:?}");
    }
    let message = |code| report.issues.messages.iter().find(|m| m.code == code).unwrap();
    let b = message(Code::BoundingBoxOverLimit);
    assert_eq!((b.limit.clone(), b.actual.clone()), (Some(json!("2 × 2 × 2")), Some(json!("2.5 × 1 × 1"))));
    assert_eq!(
        (b.message.as_str(), b.solution.as_str()),
        ("asset_report.bounding_box_over_limit.message", "asset_report.bounding_box_over_limit.solution")
    );
    let t = message(Code::TrianglesOverLimit);
    assert_eq!((t.limit.clone(), t.actual.clone()), (Some(json!(20_000)), Some(json!(20_001))));
    assert_eq!(message(Code::TextureSizeNotAllowed).pointer.as_deref(), Some("/images/0"));
    assert_eq!(message(Code::VrmSpecRefused).pointer.as_deref(), Some("/extensions/VRMC_vrm/specVersion"));
    assert_eq!(report.issues.num_errors, 5);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["issues"]["messages"][0]["severity"], 0);
}

#[test]
fn bytes_of_another_kind_fail_with_kind_mismatch() {
    let png = samples::png(512, 512);
    let report = report(&run(&png), &defaults::vket_avatar());
    assert_eq!(report.status, Status::Failed);
    assert_eq!(message_codes(&report), [(Code::KindMismatch, Some("kinds".into()))]);
    assert_eq!(report.issues.messages[0].actual, Some(json!("png")));
    // A GLB without the VRM extension is not a VRM.
    let glb = report_of(&samples::glb(&ModelSpec::default()), &defaults::vket_avatar());
    assert!(message_codes(&glb).contains(&(Code::KindMismatch, Some("kinds".into()))));
    // Unknown bytes.
    let unknown = report_of(b"no magic here", &defaults::scene_asset());
    assert_eq!(unknown.asset.kind, None);
    assert_eq!(unknown.asset.mime_type.as_deref(), Some("application/octet-stream"));
    assert_eq!(message_codes(&unknown), [(Code::UnknownKind, None), (Code::KindMismatch, Some("kinds".into()))]);
}

fn report_of(bytes: &[u8], rules: &RuleSet) -> super::super::Report {
    report(&run(bytes), rules)
}

#[test]
fn a_broken_file_fails_with_a_report_that_says_why() {
    let mut glb = samples::glb(&ModelSpec::default());
    glb.truncate(40);
    let report = report_of(&glb, &defaults::vket_housing_prop());
    assert_eq!(report.status, Status::Failed);
    assert_eq!(report.issues.messages[0].code, Code::GlbInvalid);
    assert_eq!(report.issues.messages[0].offset, Some(8));
    let empty = report_of(b"", &defaults::vket_housing_prop());
    assert_eq!(empty.issues.messages[0].code, Code::EmptyFile);
}

#[test]
fn size_limits_are_errors_whatever_the_rule_says() {
    let rules = RuleSet {
        id: "lenient".into(),
        version: 7,
        rules: vec![Rule {
            rule_id: "size".into(),
            severity: Severity::Info,
            limit: Limit::MaxBytes(10),
            source: None,
        }],
    };
    let report = report_of(&samples::wav(100, 8000), &rules);
    assert_eq!((report.status, report.issues.num_errors), (Status::Failed, 1));
    assert_eq!(report.issues.messages[0].limit, Some(json!(10)));
}

#[test]
fn warnings_make_a_warnings_status_and_unknowable_rules_say_so() {
    let mut entries: Vec<ZipSample> =
        (0..25).map(|i| ZipSample::file(&format!("Booth/Materials/m{i}.mat"), b"x")).collect();
    entries.push(ZipSample::file("Booth/Lighting/Lightmap-0_comp_light.exr", b"x"));
    let report = report_of(&samples::zip(&entries), &defaults::vitdeck_booth());
    assert_eq!(report.status, Status::Warnings, "{:?}", report.issues);
    let codes = message_codes(&report);
    assert_eq!(codes[0], (Code::MaterialsOverLimit, Some("materials".into())));
    assert!(codes.contains(&(Code::RuleNotCheckable, Some("booth_space".into()))));
    assert!(codes.contains(&(Code::RuleNotCheckable, Some("lightmaps".into()))));
    assert_eq!((report.issues.num_warnings, report.issues.num_infos), (1, 2));
    assert!(report.vrchat_rank.is_none());
}

#[test]
fn zip_listing_rules_find_blocked_kinds_long_paths_and_bad_names() {
    let long = format!("Booth/{}.png", "a".repeat(200));
    let entries = [
        ZipSample::file("Booth/Source/model.BLEND", b"x"),
        ZipSample::file("Booth/scene.c4d", b"x"),
        ZipSample::file(&long, b"x"),
        ZipSample::file("Booth/テクスチャ.png", b"x"),
        ZipSample::file("Booth/ok name (2)-final_v1.0.png", b"x"),
        ZipSample::file("Booth/Lighting/Lightmap-0_comp_light.exr", b"x"),
        ZipSample::file("Booth/Lighting/Lightmap-1_comp_light.exr", b"x"),
    ];
    let report = report_of(&samples::zip(&entries), &defaults::vitdeck_booth());
    let codes = message_codes(&report);
    let count = |code| codes.iter().filter(|(c, _)| *c == code).count();
    assert_eq!((count(Code::ZipBlockedKind), count(Code::ZipPathTooLong), count(Code::ZipNameInvalid)), (2, 1, 1));
    assert_eq!(count(Code::LightmapsOverLimit), 1);
    let invalid = report.issues.messages.iter().find(|m| m.code == Code::ZipNameInvalid).unwrap();
    assert_eq!(invalid.actual, Some(json!("Booth/テクスチャ.png")));
}

#[test]
fn messages_are_capped_while_counts_stay_exact() {
    let entries: Vec<ZipSample> = (0..500).map(|i| ZipSample::file(&format!("bad+name{i}.blend"), b"x")).collect();
    let report = report_of(&samples::zip(&entries), &defaults::zip_bundle());
    assert_eq!(report.issues.num_errors, 1000);
    assert!(report.issues.truncated);
    assert_eq!(report.issues.messages.len(), MAX_MESSAGES);
    let big: Vec<ZipSample> = (0..1500).map(|i| ZipSample::file(&format!("f{i}"), b"")).collect();
    let listing = report_of(&samples::zip(&big), &defaults::zip_bundle());
    let Value::Array(entries) = &serde_json::to_value(&listing.stats).unwrap()["entries"] else { panic!() };
    assert_eq!(entries.len(), super::super::report::MAX_REPORT_ENTRIES);
}

#[test]
fn the_built_in_rule_sets_are_sourced_data_that_round_trip_as_json() {
    for set in defaults::all() {
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(serde_json::from_str::<RuleSet>(&json).unwrap(), set);
        assert!(set.rules.iter().all(|r| r.source.is_some()), "{}", set.id);
    }
    let avatar = serde_json::to_value(defaults::vket_avatar()).unwrap();
    assert_eq!(
        avatar["rules"][1],
        json!({"rule_id": "file_size", "severity": "error", "limit": {"max_bytes": 15 * 1024 * 1024}, "source": "https://mall.v-market.work/en/web_rules"})
    );
    assert_eq!(avatar["rules"][2]["limit"], json!({"bounding_box": {"x": 2.0, "y": 2.0, "z": 2.0}}));
}
