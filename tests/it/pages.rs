//! Page content in both languages: the top page, worlds grouped by concept, a world's detail
//! page with the launch gate, the event history, and the front-end asset tags.

use crate::support::html::Doc;
use crate::support::{TestApp, at};

#[rocket::async_test]
async fn the_top_page_presents_the_current_event() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/").await.1);
    assert_eq!(doc.text("h1"), "バーチャルマーケット2026 Winter");
    assert_eq!(doc.text("title"), "バーチャルマーケット2026 Winter | バーチャルマーケット");
    assert_eq!(doc.text(".hero__theme"), "テーマ ともしびの旅路");
    assert_eq!(doc.count(".concept-card"), 5);
    assert_eq!(doc.text(".more a"), "16ワールドをすべて見る");

    let doc = Doc::parse(&app.page("/en").await.1);
    assert_eq!(doc.text("h1"), "Virtual Market 2026 Winter");
    assert_eq!(doc.text("title"), "Virtual Market 2026 Winter | Virtual Market");
    assert_eq!(doc.text(".hero__theme"), "Theme A Journey by Lamplight");
    assert_eq!(doc.attr(".more a", "href"), "/en/worlds");
}

#[rocket::async_test]
async fn the_top_page_without_events_says_so() {
    let app = TestApp::builder().empty().build().await;
    let (status, body) = app.page("/en").await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&body).text("h1"), "No event has been announced yet");
}

#[rocket::async_test]
async fn worlds_are_grouped_by_concept() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/worlds").await.1);
    assert_eq!(doc.text("h1"), "ワールド一覧");
    assert_eq!(doc.text(".page-header p"), "バーチャルマーケット2026 Winterで巡れる16ワールド");
    assert_eq!(doc.count(".concept-section"), 5);
    assert_eq!(doc.count("[data-testid=world-card]"), 16);
    assert_eq!(doc.texts(".concept-section h2")[0], "海底図書館アトランティカ");
    assert_eq!(doc.texts("#concept-1301 [data-testid=world-card] h3")[0], "珊瑚の大閲覧室");
    assert_eq!(doc.attrs("#concept-1301 [data-testid=world-card] a", "href")[0], "/world/130001");

    let doc = Doc::parse(&app.page("/en/2025Summer/worlds").await.1);
    assert_eq!(doc.text("title"), "Worlds | Virtual Market");
    assert_eq!(doc.count("[data-testid=world-card]"), 13);
    assert_eq!(doc.texts(".concept-section h2")[0], "Sky Harbour Alba");
    assert_eq!(doc.texts("[data-testid=world-card] h3")[0], "Morning Market on the Floating Pier");
    assert_eq!(doc.attrs("[data-testid=world-card] a", "href")[0], "/en/2025Summer/world/10001");
    let headings = doc.texts("[data-testid=world-card] h3");
    assert!(
        headings.iter().all(|h| !h
            .chars()
            .any(|c| ('\u{3040}'..='\u{30ff}').contains(&c) || ('\u{4e00}'..='\u{9fff}').contains(&c))),
        "English page shows English names: {headings:?}"
    );
}

#[rocket::async_test]
async fn main_headings_in_both_languages() {
    let app = TestApp::new().await;
    for path in ["/worlds", "/en/worlds", "/event_history", "/en/event_history"] {
        let doc = Doc::parse(&app.page(path).await.1);
        let name = path.trim_start_matches('/').replace('/', "_");
        insta::assert_json_snapshot!(format!("headings_{name}"), doc.texts("main h1, main h2, main h3"));
    }
}

#[rocket::async_test]
async fn a_world_page_shows_names_keywords_artists_and_a_gated_launch_button() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/world/130001").await.1);
    assert_eq!(doc.text("h1"), "珊瑚の大閲覧室");
    assert_eq!(doc.text(".world-detail__other-name"), "The Great Coral Reading Room");
    assert_eq!(doc.texts(".world-detail__facts .tags li"), ["閲覧室", "珊瑚", "静寂"]);
    let facts = doc.texts(".world-detail__facts dt");
    assert!(facts.contains(&"ワールド制作".to_string()) && facts.contains(&"BGM".to_string()), "{facts:?}");
    let details = doc.texts(".world-detail__facts dd");
    assert!(details.contains(&"VRChat".to_string()));
    assert!(
        details.contains(&"水無瀬 ちひろ".to_string()),
        "the artists' names (they showed as [object]): {details:?}"
    );
    // Before the event opens, there is no launch button.
    assert_eq!(doc.count("[data-testid=launch] a"), 0);
    assert_eq!(doc.text("[data-testid=launch]"), "会期開始（2026/12/12 12:00）から入場できます");

    app.clock.set(at("2026-12-12T03:00:00Z"));
    let doc = Doc::parse(&app.page("/en/world/130001").await.1);
    assert_eq!(doc.text("h1"), "The Great Coral Reading Room");
    assert_eq!(doc.text("[data-testid=launch] a"), "Enter the world");
    assert!(doc.attr("[data-testid=launch] a", "href").starts_with("https://vrchat.com/home/launch?worldId=wrld_"));
    assert_eq!(doc.attr(".breadcrumb a", "href"), "/en/worlds");
}

#[rocket::async_test]
async fn event_history_lists_past_events_newest_first() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/en/event_history").await.1);
    assert_eq!(
        doc.texts("[data-testid=history-event] h2"),
        ["Virtual Market 2026 Summer", "Virtual Market 2025 Winter", "Virtual Market 2025 Summer"]
    );
    assert_eq!(doc.attrs("[data-testid=history-event] a", "href")[0], "/en/2026Summer/worlds");

    app.clock.set(at("2025-01-01T00:00:00Z"));
    let doc = Doc::parse(&app.page("/event_history").await.1);
    assert_eq!(doc.count("[data-testid=history-event]"), 0);
    assert_eq!(doc.text(".history-list p"), "まだ終了したイベントはありません。");
}

