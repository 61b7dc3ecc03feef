//! The error page (spec §2): status followed by ERROR, two messages and the way back to the top,
//! in the page's language; crawlers get only the status and `noindex`.

use crate::support::TestApp;
use crate::support::html::Doc;

#[rocket::async_test]
async fn unknown_routes_show_the_error_page_in_english() {
    let app = TestApp::new().await;
    let (status, body) = app.page("/en/no/such/page").await;
    assert_eq!(status, 404);
    let doc = Doc::parse(&body);
    assert_eq!(doc.attr("html", "lang"), "en");
    assert_eq!(doc.text("title"), "404 ERROR | Virtual Market");
    assert_eq!(doc.text("main h1"), "404 ERROR");
    assert_eq!(doc.text(".error-box__message"), "Oops! It looks like an error has occurred.");
    assert_eq!(doc.text(".error-box__hint"), "Please reaccess from the Top page and try again.");
    assert_eq!(doc.text("[data-testid=error-detail]"), "Page Not Found: /en/no/such/page");
    assert_eq!(doc.text(".error-box a.button"), "Return to TOP");
    assert_eq!(doc.attr(".error-box a.button", "href"), "/en");
    assert_eq!(doc.attr("meta[name=robots]", "content"), "noindex");
}

#[rocket::async_test]
async fn unknown_routes_show_the_error_page_in_japanese() {
    let app = TestApp::new().await;
    let (status, body) = app.page("/no/such/page").await;
    assert_eq!(status, 404);
    let doc = Doc::parse(&body);
    assert_eq!(doc.attr("html", "lang"), "ja");
    assert_eq!(doc.text("title"), "404 ERROR | バーチャルマーケット");
    assert_eq!(doc.text(".error-box__message"), "申し訳ありません。エラーが発生しました。");
    assert_eq!(doc.text(".error-box__hint"), "お手数ですが、トップページからもう一度アクセスしてください。");
    assert_eq!(doc.text("[data-testid=error-detail]"), "ページが見つかりません: /no/such/page");
    assert_eq!(doc.text(".error-box a.button"), "トップページへ戻る");
    assert_eq!(doc.attr(".error-box a.button", "href"), "/");
}

#[rocket::async_test]
async fn crawlers_never_see_the_error_page() {
    let app = TestApp::new().await;
    for path in ["/no/such/page", "/en/no/such/page", "/world/abc", "/NoSuchEvent/worlds"] {
        let res = app.get_as_crawler(path).await;
        assert_eq!(res.status().code, 404, "{path}");
        assert_eq!(res.headers().get_one("X-Robots-Tag"), Some("noindex"));
        let body = res.into_string().await.unwrap_or_default();
        assert!(body.contains(r#"<meta name="robots" content="noindex">"#), "{path}");
        assert!(
            !body.contains("ERROR") && !body.contains("Return to TOP") && !body.contains("トップページへ戻る"),
            "{path}: {body}"
        );
    }
    // Crawlers still get real pages.
    let res = app.get_as_crawler("/en/worlds").await;
    assert_eq!(res.status().code, 200);
    assert!(res.into_string().await.unwrap_or_default().contains("<h1>Worlds</h1>"));
}

#[rocket::async_test]
async fn api_errors_are_json_in_the_requested_language() {
    let app = TestApp::new().await;
    let (status, body) = app.get_json("/api/v1/no_such_resource/at/all").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "not_found");
    assert_eq!(body["details"], serde_json::json!([]));
    let (_, body) = app.get_json("/api/v1/no_such_resource/at/all?lang=en").await;
    assert_eq!(body["message"], "Not found.");
    let (status, body) = app.get_json("/_i18n/fr/messages.json").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
}

#[rocket::async_test]
async fn a_body_in_the_wrong_format_is_the_clients_error() {
    let app = TestApp::new().await;
    for ct in [None, Some(rocket::http::ContentType::Plain), Some(rocket::http::ContentType::JSON)] {
        let mut req = app.client.post("/account/auth/token?lang=en").body("code=x");
        if let Some(ct) = ct.clone() {
            req = req.header(ct);
        }
        let res = req.dispatch().await;
        let status = res.status().code;
        let body: serde_json::Value = serde_json::from_str(&res.into_string().await.unwrap_or_default()).unwrap();
        assert_eq!((status, body["code"].as_str()), (415, Some("unsupported_media_type")), "{ct:?}");
        assert!(body["message"].as_str().unwrap().contains("Content-Type"), "{body}");
    }
}

/// Issue 26 item 5: a signed-in visitor who meets an error page stays signed in there — their
/// name in the header, not ログイン — whatever raised it: an unknown route, a malformed
/// parameter, a page that is not theirs (404) or one they may not use (403); in their language.
#[rocket::async_test]
async fn error_pages_keep_the_signed_in_header() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("err_owner").await;
    let member = app.with_named_user("err_member", "迷子の会員", "Lost Member").await;
    let (_, circles) = crate::exhibit::slots::drawn(&app, &[&owner], "2031Err", 2).await;
    app.join(&owner, circles[0] as i64, &member).await;
    for (path, status) in [
        ("/no/such/page", 404),
        ("/mypage/entry_history/2031Err/preview/abc", 404),
        ("/mypage/entry_history/NoSuchEvent/hub", 404),
        ("/mypage/entry_history/2031Err/catalog/new", 403),
        ("/en/no/such/page", 404),
        ("/en/mypage/entry_history/2031Err/catalog/new", 403),
    ] {
        let (got, html) = member.page(path).await;
        assert_eq!(got, status, "{path}");
        let doc = Doc::parse(&html);
        let name = if path.starts_with("/en/") { "Lost Member" } else { "迷子の会員" };
        assert_eq!(doc.text("[data-testid=header-user-name]"), name, "{path}: the header names the user");
        assert_eq!(doc.text("main h1"), format!("{status} ERROR"), "{path}");
        let detail = doc.text("[data-testid=error-detail]");
        let expected = match (status, path.starts_with("/en/")) {
            (403, false) => "このページを開く権限がありません。".to_string(),
            (403, true) => "You do not have permission to open this page.".to_string(),
            (_, false) => format!("ページが見つかりません: {path}"),
            (_, true) => format!("Page Not Found: {path}"),
        };
        assert_eq!(detail, expected, "one wording per status, and no 'staff only' for a member");
    }
    let doc = Doc::parse(&app.page("/no/such/page").await.1);
    assert_eq!(doc.count("[data-testid=header-user-name]"), 0, "signed out: no one named");
}
