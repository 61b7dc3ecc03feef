//! Housing videos (issue 31): a user uploads a video through the uploader's `housing_video` kind,
//! converts it on `/mypage/housing-videos`, and a background job turns it into an H.264/AAC MP4
//! of at most 1280 × 720 and a thumbnail that only its owner can fetch; the owner discards it and
//! its files go. A 4-hour video ends in a clear error without the encoder running; a file with no
//! video track fails its upload's check and is never converted; someone else's upload, or an upload
//! of another kind, is refused.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::html::Doc;
use crate::uploader::{avatar, one_shot};

/// Encodes `args` with ffmpeg into `name` (in a directory of the test's own); its bytes.
fn encode(dir: &Path, name: &str, args: &[&str]) -> Vec<u8> {
    let out: PathBuf = dir.join(name);
    let status = Command::new("ffmpeg")
        .args(["-v", "error", "-y"])
        .args(args)
        .arg(&out)
        .status()
        .expect("ffmpeg (scripts/install-test-deps installs it)");
    assert!(status.success(), "ffmpeg encoded {name}");
    std::fs::read(out).unwrap()
}

/// ffprobe's answer for the file `bytes`: (video codec, audio codec, width, height).
fn probe(dir: &Path, bytes: &[u8]) -> (String, String, i64, i64) {
    let path = dir.join("probe.mp4");
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new("ffprobe")
        .args(["-v", "error", "-print_format", "json", "-show_streams"])
        .arg(&path)
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let streams = json["streams"].as_array().cloned().unwrap_or_default();
    let of = |kind: &str| streams.iter().find(|s| s["codec_type"] == kind).cloned().unwrap_or(Value::Null);
    let (video, audio) = (of("video"), of("audio"));
    (
        video["codec_name"].as_str().unwrap_or("").into(),
        audio["codec_name"].as_str().unwrap_or("").into(),
        video["width"].as_i64().unwrap_or(0),
        video["height"].as_i64().unwrap_or(0),
    )
}

/// `owner` uploads `bytes` as a housing video; the asset's id.
async fn uploaded(owner: &Actor<'_>, name: &str, bytes: &[u8]) -> i64 {
    let (asset, _) = one_shot(owner, "housing_video", name, bytes).await;
    assert_eq!(asset["latest_version"]["upload_status"], "uploaded", "{asset}");
    asset["id"].as_i64().unwrap()
}

