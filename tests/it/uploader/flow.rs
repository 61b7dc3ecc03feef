//! Uploading on the local store, as the upload page does: a file over 5 MiB in parts (resumed
//! after a dropped part, completed with the ETags, joined and analysed by the workers); a VRM in
//! one request that passes its report; an avatar over its polygon limit that fails with a report
//! naming the rule, the limit and the count, in both languages; new versions, `published` and
//! `deleted`, and a stranger who sees none of it.

use serde_json::{Value, json};
use vmarket::assets::analyse::samples::wav;

use super::{MIB5, avatar, open, path_of, put_part, settled, temporary, version_of};
use crate::support::TestApp;

/// A WAV of `bytes` bytes or a little more (16-bit mono).
fn wav_of(bytes: usize) -> Vec<u8> {
    wav((bytes / 2) as u32 + 1, 44_100)
}

#[rocket::async_test]
async fn a_large_file_goes_up_in_parts_resumes_after_a_drop_and_reaches_uploaded() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.with_user("uploader_parts").await;
    let stranger = app.with_user("uploader_stranger").await;
    let bytes = wav_of(MIB5 + 700_000);

    let (status, opened) = open(&owner, "scene_asset", "Rain on the roof", "rain.wav", bytes.len()).await;
    assert_eq!(status, 201, "{opened}");
    let upload = &opened["upload"];
    assert_eq!((upload["part_size"].as_u64(), upload["part_count"].as_u64()), (Some(MIB5 as u64), Some(2)));
    assert_eq!(opened["version"]["upload_status"], "waiting");
    let (asset_id, version_id) = (opened["asset"]["id"].as_i64().unwrap(), opened["version"]["id"].as_i64().unwrap());

    // The first part goes through; the connection drops during the second (a short body).
    let parts = upload["parts"].as_array().unwrap();
    let (status, first_etag, _) = put_part(&app, parts[0]["url"].as_str().unwrap(), &bytes[..MIB5]).await;
    assert_eq!(status, 200);
    let (status, _, body) = put_part(&app, parts[1]["url"].as_str().unwrap(), &bytes[MIB5..MIB5 + 1000]).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("validation_failed")), "{body}");

    // The page asks what arrived, and sends only the rest.
    let upload_path = format!("/uploader/uploads/{}", upload["id"].as_str().unwrap());
    let (status, resumed) = owner.get_json(&upload_path).await;
    assert_eq!(status, 200, "{resumed}");
    let received: Vec<i64> =
        resumed["parts_received"].as_array().unwrap().iter().map(|p| p["part_number"].as_i64().unwrap()).collect();
    assert_eq!(received, [1], "the short part was not kept");
    assert_eq!(resumed["parts_received"][0]["etag"].as_str(), first_etag.as_deref());
    assert_eq!(stranger.get_json(&upload_path).await.0, 404, "someone else's upload");
    let (status, second_etag, _) = put_part(&app, resumed["parts"][1]["url"].as_str().unwrap(), &bytes[MIB5..]).await;
    assert_eq!(status, 200);

    let complete = path_of(upload["complete_url"].as_str().unwrap());
    let parts = json!({"parts": [{"part_number": 1, "etag": first_etag}, {"part_number": 2, "etag": second_etag}]});
    assert_eq!(stranger.post_json(&complete, &parts).await.0, 404, "a stranger cannot complete it");
    let (status, version) = owner.post_json(&complete, &parts).await;
    assert_eq!(status, 200, "{version}");
    let asset = settled(&owner, asset_id, version_id).await;
    let version = version_of(&asset, version_id);
    assert_eq!(version["upload_status"], "uploaded", "{asset}");
    assert_eq!(
        (version["mime_type"].as_str(), version["byte_size"].as_u64()),
        (Some("audio/wav"), Some(bytes.len() as u64))
    );
    assert_eq!(asset["latest_version"]["id"].as_i64(), Some(version_id), "{asset}");

    // The joined file is the file: its SHA-256 is the bytes'.
    use sha2::Digest;
    let digest = hex::encode(sha2::Sha256::digest(&bytes));
    assert_eq!(version["sha256"].as_str(), Some(digest.as_str()));

    // The owner's list has it; nobody else sees it.
    let (_, mine) = owner.get_json("/uploader/assets").await;
    assert!(mine["data"].as_array().unwrap().iter().any(|a| a["id"].as_i64() == Some(asset_id)), "{mine}");
    assert_eq!(stranger.get_json(&format!("/uploader/assets/{asset_id}")).await.0, 404);
    let (_, theirs) = stranger.get_json("/uploader/assets").await;
    assert!(theirs["data"].as_array().unwrap().is_empty(), "{theirs}");
}

