//! Hub pages in both languages: the sections under `/hub/{permalink}/` with their detail pages,
//! `/hub/search`, the header link, live badges by the movable clock, hidden notifications and
//! the parameter rules.

use crate::support::html::Doc;
use crate::support::{TestApp, at};

fn q(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

async fn first_id(app: &TestApp, path: &str) -> i64 {
    let (_, body) = app.get_json(path).await;
    body["data"][0]["id"].as_i64().unwrap_or_else(|| panic!("{path}: {body}"))
}

#[rocket::async_test]
async fn headings_in_both_languages() {
    let app = TestApp::new().await;
    let stream = first_id(&app, "/api/v1/2026Winter/hub_notifications?category=official_stream&locale=jp").await;
    let stream_en = first_id(&app, "/api/v1/2026Winter/hub_notifications?category=official_stream&locale=global").await;
    let streamer = first_id(&app, "/api/v1/2026Winter/streamers").await;
    let ambassador = first_id(&app, "/api/v1/ambassadors").await;
    let mut pages = Vec::new();
    for section in
        ["notification", "virtual_events", "official_stream", "campaign", "official_streamers", "official_ambassador"]
    {
        pages.push((section.to_string(), format!("/hub/2026Winter/{section}")));
        pages.push((format!("{section}_en"), format!("/en/hub/2026Winter/{section}")));
    }
    pages.extend([
        ("stream".to_string(), format!("/hub/2026Winter/official_stream/{stream}")),
        ("stream_en".to_string(), format!("/en/hub/2026Winter/official_stream/{stream_en}")),
        ("streamer".to_string(), format!("/hub/2026Winter/official_streamers/{streamer}")),
        ("streamer_en".to_string(), format!("/en/hub/2026Winter/official_streamers/{streamer}")),
        ("ambassador".to_string(), format!("/hub/2026Winter/official_ambassador/{ambassador}")),
        ("ambassador_en".to_string(), format!("/en/hub/2026Winter/official_ambassador/{ambassador}")),
        ("search".to_string(), "/hub/search".to_string()),
        ("search_en".to_string(), "/en/hub/search".to_string()),
    ]);
    for (name, path) in pages {
        let (status, html) = app.page(&path).await;
        assert_eq!(status, 200, "{path}: {html}");
        let doc = Doc::parse(&html);
        insta::assert_json_snapshot!(
            format!("hub_headings_{name}"),
            (
                doc.text("title"),
                doc.texts("main h1, main h2, main h3, [data-testid=result-count], [data-testid=person-team]")
            )
        );
    }
}

#[rocket::async_test]
async fn the_header_links_to_the_current_hub() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/").await.1);
    assert_eq!(doc.text("[data-testid=nav-hub]"), "ハブ");
    assert_eq!(doc.attr("[data-testid=nav-hub]", "href"), "/hub");
    let res = app.get("/hub").await;
    assert_eq!(res.status().code, 303);
    assert_eq!(res.headers().get_one("Location"), Some("/hub/2026Winter/notification"));
    let doc = Doc::parse(&app.page("/en").await.1);
    assert_eq!(doc.text("[data-testid=nav-hub]"), "Hub");
    assert_eq!(doc.attr("[data-testid=nav-hub]", "href"), "/en/hub");
    let res = app.get("/en/hub").await;
    assert_eq!(res.headers().get_one("Location"), Some("/en/hub/2026Winter/notification"));
    let doc = Doc::parse(&app.page("/ja/hub/2026Winter/campaign").await.1);
    assert_eq!(doc.attr("[data-testid=nav-hub]", "aria-current"), "page");
}

