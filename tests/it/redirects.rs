//! Redirects: an event's VRC redirects (`/{permalink}/redirect/{id}` and its API view) and the
//! `/{slug}` catch-all with its slug rules — which must never shadow a real page.

use rocket::http::Status;
use vmarket::db::entities::{redirect_rule, vrc_redirect};
use vmarket::model::redirect::{NewRedirectRule, NewVrcRedirect};

use crate::support::TestApp;
use crate::support::html::Doc;

/// Status and `Location` of a GET.
async fn follow(app: &TestApp, path: &str) -> (u16, Option<String>) {
    let res = app.get(path).await;
    (res.status().code, res.headers().get_one("Location").map(str::to_string))
}

#[rocket::async_test]
async fn vrc_redirects_are_shown_by_the_api_and_followed_by_the_page() {
    let app = TestApp::new().await;
    let (status, map) = app.get_json("/api/v1/2026Winter/vrc_redirects/venue-map").await;
    assert_eq!(status, 200);
    assert_eq!(map["url_key"], "venue-map");
    assert_eq!(map["url"], "https://www.example.com/vmarket/2026Winter/venue-map.pdf");
    assert_eq!(map["description"], "バーチャルマーケット2026 Winterの会場マップ（PDF）");
    assert_eq!(map["event_id"], 13);
    let id = map["id"].as_i64().expect("numeric id");

    let (status, by_id) = app.get_json(&format!("/api/v1/2026Winter/vrc_redirects/{id}?lang=en")).await;
    assert_eq!(status, 200);
    assert_eq!(by_id["description"], "Venue map of Virtual Market 2026 Winter (PDF)");
    assert_eq!(by_id["description_ja"], map["description_ja"]);
    let mut keys: Vec<_> = by_id.as_object().expect("object").keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["description", "description_en", "description_ja", "event_id", "id", "url", "url_key"]);

    assert_eq!(
        follow(&app, &format!("/2026Winter/redirect/{id}")).await,
        (302, Some("https://www.example.com/vmarket/2026Winter/venue-map.pdf".into()))
    );
    assert_eq!(
        follow(&app, "/en/2026Winter/redirect/world-130001").await,
        (302, Some("https://vrchat.com/home/launch?worldId=wrld_d849ba31-c8aa-4150-b2fe-6d073e4253d2".into()))
    );
    assert_eq!(
        follow(&app, "/2025Summer/redirect/community").await,
        (302, Some("https://community.example.com/vmarket/2025Summer".into()))
    );
}

#[rocket::async_test]
async fn unknown_vrc_redirects_are_not_found() {
    let app = TestApp::new().await;
    let (_, other) = app.get_json("/api/v1/2025Summer/vrc_redirects/venue-map").await;
    let other_event_id = other["id"].as_i64().expect("id");
    for path in
        ["/api/v1/2026Winter/vrc_redirects/99999", &format!("/api/v1/2026Winter/vrc_redirects/{other_event_id}")]
    {
        let (status, body) = app.get_json(path).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{path}");
    }
    let (status, body) = app.get_json("/api/v1/1999Spring/vrc_redirects/1").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_permalink")));

    for path in ["/2026Winter/redirect/99999", "/en/2026Winter/redirect/no-such-key", "/2026Winter/redirect/a.b"] {
        let (status, body) = app.page(path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(Doc::parse(&body).text("main h1"), "404 ERROR", "{path}");
    }
}

#[rocket::async_test]
async fn only_http_urls_are_stored_or_followed() {
    let app = TestApp::new().await;
    for url in ["javascript:alert(1)", "data:text/html,hi", "ftp://example.com/x", "//example.com/x"] {
        let new = NewVrcRedirect { event_id: 13, url_key: "bad", url, description_ja: "不正", description_en: "Bad" };
        let err = vrc_redirect::Model::create(&app.db, new).await.expect_err(url);
        assert_eq!(err.code(), "validation_failed", "{url}");
    }
    // A row written behind the model's back is still never followed.
    use sea_orm::{ActiveModelTrait, Set};
    let row = vrc_redirect::ActiveModel {
        event_id: Set(13),
        url_key: Set("sneaky".into()),
        url: Set("javascript:alert(1)".into()),
        description_ja: Set("不正".into()),
        description_en: Set("Bad".into()),
        ..Default::default()
    }
    .insert(&app.db)
    .await
    .expect("insert");
    let (status, _) = app.page(&format!("/2026Winter/redirect/{}", row.id)).await;
    assert_eq!(status, 404);
}

#[rocket::async_test]
async fn slugs_redirect_in_the_visitors_language() {
    let app = TestApp::new().await;
    assert_eq!(follow(&app, "/winter").await, (302, Some("/2026Winter/worlds".into())));
    assert_eq!(follow(&app, "/ja/winter").await, (302, Some("/2026Winter/worlds".into())));
    assert_eq!(follow(&app, "/en/winter").await, (302, Some("/en/2026Winter/worlds".into())));
    assert_eq!(follow(&app, "/en/summer").await, (302, Some("/en/2026Summer/worlds".into())));
    // Case-insensitive.
    assert_eq!(follow(&app, "/WINTER").await, (302, Some("/2026Winter/worlds".into())));
    assert_eq!(follow(&app, "/en/Guide").await, (301, Some("/en/access".into())));
    // Permanent rules answer 301, others 302; external targets are left as they are.
    assert_eq!(follow(&app, "/guide").await, (301, Some("/access".into())));
    assert_eq!(follow(&app, "/en/community").await, (302, Some("https://community.example.com/vmarket".into())));

    // The query string is passed on unless the target has its own.
    assert_eq!(
        follow(&app, "/en/winter?utm_source=poster&utm_medium=qr").await,
        (302, Some("/en/2026Winter/worlds?utm_source=poster&utm_medium=qr".into()))
    );

    // The redirect lands on a real page.
    let (status, body) = app.page("/en/2026Winter/worlds").await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&body).text("h1"), "Worlds");
}

