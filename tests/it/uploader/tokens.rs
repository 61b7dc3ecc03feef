//! Download tokens: only the owner makes, lists and revokes them (404 to anyone else); a token
//! (and its password, when it has one) trades for a short-lived link to the file; a wrong token
//! and a wrong password answer alike; a revoked or expired token and a tampered link download
//! nothing; attempts are limited per client.

use chrono::Duration;
use serde_json::{Value, json};
use vmarket::assets::analyse::samples::png;

use super::{one_shot, path_of};
use crate::support::TestApp;

#[rocket::async_test]
async fn a_token_and_its_password_download_the_file_and_nothing_else_does() {
    let app = TestApp::builder()
        .live()
        .config(|c| {
            c.job_poll_interval_ms = 50;
            c.asset_download_per_minute = 8;
        })
        .build()
        .await;
    let _workers = app.start_workers().await;
    let owner = app.with_user("token_owner").await;
    let stranger = app.with_user("token_stranger").await;
    let picture = png(64, 48);
    let (asset, version_id) = one_shot(&owner, "scene_asset", "poster.png", &picture).await;
    let tokens = format!("/uploader/assets/{}/versions/{version_id}/download_tokens", asset["id"]);

    assert_eq!(stranger.post_json(&tokens, &json!({})).await.0, 404, "only the owner makes tokens");
    assert_eq!(stranger.get_json(&tokens).await.0, 404);
    let (status, body) = owner.post_json(&tokens, &json!({"password": "short"})).await;
    assert_eq!(status, 422, "{body}");
    let (status, made) = owner.post_json(&tokens, &json!({"password": "open sesame"})).await;
    assert_eq!((status, made["password"].as_bool()), (201, Some(true)), "{made}");
    let token = made["token"].as_str().unwrap().to_string();
    let (_, listed) = owner.get_json(&tokens).await;
    assert_eq!(listed[0]["token"], Value::Null, "the token is shown once: {listed}");

    let redeem = |token: &str, password: Option<&str>| json!({"token": token, "password": password});
    let (wrong_password, wrong_token) = (
        app.post_json("/uploader/downloads", &redeem(&token, Some("open says me"))).await,
        app.post_json("/uploader/downloads", &redeem("0badc0de", Some("open sesame"))).await,
    );
    assert_eq!((wrong_password.0, &wrong_password.2), (403, &wrong_token.2), "neither says which was wrong");
    assert_eq!(wrong_password.2["code"], "download_refused");
    assert_eq!(app.post_json("/uploader/downloads", &redeem(&token, None)).await.0, 403, "the password is needed");

    let (status, _, link) = app.post_json("/uploader/downloads", &redeem(&token, Some("open sesame"))).await;
    assert_eq!(status, 200, "{link}");
    let url = path_of(link["url"].as_str().unwrap());
    let res = app.client.get(url.clone()).dispatch().await;
    assert_eq!(res.status().code, 200);
    assert!(res.headers().get_one("Content-Disposition").unwrap().contains("poster.png"));
    assert_eq!(res.into_bytes().await.unwrap(), picture, "the file as uploaded");
    let tampered = url.replace(&asset["asset_versions"][0]["uuid"].as_str().unwrap()[..8], "00000000");
    assert_eq!(app.client.get(tampered).dispatch().await.status().code, 403);

    // Revoked: refused. A second token expires with the clock.
    let (status, _) = owner.delete(&format!("{tokens}/{}", made["id"])).await;
    assert_eq!(status, 204);
    assert_eq!(app.post_json("/uploader/downloads", &redeem(&token, Some("open sesame"))).await.0, 403);
    let (_, second) = owner.post_json(&tokens, &json!({})).await;
    let second = second["token"].as_str().unwrap().to_string();
    assert_eq!(app.post_json("/uploader/downloads", &redeem(&second, None)).await.0, 200);
    app.clock.set(app.clock.now() + Duration::days(8));
    assert_eq!(app.post_json("/uploader/downloads", &redeem(&second, None)).await.0, 403, "past its 7 days");

    // Attempts are limited per client: the limit of 8 a minute is spent by now.
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(app.post_json("/uploader/downloads", &redeem("guess", None)).await.0);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
}
