//! The asset uploader (`/uploader`, issue 27) as its users meet it: multipart uploads on the local
//! store (`flow.rs`) and on S3 (`s3.rs`, moto's server), hostile and broken input (`bad_input.rs`),
//! download tokens (`tokens.rs`).
//! The helpers here act as the upload page does: open an asset, `PUT` each part to the URL the
//! answer lists, complete with the ETags, and wait for the pipeline.

mod bad_input;
mod flow;
mod pages;
mod s3;
mod tokens;

use std::time::Duration;

use rocket::http::{ContentType, Method};
use serde_json::{Value, json};

use crate::support::TestApp;
use crate::support::actors::Actor;

/// 5 MiB: the smallest part but the last.
pub const MIB5: usize = 5 * 1024 * 1024;

/// The path of `url` on this app (the uploader's URLs are absolute).
pub fn path_of(url: &str) -> String {
    let at = url.find("/uploader/").expect("an uploader URL");
    url[at..].to_string()
}

/// `owner` opens asset `name` of setting `label` for a file `file_name` of `size` bytes.
pub async fn open(owner: &Actor<'_>, label: &str, name: &str, file_name: &str, size: usize) -> (u16, Value) {
    let body = json!({"asset_setting_label": label, "name": name, "description": "", "file_name": file_name,
                      "byte_size": size});
    owner.post_json("/uploader/assets", &body).await
}

/// `PUT`s `bytes` to a part URL without credentials (as a browser sends to a presigned URL);
/// status and `ETag`.
pub async fn put_part(app: &TestApp, url: &str, bytes: &[u8]) -> (u16, Option<String>, Value) {
    let res = app.client.put(path_of(url)).header(ContentType::Binary).body(bytes).dispatch().await;
    let status = res.status().code;
    let etag = res.headers().get_one("ETag").map(String::from);
    let text = res.into_string().await.unwrap_or_default();
    (status, etag, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Waits (at most 60 s) until version `version_id` of asset `asset_id` leaves the pipeline
/// (`uploaded`, `failed` or `expired`); the asset's view.
pub async fn settled(owner: &Actor<'_>, asset_id: i64, version_id: i64) -> Value {
    for _ in 0..600 {
        let (status, asset) = owner.get_json(&format!("/uploader/assets/{asset_id}")).await;
        assert_eq!(status, 200, "{asset}");
        let version = version_of(&asset, version_id);
        if matches!(version["upload_status"].as_str(), Some("uploaded" | "failed" | "expired")) {
            return asset;
        }
        rocket::tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("version {version_id} did not leave the pipeline");
}

/// Version `version_id` in an asset's view.
pub fn version_of(asset: &Value, version_id: i64) -> Value {
    asset["asset_versions"]
        .as_array()
        .and_then(|v| v.iter().find(|v| v["id"].as_i64() == Some(version_id)))
        .cloned()
        .unwrap_or(Value::Null)
}

/// A VRM 1.0 avatar of `triangles` triangles in a 0.6 × 1.6 × 0.4 m box (the avatar rule set's
/// limit is 20,000).
pub fn avatar(triangles: u32) -> Vec<u8> {
    use vmarket::assets::analyse::samples::{ModelSpec, VrmSample, glb};
    glb(&ModelSpec { triangles, size: [0.6, 1.6, 0.4], vrm: Some(VrmSample::V1), ..ModelSpec::default() })
}

/// `owner` sends `bytes` in one request (`POST /uploader/temporary_uploads`); status and body.
pub async fn temporary(owner: &Actor<'_>, file_name: &str, bytes: &[u8]) -> (u16, Value) {
    owner.multipart(Method::Post, "/uploader/temporary_uploads", &[], Some(("file", file_name, bytes))).await
}

/// `owner` sends `bytes` in one request as `file_name` under `label`; the asset's view once the
/// pipeline is done with it, and the version's id.
pub async fn one_shot(owner: &Actor<'_>, label: &str, file_name: &str, bytes: &[u8]) -> (Value, i64) {
    let (status, sent) = temporary(owner, file_name, bytes).await;
    assert_eq!(status, 201, "{sent}");
    let body = json!({"asset_setting_label": label, "name": file_name, "description": "", "file_name": file_name,
                      "byte_size": bytes.len(), "temporary_upload_id": sent["id"]});
    let (status, opened) = owner.post_json("/uploader/assets", &body).await;
    assert_eq!(status, 201, "{opened}");
    let (asset_id, version_id) = (opened["asset"]["id"].as_i64().unwrap(), opened["version"]["id"].as_i64().unwrap());
    (settled(owner, asset_id, version_id).await, version_id)
}
