//! The uploader on an S3-compatible store (moto's S3 server, the protocol the production store
//! speaks): the parts go from the client straight to the store through presigned URLs, a resumed
//! upload learns what arrived from the store's own part list, the store joins the parts, the
//! pipeline reads the object back, and a download token trades for a presigned link to it.

use serde_json::json;

use super::{MIB5, open, settled, version_of};
use crate::support::TestApp;
use crate::support::moto::MotoS3;
use vmarket::assets::analyse::samples::wav;

/// `PUT`s `bytes` to a presigned part URL as a browser does; status and `ETag`.
async fn put_to_store(http: &reqwest::Client, url: &str, bytes: &[u8]) -> (u16, Option<String>) {
    let res = http.put(url).body(bytes.to_vec()).send().await.expect("the store answers");
    let etag = res.headers().get("etag").and_then(|v| v.to_str().ok()).map(String::from);
    (res.status().as_u16(), etag)
}

#[rocket::async_test]
async fn parts_go_straight_to_s3_resume_from_its_part_list_and_download_through_a_presigned_link() {
    let Some(s3) = MotoS3::start() else { return };
    s3.bucket("vmarket-assets").await;
    let base = s3.base.clone();
    let app = TestApp::builder()
        .live()
        .config(move |c| {
            MotoS3::configure_at(&base, c, "vmarket-assets/site");
            c.job_poll_interval_ms = 50;
        })
        .build()
        .await;
    let _workers = app.start_workers().await;
    let owner = app.with_user("s3_owner").await;
    let stranger = app.with_user("s3_stranger").await;
    let bytes = wav((MIB5 / 2) as u32 + 200_000, 44_100);
    let http = reqwest::Client::new();
    // The upload page may send parts to the store, and only there besides this site.
    let res = owner.request(rocket::http::Method::Get, "/mypage/booth-maker/assets/upload").dispatch().await;
    let csp = res.headers().get_one("Content-Security-Policy").unwrap_or_default().to_string();
    let origin = url::Url::parse(&s3.base).unwrap().origin().ascii_serialization();
    assert!(csp.contains(&format!("connect-src 'self' blob: {origin};")), "{csp}");

    let (status, opened) = open(&owner, "scene_asset", "Rain on S3", "rain.wav", bytes.len()).await;
    assert_eq!(status, 201, "{opened}");
    let upload = &opened["upload"];
    let (asset_id, version_id) = (opened["asset"]["id"].as_i64().unwrap(), opened["version"]["id"].as_i64().unwrap());
    let parts = upload["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    let first_url = parts[0]["url"].as_str().unwrap();
    assert!(first_url.starts_with(&format!("{}/vmarket-assets/site/", s3.base)), "the store's URL: {first_url}");
    assert!(first_url.contains("X-Amz-Signature="), "presigned: {first_url}");

    // The first part goes to the store; the page then asks what arrived (the store's list).
    let (status, first_etag) = put_to_store(&http, first_url, &bytes[..MIB5]).await;
    assert_eq!(status, 200);
    let upload_path = format!("/uploader/uploads/{}", upload["id"].as_str().unwrap());
    let (status, resumed) = owner.get_json(&upload_path).await;
    assert_eq!(status, 200, "{resumed}");
    assert_eq!(resumed["parts_received"].as_array().map(Vec::len), Some(1), "{resumed}");
    assert_eq!(resumed["parts_received"][0]["part_number"], 1);
    assert_eq!(resumed["parts_received"][0]["etag"].as_str(), first_etag.as_deref());
    assert_eq!(stranger.get_json(&upload_path).await.0, 404, "someone else's upload");
    let (status, second_etag) = put_to_store(&http, resumed["parts"][1]["url"].as_str().unwrap(), &bytes[MIB5..]).await;
    assert_eq!(status, 200);

    let complete = super::path_of(upload["complete_url"].as_str().unwrap());
    let body = json!({"parts": [{"part_number": 1, "etag": first_etag}, {"part_number": 2, "etag": second_etag}]});
    assert_eq!(stranger.post_json(&complete, &body).await.0, 404);
    let (status, done) = owner.post_json(&complete, &body).await;
    assert_eq!(status, 200, "{done}");
    let asset = settled(&owner, asset_id, version_id).await;
    let version = version_of(&asset, version_id);
    assert_eq!(version["upload_status"], "uploaded", "{asset}");
    use sha2::Digest;
    assert_eq!(
        version["sha256"].as_str(),
        Some(hex::encode(sha2::Sha256::digest(&bytes)).as_str()),
        "the joined object"
    );

    // A download token trades for a presigned link to the object in the store.
    let tokens = format!("/uploader/assets/{asset_id}/versions/{version_id}/download_tokens");
    let (status, made) = owner.post_json(&tokens, &json!({})).await;
    assert_eq!(status, 201, "{made}");
    let (status, _, link) = app.post_json("/uploader/downloads", &json!({"token": made["token"]})).await;
    assert_eq!(status, 200, "{link}");
    let url = link["url"].as_str().unwrap();
    assert!(url.starts_with(&s3.base) && url.contains("X-Amz-Signature="), "a presigned link to the store: {url}");
    let res = http.get(url).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let disposition =
        res.headers().get("content-disposition").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    assert_eq!(disposition, "attachment; filename*=UTF-8''rain.wav", "the file's own name");
    assert_eq!(res.bytes().await.unwrap().to_vec(), bytes, "the file as uploaded");
}