#[rocket::async_test]
async fn a_vrm_passes_and_an_avatar_over_its_polygons_fails_with_the_rule_named() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.with_user("uploader_vrm").await;

    let fine = avatar(8_000);
    let (status, sent) = temporary(&owner, "mio.vrm", &fine).await;
    assert_eq!(status, 201, "{sent}");
    let body = json!({"asset_setting_label": "avatar", "name": "Mio", "description": "", "file_name": "mio.vrm",
                      "byte_size": fine.len(), "temporary_upload_id": sent["id"]});
    let (status, opened) = owner.post_json("/uploader/assets", &body).await;
    assert_eq!(status, 201, "{opened}");
    assert!(opened["upload"].is_null(), "a file sent in one request needs no parts");
    let (asset_id, version_id) = (opened["asset"]["id"].as_i64().unwrap(), opened["version"]["id"].as_i64().unwrap());
    let asset = settled(&owner, asset_id, version_id).await;
    let version = version_of(&asset, version_id);
    assert_eq!(
        (version["upload_status"].as_str(), version["report"]["status"].as_str()),
        (Some("uploaded"), Some("passed")),
        "{asset}"
    );
    assert_eq!(version["detail"]["polygon_count"].as_u64(), Some(8_000));

    // The one-shot upload was spent: naming it again is refused.
    let (status, again) = owner.post_json("/uploader/assets", &body).await;
    assert_eq!((status, again["code"].as_str()), (409, Some("temporary_upload_used")), "{again}");

    // 25,000 triangles against the avatar rule set's 20,000.
    let heavy = avatar(25_000);
    let (_, sent) = temporary(&owner, "heavy.vrm", &heavy).await;
    let path = format!(
        "/uploader/assets/{asset_id}/update_url?file_name=heavy.vrm&byte_size={}&temporary_upload_id={}",
        heavy.len(),
        sent["id"].as_str().unwrap()
    );
    let (status, next) = owner.get_json(&path).await;
    assert_eq!(status, 200, "{next}");
    let next_id = next["version"]["id"].as_i64().unwrap();
    assert_eq!(next["version"]["version"].as_i64(), Some(2));
    let asset = settled(&owner, asset_id, next_id).await;
    assert_eq!(version_of(&asset, next_id)["upload_status"], "failed", "{asset}");
    assert_eq!(asset["latest_version"]["id"].as_i64(), Some(version_id), "the passed version stays the latest");
    for (lang, words) in [("en", "polygon"), ("ja", "ポリゴン")] {
        let (status, report) =
            owner.get_json(&format!("/uploader/assets/{asset_id}/versions/{next_id}/report?lang={lang}")).await;
        assert_eq!(status, 200, "{report}");
        assert_eq!(report["status"], "failed");
        let over: Vec<&Value> =
            report["issues"]["messages"].as_array().unwrap().iter().filter(|m| m["rule_id"] == "polygons").collect();
        assert_eq!(over.len(), 1, "{report}");
        assert_eq!(
            (over[0]["severity"].as_u64(), over[0]["limit"].as_u64(), over[0]["actual"].as_u64()),
            (Some(0), Some(20_000), Some(25_000)),
            "an error (severity 0), the limit and the count"
        );
        let message = over[0]["message"].as_str().unwrap();
        assert!(message.contains(words) && message.contains("25") && message.contains("20"), "{lang}: {message}");
        assert!(!over[0]["solution"].as_str().unwrap_or_default().is_empty(), "a fix is offered");
    }

    // Published, then deleted: only by the owner.
    let stranger = app.with_user("uploader_vrm_stranger").await;
    let path = format!("/uploader/assets/{asset_id}");
    assert_eq!(stranger.put_json(&path, &json!({"published": true})).await.0, 404);
    assert_eq!(stranger.delete(&path).await.0, 404);
    let (status, changed) = owner.put_json(&path, &json!({"published": true})).await;
    assert_eq!((status, changed["published"].as_bool()), (200, Some(true)), "{changed}");
    let (status, deleted) = owner.delete(&path).await;
    assert_eq!((status, deleted["deleted"].as_bool()), (200, Some(true)), "{deleted}");
    let (_, shown) = owner.get_json(&path).await;
    assert_eq!(shown["deleted"], true, "{shown}");
}

#[rocket::async_test]
async fn the_settings_say_what_each_label_takes() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("uploader_settings").await;
    let (status, avatar) = owner.get_json("/uploader/asset_settings/avatar?lang=en").await;
    assert_eq!(status, 200, "{avatar}");
    assert_eq!(avatar["label"], "avatar");
    let (status, body) = owner.get_json("/uploader/asset_settings/no_such_label").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_asset_setting")), "{body}");
}
