//! Hostile and broken uploads get a clear 4xx, or a `failed` version with its report — never a
//! 500, and nothing kept of a refused part: parts out of order or missing, a part larger or
//! shorter than planned, a wrong ETag, a forged part URL, a zip bomb, a GLB whose accessors point
//! outside its buffer, a PNG declaring 100,000 × 100,000, bytes that are not the kind the label
//! takes, 0 bytes, names with path separators or control characters, another user's upload.

use rocket::http::{ContentType, Method};
use serde_json::{Value, json};
use vmarket::assets::analyse::samples::{ModelSpec, VrmSample, ZipSample, glb_with, png, png_header_only, zip};

use super::{MIB5, one_shot, open, path_of, put_part, temporary, version_of};
use crate::support::TestApp;
use crate::support::actors::{Actor, json_of};

/// The codes of the report's errors.
async fn error_codes(owner: &Actor<'_>, asset: &Value, version_id: i64) -> Vec<String> {
    let path = format!("/uploader/assets/{}/versions/{version_id}/report", asset["id"]);
    let (status, report) = owner.get_json(&path).await;
    assert_eq!(status, 200, "{report}");
    report["issues"]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["severity"] == 0)
        .map(|m| m["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[rocket::async_test]
async fn hostile_files_fail_with_a_report_that_says_why() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.with_user("uploader_hostile").await;

    let bomb = zip(&[ZipSample::file("Assets/booth.prefab", b"%YAML 1.1").declaring(4_000_000_000)]);
    let past_buffer = glb_with(&ModelSpec { vrm: Some(VrmSample::V1), ..ModelSpec::default() }, |j| {
        j["accessors"][0]["count"] = json!(1000)
    });
    let cases: [(&str, &str, Vec<u8>, &[&str]); 4] = [
        ("avatar_part_bundle", "bomb.zip", bomb, &["zip_bomb", "zip_ratio_over_limit"]),
        ("avatar", "broken.vrm", past_buffer, &["accessor_out_of_range"]),
        ("scene_asset", "huge.png", png_header_only(100_000, 100_000), &["image_dimensions_over_limit"]),
        ("avatar", "not-a-model.vrm", png(8, 8), &["kind_mismatch"]),
    ];
    for (label, name, bytes, expected) in cases {
        let (asset, version_id) = one_shot(&owner, label, name, &bytes).await;
        let version = version_of(&asset, version_id);
        assert_eq!((name, version["upload_status"].as_str()), (name, Some("failed")), "{asset}");
        let codes = error_codes(&owner, &asset, version_id).await;
        assert!(codes.iter().any(|c| expected.contains(&c.as_str())), "{name}: {codes:?} lacks {expected:?}");
    }
}

#[rocket::async_test]
async fn broken_uploads_are_refused_with_a_clear_error() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("uploader_broken").await;
    let other = app.with_user("uploader_other").await;

    // What an asset is opened with.
    let refused = |status: u16, body: &Value, attribute: &str| {
        assert_eq!(status, 422, "{body}");
        let attrs: Vec<&str> =
            body["details"].as_array().unwrap().iter().filter_map(|d| d["attribute"].as_str()).collect();
        assert!(attrs.contains(&attribute), "{attribute}: {body}");
    };
    let (status, body) = open(&owner, "scene_asset", "Empty", "empty.wav", 0).await;
    refused(status, &body, "byte_size");
    for name in ["../../etc/passwd", "a/b.wav", "a\\b.wav", "bell\u{7}.wav", "line\nbreak.wav", ""] {
        let (status, body) = open(&owner, "scene_asset", "Named", name, MIB5 + 1).await;
        refused(status, &body, "file_name");
    }
    let (status, body) = open(&owner, "scene_asset", "Small", "small.wav", 1000).await;
    refused(status, &body, "byte_size");
    let (status, body) = open(&owner, "scene_asset", "Huge", "huge.wav", 65 * 1024 * 1024).await;
    refused(status, &body, "byte_size");
    let (status, body) = open(&owner, "no_such_label", "Lost", "x.wav", MIB5 + 1).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_asset_setting")), "{body}");
    let (_, mine) = owner.get_json("/uploader/assets").await;
    assert!(mine["data"].as_array().unwrap().is_empty(), "a refused asset leaves nothing behind: {mine}");

    // A one-shot upload without a file, in both languages (spec §8).
    for (lang, message) in [("en", "file is required"), ("ja", "ファイルを指定してください。")] {
        let (status, body) =
            owner.multipart(Method::Post, &format!("/uploader/temporary_uploads?lang={lang}"), &[], None).await;
        assert_eq!(
            (status, body["code"].as_str(), body["message"].as_str()),
            (422, Some("file_required"), Some(message))
        );
    }
    let (status, body) = temporary(&owner, "empty.wav", b"").await;
    assert_eq!((status, body["code"].as_str()), (422, Some("file_required")), "0 bytes: {body}");
    // Someone else's one-shot upload cannot be named.
    let (_, sent) = temporary(&other, "theirs.png", &png(4, 4)).await;
    let body = json!({"asset_setting_label": "scene_asset", "name": "Stolen", "description": "", "file_name": "x.png",
                      "byte_size": 100, "temporary_upload_id": sent["id"]});
    assert_eq!(owner.post_json("/uploader/assets", &body).await.0, 404);

    // The parts of an upload.
    let size = 2 * MIB5 + 10;
    let (status, opened) = open(&owner, "scene_asset", "Parts", "parts.wav", size).await;
    assert_eq!(status, 201, "{opened}");
    let upload = &opened["upload"];
    let urls: Vec<String> =
        upload["parts"].as_array().unwrap().iter().map(|p| p["url"].as_str().unwrap().to_string()).collect();
    assert_eq!(urls.len(), 3);
    let part = vec![7u8; MIB5];
    // A forged or altered part URL.
    let forged = urls[0].replace("signature=", "signature=x");
    let (status, _, body) = put_part(&app, &forged, &part).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("upload_url_invalid")), "{body}");
    let other_part = urls[0].replace("/parts/1?", "/parts/2?");
    assert_eq!(put_part(&app, &other_part, &part).await.0, 403, "a signature is for its part only");
    // Larger than its part.
    let (status, _, body) = put_part(&app, &urls[0], &vec![7u8; MIB5 + 1]).await;
    assert!(status == 413 || status == 422, "{status} {body}");
    // The parts, then completions that are wrong.
    let (_, etag1, _) = put_part(&app, &urls[0], &part).await;
    let (_, etag2, _) = put_part(&app, &urls[1], &vec![8u8; MIB5]).await;
    let complete = path_of(upload["complete_url"].as_str().unwrap());
    let out_of_order = json!({"parts": [{"part_number": 2, "etag": etag2}, {"part_number": 1, "etag": etag1}]});
    let (status, body) = owner.post_json(&complete, &out_of_order).await;
    refused(status, &body, "parts");
    let missing = json!({"parts": [{"part_number": 1, "etag": etag1}, {"part_number": 2, "etag": etag2}, {"part_number": 3, "etag": "\"x\""}]});
    let (status, body) = owner.post_json(&complete, &missing).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("parts_missing")), "{body}");
    let (_, etag3, _) = put_part(&app, &urls[2], &[7u8; 10]).await;
    let wrong = json!({"parts": [{"part_number": 1, "etag": etag2}, {"part_number": 2, "etag": etag2}, {"part_number": 3, "etag": etag3}]});
    let (status, body) = owner.post_json(&complete, &wrong).await;
    refused(status, &body, "parts");
    assert_eq!(other.post_json(&complete, &wrong).await.0, 404, "someone else's upload id");
    let (status, body) =
        json_of(owner.request(Method::Post, &complete).header(ContentType::JSON).body("{not json").dispatch().await)
            .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")), "{body}");
}
