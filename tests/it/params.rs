//! Parameter rules of spec §2: positive integer ids, permalinks of letters, digits, `_` and `-`;
//! a failed check answers 404 "Page Not Found: {path}".

use crate::support::TestApp;
use crate::support::html::Doc;

const BAD_IDS: &[&str] = &["0", "-1", "abc", "1.5", "%2B1", "99999999999", "1e2"];
const BAD_PERMALINKS: &[&str] = &["bad.perm", "a%20b", "%E5%A4%8F", "a%2Fb", "x!"];

async fn assert_param_404(app: &TestApp, path: &str, lang: &str) {
    let (status, body) = app.page(path).await;
    assert_eq!(status, 404, "{path}");
    let doc = Doc::parse(&body);
    assert_eq!(doc.attr("html", "lang"), lang, "{path}");
    assert_eq!(doc.text("h1"), "404 ERROR", "{path}");
    let detail = doc.text("[data-testid=error-detail]");
    let expected = if lang == "en" { "Page Not Found: " } else { "ページが見つかりません: " };
    assert!(detail.starts_with(expected), "{path}: {detail}");
}

#[rocket::async_test]
async fn bad_ids_are_not_found() {
    let app = TestApp::new().await;
    for id in BAD_IDS {
        assert_param_404(&app, &format!("/world/{id}"), "ja").await;
        assert_param_404(&app, &format!("/en/world/{id}"), "en").await;
        assert_param_404(&app, &format!("/2025Summer/world/{id}"), "ja").await;
        let (status, body) = app.get_json(&format!("/api/v1/events/{id}")).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "/api/v1/events/{id}");
        let (status, _) = app.get_json(&format!("/api/v1/2025Summer/concepts/{id}")).await;
        assert_eq!(status, 404, "/api/v1/2025Summer/concepts/{id}");
    }
}

#[rocket::async_test]
async fn bad_permalinks_are_not_found() {
    let app = TestApp::new().await;
    for p in BAD_PERMALINKS {
        assert_param_404(&app, &format!("/{p}/worlds"), "ja").await;
        assert_param_404(&app, &format!("/en/{p}/worlds"), "en").await;
        assert_param_404(&app, &format!("/{p}/world/10001"), "ja").await;
        let (status, body) = app.get_json(&format!("/api/v1/{p}/worlds")).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "/api/v1/{p}/worlds");
    }
}

#[rocket::async_test]
async fn both_parameters_must_be_valid_and_match() {
    let app = TestApp::new().await;
    // A valid id of another event is not part of this event.
    let (status, _) = app.page("/2025Summer/world/130001").await;
    assert_eq!(status, 404);
    // Unknown but well-formed permalink: 404, and the API says which code.
    let (status, body) = app.page("/en/NoSuchEvent/worlds").await;
    assert_eq!(status, 404);
    assert!(Doc::parse(&body).text("[data-testid=error-detail]").contains("/en/NoSuchEvent/worlds"));
    let (status, body) = app.get_json("/api/v1/NoSuchEvent/worlds").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "unknown_permalink");
    assert_eq!(body["message"], "指定されたイベントは存在しません。");
    let (_, body) = app.get_json("/api/v1/NoSuchEvent/worlds?lang=en").await;
    assert_eq!(body["message"], "Unknown permalink");
    // Both valid: the page answers.
    let (status, body) = app.page("/2025Summer/world/10001").await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&body).text("h1"), "浮き桟橋の朝市");
}

#[rocket::async_test]
async fn page_query_must_be_a_positive_integer() {
    let app = TestApp::new().await;
    for bad in ["0", "-2", "x", "1.0"] {
        let (status, body) = app.get_json(&format!("/api/v1/events?page={bad}&lang=en")).await;
        assert_eq!(status, 422, "page={bad}");
        assert_eq!(body["details"][0]["attribute"], "page");
        assert_eq!(body["details"][0]["message"], "Must be a positive integer.");
    }
    let (status, body) = app.get_json("/api/v1/events?limit=101").await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["attribute"], "limit");
}
