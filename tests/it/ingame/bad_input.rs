//! Bad input and guessing on the sign-in: five wrong codes kill the grant they nearly matched;
//! malformed codes, unknown grant types, missing fields and JSON bodies get clear errors, never
//! a 500; opening grants and typing codes are limited per client address.

use serde_json::Value;

use super::{DEVICE_GRANT, check_code, open_grant, poll, post_form};
use crate::support::TestApp;
use crate::support::html::Doc;

/// `code` with its last letter changed (still a well-formed code).
fn near_miss(code: &str) -> String {
    let last = code.chars().last().unwrap();
    let other = if last == 'B' { 'C' } else { 'B' };
    format!("{}{other}", &code[..code.len() - 1])
}

#[rocket::async_test]
async fn five_wrong_codes_kill_the_grant_they_nearly_matched() {
    let app = TestApp::builder().live().config(|c| c.ingame_codes_per_minute = 100).build().await;
    let guesser = app.with_user("ingame_guesser").await;
    let grant = open_grant(&app, "victim-client").await;
    let code = grant["user_code"].as_str().unwrap().to_string();
    for attempt in 1..=5 {
        let (status, _, html) = check_code(&guesser, "", &near_miss(&code)).await;
        assert_eq!(status, 422, "attempt {attempt}");
        let doc = Doc::parse(&html);
        assert!(doc.text("#code-error").contains("コードが正しくない"), "{html}");
        assert_eq!(doc.attrs("#code", "value"), vec![near_miss(&code)], "the typed code is kept");
    }
    let (status, _, _) = check_code(&guesser, "", &code).await;
    assert_eq!(status, 422, "the right code no longer works");
    assert_eq!(poll(&app, &grant).await.1["error"], "expired_token", "the client learns to start again");

    let (status, _, html) = check_code(&guesser, "/en", "hello").await;
    assert_eq!(status, 422);
    assert!(Doc::parse(&html).text("#code-error").contains("eight letters"), "{html}");
}

#[rocket::async_test]
async fn malformed_requests_get_clear_refusals() {
    let app = TestApp::builder().live().build().await;
    let grant = open_grant(&app, "client").await;
    let device = grant["device_code"].as_str().unwrap();
    let cases: [(&[(&str, &str)], &str); 4] = [
        (&[("grant_type", "password"), ("device_code", device)], "unsupported_grant_type"),
        (&[("grant_type", DEVICE_GRANT)], "invalid_request"),
        (&[("grant_type", DEVICE_GRANT), ("device_code", "not-a-device-code")], "invalid_grant"),
        (&[], "invalid_request"),
    ];
    for (fields, error) in cases {
        let (status, body) = post_form(&app, "/ingame/auth/token", fields).await;
        assert_eq!((status, body["error"].as_str()), (400, Some(error)), "{fields:?}: {body}");
    }
    let (status, body) = post_form(&app, "/ingame/auth/device", &[]).await;
    assert_eq!((status, &body["details"][0]["attribute"]), (422, &Value::from("client_id")), "{body}");
    let (status, body) = post_form(&app, "/ingame/auth/device", &[("client_id", &"x".repeat(65))]).await;
    assert_eq!(status, 422, "{body}");
    let json = app
        .client
        .post("/ingame/auth/device")
        .header(rocket::http::ContentType::JSON)
        .body(r#"{"client_id":"x"}"#)
        .dispatch()
        .await;
    assert_eq!(json.status().code, 415, "the RFC's form body only");
}

#[rocket::async_test]
async fn opening_grants_and_typing_codes_are_limited_per_client_address() {
    let app = TestApp::builder().live().config(|c| c.ingame_codes_per_minute = 3).build().await;
    for _ in 0..3 {
        open_grant(&app, "flood").await;
    }
    let res = app
        .client
        .post("/ingame/auth/device")
        .header(rocket::http::ContentType::Form)
        .body("client_id=flood")
        .dispatch()
        .await;
    assert_eq!(res.status().code, 429);
    assert!(res.headers().get_one("Retry-After").is_some());

    let user = app.with_user("ingame_typist").await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(check_code(&user, "", "BCDF-GHJK").await.0);
    }
    assert_eq!(statuses, [422, 422, 422, 429]);
}