#[rocket::async_test]
async fn pages_load_the_widgets_build_and_share_its_id() {
    let dist = tempfile::tempdir().expect("temp dir");
    let manifest_dir = dist.path().join("widgets/.vite");
    std::fs::create_dir_all(&manifest_dir).expect("dirs");
    std::fs::write(
        manifest_dir.join("manifest.json"),
        r#"{"src/entries/common.ts": {"file": "assets/common-abc.js", "isEntry": true, "css": ["assets/common-abc.css"]}}"#,
    )
    .expect("manifest");
    let app = TestApp::builder().dist_dir(dist.path().to_path_buf()).build().await;
    let doc = Doc::parse(&app.page("/en/worlds").await.1);
    // The header's menu button (static/js/menu.js), then the widgets' entry.
    assert_eq!(
        doc.attrs("script[type=module]", "src"),
        ["/static/js/menu.js", "/static/dist/widgets/assets/common-abc.js"]
    );
    assert_eq!(doc.attrs("link[rel=stylesheet]", "href")[1], "/static/dist/widgets/assets/common-abc.css");
    let build_id = doc.attr("meta[name=vmarket-build-id]", "content");
    let (status, body) = app.get_json("/builds/latest.json?t=123").await;
    assert_eq!(status, 200);
    assert_eq!(body["id"], build_id.as_str());

    let res = app.get("/builds/latest.json").await;
    assert_eq!(res.headers().get_one("Cache-Control"), Some("no-store"));
}

#[rocket::async_test]
async fn warmup_answers_when_the_database_does() {
    let app = TestApp::new().await;
    let res = app.get("/_ah/warmup").await;
    assert_eq!(res.status().code, 200);
    assert_eq!(res.into_string().await.as_deref(), Some("OK"));
}

/// The next event is one tap away (issue 26): the top page lists the other events taking
/// entries or payments now, each linked to its own page, and an event's page offers "apply"
/// while its entry window is open.
#[rocket::async_test]
async fn the_events_open_for_entry_are_one_tap_from_the_top_page() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/").await.1);
    let links = doc.attrs("[data-testid=elsewhere-event]", "href");
    assert!(links.contains(&"/2027Summer".to_string()), "{links:?}");
    let items = doc.texts("[data-testid=open-elsewhere] li");
    assert!(items.iter().any(|i| i.contains("出展エントリー受付中") && i.ends_with("まで")), "{items:?}");
    assert_eq!(doc.count("[data-testid=apply-link]"), 0, "the current event takes no entries now");

    for (prefix, apply, label) in [("", "/mypage/events", "応募する"), ("/en", "/en/mypage/events", "Apply")] {
        let doc = Doc::parse(&app.page(&format!("{prefix}/2027Summer")).await.1);
        assert_eq!(doc.attr("[data-testid=apply-link]", "href"), apply);
        assert_eq!(doc.text("[data-testid=apply-link]"), label);
        let others = doc.attrs("[data-testid=elsewhere-event]", "href");
        assert!(!others.contains(&format!("{prefix}/2027Summer")), "not itself: {others:?}");
    }
}

/// Every page's header names the events open for entry or payment, with the deadline and a link
/// to each event's page (issue 26, item 2), in the page's language.
#[rocket::async_test]
async fn every_page_header_names_the_events_open_now() {
    let app = TestApp::new().await;
    for (path, href, label, until) in [
        ("/worlds", "/2027Summer", "出展エントリー受付中", "まで"),
        ("/event_history", "/2027Summer", "出展エントリー受付中", "まで"),
        ("/en/catalog", "/en/2027Summer", "Exhibitor entry is open", "until "),
    ] {
        let doc = Doc::parse(&app.page(path).await.1);
        let links = doc.attrs("[data-testid=header-open-event]", "href");
        assert!(links.contains(&href.to_string()), "{path}: {links:?}");
        let rows = doc.texts("[data-testid=header-open-event]");
        assert!(rows.iter().any(|r| r.contains(label) && r.contains(until)), "{path}: {rows:?}");
    }
    // With nothing open, no strip.
    let empty = TestApp::builder().empty().build().await;
    let doc = Doc::parse(&empty.page("/event_history").await.1);
    assert_eq!(doc.count("[data-testid=header-open-events]"), 0);
}

/// An event's page leads to its own worlds (issue 26: a past event's "see all worlds" opened the
/// current event's), and each concept card to its concept's section there.
#[rocket::async_test]
async fn an_event_page_links_to_its_own_worlds_and_concepts() {
    let app = TestApp::new().await;
    for (path, worlds) in
        [("/", "/worlds"), ("/2026Summer", "/2026Summer/worlds"), ("/en/2026Summer", "/en/2026Summer/worlds")]
    {
        let doc = Doc::parse(&app.page(path).await.1);
        assert_eq!(doc.attr("[data-testid=all-worlds]", "href"), worlds, "{path}");
        let cards = doc.attrs("[data-testid=concept-card] a", "href");
        assert!(!cards.is_empty(), "{path}: concept cards");
        let (status, html) = app.page(worlds).await;
        assert_eq!(status, 200, "{worlds}");
        let sections = Doc::parse(&html).attrs(".concept-section", "id");
        for card in &cards {
            let anchor = card.strip_prefix(&format!("{worlds}#")).unwrap_or_else(|| panic!("{path}: {card}"));
            assert!(sections.iter().any(|id| id == anchor), "{path}: {card} has no section in {sections:?}");
        }
    }
}