#[rocket::async_test]
async fn unknown_inactive_and_malformed_slugs_are_page_not_found() {
    let app = TestApp::new().await;
    let cases = [
        ("/halloween", "ページが見つかりません: /halloween"),
        ("/no-such-slug", "ページが見つかりません: /no-such-slug"),
        ("/en/nope", "Page Not Found: /en/nope"),
        ("/a.b", "ページが見つかりません: /a.b"),
        ("/en/%E5%A4%8F", "Page Not Found: /en/%E5%A4%8F"),
    ];
    for (path, detail) in cases {
        let (status, body) = app.page(path).await;
        assert_eq!(status, 404, "{path}");
        let doc = Doc::parse(&body);
        assert_eq!(doc.text("main h1"), "404 ERROR", "{path}");
        assert_eq!(doc.text("[data-testid=error-detail]"), detail, "{path}");
    }
}

#[rocket::async_test]
async fn slug_rules_never_shadow_real_pages() {
    let app = TestApp::new().await;
    for slug in ["worlds", "catalog", "contact", "event_history", "access"] {
        let rule = NewRedirectRule { slug, target: "/guide-elsewhere", permanent: false, is_active: true };
        redirect_rule::Model::create(&app.db, rule).await.expect("rule");
    }
    let pages = [
        ("/worlds", "ワールド一覧"),
        ("/en/catalog", "Catalogue"),
        ("/contact", "お問い合わせ"),
        ("/en/event_history", "Past events"),
        ("/access", "アクセス・参加方法"),
    ];
    for (path, _) in pages {
        let res = app.get(path).await;
        assert_eq!(res.status(), Status::Ok, "{path}");
        assert!(res.headers().get_one("Location").is_none(), "{path}");
    }
    for (path, heading) in pages {
        let doc = Doc::parse(&app.page(path).await.1);
        assert!(doc.texts("h1").iter().any(|h| h.contains(heading)), "{path}: {:?}", doc.texts("h1"));
    }
}

#[rocket::async_test]
async fn rules_are_checked_when_stored() {
    let app = TestApp::new().await;
    for (slug, target) in [("ok", "javascript:alert(1)"), ("ok", "//evil.example"), ("bad slug", "/access"), ("", "/x")]
    {
        let rule = NewRedirectRule { slug, target, permanent: false, is_active: true };
        let err = redirect_rule::Model::create(&app.db, rule).await.expect_err(slug);
        assert_eq!(err.code(), "validation_failed", "{slug} → {target}");
    }
}

#[rocket::async_test]
async fn the_redirect_seed_is_idempotent() {
    use sea_orm::{EntityTrait, PaginatorTrait};
    let app = TestApp::new().await;
    let rules = redirect_rule::Entity::find().count(&app.db).await.expect("count");
    let vrc = vrc_redirect::Entity::find().count(&app.db).await.expect("count");
    assert_eq!(rules, 6);
    // Two shared redirects per event plus one launch shortcut per concept (4+4+5+5 concepts).
    assert_eq!(vrc, 4 * 2 + 18);
    assert_eq!(vmarket::seed::redirects::seed(&app.db).await.expect("seed again"), 0);
    assert_eq!(redirect_rule::Entity::find().count(&app.db).await.expect("count"), rules);
    assert_eq!(vrc_redirect::Entity::find().count(&app.db).await.expect("count"), vrc);
}
