//! Access pages (spec §2 `/access`, `/access/{permalink}/venues`) in both languages, with the
//! venue launch links held back until the event opens; and `GET /api/example`.

use crate::support::html::Doc;
use crate::support::{TestApp, at};

#[rocket::async_test]
async fn the_access_page_explains_how_to_visit_in_japanese() {
    let app = TestApp::new().await;
    for path in ["/access", "/ja/access"] {
        let (status, body) = app.page(path).await;
        assert_eq!(status, 200, "{path}");
        let doc = Doc::parse(&body);
        assert_eq!(doc.text("h1"), "アクセス・参加方法");
        assert_eq!(doc.text("title"), "アクセス・参加方法 | バーチャルマーケット");
        assert_eq!(doc.text("[data-testid=platform-vrc] h3"), "VRChat");
        assert_eq!(doc.text("[data-testid=platform-cloud] h3"), "バーチャルマーケット クラウド");
        assert_eq!(doc.text("[data-testid=device-quest] th"), "Meta Quest");
        assert_eq!(doc.count("[data-testid=steps-vrc] li"), 4);
        assert_eq!(doc.count("[data-testid=steps-cloud] li"), 3);
        assert_eq!(doc.texts(".access-faq dt")[1], "VRゴーグルを持っていなくても参加できますか？");
        assert_eq!(doc.text("[data-testid=access-event] h2"), "バーチャルマーケット2026 Winterの会場へ");
        assert_eq!(
            doc.text("[data-testid=access-event] p"),
            "会期は2026/12/12 12:00に始まります。入場リンクは会期開始とともに公開されます。"
        );
        assert_eq!(doc.attr("[data-testid=access-worlds]", "href"), "/2026Winter/worlds");
        assert_eq!(doc.attr("[data-testid=access-venues]", "href"), "/access/2026Winter/venues");
    }
}

#[rocket::async_test]
async fn the_access_page_explains_how_to_visit_in_english() {
    let app = TestApp::new().await;
    app.clock.set(at("2026-12-13T00:00:00Z"));
    let doc = Doc::parse(&app.page("/en/access").await.1);
    assert_eq!(doc.attr("html", "lang"), "en");
    assert_eq!(doc.text("h1"), "How to visit");
    assert_eq!(doc.text("[data-testid=platform-cloud] h3"), "Virtual Market Cloud");
    assert_eq!(doc.text("[data-testid=device-smartphone] th"), "Smartphone or tablet");
    assert_eq!(doc.texts(".access-faq dt")[0], "Does it cost anything to attend?");
    assert_eq!(doc.text("[data-testid=access-event] h2"), "Visit Virtual Market 2026 Winter");
    assert_eq!(
        doc.text("[data-testid=access-event] p"),
        "The event is on now. Jump into any world straight from the venue list."
    );
    assert_eq!(doc.attr("[data-testid=access-venues]", "href"), "/en/access/2026Winter/venues");
}

#[rocket::async_test]
async fn the_access_page_without_events_still_explains_how_to_visit() {
    let app = TestApp::builder().empty().build().await;
    let (status, body) = app.page("/access").await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&body);
    assert_eq!(doc.text("h1"), "アクセス・参加方法");
    assert_eq!(doc.count("[data-testid=access-event]"), 0);
}

#[rocket::async_test]
async fn venues_list_concepts_and_worlds_with_labels() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/access/2026Winter/venues").await.1);
    assert_eq!(doc.text("h1"), "会場一覧");
    assert_eq!(doc.text(".page-header p"), "バーチャルマーケット2026 Winterの会場と、各会場で巡れるワールド");
    assert_eq!(doc.count("[data-testid=venue]"), 5);
    assert_eq!(doc.count("[data-testid=venue-world]"), 16);
    assert_eq!(doc.texts("[data-testid=venue] h2")[0], "海底図書館アトランティカ");
    assert_eq!(doc.texts("[data-testid=venue-platform]")[0], "PC");
    assert_eq!(doc.texts("[data-testid=venue-venue]")[3], "バーチャルマーケット クラウド");
    assert_eq!(doc.texts(".venue-world__name")[0], "珊瑚の大閲覧室");
    assert_eq!(doc.attrs(".venue-world__name", "href")[0], "/2026Winter/world/130001");

    let doc = Doc::parse(&app.page("/en/access/2026Winter/venues").await.1);
    assert_eq!(doc.text("h1"), "Venues");
    assert_eq!(doc.texts("[data-testid=venue] h2")[0], "Atlantica, the Library Beneath the Sea");
    assert_eq!(doc.texts("[data-testid=venue-platform]")[2], "Cross-platform (PC, mobile and Quest)");
    assert_eq!(doc.texts("[data-testid=venue-venue]")[3], "Virtual Market Cloud");
    assert_eq!(doc.attrs(".venue-world__name", "href")[0], "/en/2026Winter/world/130001");
}

#[rocket::async_test]
async fn launch_links_appear_only_once_the_event_opens() {
    let app = TestApp::new().await;
    app.clock.set(at("2026-12-12T02:59:00Z"));
    let doc = Doc::parse(&app.page("/access/2026Winter/venues").await.1);
    assert_eq!(doc.count("[data-testid=launch]"), 0);
    assert_eq!(doc.text("[data-testid=venue-gate]"), "会期開始（2026/12/12 12:00）から入場できます");

    app.clock.set(at("2026-12-12T03:00:00Z"));
    let doc = Doc::parse(&app.page("/en/access/2026Winter/venues").await.1);
    assert_eq!(doc.count("[data-testid=launch]"), 16);
    assert_eq!(doc.texts("[data-testid=launch]")[0], "Enter the world");
    assert_eq!(
        doc.attrs("[data-testid=launch]", "href")[0],
        "https://vrchat.com/home/launch?worldId=wrld_d849ba31-c8aa-4150-b2fe-6d073e4253d2"
    );
    assert_eq!(doc.text("[data-testid=venue-gate]"), "The event is on. Press \"Enter the world\" to jump in.");

    // A past event has long opened.
    let doc = Doc::parse(&app.page("/access/2025Summer/venues").await.1);
    assert_eq!(doc.count("[data-testid=launch]"), 13);
}

#[rocket::async_test]
async fn unknown_venue_permalinks_are_not_found() {
    let app = TestApp::new().await;
    for path in ["/access/1999Spring/venues", "/en/access/no-such/venues", "/access/bad.chars/venues"] {
        let (status, body) = app.page(path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(Doc::parse(&body).text("main h1"), "404 ERROR", "{path}");
    }
}

#[rocket::async_test]
async fn the_example_call_answers_in_the_requested_language() {
    let app = TestApp::new().await;
    let (status, body) = app.get_json("/api/example").await;
    assert_eq!(status, 200);
    assert_eq!(body["message"], "こんにちは！バーチャルマーケットAPIへようこそ。");
    assert_eq!(body["lang"], "ja");
    assert_eq!(body["server_time"], "2026-11-21T03:00:00Z");

    app.clock.set(at("2026-12-01T10:30:00Z"));
    let (_, body) = app.get_json("/api/example?lang=en").await;
    assert_eq!(
        body,
        serde_json::json!({
            "message": "Hello! Welcome to the Virtual Market API.",
            "lang": "en",
            "server_time": "2026-12-01T10:30:00Z",
        })
    );

    let (_, doc) = app.get_json("/api-docs/openapi.json").await;
    assert!(doc["paths"]["/api/example"]["get"].is_object());
    assert!(doc["paths"]["/api/v1/{event}/vrc_redirects/{id}"]["get"].is_object());
}