#[rocket::async_test]
async fn lists_paginate_with_page_links() {
    let app = TestApp::new().await;
    // 14 official announcements, 12 a page.
    let doc = Doc::parse(&app.page("/hub/2026Winter/notification").await.1);
    assert_eq!(doc.count("[data-testid=hub-card]"), 12);
    assert_eq!(doc.text("[data-testid=result-count]"), "14件中 1〜12件を表示");
    assert_eq!(doc.attr("[data-testid=pager] a[rel=next]", "href"), "/hub/2026Winter/notification?page=2");
    let doc = Doc::parse(&app.page("/en/hub/2026Winter/notification?page=2").await.1);
    assert_eq!(doc.count("[data-testid=hub-card]"), 2);
    assert_eq!(doc.text("[data-testid=result-count]"), "Showing 13–14 of 14");
    assert_eq!(doc.attr("[data-testid=pager] a[rel=prev]", "href"), "/en/hub/2026Winter/notification");
    // Beyond the last page: a friendly note with a way back.
    let (status, html) = app.page("/hub/2026Winter/notification?page=5").await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.count("[data-testid=hub-card]"), 0);
    assert!(doc.text("[data-testid=hub-empty]").contains("全14件"));
    // Exactly one page: no pager.
    let doc = Doc::parse(&app.page("/hub/2026Winter/virtual_events").await.1);
    assert_eq!((doc.count("[data-testid=hub-card]"), doc.count("[data-testid=pager]")), (12, 0));
    // Cards link to their detail under the section.
    let hrefs = doc.attrs("[data-testid=hub-card] a", "href");
    assert!(hrefs.iter().all(|h| h.starts_with("/hub/2026Winter/virtual_events/")), "{hrefs:?}");
    // Events without a hub yet.
    let doc = Doc::parse(&app.page("/en/hub/2025Summer/campaign").await.1);
    assert_eq!(doc.text("[data-testid=hub-empty]"), "There is nothing to show right now.");
}

#[rocket::async_test]
async fn details_show_the_notification_in_japan_time() {
    let app = TestApp::new().await;
    let (_, body) =
        app.get_json(&format!("/api/v1/2026Winter/hub_notifications?keyword={}", q("開幕ワールドツアー"))).await;
    let id = body["data"][0]["id"].as_i64().unwrap();
    let doc = Doc::parse(&app.page(&format!("/hub/2026Winter/official_stream/{id}")).await.1);
    assert_eq!(doc.text("h1"), "公式配信：開幕ワールドツアー");
    assert_eq!(doc.text("[data-testid=hub-when]"), "2026/12/12 13:00 – 2026/12/12 15:00");
    assert_eq!(doc.text("[data-testid=hub-host]"), "星野ルカ");
    assert!(doc.text("[data-testid=hub-content]").contains("海底図書館アトランティカ"));
    // Also listed among the official announcements, but not a campaign.
    assert_eq!(app.page(&format!("/hub/2026Winter/notification/{id}")).await.0, 200);
    assert_eq!(app.page(&format!("/hub/2026Winter/campaign/{id}")).await.0, 404);
    // Live badges follow the clock.
    assert_eq!(doc.count("[data-testid=live-badge]"), 0);
    app.clock.set(at("2026-12-12T05:00:00Z"));
    let doc = Doc::parse(&app.page(&format!("/en/hub/2026Winter/official_stream/{id}")).await.1);
    assert_eq!(doc.text("[data-testid=live-badge]"), "Live");
}

/// Issue 26 item 9: a running campaign is "on now", not "live" like a stream.
#[rocket::async_test]
async fn a_running_campaign_is_on_now_not_streaming() {
    let app = TestApp::new().await;
    let (_, body) =
        app.get_json(&format!("/api/v1/2026Winter/hub_notifications?keyword={}", q("冬の入稿応援キャンペーン"))).await;
    let id = body["data"][0]["id"].as_i64().unwrap();
    app.clock.set(at("2026-11-20T00:00:00Z"));
    let doc = Doc::parse(&app.page(&format!("/hub/2026Winter/campaign/{id}")).await.1);
    assert_eq!(doc.text("[data-testid=live-badge]"), "開催中");
    let doc = Doc::parse(&app.page(&format!("/en/hub/2026Winter/campaign/{id}")).await.1);
    assert_eq!(doc.text("[data-testid=live-badge]"), "On now");
}

#[rocket::async_test]
async fn hidden_notifications_are_absent_and_their_pages_404() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/hub/2026Winter/official_stream").await.1);
    assert!(!doc.texts("[data-testid=hub-card] h3").iter().any(|t| t.contains("シークレットゲスト")));
    // Find the reveal's id once it is published, then go back in time.
    app.clock.set(at("2026-12-05T03:00:00Z"));
    let (_, body) =
        app.get_json(&format!("/api/v1/2026Winter/hub_notifications?keyword={}", q("シークレットゲスト"))).await;
    let id = body["data"][0]["id"].as_i64().unwrap();
    assert_eq!(app.page(&format!("/hub/2026Winter/official_stream/{id}")).await.0, 200);
    app.clock.set(at("2026-12-05T02:00:00Z"));
    let (status, html) = app.page(&format!("/hub/2026Winter/official_stream/{id}")).await;
    assert_eq!(status, 404);
    assert_eq!(Doc::parse(&html).text("h1"), "404 ERROR");
    // The draft campaign (not public) never shows.
    let doc = Doc::parse(&app.page("/hub/2026Winter/campaign").await.1);
    assert_eq!(doc.count("[data-testid=hub-card]"), 4);
    assert!(!doc.texts("[data-testid=hub-card] h3").iter().any(|t| t.contains("福袋")));
}