/// Waits (at most 120 s) until `owner`'s video `uuid` leaves `converting`; its view.
async fn converted(owner: &Actor<'_>, uuid: &str) -> Value {
    for _ in 0..1200 {
        let (status, list) = owner.get_json("/api/v1/store/housing_videos").await;
        assert_eq!(status, 200, "{list}");
        let video = list["videos"].as_array().unwrap().iter().find(|v| v["uuid"] == uuid).cloned().unwrap();
        if video["convert_status"] != "converting" {
            return video;
        }
        rocket::tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("housing video {uuid} did not leave converting");
}

#[rocket::async_test]
async fn an_uploaded_video_converts_to_a_bounded_mp4_its_owner_alone_plays_and_discards() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.user("video_owner").await;
    let stranger = app.user("video_stranger").await;
    let dir = tempfile::tempdir().unwrap();

    let clip = encode(
        dir.path(),
        "clip.mp4",
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc=size=1920x1080:rate=25",
            "-f",
            "lavfi",
            "-i",
            "sine=frequency=440",
            "-t",
            "3",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-c:a",
            "aac",
            "-shortest",
        ],
    );
    let asset = uploaded(&owner, "夜市のループ.mp4", &clip).await;
    let (avatar_asset, _) = one_shot(&owner, "avatar", "kohaku.vrm", &avatar(500)).await;

    let (status, list) = owner.get_json("/api/v1/store/housing_videos").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["convertible"][0]["asset_id"], asset, "the upload is offered for conversion: {list}");
    assert_eq!(list["videos"], json!([]));

    // Someone else's upload is not there for them; an avatar is no video.
    let (status, body) = stranger.post_json("/api/v1/store/housing_videos", &json!({"asset_id": asset})).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) =
        owner.post_json("/api/v1/store/housing_videos", &json!({"asset_id": avatar_asset["id"]})).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["details"][0]["attribute"], "asset_id", "{body}");
    let (status, body) = owner.post_json("/api/v1/store/housing_videos", &json!({"asset_id": "one"})).await;
    assert_eq!(status, 400, "{body}");

    // Converting from the page; asking again gives the same video.
    let form = owner.form("/mypage/housing-videos", "[data-testid=convert-form]").await;
    let (status, location, _) = owner.submit(&form, &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/housing-videos?done=converting")));
    let (status, again) = owner.post_json("/api/v1/store/housing_videos", &json!({"asset_id": asset})).await;
    assert_eq!(status, 200, "made once per upload: {again}");
    let uuid = again["uuid"].as_str().unwrap().to_string();

    let video = converted(&owner, &uuid).await;
    assert_eq!(video["convert_status"], "finished", "{video}");
    assert_eq!((video["width"].as_i64(), video["height"].as_i64()), (Some(1280), Some(720)), "{video}");
    let ms = video["duration_ms"].as_i64().unwrap();
    assert!((2_900..=3_100).contains(&ms), "about three seconds: {video}");

    let link = video["converted_video"].as_str().unwrap().to_string();
    let (status, headers, mp4) = owner.download(&link).await;
    assert_eq!(status, 200);
    assert!(headers.contains(&("content-type".into(), "video/mp4".into())), "{headers:?}");
    assert_eq!(probe(dir.path(), &mp4), ("h264".into(), "aac".into(), 1280, 720));
    assert_eq!(video["converted_bytes"].as_i64(), Some(mp4.len() as i64));
    let thumb = video["video_thumbnail"].as_str().unwrap().to_string();
    let (status, _, jpeg) = owner.download(&thumb).await;
    assert_eq!((status, &jpeg[..3]), (200, &[0xFF, 0xD8, 0xFF][..]), "a JPEG thumbnail");
    assert_eq!(stranger.download(&link).await.0, 404, "a stranger cannot play it");
    assert_eq!(app.client.get(link.clone()).dispatch().await.status().code, 401);

    let (status, html) = owner.page("/mypage/housing-videos").await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attrs("[data-testid=video-player]", "src"), vec![link.clone()]);
    assert_eq!(doc.text("[data-testid=video-status]"), "変換完了");
    assert_eq!(doc.text("[data-testid=video-row] .asset-card__name"), "夜市のループ.mp4", "named as the asset is");
    assert_eq!(video["name"], "夜市のループ.mp4");
    assert_eq!(doc.count("[data-testid=convertible-row]"), 0, "converted uploads are not offered again");
    let (_, html) = owner.page("/en/mypage/housing-videos").await;
    assert_eq!(Doc::parse(&html).text("[data-testid=video-status]"), "Ready");

    // Discarding: a stranger cannot; the owner's files go.
    let (status, _) = stranger.post_json(&format!("/api/v1/store/housing_videos/{uuid}/discard"), &json!({})).await;
    assert_eq!(status, 404);
    let form = owner.form("/mypage/housing-videos", "[data-testid=discard-form]").await;
    let (status, location, _) = owner.submit(&form, &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/housing-videos?done=discarded")));
    assert_eq!(owner.download(&link).await.0, 404, "a discarded video is gone");
    let stored = vmarket::store::model::housing_video::key(&uuid, "video.mp4");
    let storage = app.client.rocket().state::<vmarket::storage::Storage>().expect("storage");
    assert_eq!(storage.size(&stored).await.unwrap(), None, "its file is deleted");
    let (_, list) = owner.get_json("/api/v1/store/housing_videos").await;
    assert_eq!(list["videos"][0]["discard_status"], "discarded", "{list}");
    assert_eq!(list["videos"][0]["converted_video"], Value::Null, "{list}");
}

#[rocket::async_test]
async fn a_four_hour_video_ends_in_a_clear_error_and_a_file_without_a_picture_is_never_converted() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.user("video_maker").await;
    let dir = tempfile::tempdir().unwrap();

    // Four hours of a tiny black picture at one frame a second: small to upload, long to watch.
    let long = encode(
        dir.path(),
        "long.mp4",
        &["-f", "lavfi", "-i", "color=c=black:s=32x32:r=1", "-t", "14400", "-c:v", "libx264", "-preset", "ultrafast"],
    );
    let asset = uploaded(&owner, "long.mp4", &long).await;
    let (status, made) = owner.post_json("/api/v1/store/housing_videos", &json!({"asset_id": asset})).await;
    assert_eq!(status, 201, "{made}");
    let video = converted(&owner, made["uuid"].as_str().unwrap()).await;
    assert_eq!((video["convert_status"].as_str(), video["convert_error"].as_str()), (Some("error"), Some("too_long")));
    assert_eq!(video["converted_video"], Value::Null);
    let (_, html) = owner.page("/mypage/housing-videos").await;
    assert!(html.contains("動画が長すぎます"), "the page says why");
    let (_, html) = owner.page("/en/mypage/housing-videos").await;
    assert!(html.contains("The video is too long"), "in both languages");

    // An MP4 with a sound and no picture fails its upload's check, so there is nothing to convert.
    let sound = encode(dir.path(), "sound.mp4", &["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "aac"]);
    let (asset, _) = one_shot(&owner, "housing_video", "sound.mp4", &sound).await;
    assert_eq!(asset["asset_versions"][0]["upload_status"], "failed", "{asset}");
    let (_, list) = owner.get_json("/api/v1/store/housing_videos").await;
    assert_eq!(list["convertible"], json!([]), "{list}");
    let (status, body) = owner.post_json("/api/v1/store/housing_videos", &json!({"asset_id": asset["id"]})).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("asset_not_uploaded")), "{body}");
}