#[rocket::async_test]
async fn parameter_rules() {
    let app = TestApp::new().await;
    for path in [
        "/hub/2026Winter/campaign?page=0",
        "/hub/2026Winter/campaign?page=abc",
        "/en/hub/2026Winter/campaign?page=-1",
        "/hub/2026Winter/campaign/0",
        "/hub/2026Winter/campaign/abc",
        "/hub/2026Winter/official_streamers/999999",
        "/hub/2026Winter/official_ambassador/999999",
        "/hub/2026Winter/campaign/999999",
        "/hub/2026Winter/nonsense",
        "/hub/bad.perm/campaign",
        "/hub/nowhere/campaign",
        "/hub/search?page=0",
        "/hub/search?category=concert",
        "/hub/search?hub_tag_id=x",
    ] {
        let (status, html) = app.page(path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(Doc::parse(&html).text("h1"), "404 ERROR", "{path}");
    }
    // A user who is not a streamer is not on the streamers' pages.
    let ambassador_user = {
        let (_, body) = app.get_json("/api/v1/ambassadors").await;
        body["data"][0]["user"]["id"].as_i64().unwrap()
    };
    assert_eq!(app.page(&format!("/hub/2026Winter/official_streamers/{ambassador_user}")).await.0, 404);
}

#[rocket::async_test]
async fn search_by_keyword_category_and_tag() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page(&format!("/hub/search?keyword={}", q("ライブ"))).await.1);
    let titles = doc.texts("[data-testid=hub-card] h3");
    assert_eq!(titles, ["公式配信：深海天文台から星空ライブ", "くらげ灯りの螺旋階段でアコースティックライブ"]);
    let hrefs = doc.attrs("[data-testid=hub-card] a", "href");
    assert!(
        hrefs[0].starts_with("/hub/2026Winter/official_stream/")
            && hrefs[1].starts_with("/hub/2026Winter/virtual_events/")
    );
    for href in hrefs {
        assert_eq!(app.page(&href).await.0, 200, "{href}");
    }
    let doc = Doc::parse(&app.page("/en/hub/search?keyword=live&category=user_event").await.1);
    assert_eq!(doc.texts("[data-testid=hub-card] h3"), ["Acoustic live on the Jellyfish-Lit Spiral Stair"]);
    let (_, tags) = app.get_json("/api/v1/hub_tags").await;
    let photo =
        tags.as_array().unwrap().iter().find(|t| t["name_en"] == "Photography").unwrap()["id"].as_i64().unwrap();
    let doc = Doc::parse(&app.page(&format!("/hub/search?hub_tag_id={photo}")).await.1);
    assert_eq!(doc.count("[data-testid=hub-card]"), 4);
    assert_eq!(doc.attr("select[name=hub_tag_id] option[selected]", "value"), photo.to_string());
    let doc = Doc::parse(&app.page(&format!("/hub/search?keyword={}", q("存在しない言葉"))).await.1);
    assert_eq!(doc.text("[data-testid=hub-empty]"), "「存在しない言葉」に一致するお知らせは見つかりませんでした。");
    // Pagination keeps the filters.
    let doc = Doc::parse(&app.page("/hub/search?category=official_stream").await.1);
    assert_eq!(doc.count("[data-testid=pager]"), 0);
    let doc = Doc::parse(&app.page("/hub/search").await.1);
    assert_eq!(doc.attr("[data-testid=pager] a[rel=next]", "href"), "/hub/search?page=2");
    let doc = Doc::parse(&app.page(&format!("/hub/search?keyword={}&page=2", q("公式"))).await.1);
    assert!(doc.attrs("[data-testid=pager] a", "href").iter().all(|h| h.contains("keyword=%E5%85%AC%E5%BC%8F")));
}
